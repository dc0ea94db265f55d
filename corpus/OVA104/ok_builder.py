def build_issue_projection(issue):
    return {
        "issue_ref_id": issue.ref_id,
        "issue_body_copied": False,
        "comment_bodies_copied": False,
        "provider_payload_copied": False,
    }
