"""Ordinary code: a default server address, help texts and error messages are not published."""
import argparse

DEFAULT_URL = "http://127.0.0.1:1933"


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--url", default=DEFAULT_URL, help="server, e.g. http://localhost:1933 or http://10.0.0.5")
    return p


def connect(url=DEFAULT_URL):
    if not url:
        raise ValueError("cannot reach http://127.0.0.1:1933 (is the server running?)")
    return {"url": url, "messages": [], "schema_version": "client_state_v1"}
