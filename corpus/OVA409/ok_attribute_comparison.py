"""Near misses: attributes compared with other attributes, look-alike names, typed or short literals."""

SNIPPETS = [
    "same = form.password == form.confirm_password",
    "kind = user.token_type == 'refresh_token_grant_v2'",
    "if (req.headers.token !== process.env.API_TOKEN) return 401;",
    "typed = cfg.secret == 'ThisIsThePlaceholderSecret1'",
    "short = cfg.api_key != 'Xk29fLq8'",
    "csrf = req.body.csrf_token === 'q8ZrT2mWx7LpK4nBv9cJ'",
]
