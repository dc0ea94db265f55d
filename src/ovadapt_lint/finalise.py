"""The filter and sort stages: what a run's findings become before any report.

After the checks, each file's findings are filtered (rules not selected dropped; inline directives and
per-file-ignores move a finding to the suppressed list with the reason), then the run's findings as a
whole (a baseline hides what it records and reports its stale entries), then sorted. ``engine.run`` and
``history.scan_history`` share these stages. Last, the result is given the text its code frames quote
(attach_sources), so a reporter reads only the result, never the files.

The text findings quote is masked with the run's credential formats as the run is finalised (mask_quoted),
and what the reporters are told besides the result (the repository root, the review's base, a history
scan's provenance) is gathered before any is called (run_metadata): reporters only format.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace

from . import registry
from .config import Config, RunOptions
from .discover import Target, display_path
from .findings import Finding
from .results import HistoryProvenance, LintResult, RunMetadata, Suppressed
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
        covered, finding.covered_by = finding.covered_by, ()
        if covered and all(any(config.enabled(code) for code in codes) for codes in covered):
            continue  # one leak, one finding: the content findings on its value are reported instead
        inline, finding.inline_suppression = finding.inline_suppression, None
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
    """The run-wide stages once every file is selected: the quoted text masked, the baseline filter, then the
    sort by ``key``."""
    mask_quoted(result, [*result.findings, *(s.finding for s in result.suppressed)])
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
    stale_notices = []
    for entry in stale:
        where = f" at {entry['location']}" if entry.get("location") else ""
        stale_notices.append(
            notice(
                "OVA010",
                f"baseline entry for {entry['code']} in {entry['path']}{where} no longer matches a finding; "
                f"remove it with --baseline-prune",
                display,
            )
        )
    mask_quoted(result, stale_notices)  # a baseline written by hand may quote anything
    result.findings += stale_notices


def mask_quoted(result: LintResult, findings: list[Finding]) -> None:
    """Mask what ``findings`` quote (message, JSON path, flow steps) with the run's credential formats, in
    place: a report prints them as they are. Findings masked as their file was linted with these same
    formats are not scanned again (LintResult.quoted)."""
    for finding in findings:
        message = result.quoted(finding, finding.message)
        json_path = (
            result.quoted(finding, finding.json_path) if finding.json_path is not None else None
        )
        trace = tuple(
            replace(step, message=result.quoted(finding, step.message)) for step in finding.trace
        )
        finding.message, finding.json_path, finding.trace = message, json_path, trace


def run_metadata(
    result: LintResult, *, root: bool = False, history: HistoryProvenance | None = None
) -> RunMetadata:
    """What the reporters are told about a finalised run besides its result: the repository root when the
    format names files relative to it (``root``: this asks git, so only then), the review's base, and a
    history scan's ``history`` provenance."""
    return RunMetadata(
        source_root=result.source_root() if root else None, review=result.review, history=history
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
