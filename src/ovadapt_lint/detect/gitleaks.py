"""gitleaks rule files as ``extend-rules`` extensions (issue 26): each ``[[rules]]`` entry becomes one credential
pattern of rule OVA411, so a project brings its gitleaks configuration along.

Translated: ``id``, ``description`` (the finding's label), ``regex`` (Go RE2 syntax made Python's where the two
differ: ``(?<name>``, ``\\z``, POSIX classes), ``keywords`` (the needles, matched case-insensitively as gitleaks
does), ``entropy`` (the secret's Shannon entropy must exceed it), ``secretGroup`` (else the first non-empty group,
as gitleaks picks), and the rule's and the file's allowlists (``regexes`` against the secret, the match or the
line, ``stopwords``, ``condition``). Not translated: rules without ``regex`` (path-only rules), ``[extend]`` (this
tool does not ship gitleaks' own rules), and allowlist ``paths`` and ``commits``: a detector sees strings, not
files or commits, so an allowlist that needs them is not applied (a finding too many, never one too few).
"""

from __future__ import annotations

import re
from typing import Any

CODE = "OVA411"

# RE2 syntax that Python's engine spells differently; anything else it cannot take is reported, not guessed at.
_POSIX = {
    "alnum": "A-Za-z0-9",
    "alpha": "A-Za-z",
    "digit": "0-9",
    "xdigit": "0-9A-Fa-f",
    "upper": "A-Z",
    "lower": "a-z",
    "space": r"\s",
    "word": r"\w",
    "punct": r"!-/:-@\[-`{-~",
    "blank": r" \t",
}
_POSIX_CLASS = re.compile(r"\[:(\^?)(" + "|".join(_POSIX) + r"):\]")
_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")


def is_gitleaks(data: dict[str, Any]) -> bool:
    """A gitleaks configuration: `[[rules]]` and no `[[rule]]` of our own format."""
    return isinstance(data.get("rules"), list) and "rule" not in data


def python_regex(source: str) -> str:
    """A Go RE2 pattern as a Python one (only where the syntaxes differ)."""

    def posix(match: re.Match[str]) -> str:
        if match.group(1):
            raise ValueError(f"negated POSIX class [:^{match.group(2)}:] has no Python equivalent")
        return _POSIX[match.group(2)]

    source = _NAMED_GROUP.sub("(?P<", source)
    source = source.replace(r"\z", r"\Z")
    return _POSIX_CLASS.sub(posix, source)


def translate(name: str, data: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The [[rule.secret]] entries for OVA411 of the gitleaks file ``name`` (parsed TOML ``data``); a ValueError
    names the file and the rule of anything that cannot be translated."""
    global_allow = _allowlists(name, "the file", data, "allowlist", "allowlists")
    out = []
    seen: set[str] = set()
    for index, rule in enumerate(data["rules"]):
        if not isinstance(rule, dict):
            raise ValueError(f"{name}: [[rules]] #{index + 1} is not a table")
        rule_id = rule.get("id")
        where = (
            f"{name}: gitleaks rule {rule_id!r}" if rule_id else f"{name}: [[rules]] #{index + 1}"
        )
        if not isinstance(rule_id, str) or not rule_id:
            raise ValueError(f"{where}: no `id`")
        if rule_id in seen:
            raise ValueError(f"{where}: duplicate id")
        seen.add(rule_id)
        if "regex" not in rule:
            continue  # a path-only rule finds files by name: nothing for a string detector
        try:
            source = python_regex(str(rule["regex"]))
            compiled = re.compile(source)
        except (re.error, ValueError, OverflowError, RecursionError) as exc:
            raise ValueError(f"{where}: regex is not valid in Python's re module: {exc}") from None
        group = rule.get("secretGroup", 0)
        if not isinstance(group, int) or group < 0 or group > compiled.groups:
            raise ValueError(
                f"{where}: secretGroup {group!r} is not a group of its regex ({compiled.groups} groups)"
            )
        entropy = rule.get("entropy")
        if entropy is not None and (
            isinstance(entropy, bool) or not isinstance(entropy, (int, float))
        ):
            raise ValueError(f"{where}: entropy must be a number")
        keywords = rule.get("keywords", [])
        if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
            raise ValueError(f"{where}: keywords must be non-empty strings")
        description = str(rule.get("description") or rule_id)
        entry: dict[str, Any] = {
            "id": f"gitleaks:{rule_id}",
            "label": f"{description[:120]} (gitleaks rule {rule_id})",
            "regex": source,
            "needles": [k.lower() for k in keywords],
            "fold_needles": True,
            "secret_group": group,
            "placeholders": "templates",
            "allowlists": (
                *_allowlists(name, f"rule {rule_id!r}", rule, "allowlist", "allowlists"),
                *global_allow,
            ),
        }
        if entropy:
            entry["entropy"] = float(entropy)
        out.append(entry)
    return tuple(out)


Allowlist = tuple  # (condition "OR"|"AND", target "secret"|"match"|"line", regexes, stopwords): hashable, picklable


def _allowlists(
    name: str, owner: str, table: dict[str, Any], single: str, many: str
) -> list[Allowlist]:
    """The allowlists of ``table`` (`[allowlist]` of older gitleaks, `[[allowlists]]` of newer), checked."""
    found = []
    if isinstance(table.get(single), dict):
        found.append(table[single])
    if isinstance(table.get(many), list):
        found += [a for a in table[many] if isinstance(a, dict)]
    out = []
    for allow in found:
        where = f"{name}: allowlist of {owner}"
        condition = str(allow.get("condition", "OR")).upper()
        target = allow.get("regexTarget", "secret")
        if condition not in ("OR", "AND") or target not in ("secret", "match", "line"):
            raise ValueError(
                f"{where}: condition must be OR or AND and regexTarget secret, match or line"
            )
        regexes = []
        for pattern in allow.get("regexes", []):
            try:
                regexes.append(python_regex(str(pattern)))
                re.compile(regexes[-1])
            except (re.error, ValueError) as exc:
                raise ValueError(
                    f"{where}: regex is not valid in Python's re module: {exc}"
                ) from None
        stopwords = [str(w).lower() for w in allow.get("stopwords", [])]
        unseen = bool(allow.get("paths") or allow.get("commits"))
        if condition == "AND" and unseen:
            continue  # it needs a path or a commit to hold: never provably met here
        if regexes or stopwords:
            out.append((condition, target, tuple(regexes), tuple(stopwords)))
    return out


def allowed(allowlists: tuple[Allowlist, ...], secret: str, match: str, line: str) -> bool:
    """Whether an allowlist lets this finding go (gitleaks' semantics: OR any criterion, AND all of them)."""
    for condition, target_name, regexes, stopwords in allowlists:
        target = {"secret": secret, "match": match, "line": line}[target_name]
        checks = []
        if regexes:
            checks.append(any(re.search(p, target) for p in regexes))
        if stopwords:
            checks.append(any(w in secret.lower() for w in stopwords))
        if checks and (all(checks) if condition == "AND" else any(checks)):
            return True
    return False
