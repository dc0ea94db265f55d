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
    vocabulary = {
        name: frozenset(data[name])
        for name in (
            "suffixes",
            "last_words",
            "key_qualifiers",
            "not_after",
            "public_prefixes",
            "anywhere_words",
            "pointer_words",
            "exact_names",
        )
    }
    vocabulary["provider_names"] = frozenset(data["provider_names"]) | _catalogue_providers()
    return vocabulary


def _catalogue_providers() -> frozenset[str]:
    """The provider catalogue's names as one lower-case word each (`Hugging Face` -> `huggingface`)."""
    data = rulepack.load_toml("secrets", "providers.toml")
    names = set()
    for entry in data.get("secret", ()):
        provider = entry.get("provider", "").split("(")[0]
        joined = "".join(c for c in provider.lower() if c.isalnum())
        if len(joined) >= 4:  # `age`, `AWS`: too short to name a provider alone
            names.add(joined)
    return frozenset(names)


def public_by_design(value: str) -> bool:
    """A key that is public by design and says so by its prefix (`phc_`, `pk_live_`)."""
    return value.startswith(tuple(_vocabulary()["public_prefixes"]))


@lru_cache(maxsize=4096)
def credential_name(name: str) -> bool:
    """`clientSecret`, `stripeSecretKey`, `API_KEY_PROD`, `GITHUB_TOKEN_2`, `dbCreds`, `mySecretString`,
    `cloudflare`: yes; `token_count`, `max_tokens`, `secretRef`, `PasswordType`, `credentialScope`,
    `primary_key`, `keyboard`: no."""
    if not name or len(name) > 80:
        return False
    vocabulary = _vocabulary()
    words = [w.rstrip("0123456789") for w in split_words(name)]
    words = [w for w in words if w]
    while len(words) > 1 and words[-1] in vocabulary["suffixes"]:
        words.pop()
    if not words:
        return False
    if (
        "_".join(words) in vocabulary["exact_names"]
        or "".join(words) in vocabulary["provider_names"]
    ):
        return True
    last = words[-1]
    before = words[-2] if len(words) > 1 else None
    if before in vocabulary["not_after"]:
        return False
    if last in vocabulary["last_words"]:
        return True
    if last == "key" and (
        before in vocabulary["key_qualifiers"] or before in vocabulary["provider_names"]
    ):
        return True  # `API_KEY`, `stripeSecretKey`, `sumo_key`
    return _holds_credential_word(words, vocabulary)


def _holds_credential_word(words: list[str], vocabulary: dict[str, frozenset[str]]) -> bool:
    """A credential word inside the name, no pointer word after it: `mySecretString`, `secret_for_signing`;
    not `secretRef`, `password_policy`, `credentials_file`."""
    for index in range(len(words) - 2, -1, -1):
        if words[index] in vocabulary["anywhere_words"]:
            if index and words[index - 1] in vocabulary["not_after"]:
                return False
            return not any(w in vocabulary["pointer_words"] for w in words[index + 1 :])
    return False
