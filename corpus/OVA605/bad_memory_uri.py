"""Memory preview: the candidate refs a session may recall."""


def preview(hits: list[dict]) -> dict:
    refs = []
    for hit in hits:
        refs.append({"memory_ref": hit.get("uri"), "score_bucket": "high"})
    return {"schema_version": "memory_preview_v1", "raw_memory_copied": False, "candidate_refs": refs}
