"""Near misses in Python: placeholders, templates, code, counters and prose in literals and comments."""

import os

HELP = "must be a public-safe token: lowercase letters and digits"
SEE = "the token: see docs"
RULE = "password: at least 8 characters"
CI = "GH_TOKEN: ${{ secrets.X }}"
TEMPLATE = "token: {{ secrets.API }} or ${API_KEY} or <TOKEN> or %(token)s or {token}"
EMPTY = 'api_key = ""'
FAKES = ['password = "somefakekey"', 'password = "fake-password"', "token=[REDACTED]", "token=***",
         'api_key="sk-..."', "api_key: your-api-key-here", 'password = "changeme"', 'secret = "dummy"',
         'token = "test-token"', 'api_key = "test_key"', 'password: "example"']
ENV = 'api_key=os.environ["X"]'
USAGE = {"input_tokens": 100, "max_tokens": 4096, "tokens": ["a", "b"]}
COUNTS = '"input_tokens": 100, "max_tokens": 4096, token_count=12, "tokens": ["a", "b"]'
TYPES = ["PasswordType", "credentialScope", "secretRef"]
# the token: see docs; password: at least 8 characters
# GH_TOKEN: ${{ secrets.X }}, api_key: ${API_KEY}, token: <TOKEN>
# api_key = "", password = "changeme", token = "test-token", api_key="sk-..."
# api_key=os.environ["X"]; "max_tokens": 4096; token_count=12
API_KEY = os.environ.get("OPENAI_API_KEY", "")


def usage_line(count: int) -> str:
    """Token usage, e.g. `max_tokens=4096`; `api_key` defaults to os.getenv("OPENAI_API_KEY")."""
    return f"tokens: {count}"
