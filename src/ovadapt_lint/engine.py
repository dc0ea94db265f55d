"""The pipeline: discover -> read -> parse (front-end per kind) -> checks -> filter -> sort (finalise.py)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from . import classify
from .analysis import Analysis
from .config import Config, RunOptions
from .discover import Target, discover, lenient_path
from .finalise import attach_sources, finalise, select
from .findings import Finding
from .results import LintResult  # noqa: F401  (the API's name for what run returns)
from .source import SourceFile, file_stamp, notice, read_source
from .workers import bind_to_parent, end_pool

PYTHON_RECURSION_LIMIT = 20_000
# Objects a run may accumulate between cyclic collections (see _collections_between_files).
GC_GROWTH = 400_000
# Below this many files a run stays in-process: starting workers would cost more.
PARALLEL_MIN_FILES = 16


def _settled(config: Config | None, analysis: Analysis | None) -> tuple[Config, Analysis]:
    """The API's defaults: a run passes both; a caller of the check_* functions may pass neither."""
    config = config or Config()
    return config, analysis or Analysis.build(config)


def check_json_source(
    source: SourceFile,
    kind: str,
    config: Config | None = None,
    role: str = "source",
    analysis: Analysis | None = None,
    facts_out: dict | None = None,
) -> list[Finding]:
    from .checks import raw_files
    from .checks.catalog import Context, run_checks
    from .checks.contracts import find_adapters
    from .classify import PUBLIC, content_role
    from .frontends.json_tree import parse_json, parse_jsonl

    config, analysis = _settled(config, analysis)
    doc = parse_jsonl(source) if kind == "jsonl" else parse_json(source)
    adapters = find_adapters(doc, analysis.pack.contracts)
    # A document is published when named or placed as public, or when it holds a projection: an object a
    # contract recognises, or one that attests what it leaves out (`*_copied: false`); a document that
    # declares itself a negative case (`"expect": "reject"`) is test data wherever it lies.
    decided = content_role(doc, adapters, role == PUBLIC)
    if decided is not None:
        role = decided.role
    ctx = Context(source, analysis, role, doc=doc, adapters=adapters)
    findings = list(doc.notices) + run_checks(kind, ctx)
    if role == PUBLIC and facts_out is not None:
        # A committed public fixture: the Python dicts with its objects' keys build it (flow.resolve).
        from .flow.facts import FixtureShapes

        facts_out[source.display] = FixtureShapes(source.display, _shapes(doc))
    # Committing raw storage (a session's messages.jsonl, a memory file) is the leak, wherever it lies.
    whole = raw_files.recognise_json(doc)
    if whole is not None and config.enabled(whole.code):
        findings = raw_files.fold(findings, whole)
    tool_paths = _sarif_tool_paths(doc)
    if tool_paths:
        # A SARIF log's `tool` section is the tools' rule documentation, which quotes the very
        # examples its rules describe: documentation, not data.
        findings = [f for f in findings if not (f.json_path or "").startswith(tool_paths)]
    return findings


def _shapes(doc) -> list[tuple[str, ...]]:
    from .frontends.json_tree import walk

    shapes: set[tuple[str, ...]] = set()
    for root, prefix in doc.roots:
        for node, _, _ in walk(root, prefix):
            if node.kind == "object" and len(node.value) >= 3:
                shapes.add(tuple(sorted({m.key for m in node.value})))
    return sorted(shapes)[:200]


def _sarif_tool_paths(doc) -> tuple[str, ...]:
    from .frontends.json_tree import format_path

    if len(doc.roots) != 1 or doc.roots[0][0].kind != "object":
        return ()
    root, prefix = doc.roots[0]
    schema, runs = root.get("$schema"), root.get("runs")
    if schema is None or schema.kind != "string" or "sarif" not in schema.value.lower():
        return ()
    if runs is None or runs.kind != "array":
        return ()
    return tuple(format_path(prefix + ("runs", index, "tool")) for index in range(len(runs.value)))


def check_text_source(
    source: SourceFile,
    config: Config | None = None,
    role: str = "source",
    analysis: Analysis | None = None,
) -> list[Finding]:
    from .checks import raw_files
    from .checks.catalog import Context, run_checks

    config, analysis = _settled(config, analysis)
    text = source.data.decode("utf-8", "replace")
    findings = run_checks("markdown", Context(source, analysis, role, text=text))
    whole = raw_files.recognise_text(text, source.display)
    if whole is not None and config.enabled(whole.code):
        findings = raw_files.fold(findings, whole)
    return findings


@contextmanager
def _deep_recursion():
    """The analysis walks syntax trees recursively; generated modules (long concatenations) go deep.
    From 3.11 Python-to-Python calls do not use the C stack, so a higher limit is safe there."""
    old = sys.getrecursionlimit()
    if sys.version_info >= (3, 11):
        sys.setrecursionlimit(max(old, PYTHON_RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@contextmanager
def _collections_between_files():
    """The cyclic garbage collector, left on, scans every live syntax tree again and again while a module is
    analysed (a quarter of a run's time); the analysis frees its trees by reference counting (it makes no
    cycles), so during a run the collector runs only between files, once enough objects accumulated."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if not gc.get_freeze_count():
                # What the run left alive (results, flow facts, memos) would be the first young generation
                # scanned, all of it (~2% of a run): it goes to the oldest generation unscanned, where a full
                # collection still sees it. Skipped when the program froze objects of its own.
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _collect_if_grown() -> None:
    import gc

    if gc.get_count()[0] > GC_GROWTH:
        # The young objects only: what survived earlier collections is mostly the run's results.
        gc.collect(0)


def check_python_source(
    source: SourceFile,
    config: Config | None = None,
    role: str = "source",
    analysis: Analysis | None = None,
    facts_out: dict | None = None,
) -> list[Finding]:
    """The module's findings. Its flows are followed into the run's other modules when the caller collects
    the flow facts (``facts_out``, display -> facts, resolved by ``flow_findings``); otherwise within the
    module alone, here."""
    config, analysis = _settled(config, analysis)
    try:
        with _deep_recursion():
            findings, facts = _check_python(source, analysis, role)
            if facts is not None:
                if facts_out is not None:
                    facts_out[source.display] = facts
                else:
                    findings += flow_findings([facts], analysis)
            return findings
    except RecursionError:
        return [
            notice(
                "OVA006",
                "Python code nested too deeply for the analyser; file not analysed",
                source.display,
            )
        ]


def _check_python(source: SourceFile, analysis: Analysis, role: str):
    from .checks.catalog import Context, run_checks
    from .checks.suppressions import apply_suppressions, python_suppressions
    from .frontends.python_text import parse_text

    module, notices = parse_text(source, names=bool(analysis.deny_list))
    if module is None:
        return notices, None
    ctx = Context(source, analysis, role, module=module)
    findings = run_checks("python", ctx)
    by_line, noqa, bad_directives = python_suppressions(module, ctx.pack.rules)
    facts = ctx.flow_facts
    if facts is not None:
        facts.suppressed = {
            line: sorted(codes) if codes is not None else None for line, codes in by_line.items()
        }
        facts.noqa = {line: sorted(codes) for line, codes in noqa.items()}
    return notices + bad_directives + apply_suppressions(
        findings, by_line, noqa, ctx.pack.rules
    ), facts


def flow_findings(modules: list, analysis: Analysis) -> list[Finding]:
    """The flow findings of a run's modules (their flow facts), with each module's inline directives applied
    and quoted text masked; findings sit in the module of the sink they reach."""
    if not any(hasattr(m, "functions") for m in modules):
        return []  # no Python module (JSON fixtures' shapes only): nothing flows, the analysis stays unimported
    from .checks.suppressions import apply_suppressions
    from .flow.resolve import Program

    findings = Program(modules, analysis.flow).findings(analysis.pack.rules)
    by_display = {m.display: m for m in modules}
    for finding in findings:
        module = by_display.get(finding.path)
        if module is not None:
            apply_suppressions(
                [finding],
                {k: (set(v) if v is not None else None) for k, v in module.suppressed.items()},
                {k: set(v) for k, v in module.noqa.items()},
                analysis.pack.rules,
            )
    mask_quoted(findings, analysis.pack.secrets)
    return findings


def internal_error_notice(exc: Exception, source: SourceFile, what: str) -> Finding:
    """OVA009 naming the check and code location; the redacted traceback goes to stderr under --debug."""
    from . import internal_error

    internal_error.report(exc, source.display, source.data.decode("utf-8", "replace"))
    return notice("OVA009", internal_error.message(exc, what), source.display)


def target_role(target: Target, config: Config) -> str:
    return path_role(target, config).role


def path_role(target: Target, config: Config, folders: dict | None = None):
    """The file's classify.Role (role and why) from its name and place (``folders``: classify.relative_posix's
    memo, for a run's many files)."""
    base = config.source.parent if config.source is not None else _HERE
    return classify.path_role(target.path, config.public_paths, config.test_paths, base, folders)


_HERE = Path(".")  # the folder paths are relative to without a config file


def cache_kind(target: Target, role: str, packages: dict[str, str] | None = None) -> str:
    """What a file is to the cache besides its bytes: its kind and role; JSON with comments is read by file
    name, so the name's leniency is part of it; a Python module's flow facts name the module (``packages``:
    flow.modnames.module_name's memo of each folder's packages part, for a run's many files)."""
    if target.kind == "python":
        from .flow.modnames import module_name

        return f"python:{role}:{module_name(target.path, packages)[0]}"
    lenient = "c" if target.kind == "json" and lenient_path(target.path) else ""
    return f"{target.kind}{lenient}:{role}"


@dataclass(frozen=True)
class Unit:
    """One unit of work: a file's or a blob's bytes under a name, of a kind, judged in a role. ``path`` is
    where it lies (Python module names and sibling constants are read from it); ``data``: its bytes when the
    caller holds them (a blob), else they are read from ``path``; ``what`` names it in an internal error."""

    path: Path
    display: str
    kind: str
    role: str
    data: bytes | None = None
    what: str = "file"
    # Whether --fix may edit it: a blob of the history is never edited, so its findings show no edits.
    editable: bool = True


def lint_unit(
    unit: Unit, config: Config, analysis: Analysis, facts_out: dict | None = None
) -> tuple[list[Finding], SourceFile | None]:
    """Lint one unit: read (decode-check) it, run the checks of its kind, mask what the findings quote.
    ``facts_out`` receives its flow facts (display -> facts), which the caller resolves with the run's other
    modules (``flow_findings``); without it a Python module's flows are resolved alone, here."""
    source, findings = read_source(
        unit.path, unit.display, config.max_file_size, unit.kind, data=unit.data
    )
    if source is None:
        return findings, None
    collected: dict = {}
    try:
        findings += _checks_of(unit, source, config, analysis, collected)
        facts = collected.get(source.display)
        if facts is not None and facts_out is None and unit.kind == "python":
            with _deep_recursion():
                findings += flow_findings([facts], analysis)
        elif facts is not None and facts_out is not None:
            facts_out[unit.display] = facts
    except Exception as exc:  # one bad unit must not stop the run (RecursionError included)
        findings.append(internal_error_notice(exc, source, unit.what))
    if unit.editable:
        _mark_edits(findings, source)
    mask_quoted(findings, analysis.pack.secrets)
    return findings, source


def _mark_edits(findings: list[Finding], source: SourceFile) -> None:
    """Stamp the findings' edits with the bytes they refer to; a file --fix cannot edit keeps none."""
    if source.encoding != "utf-8":
        # Edits are byte offsets into the UTF-8 transcoding, not into the file.
        for finding in findings:
            if finding.fix:
                finding.fix, finding.unfixable = (
                    None,
                    f"the file is {source.encoding}-encoded; --fix edits UTF-8 files only",
                )
    _stamp_edits(findings, source.data)


def _checks_of(
    unit: Unit, source: SourceFile, config: Config, analysis: Analysis, facts_out: dict
) -> list[Finding]:
    """The findings of the checks of the unit's kind (files of other kinds have none)."""
    if unit.kind in ("json", "jsonl"):
        return check_json_source(source, unit.kind, config, unit.role, analysis, facts_out)
    if unit.kind == "markdown":
        return check_text_source(source, config, unit.role, analysis)
    if unit.kind == "python":
        return check_python_source(source, config, unit.role, analysis, facts_out)
    return []


def lint_target(
    target: Target,
    config: Config,
    analysis: Analysis,
    cache=None,
    seen: dict | None = None,
    facts_out: dict | None = None,
) -> tuple[list[Finding], SourceFile | None]:
    """Lint one file (``lint_unit``), through the cache when there is one. ``seen`` receives the file's cache
    key, the stat taken before its bytes were read and the entry written (None when none was), for the stat
    index. ``facts_out`` receives a Python module's flow facts, whose findings the caller resolves with the
    run's other modules (``flow_findings``); without it the module's flows are resolved alone."""
    data = None
    key = None
    role = target_role(target, config)
    if cache is not None:
        info, data = _read_bytes(target.path, config.max_file_size)
        if data is not None:
            key = cache.key(cache_kind(target, role), data)
            if seen is not None:
                seen[target.display] = (key, info, None)
            hit = _cached(cache, key, target, data, config, analysis, facts_out)
            if hit is not None:
                return hit
    collected: dict = {}
    unit = Unit(target.path, target.display, target.kind, role, data)
    findings, source = lint_unit(unit, config, analysis, collected)
    if source is None:
        return findings, None
    facts = collected.get(target.display)
    stored_facts = None
    if facts is not None:
        if key is not None:  # the facts are serialised for the cache only
            from .flow.facts import to_json

            stored_facts = to_json(facts)
        if facts_out is not None:
            facts_out[target.display] = facts
        elif target.kind == "python":
            alone = flow_findings([facts], analysis)
            mask_quoted(alone, analysis.pack.secrets)  # as lint_unit masks the rest
            findings += alone
    if key is not None and not any(f.code in ("OVA003", "OVA009") for f in findings):
        entry = cache.put(
            key,
            [f for f in findings if not f.trace]
            if stored_facts and facts_out is None
            else findings,
            stored_facts,
        )
        if seen is not None:
            seen[target.display] = (key, info, entry)  # the entry too: the stat index keeps it
    elif seen is not None:
        seen.pop(target.display, None)  # not cached: the index must not point at it
    return findings, source


def _cached(
    cache, key: str, target: Target, data: bytes, config: Config, analysis: Analysis, facts_out
) -> tuple[list[Finding], SourceFile | None] | None:
    """A file's cached findings (its flow facts delivered), or None to lint it."""
    entry = cache.get_entry(key, target.display)
    if entry is None or not current(entry[1]):
        return (
            None  # not cached, or judged with a sibling's constants that changed since: lint again
        )
    cached, facts = entry
    if facts is not None:
        flows = _deliver_facts(facts, target.display, facts_out, analysis)
        if flows is None:
            return None  # the facts' file is gone or damaged: lint again
        cached = cached + flows
    # The bytes are at hand: a file with findings keeps them for its code frames.
    source = (
        read_source(target.path, target.display, config.max_file_size, target.kind, data=data)[0]
        if cached
        else None
    )
    return cached, source


def current(facts) -> bool:
    """Whether the other files a cached module was judged with (its stored facts' ``depends``) are as they
    were: the cache is keyed by the module's own bytes, and its contract findings may read a sibling's
    constants."""
    if facts is None or not facts.depends:
        return True  # nothing to compare
    return all(list(file_stamp(path)) == [mtime, size] for path, mtime, size in facts.depends)


def _deliver_facts(
    facts, display: str, facts_out: dict | None, analysis: Analysis
) -> list[Finding] | None:
    """Cached flow facts (cache.StoredFacts): handed to the caller who resolves the run's modules together
    (read and decoded only if it must), or resolved alone (None when they cannot be read)."""
    if facts_out is not None:
        facts_out[display] = facts
        return []
    module = loaded(facts, display)
    if module is None:
        return None
    analysis.ready()
    return flow_findings([module], analysis)


def loaded(facts, display: str):
    """A module's flow facts, read and decoded when they come from the cache (None when their file is missing
    or damaged)."""
    from .cache import StoredFacts

    if isinstance(facts, StoredFacts):
        stored = facts.load()
        if stored is None:
            return None
        from .flow.facts import from_json

        return from_json(stored, display)
    return facts


def _depends(facts) -> list:
    return list(getattr(facts, "depends", None) or ())


def joined_flow_findings(
    facts_list: list,
    keys: list,
    analysis: Analysis,
    cache=None,
    relint: Callable[[str], Any] | None = None,
) -> list[Finding]:
    """``flow_findings`` of a run's modules (``keys``: each one's [display, cache key]), through the cache: a
    run whose modules are all unchanged reads the joined result and reads no module's facts. ``relint``: a
    module's facts computed again (by display), for stored facts that cannot be read any more."""
    key = None
    if cache is not None and facts_list and all(k is not None for _, k in keys):
        key = cache.flow_key(
            [[display, k, _depends(f)] for (display, k), f in zip(keys, facts_list)]
        )
        found = cache.get_flow(key)
        if found is not None:
            return found
    analysis.ready()
    modules = []
    for (display, _), facts in zip(keys, facts_list):
        module = loaded(facts, display)
        if module is None and relint is not None:
            module = relint(display)  # the stored facts' file went missing since its entry was read
        if module is None:
            key = None  # unreadable now (removed during the run): the others' flows, not stored as theirs
            continue
        modules.append(module)
    found = flow_findings(modules, analysis)
    if key is not None:
        cache.put_flow(key, found)
    return found


def mask_quoted(findings: list[Finding], patterns) -> None:
    """Mask the credentials a file's findings quote (message, JSON path, flow steps) with the rule pack's
    ``patterns``, once, as the file is linted: the cache stores them masked, so a fresh run must carry the same
    text, or its fingerprints and baseline entries differ from a cached run's (and hold the credential)."""
    from dataclasses import replace

    from .redact import mask_text

    for finding in findings:
        finding.message = mask_text(finding.message, patterns)
        if finding.json_path is not None:
            finding.json_path = mask_text(finding.json_path, patterns)
        if finding.trace:
            finding.trace = tuple(
                replace(step, message=mask_text(step.message, patterns)) for step in finding.trace
            )
        finding.quoted_masked = True


def _stamp_edits(findings: list[Finding], data: bytes) -> None:
    """Name the bytes each edit's offsets refer to, so --fix never writes onto a file changed since."""
    from .findings import digest

    fixable = [f for f in findings if f.fix]
    if fixable:
        stamp = digest(data)
        for finding in fixable:
            finding.fix_digest = stamp
            # What reports show of the edit (issue 31: JSON `fix`, SARIF `fixes`), kept by the cache as a
            # cached run must report what a fresh one does; --fix itself only ever applies `fix`.
            assert finding.fix is not None
            start, end, text = finding.fix
            finding.edit = (start, end - start, text)


def _read_bytes(path, max_size: int) -> tuple[os.stat_result | None, bytes | None]:
    """The file's stat and bytes for the cache key; no bytes when it is too large or unreadable (the reader
    reports it)."""
    try:
        info = path.stat()
        if max_size and info.st_size > max_size:
            return None, None
        from .source import read_regular

        return info, read_regular(
            path
        )  # a file swapped for a FIFO since discovery must not block the run
    except OSError:
        return None, None


def open_run_cache(options: RunOptions, config: Config):
    """The run's result cache (None with ``use_cache`` off), salted with what ``config``'s files are judged
    with: in ``cache_dir``, else beside the config file, else in the working directory."""
    if not options.use_cache:
        return None
    from .cache import cache_salt, open_cache

    folder = options.settled(config).cache_dir
    assert folder is not None
    return open_cache(folder, cache_salt(config))


# Units handed to the workers at a time: bounds the memory held by units in flight (a blob holds its bytes).
UNITS_PER_BATCH = 2048

# Worker processes get the configuration, its analysis and the cache once; each task is one unit.
_WORKER: dict[str, Any] = {}


def _init_worker(config: Config, analysis: Analysis, cache, parent: int | None = None) -> None:
    # ``parent``: the pid that started the pool, passed so a parent dead before this call is noticed.
    bind_to_parent(os.getppid() if parent is None else parent)
    import gc

    gc.disable()  # a worker collects between files only (_collections_between_files)
    _WORKER["config"] = config
    _WORKER["analysis"] = (
        analysis  # built by the parent: workers never read the configuration's files
    )
    _WORKER["cache"] = cache  # built once by the parent: its key digests the pack and the code


def _in_worker(work: Callable, item: Any) -> Any:
    result = work(item, _WORKER["config"], _WORKER["analysis"], _WORKER["cache"])
    _collect_if_grown()  # the worker's collector is off (_init_worker), whatever the work
    return result


def map_units(
    work: Callable,
    items: Iterable,
    total: int,
    config: Config,
    analysis: Analysis,
    cache=None,
    *,
    jobs: int = 0,
) -> Iterator:
    """``work(item, config, analysis, cache)`` for each of the ``total`` ``items``, in order: in this process
    for a handful of items or one job, else in ``jobs`` worker processes (0: one per core) started for the run.
    ``work`` is a module-level function (workers receive it by name); items go out a batch at a time, so a
    stream is never held whole."""
    jobs = jobs or os.cpu_count() or 1
    # Starting workers costs more than linting a handful of units in-process.
    if jobs == 1 or total < PARALLEL_MIN_FILES:
        for item in items:
            yield work(item, config, analysis, cache)
        return
    jobs = min(jobs, total)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    )
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=context,
        initializer=_init_worker,
        initargs=(config, analysis, cache, os.getpid()),
    )
    task = partial(_in_worker, work)
    try:
        batch: list = []
        for item in items:
            batch.append(item)
            if len(batch) >= UNITS_PER_BATCH:
                yield from pool.map(task, batch, chunksize=_chunk(len(batch), jobs))
                batch = []
        if batch:
            yield from pool.map(task, batch, chunksize=_chunk(len(batch), jobs))
    except BaseException:
        # Ctrl-C, SIGTERM (SystemExit) or an error: kill the workers (they ignore Ctrl-C) rather than wait.
        end_pool(pool)
        raise
    pool.shutdown(wait=True)


def _chunk(items: int, jobs: int) -> int:
    return max(1, min(16, items // (jobs * 8)))


def _lint_file(
    target: Target, config: Config, analysis: Analysis, cache
) -> tuple[list[Finding], tuple | None, tuple[bytes, str] | None, Any]:
    """A file's findings, its stat-index stamp, its linted bytes when it has a finding to show (code frames
    quote them) and its flow facts (map_units' work for files)."""
    seen: dict = {}
    facts: dict = {}
    findings, source = lint_target(
        target, config, analysis, cache, seen if cache is not None else None, facts
    )
    _collect_if_grown()
    shown = source is not None and any(config.enabled(f.code) for f in findings)
    linted = (source.data, source.encoding) if shown and source is not None else None
    return findings, seen.get(target.display), linted, facts.get(target.display)


def _from_index(targets: list[Target], cache, index, kinds: dict[str, str]) -> dict[str, tuple]:
    """(findings, stored flow facts, cache key) of the files whose stat and cache entry are unchanged, without
    reading them."""
    answered: dict[str, tuple] = {}
    for target in targets:
        key, data = index.lookup(target.path, kinds[target.display])
        if key is not None:
            entry = (
                cache.entry_of(key, data, target.display)
                if data is not None
                else cache.get_entry(key, target.display)
            )
            if entry is not None and current(entry[1]):
                findings, facts = entry
                answered[target.display] = (findings, facts, key)
    return answered


def _results(
    targets: list[Target],
    config: Config,
    analysis: Analysis,
    options: RunOptions,
    progress,
    cache=None,
    roles: dict | None = None,
) -> Iterator[tuple[Target, list[Finding], SourceFile | None, Any, str | None]]:
    """(target, findings, source or None, flow facts or None, cache key or None) for each target, in target
    order (``cache``: the run's, open_run_cache; ``roles``: each target's path role, when the caller has
    them). Files the stat index answers are not read; only the others are linted (map_units)."""
    if cache is None:
        yield from _merged(targets, {}, config, analysis, None, {}, progress, options.jobs)
        return
    from .cache import StatIndex

    index = StatIndex(cache)
    # What a file is to the index: its kind and role (the role's globs are matched once per file and run).
    roles = roles if roles is not None else {t.display: path_role(t, config) for t in targets}
    # The run's one memo of each folder's packages part, which the checks name their modules with too.
    kinds = {t.display: cache_kind(t, roles[t.display].role, analysis.packages) for t in targets}
    answered = _from_index(targets, cache, index, kinds)
    seen: dict[str, tuple] = {}
    try:
        yield from _merged(targets, answered, config, analysis, cache, seen, progress, options.jobs)
    finally:
        for target in targets:
            stamp = seen.get(target.display) if target.display not in answered else None
            if stamp is not None:
                # The entry as written, or read back for a file the cache knew by its bytes: the index keeps it.
                key, info, entry = stamp
                if entry is None:
                    entry = cache.stored(key)
                index.record(target.path, kinds[target.display], info, key, entry)
        index.save()


def _merged(targets, answered, config, analysis, cache, seen, progress, jobs):
    """The answered files' cached results and the others' fresh ones, in target order, each with its cache
    key (None when it is not cached)."""
    todo = [t for t in targets if t.display not in answered]
    if todo:
        # Built before the first file is linted: a bad configured file is a ConfigError, not a file's notice.
        analysis.ready()
    computed = zip(todo, map_units(_lint_file, todo, len(todo), config, analysis, cache, jobs=jobs))
    for target in targets:
        linted = None
        if target.display in answered:
            findings, facts, key = answered[target.display]
        else:
            _, (findings, stamp, linted, facts) = next(computed)  # answered in `todo` order
            key = None
            if stamp is not None:
                seen[target.display] = stamp
                key = stamp[0]
        progress()
        yield (
            target,
            findings,
            SourceFile(target.path, target.display, *linted) if linted else None,
            facts,
            key,
        )


def _content_role(
    target: Target, config: Config, analysis: Analysis, cache, key, needles: dict, path_public: bool
):
    """The role a JSON document has by content (None: its path role stands), for the reports' roles: from
    the cache beside the file's entry, else decided (and stored)."""
    if key is not None:
        known, role = cache.get_role(key)
        if known:
            return role
    from .roles import document_role

    role = document_role(
        target, config.max_file_size, analysis.pack.contracts, needles, path_public
    )
    if key is not None:
        cache.put_role(key, role)
    return role


def _fresh_facts(owners: dict[str, Target], config: Config, analysis: Analysis, display: str):
    """A module's flow facts, linted again without the cache."""
    facts: dict = {}
    lint_target(owners[display], config, analysis, None, None, facts)
    return facts.get(display)


def _config_runs(targets: list[Target], configs) -> list[tuple[Config, list[Target]]]:
    """Consecutive targets that share a configuration, in discovery order."""
    runs: list[tuple[Config, list[Target]]] = []
    for target in targets:
        config = configs.for_file(target.path)
        if runs and runs[-1][0] is config:
            runs[-1][1].append(target)
        else:
            runs.append((config, [target]))
    return runs


def run(
    paths: list[str],
    config: Config,
    show_progress: bool = False,
    configs=None,
    options: RunOptions | None = None,
) -> LintResult:
    """Lint ``paths`` with ``config``; ``configs`` (a hierarchy.Configs whose root is ``config``) gives
    each file the nearest config above it instead. ``options``: the run's (default: no workers' count,
    no cache, no baseline)."""
    from .hierarchy import Configs

    options = (options or RunOptions()).settled(config)  # one cache folder for every configuration

    # Each config's extension rules, vocabulary and deny-list files are read as it is loaded (the root's
    # here, the others' during discovery), or with a cache (lazy) before the first of its files the cache
    # does not answer is linted: a bad one is a ConfigError, never a per-file notice.
    configs = configs or Configs(config, fixed=True, lazy=options.use_cache)
    # The reports describe the first path's rules, and those every nested config adds.
    result = LintResult(
        anchor=paths[0] if paths else ".",
        config_source=config.source,
        rules=configs.analysis(config).rules,
    )
    targets = list(
        discover(
            paths,
            config.include,
            config.exclude,
            configs.settings,
            options.force_include,
            result.skipped,
        )
    )
    if not targets:
        configs.analysis(config).ready()  # nothing to lint: a bad configured file is still an error
    runs = _config_runs(targets, configs)
    for other in configs.all()[1:]:
        if configs.analysis(other).rules is not result.rules:
            # A nested config's extension rules are reported too: describe (SARIF) and mask them as well.
            result.rules = dict(sorted({**configs.analysis(other).rules, **result.rules}.items()))
    linted: dict[str, SourceFile] = {}  # the checked text of the files with findings to show
    needles: dict = {}  # roles.content_role's memo
    folders: dict = {}  # classify.relative_posix's memo
    with _Progress(len(targets), show_progress) as progress, _collections_between_files():
        # The Python modules' flow facts, per configuration: flows cross the modules that share one.
        modules: dict[Path | None, tuple[Config, Analysis, list, dict[str, Target], list, Any]] = {}
        for group, chunk in runs:
            analysis = configs.analysis(group)
            if group.source not in modules:
                modules[group.source] = (
                    group,
                    analysis,
                    [],
                    {},
                    [],
                    open_run_cache(options, group),
                )
            _, _, facts_list, owners, keys, cache = modules[group.source]
            for target in chunk:
                result.path_roles[target.display] = path_role(target, group, folders)
            for target, findings, source, facts, key in _results(
                chunk, group, analysis, options, progress.advance, cache, result.path_roles
            ):
                result.add_file(target)
                if cache is not None and target.kind in ("json", "jsonl"):
                    # Kept beside the file's entry: the reports' roles need no parse on a warm run.
                    result.content_roles[target.display] = _content_role(
                        target,
                        group,
                        analysis,
                        cache,
                        key,
                        needles,
                        result.path_roles[target.display].role == "public",
                    )
                shown = len(result.findings)
                select(result, group, target, findings, analysis.rules)
                if source is not None and len(result.findings) > shown:
                    linted[target.display] = source
                if facts is not None:
                    facts_list.append(facts)
                    keys.append((target.display, key))
                    owners[target.display] = target
        for group, analysis, facts_list, owners, keys, cache in modules.values():
            by_file: dict[str, list[Finding]] = {}
            relint = partial(_fresh_facts, owners, group, analysis)
            for finding in joined_flow_findings(facts_list, keys, analysis, cache, relint):
                by_file.setdefault(finding.path, []).append(finding)
            for display, found in by_file.items():
                if display in owners:
                    select(result, group, owners[display], found, analysis.rules)
    finalise(result, options)
    attach_sources(result, linted)
    return result


class _Progress:
    """A transient rich progress bar on a terminal, shown only once a run has taken about a second."""

    DELAY = 1.0

    def __init__(self, total: int, enabled: bool) -> None:
        import time

        self.total = total
        self.enabled = enabled
        self.started = time.monotonic()
        self.done = 0
        self.bar: Any = None  # a rich Progress, made once the run has taken a while
        self.task: Any = None

    def __enter__(self) -> _Progress:
        return self

    def advance(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        import time

        if (
            self.bar is None
            and time.monotonic() - self.started >= self.DELAY
            and self.done < self.total
        ):
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self.bar = Progress(
                TextColumn("linting"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("lint", total=self.total, completed=self.done)
        elif self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def lint_paths(
    paths: list[str] | str, config: Config | None = None, options: RunOptions | None = None
) -> list[Finding]:
    """Lint files and folders; return the findings, sorted by file and position.

    ``config`` defaults to the nearest configuration above each file
    (``pyproject.toml`` ``[tool.ovadapt-lint]`` or ``.ovadapt-lint.toml``);
    a given ``config`` applies to every file. ``options``: the run's (workers, cache, baseline); by
    default one worker per core, no cache, no baseline.
    Raises ``ConfigError`` for a path that does not exist or a bad config file.
    """
    from pathlib import Path

    from .config import find_config

    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = [str(p) for p in paths] or ["."]
    if config is not None:
        return run(paths, config, options=options).findings
    from .hierarchy import Configs

    root = find_config(Path(paths[0])) or Config()
    options = options or RunOptions.of(root)
    return run(paths, root, configs=Configs(root, lazy=options.use_cache), options=options).findings
