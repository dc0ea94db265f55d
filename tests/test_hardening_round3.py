"""Issue 27, hardening round three: baselines, --fix and the cache stay inside their bounds, user patterns
cannot hang the run, blocking files are never read, and the history scan stays bounded. (File names and
quoted values in outputs: test_output_safety.py.)"""

# ovadapt: ignore-file

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import run_cli

DEEP = "[" * 450 + '"x"' + "]" * 450 + "\n"  # past the nesting limit: only OVA006 ("not analysed")


def _baseline(entries: list, salt: object = "00" * 16, **extra) -> str:
    doc = {"schema": "ovadapt-lint/baseline/v1", "entries": entries, **extra}
    if salt is not None:
        doc["salt"] = salt
    return json.dumps(doc)


# ------------------------------------------------------------------------------------------ 1: notices


def test_a_hand_written_baseline_cannot_hide_a_notice(tmp_path: Path) -> None:
    (tmp_path / "deep.public.json").write_text(DEEP, encoding="utf-8")
    # Computable without knowing anything in the file: the location of a notice is its first line.
    import hashlib

    salt = "ab" * 16
    digest = hashlib.sha256(
        "\x1f".join([salt, "OVA006", "deep.public.json", "L1", ""]).encode()
    ).hexdigest()
    entries = [
        {"code": "OVA006", "path": "deep.public.json", "location": "L1", "hash": h}
        for h in (digest, digest[:4])
    ]
    (tmp_path / "base.json").write_text(_baseline(entries, salt), encoding="utf-8")
    proc = run_cli(
        "--no-cache",
        "--format",
        "json",
        "--baseline",
        "base.json",
        "deep.public.json",
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads(proc.stdout)
    assert [f["code"] for f in doc["findings"] if f["code"] == "OVA006"] == ["OVA006"]
    assert doc["summary"]["suppressed"] == 0


# ---------------------------------------------------------------------------------- 11: bad baselines


@pytest.mark.parametrize(
    "text, why",
    [
        (_baseline([{"code": "OVA501", "path": [], "hash": "ab" * 32}]), "must be strings"),
        (_baseline([{"code": "OVA501", "path": "a.json", "hash": "ab" * 32}], salt=None), "salt"),
        (_baseline([{"code": "OVA501", "path": "a.json", "hash": "ab" * 32}], salt=["x"]), "salt"),
        (_baseline([{"code": "OVA501", "path": "a.json", "hash": {"x": 1}}]), "must be strings"),
        (
            _baseline([{"code": "OVA501", "path": "a.json", "location": 7, "hash": "ab" * 32}]),
            "must be strings",
        ),
        (_baseline([{"code": "OVA501", "path": "a.json", "hash": "not hex"}]), "hexadecimal"),
        ('{"schema": ' * 5000 + "1" + "}" * 5000, "nested too deeply"),
    ],
    ids=[
        "path-list",
        "no-salt",
        "salt-list",
        "hash-object",
        "location-int",
        "hash-not-hex",
        "deep",
    ],
)
def test_a_malformed_baseline_is_one_clear_line(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / "a.public.json").write_text('{"cwd_ref": "/home/alice/x"}\n', encoding="utf-8")
    (tmp_path / "base.json").write_text(text, encoding="utf-8")
    proc = run_cli("--no-cache", "--baseline", "base.json", "a.public.json", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("ovadapt-lint: error: cannot use baseline base.json:"), (
        proc.stderr
    )
    assert why in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------------- 2: --fix through a folder link

LEAK = '{"cwd_ref": "/home/alice/x"}\n'


def test_fix_never_writes_through_a_linked_folder_out_of_the_tree(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    (outside / "o.public.json").write_text(LEAK, encoding="utf-8")
    (tree / "dl").symlink_to(Path("..") / "outside")
    proc = run_cli("--no-cache", "--fix", "dl/o.public.json", cwd=tree)
    assert (outside / "o.public.json").read_text(encoding="utf-8") == LEAK, proc.stderr
    assert (
        proc.returncode == 1 and "linked folder" in proc.stderr and "nothing written" in proc.stderr
    )
    # A linked folder inside the tree is fixed through (the file it reaches is in the tree).
    (tree / "real").mkdir()
    (tree / "real" / "i.public.json").write_text(LEAK, encoding="utf-8")
    (tree / "inner").symlink_to("real")
    proc = run_cli("--no-cache", "--fix", "inner/i.public.json", cwd=tree)
    assert "/home/alice" not in (tree / "real" / "i.public.json").read_text(encoding="utf-8"), (
        proc.stderr
    )


# ---------------------------------------------------------------------------- 3: nothing confirms a guess


def test_no_report_or_baseline_confirms_a_guessed_password(tmp_path: Path) -> None:
    """A `Word-NNNNN` password: guess numbers and compare with what the JSON report, SARIF and the committed
    baseline carry. Nothing may single out the right guess."""
    import hashlib
    import re

    from ovadapt_lint.findings import digest_value

    password = "Harbor-40721"
    (tmp_path / "cfg.public.json").write_text(
        json.dumps({"db_password": password}) + "\n", encoding="utf-8"
    )
    report = run_cli("--no-cache", "--format", "json", "cfg.public.json", cwd=tmp_path).stdout
    sarif = run_cli("--no-cache", "--format", "sarif", "cfg.public.json", cwd=tmp_path).stdout
    assert (
        run_cli(
            "--no-cache", "--write-baseline", "base.json", "cfg.public.json", cwd=tmp_path
        ).returncode
        == 0
    )
    findings = json.loads(report)["findings"]
    baseline = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))
    assert any(f["code"] == "OVA409" for f in findings) and baseline["entries"]
    # Messages: neither a prefix nor the length of a short secret.
    assert not re.search(r"\w…\[|12 chars|Harbor", report + sarif)
    fingerprints = {f["fingerprint"] for f in findings}
    fingerprints |= {
        r["partialFingerprints"]["ovadaptFingerprint/v1"]
        for r in json.loads(sarif)["runs"][0]["results"]
    }

    def digests(guess: str, finding: dict) -> list[str]:
        signature = re.search(r"\[([\w-]+)\]$", finding["message"])
        return [digest_value(guess), digest_value((signature.group(1) if signature else "", guess))]

    def confirms(guess: str) -> int:
        count = 0
        for f in findings:
            for digest in digests(guess, f):
                raw = "\x1f".join([f["code"], "cfg.public.json", f["json_path"], digest])
                count += hashlib.sha256(raw.encode()).hexdigest()[:32] in fingerprints
                for entry in baseline["entries"]:
                    salted = "\x1f".join(
                        [
                            baseline["salt"],
                            entry["code"],
                            entry["path"],
                            entry.get("location") or "",
                            digest,
                        ]
                    )
                    full = hashlib.sha256(salted.encode()).hexdigest()
                    count += len(entry["hash"]) == 64 and full == entry["hash"]
        return count

    guesses = [f"Harbor-{n}" for n in range(40000, 42000)]
    assert sum(confirms(g) for g in guesses) == 0
    # The baseline's tag matches about one guess in 65,536: among these 2,000 the right one is not singled out.
    assert all(len(e["hash"]) == 4 for e in baseline["entries"])


# ------------------------------------------------------------------------------------ 4: a planted cache


def test_a_planted_cache_folder_writes_nothing_outside_the_tree(tmp_path: Path, xdg: dict) -> None:
    tree, elsewhere = tmp_path / "tree", tmp_path / "elsewhere"
    tree.mkdir()
    elsewhere.mkdir()
    (tree / "a.public.json").write_text(LEAK, encoding="utf-8")
    cache = tree / ".ovadapt_cache"
    cache.mkdir()
    (cache / "CACHEDIR.TAG").symlink_to(
        elsewhere / "tag"
    )  # dangling links: following one creates its target
    (cache / ".gitignore").symlink_to(elsewhere / "ignore")
    proc = run_cli("--format", "concise", ".", cwd=tree, env=xdg)
    assert proc.returncode == 1 and "OVA501" in proc.stdout, proc.stderr
    assert list(elsewhere.iterdir()) == []
    # Entries under a planted subfolder link land nowhere else either.
    shutil.rmtree(cache)
    cache.mkdir()
    for prefix in (f"{n:02x}" for n in range(256)):
        (cache / prefix).symlink_to(elsewhere)
    (tree / "b.public.json").write_text('{"cwd_ref": "/home/bob/y"}\n', encoding="utf-8")
    run_cli("--format", "concise", ".", cwd=tree, env=xdg)
    assert list(elsewhere.iterdir()) == []
    # A cache folder that is itself a link is not used at all.
    shutil.rmtree(cache)
    cache.symlink_to(elsewhere)
    proc = run_cli("--format", "concise", ".", cwd=tree, env=xdg)
    assert list(elsewhere.iterdir()) == [] and "is a symbolic link; not using it" in proc.stderr


# ------------------------------------------------------------------------- 7: user patterns cannot hang


def test_a_backtracking_deny_list_pattern_cannot_hang_the_run(tmp_path: Path) -> None:
    (tmp_path / "deny.txt").write_text("re:(a|aa)+$\nre:blue-?fin\n", encoding="utf-8")
    (tmp_path / "x.public.json").write_text(
        json.dumps({"title": "a" * 48 + "b", "note": "Blue-Fin"}) + "\n", encoding="utf-8"
    )
    proc = subprocess.run(
        [
            os.sys.executable,
            "-m",
            "ovadapt_lint",
            "--no-cache",
            "--deny-list",
            "deny.txt",
            "--format",
            "json",
            "x.public.json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )  # Python's re runs for minutes on this pattern and text
    codes = [(f["code"], f["json_path"]) for f in json.loads(proc.stdout)["findings"]]
    assert ("OVA701", "note") in codes and ("OVA701", "title") not in codes, proc.stderr


def test_a_deny_list_pattern_re2_refuses_is_one_line_quoting_nothing(tmp_path: Path) -> None:
    (tmp_path / "deny.txt").write_text("re:(?<=nightjar)x\n", encoding="utf-8")
    (tmp_path / "x.public.json").write_text("{}\n", encoding="utf-8")
    proc = run_cli("--no-cache", "--deny-list", "deny.txt", "x.public.json", cwd=tmp_path)
    assert proc.returncode == 2 and "deny.txt:1: bad regular expression" in proc.stderr
    assert "nightjar" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# ------------------------------------------------------------------------------- 8: files that block


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_never_blocks_the_run(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "venvish").mkdir()
    os.mkfifo(tmp_path / "venvish" / "pyvenv.cfg")  # read by the walk to spot virtual environments
    (tmp_path / "venvish" / "a.public.json").write_text(LEAK, encoding="utf-8")
    proc = subprocess.run(
        [os.sys.executable, "-m", "ovadapt_lint", "--no-cache", "--format", "concise", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        proc.returncode == 1
        and "venvish/a.public.json" in proc.stdout
        and "pipe" not in proc.stdout
    )
    proc = subprocess.run(
        [os.sys.executable, "-m", "ovadapt_lint", "--no-cache", "pipe.json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "not regular files" in proc.stderr
    # A baseline or cache entry that is a FIFO is refused, not waited on.
    proc = subprocess.run(
        [
            os.sys.executable,
            "-m",
            "ovadapt_lint",
            "--no-cache",
            "--baseline",
            "pipe.json",
            "venvish",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "baseline" in proc.stderr, proc.stderr
    # Nor a deny-list, vocabulary or extend-rules file (a configuration error, not a hang).
    for option in ("--deny-list", "--vocabulary"):
        proc = subprocess.run(
            [os.sys.executable, "-m", "ovadapt_lint", "--no-cache", option, "pipe.json", "venvish"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and "not a regular file" in proc.stderr, (option, proc.stderr)


def test_the_reader_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    """The reader itself (a file swapped for a FIFO after discovery): in a subprocess, so a block fails the test."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "p.json")
    script = (
        "import sys; from pathlib import Path; from ovadapt_lint.source import read_source; "
        "s, n = read_source(Path(sys.argv[1]), 'p.json'); print(s is None, [x.code for x in n], n[0].message)"
    )
    proc = subprocess.run(
        [os.sys.executable, "-c", script, str(tmp_path / "p.json")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.stdout.startswith("True ['OVA003']") and "not a regular file" in proc.stdout, (
        proc.stderr
    )


# ---------------------------------------------------- 9 and 14: history stays bounded and counts right

from .test_review_history import _commit, _git, lint  # noqa: E402
from .test_review_history import repo as repo  # noqa: E402  (the shared git fixture, re-exported for pytest)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_history_never_holds_a_blob_over_the_size_limit(repo) -> None:
    """A 64 MB blob of zeros compresses to almost nothing: it must be read past, not loaded."""
    import tracemalloc

    from ovadapt_lint import Config
    from ovadapt_lint.config import RunOptions
    from ovadapt_lint.history import scan_history

    root, _ = repo
    with open(root / "big.json", "wb") as handle:
        handle.write(b'{"pad": "' + b"0" * (64 << 20) + b'"}')
    _commit(root, "a large blob")
    (root / "big.json").unlink()
    _commit(root, "drop it")
    cwd = os.getcwd()
    os.chdir(root)
    try:
        tracemalloc.start()
        scan = scan_history([], Config(max_file_size=1 << 20), options=RunOptions(jobs=1))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        os.chdir(cwd)
    assert [f.code for f in scan.result.findings if f.path == "big.json"] == ["OVA004"]
    assert peak < 16 << 20, f"{peak:,} bytes held"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_history_counts_a_merge_once(repo) -> None:
    root, _ = repo
    _git(root, "checkout", "-q", "-b", "side")
    (root / "side.public.json").write_text("{}\n", encoding="utf-8")
    _commit(root, "side")
    _git(root, "checkout", "-q", "main")
    (root / "main.public.json").write_text("{}\n", encoding="utf-8")
    _commit(root, "main")
    _git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    total = int(_git(root, "rev-list", "--count", "HEAD"))
    doc = json.loads(lint(root, "history", "--format", "json").stdout)
    assert doc["history"]["commits"] == total
    doc = json.loads(lint(root, "history", "--max-commits", "3", "--format", "json").stdout)
    assert doc["history"]["commits"] == 3


def test_history_help_lists_only_what_history_takes() -> None:
    proc = run_cli("history", "--help")
    assert proc.returncode == 0
    for rejected in (
        "--fix",
        "--diff ",
        "--statistics",
        "--force-include",
        "--no-untracked",
        "--explain",
        "github",
    ):
        assert rejected not in proc.stdout, rejected
    assert "--max-commits" in proc.stdout and "sarif" in proc.stdout
    assert run_cli("history", "--format", "github").returncode == 2
    assert "does not apply" in run_cli("history", "--explain", "OVA101").stderr


# ------------------------------------------------------------------- 13: --fix keeps what the code does

PROGRAM = """import os


def build():
    cfg = os.path.expanduser("~/work/x")
    base = "/home/alice/cache"
    if os.path.isdir(base):
        pass
    data = open(cfg).read()
    return {"schema_version": "openviking_session_memory_adapter_v0", "mode": "read_only_projection",
            "evidence_projection": {"public_safe_summary": data, "note": "/home/alice/proj/notes.txt",
                                    "where": "~/work/y", "base": base}}
"""


def test_fix_on_python_rewrites_only_published_literals_with_one_extent(tmp_path: Path) -> None:
    module = tmp_path / "gen.py"
    module.write_text(PROGRAM, encoding="utf-8")
    proc = run_cli("--no-cache", "--fix", "gen.py", cwd=tmp_path)
    after = module.read_text(encoding="utf-8")
    # The values the program uses are untouched (and said to be left alone) ...
    assert 'os.path.expanduser("~/work/x")' in after and 'base = "/home/alice/cache"' in after
    assert "the program uses this value" in proc.stderr, proc.stderr
    # ... the published literals lose the whole path, whatever form the home takes.
    assert (
        '"note": "[redacted:local-path]"' in after and '"where": "[redacted:local-path]"' in after
    ), after
    import ast

    ast.parse(after)


def test_a_backtracking_extension_signature_cannot_hang_the_run(tmp_path: Path) -> None:
    from .test_extension_masking import TICKET_RULE

    rule = TICKET_RULE.replace('needles = ["TKT|"]', 'needles = ["a"]').replace(
        r"all = ['TKT\|\d+\|']", r"all = ['(a|aa)+$']"
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ovadapt-lint]\nextend-rules = ["t.toml"]\n', encoding="utf-8"
    )
    (tmp_path / "t.toml").write_text(rule, encoding="utf-8")
    (tmp_path / "x.public.json").write_text(
        json.dumps({"title": "a" * 48 + "b", "s": "aaaa"}) + "\n", encoding="utf-8"
    )
    proc = subprocess.run(
        [
            os.sys.executable,
            "-m",
            "ovadapt_lint",
            "--no-cache",
            "--format",
            "json",
            "x.public.json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = [(f["code"], f["json_path"]) for f in json.loads(proc.stdout)["findings"]]
    assert ("OVA390", "s") in found and ("OVA390", "title") not in found, proc.stderr
