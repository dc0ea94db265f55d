"""The feed's public projection: one card per tracked issue."""

from __future__ import annotations

from .intake import issue_card


def feed_projection(repo: str, issues: list[dict]) -> dict:
    cards = [issue_card(issue) for issue in issues]
    headline = cards[0]["title"] if cards else "No tracked issues."
    return {
        "schema_version": "issue_feed_projection_v1",
        "repo": repo,
        "headline": headline,
        "cards": cards,
        "issue_body_copied": False,
    }
