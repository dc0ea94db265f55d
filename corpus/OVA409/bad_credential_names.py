"""Settings with credentials assigned to credential names."""

OKTA_API_TOKEN = "00aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
client = make_client(client_secret="00aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", region="eu-west-1")
SETTINGS = {"stripeSecretKey": "rk00aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"}
HEROKU_API_KEY: str = "3f2b8c1e-9a7d-4e6b-8f0a-1c2d3e4f5a6b"
