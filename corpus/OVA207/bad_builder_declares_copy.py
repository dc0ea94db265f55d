"""A builder whose projection says it copied raw evidence: the declaration itself is the finding."""


def evidence_projection(run):
    return {
        "schema_version": "evidence_projection_v1",
        "source_refs": [run.ref_id],
        "raw_evidence_copied": True,
        "private_paths_copied": False,
    }
