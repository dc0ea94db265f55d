"""Post a comment on the public issue tracker."""

from __future__ import annotations


def post_issue_comment(api, repo: str, number: int, body: str) -> None:
    api.post(f"/repos/{repo}/issues/{number}/comments", json={"body": body})
