"""A credential-named attribute compared with a literal, in code kept as text (a snippet, a comment):
the expected secret is written into the code."""

# if request.headers.token != "lRBaoihFzvpN7lwsxTZGeVnnKizy": abort(401)
SNIPPET = "return settings.api_key == 'Kx8jkIrOxed1dqnZ5DTAkw'"
GUARD = "if (req.headers.token !== 'vcnnccxDB077g0Ue97hsMk0LMAk2Zy6N') return res.sendStatus(401);"
