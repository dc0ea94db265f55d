def build_issue_projection(issue):
    return {
        "issue_ref_id": issue.ref_id,
        "issue_body_copied": issue.body is not None,
        "comment_bodies_copied": True,
        "provider_payload_copied": False,
    }
