"""Only shared resources may be named in public packets; user and session scopes may not."""

from __future__ import annotations

import re

_PUBLIC_RESOURCE = re.compile(r"viking://resources/[a-z0-9_./-]{1,120}")


def public_resource_uri(uri: str) -> str:
    if not _PUBLIC_RESOURCE.fullmatch(uri):
        raise ValueError("not a public resource uri")
    return uri
