"""Whether a name (a JSON key, an assigned variable, a flag) holds a credential value.

The keyword rules match credential words standing alone (`password=`); real names are compounds
(`oktaApiToken`, `API_KEY_PROD`, `some_api_token_123`) beside look-alikes (`max_tokens`, `secretRef`,
`primary_key`, `tokenizer`). The word lists are data: rules/vocabulary/credential_names.toml.
"""

from __future__ import annotations

from functools import lru_cache

from .. import rulepack
from ..keyclass import split_words


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, frozenset[str]]:
    data = rulepack.load_toml("vocabulary", "credential_names.toml")
    return {name: frozenset(data[name]) for name in ("suffixes", "last_words", "key_qualifiers", "not_after",
                                                     "public_prefixes")}


def public_by_design(value: str) -> bool:
    """A key that is public by design and says so by its prefix (`phc_`, `pk_live_`)."""
    return value.startswith(tuple(_vocabulary()["public_prefixes"]))


@lru_cache(maxsize=4096)
def credential_name(name: str) -> bool:
    """`clientSecret`, `stripeSecretKey`, `API_KEY_PROD`, `GITHUB_TOKEN_2`: yes; `token_count`,
    `max_tokens`, `secretRef`, `PasswordType`, `credentialScope`, `primary_key`, `keyboard`: no."""
    if not name or len(name) > 80:
        return False
    vocabulary = _vocabulary()
    words = [w.rstrip("0123456789") for w in split_words(name)]
    words = [w for w in words if w]
    while len(words) > 1 and words[-1] in vocabulary["suffixes"]:
        words.pop()
    if not words:
        return False
    last = words[-1]
    before = words[-2] if len(words) > 1 else None
    if before in vocabulary["not_after"]:
        return False
    if last in vocabulary["last_words"]:
        return True
    return last == "key" and before in vocabulary["key_qualifiers"]
