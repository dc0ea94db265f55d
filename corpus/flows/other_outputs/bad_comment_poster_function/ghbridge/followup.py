"""After an automated fix attempt, tell the issue what happened."""

from __future__ import annotations

from .comments import post_issue_comment as comment


def report_attempt(api, repo: str, number: int, attempt) -> None:
    try:
        attempt.run()
    except Exception as exc:  # noqa: BLE001
        comment(api, repo, number, body=f"Automated fix failed:\n\n{exc}")  # expect: OVA208
        return
    notes = "\n".join(attempt.session.transcript[-3:])
    comment(api, repo, number, "Automated fix applied. Last steps:\n" + notes)  # expect: OVA208
