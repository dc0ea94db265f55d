def build_packet(run):
    return {"schema_version": "v0", "stdout": run.stdout}  # ovadapt: ignore[OVA205, OVA208]


def build_other(run):
    return {"schema_version": "v0", "stderr": run.stderr}  # ovadapt: ignore
