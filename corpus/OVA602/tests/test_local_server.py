"""A test module: localhost servers and viking:// URIs are test data, not published values."""
BASE = "http://127.0.0.1:1933"


def test_session_roundtrip(client):
    uri = "viking://user/alice/sessions/7fd97a9e/messages.jsonl"
    response = client.get(f"{BASE}/api/v1/fs/read", params={"uri": uri})
    assert response.json() == {"ok": True, "home": "/home/alice/.openviking"}
