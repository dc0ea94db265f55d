"""Credential values in literals and comments: reported however the code around them looks."""

SETTINGS = 'password = "Tr0ub4dor&3xQ"'
HEADERS = {"note": 'api_key = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"'}
# password = "Tr0ub4dor&3xQ"
PAYLOAD = '{"password": "hunter2hunter2"}'
