"""Vault legacy service tokens (`s.` + 24) with no Vault name beside them: a client call, a dict, a
default, a shell line and an env file kept in strings and comments."""

import hvac

client = hvac.Client(url="https://vault.example.net:8200", token="s.A9s4OULaKxNaIG8g5714tA76")
settings = {"upstream": {"auth": "s.98kEfAvp99SMgU56NEBJ0bFr"}}
ROOT = "s.2pIX93uLuZbYguegDSdZeygD"
# curl -H 'X-Token: s.STP9x4bGomcztMi08MMgElI9' https://vault.example.net:8200/v1/sys/health
ENV_FILE = """
APP_ENV=staging
UPSTREAM=s.47y0M0yoSftfoqWfWyVu5xxV
"""
