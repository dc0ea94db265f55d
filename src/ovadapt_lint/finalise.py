"""The filter and sort stages: what a run's findings become before any report.

After the checks, each file's findings are filtered (rules not selected dropped; inline directives and
per-file-ignores move a finding to the suppressed list with the reason), then the run's findings as a
whole (a baseline hides what it records and reports its stale entries), then sorted. ``engine.run`` and
``history.scan_history`` share these stages. Last, the result is given the text its code frames quote
(attach_sources), so a reporter reads only the result, never the files.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from . import registry
from .config import Config, RunOptions
from .discover import Target, display_path
from .findings import Finding
from .results import LintResult, Suppressed
from .source import SourceFile, notice, read_source


def select(
    result: LintResult, config: Config, target: Target, findings: list[Finding], rules=None
) -> None:
    """One file's selected findings go to the report, or to the suppressed list with the reason. ``rules``:
    the rules of the file's own config (a nested config may add a notice); default the result's."""
    ignores = config.ignored_for(target.path)
    rules = rules if rules is not None else result.rules
    for finding in findings:
        if not config.enabled(finding.code):
            continue
        covered = finding.extra.pop("covered_by", None)
        if covered and all(any(config.enabled(code) for code in codes) for codes in covered):
            continue  # one leak, one finding: the content findings on its value are reported instead
        inline = finding.extra.pop("suppressed", None)
        # A tool notice (the file could not be judged) is never hidden: not by an inline directive, a
        # per-file-ignore or a baseline (apply_baseline).
        if registry.is_notice(finding.code, rules):
            result.findings.append(finding)
            continue
        pattern = next(
            (p for p, codes in ignores.items() if any(finding.code.startswith(c) for c in codes)),
            None,
        )
        if inline is not None:
            result.suppressed.append(Suppressed(finding, inline, True))
        elif pattern is not None:
            result.suppressed.append(Suppressed(finding, f"per-file-ignores {pattern!r}", False))
        else:
            result.findings.append(finding)


def finalise(
    result: LintResult, options: RunOptions, key: Callable[[Finding], tuple] = Finding.sort_key
) -> None:
    """The run-wide stages once every file is selected: the baseline filter, then the sort by ``key``."""
    if options.baseline is not None:
        apply_baseline(result, options)
    result.findings.sort(key=key)
    result.suppressed.sort(key=lambda s: key(s.finding))


def apply_baseline(result: LintResult, options: RunOptions) -> None:
    """Hide the findings the baseline records; report its entries that match nothing (or prune them)."""
    from .baseline import Baseline
    from .errors import ConfigError

    path = options.baseline
    assert path is not None
    try:
        baseline = Baseline.load(path)
    except OSError as exc:
        raise ConfigError(
            f"cannot use baseline {path}: {exc.strerror or type(exc).__name__}"
        ) from exc
    except UnicodeDecodeError:
        raise ConfigError(f"cannot use baseline {path}: not UTF-8") from None
    except (
        ValueError
    ) as exc:  # json.JSONDecodeError included: its message names a position, never content
        raise ConfigError(f"cannot use baseline {path}: {exc}") from exc
    new, covered, stale = baseline.split(
        [(f, result.uri(f.path)) for f in result.findings], result.rules
    )
    result.findings = new
    result.suppressed += [Suppressed(f, f"baseline {path.name}", False) for f in covered]
    if options.baseline_prune:
        if stale:
            covered_keys = {id(e) for e in stale}
            baseline.entries = [e for e in baseline.entries if id(e) not in covered_keys]
            baseline.write(path)
        return
    display = display_path(str(path))
    # Machine formats get a relative URI even for a baseline given as an absolute path.
    result.uris.setdefault(
        display, display.replace("\\", "/") if not os.path.isabs(display) else path.name
    )
    for entry in stale:
        where = f" at {entry['location']}" if entry.get("location") else ""
        result.findings.append(
            notice(
                "OVA010",
                f"baseline entry for {entry['code']} in {entry['path']}{where} no longer matches a finding; "
                f"remove it with --baseline-prune",
                display,
            )
        )


def attach_sources(result: LintResult, linted: dict[str, SourceFile]) -> None:
    """Give ``result`` the text of every file with a finding to show, and no other (memory stays bounded
    by what is shown): the bytes the checks read (``linted``, display path -> source), else, for a file
    answered by the cache without being read, the file as it is now, before any report is written."""
    sources: dict[str, SourceFile] = {}
    for display in dict.fromkeys(f.path for f in result.findings):
        source = linted.get(display)
        if source is None:
            target = result.targets.get(display)
            source = (
                read_source(target.path, display, kind=target.kind)[0]
                if target is not None
                else None
            )
        if source is not None:
            sources[display] = source
    result.sources = sources
