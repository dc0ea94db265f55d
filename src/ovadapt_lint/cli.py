"""Command line: ``ovadapt-lint [OPTIONS] [PATHS...]``, ``ovadapt-lint rules [CODE]``
and ``ovadapt-lint deny-hash NAME...``.

Exit codes: 0 no findings, 1 findings (OVA0xx notices included), 2 usage,
configuration or internal error.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn, TextIO

from .report.registry import REPORTERS, ReportOptions
from .version import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 128 + signal.SIGINT  # the shell convention for a run ended by Ctrl-C

_EPILOG = """\
exit codes: 0 no findings, 1 findings (tool notices OVA0xx included), 2 usage/config/internal error, 130 interrupted (Ctrl-C).
Run `ovadapt-lint rules` to list the rules and `ovadapt-lint rules CODE` (or --explain CODE) for one.
Run `ovadapt-lint deny-hash NAME...` to print sha256: deny-list entries that do not reveal the names.
Run `ovadapt-lint history [PATHS...]` to lint every blob the git history ever held (see --help there).
A first argument `rules`, `deny-hash` or `history` is the subcommand; lint a folder of that name as `./rules`.
"""


class _Parser(argparse.ArgumentParser):
    def error(
        self, message: str
    ) -> NoReturn:  # exit 2 with a one-line message, like argparse, no traceback
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"ovadapt-lint: error: {message}\n")


def _codes(value: str) -> list[str]:
    return [v for v in value.replace(" ", "").split(",") if v]


def _non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {number}")
    return number


FORMATS = tuple(REPORTERS)
# --statistics prints counts per rule: as text (text, concise) or as JSON.
STATISTICS_FORMATS = tuple(name for name, r in REPORTERS.items() if r.statistics)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ovadapt-lint",
        description="Lint public projection fixtures (JSON, JSON Lines; Markdown when included) and the "
        "Python code that builds them for contract violations, raw material, credentials, "
        "local paths, private URLs and internal names.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATHS", help="files or folders to lint (default: .)"
    )
    parser.add_argument(
        "--output-format",
        "--format",
        dest="format",
        choices=FORMATS,
        default="text",
        help="output format (default: text): " + ", ".join(r.help for r in REPORTERS.values()),
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write the report to FILE instead of stdout"
    )
    parser.add_argument(
        "--select",
        type=_codes,
        metavar="CODES",
        help="comma-separated rule codes or prefixes to enable (e.g. OVA1,OVA104), replacing the "
        "configured selection and ignores; default: all",
    )
    parser.add_argument(
        "--extend-select",
        type=_codes,
        metavar="CODES",
        help="codes or prefixes to enable in addition",
    )
    parser.add_argument(
        "--ignore",
        type=_codes,
        metavar="CODES",
        help="comma-separated codes or prefixes to disable",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="config file (pyproject.toml with [tool.ovadapt-lint], or .ovadapt-lint.toml) for "
        "every file; default: each file uses the nearest config file above it",
    )
    parser.add_argument(
        "--deny-list",
        action="append",
        metavar="FILE",
        default=[],
        help="file of internal names (OVA701): one per line, # comments, re:PATTERN (RE2 syntax), "
        "sha256:HEX of the lowercased name (repeatable)",
    )
    parser.add_argument(
        "--internal-domain",
        action="append",
        metavar="DOMAIN",
        default=[],
        help="a domain whose hosts are internal (OVA603), e.g. corp.example.net (repeatable)",
    )
    parser.add_argument(
        "--vocabulary",
        action="append",
        metavar="FILE",
        default=[],
        help="extra key vocabulary (TOML, same tables as rules/vocabulary/keys.toml) merged into "
        "the built-in one (repeatable)",
    )
    parser.add_argument(
        "--scope",
        choices=("published", "all"),
        help="published (default): raw fields, raw content, local paths and private URLs are judged "
        "in what is published (public JSON, Python values that reach a projection); "
        "credentials and internal names everywhere. all: every rule on every file (an audit)",
    )
    parser.add_argument(
        "--published",
        choices=("projections", "outputs"),
        help="what the Python flow analysis treats as published: projections (default: recognised "
        "projections, public files, declared public-sinks) or outputs (also every "
        "machine-readable output: what is printed, what CLI handlers return, status dicts that "
        "repeat attestation flags without a schema)",
    )
    parser.add_argument(
        "--public-path",
        action="append",
        metavar="GLOB",
        default=[],
        help="files or folders that are published (repeatable; defaults: *.public.json "
        "*.public.jsonl, files in a fixtures/ folder outside test paths, plus any JSON that "
        "holds a projection); !GLOB takes matching files back out (e.g. !fixtures/)",
    )
    parser.add_argument(
        "--show-roles",
        action="store_true",
        help="list each file with its role (public, source, test) and why, then exit 0 "
        "(text, or JSON with --format json)",
    )
    parser.add_argument(
        "--include",
        action="append",
        metavar="GLOB",
        default=[],
        help="also lint files matching GLOB when walking folders, ignoring case (repeatable; defaults: "
        "*.json *.jsonl *.ndjson *.py *.ipynb)",
    )
    parser.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        default=[],
        help="skip files or folders matching GLOB, in addition to the configured exclude (repeatable)",
    )
    parser.add_argument(
        "--extend-exclude",
        action="append",
        metavar="GLOB",
        default=[],
        help="the same as --exclude, named after the config key (repeatable)",
    )
    parser.add_argument(
        "--force-include",
        action="store_true",
        help="lint files named on the command line even inside skipped folders (node_modules, "
        "build, dist, virtual environments, ...) or matching an exclude; by default those "
        "are left out, as in a folder walk (pre-commit names every staged file)",
    )
    parser.add_argument(
        "--max-file-size",
        type=_non_negative,
        metavar="BYTES",
        help="skip files larger than BYTES with an OVA004 notice (default: 10485760; 0: no limit)",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="hide findings recorded in this baseline; entries that match nothing are reported (OVA010)",
    )
    parser.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="record the current findings (by rule, file, JSON path and a salted value hash, "
        "never the value) in FILE and exit 0",
    )
    parser.add_argument(
        "--baseline-prune",
        action="store_true",
        help="with --baseline: remove entries that match nothing from the baseline file",
    )
    parser.add_argument(
        "--show-suppressed",
        action="store_true",
        help="also list findings hidden by inline comments, per-file-ignores or the baseline, and why",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="worker processes (default: one per core; 1: no workers)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="do not read or write the result cache"
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="result cache folder (default: .ovadapt_cache beside the config file, "
        "or in the working directory)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="rewrite leaking values in place (placeholders such as [redacted:credential]): the safe "
        "fixes, unsafe ones too with --unsafe-fixes; a file changed since it was linted is skipped, a "
        "symbolic link is fixed through its target only inside the linted tree; exit 1 if unfixable "
        "findings remain",
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="print what --fix would change as a unified diff (secrets masked) and write nothing",
    )
    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        dest="unsafe_fixes",
        help="with --fix or --diff: apply (show) unsafe fixes too, those that change what the code does: "
        "a Python flow fixed at its sink (the value wrapped in a sanitiser, a raw field removed or "
        "replaced by its digest or count)",
    )
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when findings are reported"
    )
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="print only the number of findings per rule (text; with --format json, as JSON)",
    )
    parser.add_argument(
        "--no-color",
        action="store_true",
        help="never colour text output (NO_COLOR is respected too)",
    )
    parser.add_argument(
        "--sarif-category", metavar="ID", help="SARIF automationDetails.id (default: ovadapt-lint/)"
    )
    parser.add_argument(
        "--sarif-srcroot",
        metavar="DIR",
        help="make SARIF URIs relative to DIR and write DIR as originalUriBaseIds %%SRCROOT%% "
        "(absolute paths appear only then); default root: the git top level, else the "
        "config file's folder, else the working directory",
    )
    parser.add_argument(
        "--diff-base",
        "--since",
        dest="diff_base",
        metavar="REF",
        help="review mode: lint the files changed since REF's merge base with HEAD (working tree "
        "included) and report only findings on added or changed lines, plus every finding of "
        "added files; the others are counted in the summary",
    )
    parser.add_argument(
        "--no-untracked",
        action="store_true",
        help="with --diff-base: leave untracked files out (default: they count as added)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="print the traceback of internal errors (OVA009) to stderr, values from the input "
        "redacted (also OVADAPT_LINT_DEBUG=1)",
    )
    parser.add_argument("--explain", metavar="CODE", help="explain a rule and exit")
    parser.add_argument("--version", action="version", version=f"ovadapt-lint {__version__}")
    return parser


def _rules_command(argv: list[str], out: TextIO) -> int:
    from . import registry

    parser = _Parser(prog="ovadapt-lint rules", description="List the rules, or explain one.")
    parser.add_argument("code", nargs="?", help="a rule code, e.g. OVA104")
    parser.add_argument(
        "--output-format",
        "--format",
        dest="format",
        choices=("text", "markdown", "json"),
        default="text",
        help="output format (default: text)",
    )
    args = parser.parse_args(argv)
    rules = registry.all_rules()
    if args.code:
        return _explain(args.code, out, args.format)
    if args.format == "markdown":
        from .ruledocs import docs_markdown

        out.write(docs_markdown())
    elif args.format == "json":
        import dataclasses
        import json

        # A rule's effective fix applicability (its own, else its category's).
        json.dump(
            [
                {**dataclasses.asdict(r), "fix_applicability": r.applicability}
                for r in rules.values()
            ],
            out,
            indent=2,
        )
        out.write("\n")
    else:
        for rule in rules.values():
            out.write(
                f"{rule.code}  {rule.name:<24} {rule.category:<12} {rule.severity:<8} {rule.summary}\n"
            )
    return EXIT_CLEAN


def _deny_hash_command(argv: list[str], out: TextIO) -> int:
    import hashlib

    parser = _Parser(
        prog="ovadapt-lint deny-hash",
        description="Print deny-list entries (sha256:HEX) for names, so the list can be published "
        "without revealing them. Words are joined by single spaces and lowercased.",
    )
    parser.add_argument("names", nargs="+", metavar="NAME")
    args = parser.parse_args(argv)
    for name in args.names:
        normal = " ".join(name.lower().split())
        out.write(f"sha256:{hashlib.sha256(normal.encode('utf-8')).hexdigest()}\n")
    return EXIT_CLEAN


def _explain(code: str, out: TextIO, fmt: str = "text") -> int:
    from . import registry

    rule = registry.all_rules().get(code.strip().upper())
    if rule is None:
        sys.stderr.write(
            f"ovadapt-lint: error: unknown rule code {code!r}; run `ovadapt-lint rules` for the list\n"
        )
        return EXIT_ERROR
    if fmt == "json":
        import dataclasses
        import json

        json.dump(dataclasses.asdict(rule), out, indent=2)
        out.write("\n")
        return EXIT_CLEAN
    from .ruledocs import rule_markdown, rule_text

    out.write((rule_markdown(rule) if fmt == "markdown" else rule_text(rule)) + "\n")
    return EXIT_CLEAN


def _config(args: argparse.Namespace):
    """The first path's configuration (or --config's) with the command line applied, its analysis, and the
    run's options."""
    configs, options = _configs(args)
    return configs.root, configs.analysis(configs.root).ready(), options


def _configs(args: argparse.Namespace):
    """Each folder's configuration: --config for all, else the nearest config file above it (hierarchical);
    the command-line settings apply on top of every one. And the run's options."""
    from .config import Config, RunOptions, find_config, load_config
    from .errors import ConfigError
    from .hierarchy import Configs

    if args.config:
        path = Path(args.config)
        if not path.is_file():
            raise ConfigError(f"{args.config}: config file not found")
        config = load_config(path) or Config()
    else:
        config = find_config(Path(args.paths[0] if args.paths else ".")) or Config()
    overrides = _overrides(args)
    root = overrides.apply(config)
    options = RunOptions.of(config, **_run_options(args))
    # With a cache, each analysis is built when a file the cache does not answer is linted (start-up).
    return Configs(root, overrides, fixed=bool(args.config), lazy=options.use_cache), options


def _overrides(args: argparse.Namespace):
    """The command line's per-path settings (config.Overrides)."""
    from .config import Overrides

    replace = {
        "scope": args.scope,
        "published": args.published,
        "max_file_size": args.max_file_size,
    }
    return Overrides(
        select=tuple(args.select) if args.select is not None else None,
        extend_select=tuple(args.extend_select or ()),
        ignore=tuple(args.ignore or ()),
        replace={attr: value for attr, value in replace.items() if value is not None},
        extend={
            "public_paths": tuple(args.public_path),
            "include": tuple(args.include),
            "exclude": (*args.exclude, *args.extend_exclude),
            "deny_list": tuple(Path(p) for p in args.deny_list),
            "vocabulary": tuple(Path(p) for p in args.vocabulary),
            "internal_domains": tuple(args.internal_domain),
        },
    )


def _run_options(args: argparse.Namespace) -> dict:
    """The run options the command line sets (config.RunOptions)."""
    from .errors import ConfigError

    given: dict = {}
    if args.jobs is not None:
        if args.jobs < 0:
            raise ConfigError("--jobs must be 0 (one per core) or more")
        given["jobs"] = args.jobs
    # --fix and --diff recompute every edit: none is ever taken from the cache.
    given["use_cache"] = not (args.no_cache or args.fix or args.diff)
    if args.cache_dir:
        given["cache_dir"] = Path(args.cache_dir)
    if args.baseline_prune and not args.baseline:
        raise ConfigError("--baseline-prune needs --baseline FILE")
    if args.baseline:
        given["baseline"] = Path(args.baseline)
        if not given["baseline"].is_file():
            raise ConfigError(
                f"{args.baseline}: baseline file not found (create it with --write-baseline)"
            )
        given["baseline_prune"] = args.baseline_prune
    if args.force_include:
        given["force_include"] = True
    return given


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    restore = _exit_on_sigterm()
    try:
        if argv and argv[0] == "rules":
            return _rules_command(argv[1:], out)
        if argv and argv[0] == "deny-hash":
            return _deny_hash_command(argv[1:], out)
        if argv and argv[0] == "history":
            return _history_command(argv[1:])
        args = build_parser().parse_args(argv)
        if args.explain:
            return _explain(args.explain, out)
        return _lint(args)
    except KeyboardInterrupt:
        sys.stderr.write("ovadapt-lint: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_ERROR
    finally:
        restore()


def run() -> NoReturn:
    """The program (the console script and ``python -m ovadapt_lint``): main(), then exit at once.

    Tearing the interpreter down frees, one by one, every object a run keeps to its end (flow facts, results,
    memos) after a last cycle collection: about 0.45 s of a 3 s run on an 88k-line tree, for memory the
    system takes back anyway. So the streams are flushed and the process ends without it, as multiprocessing's
    workers do. A program that calls main() itself is not affected."""
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # a reader that went away, a stream closed by the caller
        code = code or EXIT_ERROR
    os._exit(code)


def _debug(args: argparse.Namespace) -> None:
    """--debug is passed on as the environment variable, so worker processes see it too."""
    if args.debug:
        from .internal_error import DEBUG_ENV  # only then: it imports traceback

        os.environ[DEBUG_ENV] = "1"


def _terminated(signum, frame) -> None:
    raise SystemExit(128 + signum)


def _exit_on_sigterm():
    """SIGTERM unwinds like Ctrl-C, so worker processes are killed on the way out (engine._results).
    Returns what puts the default back: a program that calls main() keeps its own SIGTERM behaviour after."""
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _terminated)
            return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except ValueError:  # not the main thread: leave signals to the embedding program
        pass
    return lambda: None


def _lint(args: argparse.Namespace) -> int:
    from .engine import run

    _debug(args)
    if args.statistics and args.format not in STATISTICS_FORMATS:
        sys.stderr.write(
            f"ovadapt-lint: error: --statistics works with --format {', '.join(STATISTICS_FORMATS)}, "
            f"not {args.format}\n"
        )
        return EXIT_ERROR
    if args.no_untracked and not args.diff_base:
        sys.stderr.write("ovadapt-lint: error: --no-untracked needs --diff-base REF\n")
        return EXIT_ERROR
    if args.show_roles:
        return _show_roles(args)

    def start():
        configs, options = _configs(args)
        config = configs.root
        # A progress bar only for people watching a terminal, never in machine formats.
        progress = args.format == "text" and not args.statistics and sys.stderr.isatty()
        if args.diff_base is None:
            return (
                config,
                run(
                    args.paths or ["."],
                    config,
                    show_progress=progress,
                    configs=configs,
                    options=options,
                ),
                None,
                configs,
                options,
            )
        from .results import Review
        from .vcs import filter_result, review_paths, review_scope

        scope = review_scope(
            (args.paths or ["."])[0], args.diff_base, untracked=not args.no_untracked
        )
        files = review_paths(scope, args.paths or ["."], config.include, config.exclude)

        def review(show_progress: bool = False):
            reviewed = run(
                files, config, show_progress=show_progress, configs=configs, options=options
            )
            hidden = filter_result(reviewed, scope)
            reviewed.review = Review(scope.ref, scope.base[:12], hidden)
            return reviewed

        return config, review(progress), review, configs, options

    started, failed = _guarded(start)
    if failed is not None:
        return failed
    config, result, review, configs, options = started
    if not result.files and review is None:
        _warn_nothing_linted(result)

    if args.write_baseline:
        return _write_baseline(args.write_baseline, result)
    if args.diff:
        return _show_diff(args, result, configs)
    if args.fix:
        rerun = (
            review
            if review is not None
            else (lambda: run(args.paths or ["."], config, configs=configs, options=options))
        )
        result = _fix(result, rerun, _fix_options(args, configs))  # what remains after the fixes
        _say_hidden(args, result)
    if args.format in ("text", "json", "sarif") and not args.statistics:
        from .roles import file_roles

        # What each file was judged as: the text summary counts the roles, JSON and SARIF name each file's.
        result.roles = file_roles(result.files, configs, result.path_roles, result.content_roles)
        result.scope = config.scope
    meta, failed = _guarded(lambda: _metadata(args, result))
    if failed is not None:
        return failed
    failed = _write_report(args, lambda out: _report(args, result, meta, out))
    if failed is not None:
        return failed
    if result.findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _show_roles(args: argparse.Namespace) -> int:
    """--show-roles: each file the run would lint, with its role and why; nothing is linted."""
    from .roles import discover_roles, write_roles

    def roles():
        configs, options = _configs(args)
        return discover_roles(args.paths or ["."], configs, options.force_include)

    found, failed = _guarded(roles)
    if failed is not None:
        return failed
    failed = _write_report(args, lambda out: write_roles(found, out, args.format == "json"))
    return failed if failed is not None else EXIT_CLEAN


def _warn_nothing_linted(result) -> None:
    """A run that checked nothing must not read as a clean bill of health."""
    why = ""
    if result.skipped:
        why = (
            f" ({len(result.skipped)} named file(s) left out: in skipped folders or matching an exclude "
            f"(--force-include lints them), or not regular files)"
        )
    sys.stderr.write(f"ovadapt-lint: warning: no files were linted{why}\n")


def _write_report(args: argparse.Namespace, write) -> int | None:
    """Open ``--output`` (or standard output), ``write(out)``, close; None, or EXIT_ERROR after one line
    (a full disk, a closed device), never a traceback."""
    try:
        # A lone surrogate (a key or file name that is not valid Unicode) is written escaped, `\\ud800`,
        # in every format, never raised as UnicodeEncodeError.
        out = (
            open(args.output, "w", encoding="utf-8", errors="backslashreplace", newline="\n")
            if args.output
            else _escaping(sys.stdout)
        )
    except OSError as exc:
        sys.stderr.write(f"ovadapt-lint: error: cannot write {args.output}: {exc.strerror}\n")
        return EXIT_ERROR
    try:
        try:
            write(out)
        finally:
            if out is not sys.stdout:
                out.close()
    except BrokenPipeError:
        raise
    except OSError as exc:
        sys.stderr.write(
            f"ovadapt-lint: error: cannot write {args.output or 'the report'}: "
            f"{exc.strerror or exc}\n"
        )
        return EXIT_ERROR
    return None


def _guarded(action):
    """(action(), None), or (None, EXIT_ERROR) after one line for a configuration or internal error."""
    from .errors import ConfigError

    try:
        return action(), None
    except ConfigError as exc:
        sys.stderr.write(
            f"ovadapt-lint: error: {_visible(str(exc))}\n"
        )  # may name a file: never raw
    except Exception as exc:  # an internal error outside any one file
        from . import internal_error
        from .redact import mask_text

        sys.stderr.write(
            f"ovadapt-lint: internal error: {type(exc).__name__}: {_visible(mask_text(str(exc)))}\n"
        )
        internal_error.report(exc, "the run")
    return None, EXIT_ERROR


def _visible(text: str) -> str:
    from .source import visible

    return visible(text)


def _escaping(stream: TextIO) -> TextIO:
    """Standard output set to write unencodable characters (lone surrogates) as backslash escapes."""
    try:
        stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        pass
    return stream


def _fix_options(args: argparse.Namespace, configs):
    """What --fix may do: unsafe fixes too with --unsafe-fixes; flows go through the first configured
    sanitiser (the root configuration's)."""
    from .pyfix.choose import FixOptions

    return FixOptions(unsafe=args.unsafe_fixes, sanitizers=tuple(configs.root.sanitizers))


def _say_hidden(args: argparse.Namespace, result) -> None:
    """Ruff's hint: how many unsafe fixes --unsafe-fixes would add."""
    from .pyfix.choose import applicability

    if args.unsafe_fixes:
        return
    hidden = sum(applicability(f, result.rules) == "unsafe" for f in result.findings)
    if hidden:
        sys.stderr.write(
            f"ovadapt-lint: {hidden} hidden fix(es) can be enabled with the `--unsafe-fixes` option\n"
        )


def _show_diff(args: argparse.Namespace, result, configs) -> int:
    """--diff: print what --fix would change (secrets masked), write nothing, return the exit code."""
    from .fix import apply_fixes, diff

    plans = apply_fixes(result, write=None, options=_fix_options(args, configs)).passes[0]
    changed = [p for p in plans if p.error is None and p.after != p.before]
    out = _escaping(sys.stdout)
    for planned in changed:
        out.write(diff(planned, result.secret_patterns()))
    for planned in plans:
        if planned.error:
            sys.stderr.write(f"ovadapt-lint: {_visible(planned.display)}: {planned.error}\n")
    _say_hidden(args, result)
    return EXIT_FINDINGS if changed and not args.exit_zero else EXIT_CLEAN


def _fix(result, rerun, options=None):
    """--fix through the fix loop (fix.apply_fixes); says per file what happened as each pass ends and
    returns what remains. A refused file is said once; the counts and what was not fixable are said
    for the first pass, whose findings the user sees."""
    from .fix import apply_fixes

    def say(number: int, linted, plans) -> None:
        total = 0
        for planned in plans:
            if planned.error is not None:
                sys.stderr.write(f"ovadapt-lint: {_visible(planned.display)}: {planned.error}\n")
                continue
            if planned.after == planned.before:
                continue
            total += len(planned.fixed)
            if number == 1:
                sys.stderr.write(
                    f"ovadapt-lint: {_visible(planned.display)}: fixed {len(planned.fixed)}\n"
                )
            for note in planned.notes:
                sys.stderr.write(f"ovadapt-lint: {_visible(planned.display)}: {note}\n")
        if number > 1:
            return
        for finding in linted.findings:
            if finding.unfixable:
                sys.stderr.write(
                    f"ovadapt-lint: {_visible(finding.path)}:{finding.line}:{finding.col}: {finding.code} not fixed: "
                    f"{finding.unfixable}\n"
                )
        sys.stderr.write(
            f"ovadapt-lint: fixed {total} finding(s); what remains is reported below\n"
        )

    return apply_fixes(result, rerun, on_pass=say, options=options).result


def _write_baseline(target: str, result) -> int:
    from .baseline import Baseline
    from .registry import is_notice

    # Tool notices (a file that could not be checked) are never accepted into a baseline.
    accepted = [f for f in result.findings if not is_notice(f.code, result.rules)]
    accepted += [s.finding for s in result.suppressed if s.reason.startswith("baseline ")]
    try:
        Baseline.from_findings([(f, result.uri(f.path)) for f in accepted]).write(Path(target))
    except OSError as exc:
        sys.stderr.write(f"ovadapt-lint: error: cannot write {_visible(target)}: {exc.strerror}\n")
        return EXIT_ERROR
    left = len([f for f in result.findings if is_notice(f.code, result.rules)])
    sys.stderr.write(
        f"ovadapt-lint: wrote {len(accepted)} baseline entr{'y' if len(accepted) == 1 else 'ies'} to {target}"
        + (f"; {left} tool notice(s) not recorded" if left else "")
        + "\n"
    )
    return EXIT_CLEAN


def _metadata(args: argparse.Namespace, result, history=None):
    """What the chosen format is told about the finalised run besides its result (finalise.run_metadata)."""
    from .finalise import run_metadata

    return run_metadata(result, root=REPORTERS[args.format].needs_root, history=history)


def _report(args: argparse.Namespace, result, meta, out: TextIO) -> None:
    """Write the finalised ``result`` in the chosen format: the registry's reporter only formats."""
    options = ReportOptions(
        show_suppressed=args.show_suppressed,
        statistics=args.statistics,
        color=_colour(args, out),  # only the text layouts colour
        sarif_category=args.sarif_category,
        sarif_srcroot=args.sarif_srcroot,
    )
    REPORTERS[args.format].write(result, meta, options, out)


def _colour(args: argparse.Namespace, out: TextIO) -> bool:
    return not args.no_color and out is sys.stdout and out.isatty() and "NO_COLOR" not in os.environ


# The lint options `ovadapt-lint history` does not take (dest -> flag): hidden from its --help, refused if given.
_NOT_FOR_HISTORY = {
    "fix": "--fix",
    "diff": "--diff",
    "unsafe_fixes": "--unsafe-fixes",
    "no_untracked": "--no-untracked",
    "statistics": "--statistics",
    "force_include": "--force-include",
    "explain": "--explain",
}
HISTORY_FORMATS = tuple(name for name, r in REPORTERS.items() if r.history)


def _history_command(argv: list[str]) -> int:
    """`ovadapt-lint history`: the lint options plus the history ones; the scan lives in history.py."""
    from .history import scan_history

    parser = build_parser()
    parser.prog = "ovadapt-lint history"
    parser.description = (
        "Lint every blob of a lintable path that ever existed in the git history (the current "
        "branch, or every ref with --all-refs), each blob once, and say which commit introduced "
        "each finding and whether it is still present at HEAD."
    )
    parser.epilog = None
    for action in parser._actions:
        if action.dest == "diff_base":
            action.help = "only the commits after REF (REF..HEAD)"
        elif action.dest in _NOT_FOR_HISTORY:
            action.help = (
                argparse.SUPPRESS
            )  # rejected below: --help lists only what history accepts
        elif action.dest == "format":
            action.choices = HISTORY_FORMATS
            action.help = f"output format (default: text): {', '.join(HISTORY_FORMATS)}"
    parser.add_argument(
        "--max-commits", type=int, metavar="N", help="only the N most recent commits"
    )
    parser.add_argument(
        "--all-refs", action="store_true", help="every branch and tag, not only the current branch"
    )
    parser.add_argument(
        "--show-authors", action="store_true", help="name the author of the introducing commit"
    )
    args = parser.parse_args(argv)
    _debug(args)
    for dest, flag in _NOT_FOR_HISTORY.items():
        if getattr(args, dest):
            sys.stderr.write(
                f"ovadapt-lint: error: {flag} does not apply to `ovadapt-lint history`\n"
            )
            return EXIT_ERROR
    if args.max_commits is not None and args.max_commits <= 0:
        sys.stderr.write("ovadapt-lint: error: --max-commits must be 1 or more\n")
        return EXIT_ERROR
    if args.max_commits is not None and args.diff_base is not None:
        sys.stderr.write("ovadapt-lint: error: use --since REF or --max-commits N, not both\n")
        return EXIT_ERROR

    def scan_all():
        config, analysis, options = _config(args)
        return scan_history(
            args.paths,
            config,
            analysis,
            options=options,
            since=args.diff_base,
            max_commits=args.max_commits,
            all_refs=args.all_refs,
            show_authors=args.show_authors,
        )

    scan, failed = _guarded(scan_all)
    if failed is not None:
        return failed
    scanned = scan.provenance
    sys.stderr.write(
        f"ovadapt-lint: history: {_plural(scanned.blobs, 'blob')} ({scanned.cached} from the cache) "
        f"from {_plural(scanned.commits, 'commit')} in {scanned.seconds:.2f} s, "
        f"{scanned.blobs_per_second:,.0f} blobs/s\n"
    )
    if args.write_baseline:
        return _write_baseline(args.write_baseline, scan.result)
    # The normal reporters, told what the scan covered (RunMetadata.history).
    meta, failed = _guarded(lambda: _metadata(args, scan.result, scanned))
    if failed is not None:
        return failed
    failed = _write_report(args, lambda out: _report(args, scan.result, meta, out))
    if failed is not None:
        return failed
    return EXIT_FINDINGS if scan.result.findings and not args.exit_zero else EXIT_CLEAN


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"
