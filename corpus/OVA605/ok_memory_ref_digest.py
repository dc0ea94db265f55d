"""Memory preview: refs are digests of the URI, never the URI."""

import hashlib


def preview(hits: list[dict]) -> dict:
    refs = []
    for hit in hits:
        digest = hashlib.sha256(str(hit.get("uri")).encode()).hexdigest()[:12]
        refs.append({"memory_ref_id": digest, "score_bucket": "high"})
    return {"raw_memory_copied": False, "candidate_refs": refs}
