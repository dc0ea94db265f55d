"""A local development cache: credentials in a loopback URL are not a published secret."""
REDIS_URL = "redis://default:synthetic-test-pass-7@localhost:6379/0"
DATABASE = "postgres://app:Xk9mQ2vL7pRt@127.0.0.1:5432/app"
