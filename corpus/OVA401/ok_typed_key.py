"""Ordinary code: a provider-prefixed value made of words is typed by a person, not issued."""
BYOK = {"provider": "openai", "api_key": "sk-byok-should-be-stored-encrypted"}
