"""The GitHub Action (action.yml): its inputs, and its run steps executed as GitHub would run them.

GitHub itself cannot run here, so the test plays the runner for a composite action: it
evaluates the `${{ }}` expressions of each step's `env`, `with` and `if`, runs each `run`
script with `bash --noprofile --norc -eo pipefail` (GitHub's bash), collects `$GITHUB_OUTPUT`,
and stands in for the two `uses:` steps (setup-python: a `python` on PATH that starts the running
interpreter; upload-sarif: the log it would upload is validated against the SARIF schemas). The install step is checked
but not run: it would replace this editable install with a copy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # PyYAML comes with pre-commit (the test extra)

from .conftest import CORPUS, ROOT, validate_sarif

ACTION = ROOT / "action.yml"
DOCUMENTED_INPUTS = {
    "paths",
    "args",
    "sarif-category",
    "upload",
    "python-version",
    "fail-on-findings",
}
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def test_action_is_a_composite_action_with_the_documented_inputs() -> None:
    action = _action()
    assert action["name"] and action["description"]
    assert action["runs"]["using"] == "composite"
    inputs = action["inputs"]
    assert set(inputs) == DOCUMENTED_INPUTS
    assert all(spec.get("description") for spec in inputs.values())
    assert inputs["upload"]["default"] == "true" and inputs["fail-on-findings"]["default"] == "true"
    assert inputs["paths"]["default"] == "."
    steps = action["runs"]["steps"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses == ["actions/setup-python@v5", "github/codeql-action/upload-sarif@v3"]
    setup = next(step for step in steps if step.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "${{ inputs.python-version }}"
    upload = next(
        step
        for step in steps
        if step.get("uses", "").startswith("github/codeql-action/upload-sarif")
    )
    assert upload["with"]["category"] == "${{ inputs.sarif-category }}"
    assert upload["if"] == "inputs.upload == 'true'"
    lint = next(step for step in steps if step.get("id") == "lint")
    assert "--format sarif" in lint["run"]
    for step in steps:
        if "run" in step:
            assert step["shell"] == "bash"
            # Inputs reach scripts through env only: an input cannot inject shell code.
            assert "${{" not in step["run"], step["name"]
    # The README documents every input and uses the action in its workflow.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in DOCUMENTED_INPUTS:
        assert f"| `{name}` |" in readme, name
    assert re.search(r"^\s+- uses: ovadapt/ovadapt-lint@\S+", readme, re.MULTILINE)


class _Runner:
    """Just enough of the GitHub Actions runner for this action's composite steps."""

    def __init__(self, workspace: Path, temp: Path, inputs: dict[str, str]) -> None:
        action = _action()
        self.inputs = {
            name: str(spec.get("default", "")) for name, spec in action["inputs"].items()
        }
        self.inputs.update(inputs)
        self.steps = action["runs"]["steps"]
        self.workspace = workspace
        self.temp = temp
        self.outputs: dict[str, dict[str, str]] = {}
        self.logs: dict[str, str] = {}
        self.uploaded: list[tuple[dict, str]] = []
        self.failed = False
        self.path = f"{_setup_python(temp)}{os.pathsep}{os.environ.get('PATH', '')}"

    def value(self, expression: str) -> str:
        parts = expression.split(".")
        if parts[0] == "inputs":
            return self.inputs[parts[1]]
        if parts[:2] == ["runner", "temp"]:
            return str(self.temp)
        if parts[:2] == ["github", "action_path"]:
            return str(ROOT)
        if parts[:2] == ["github", "workspace"]:
            return str(self.workspace)
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.outputs.get(parts[1], {}).get(parts[3], "")
        raise AssertionError(f"the test runner does not know the expression {expression!r}")

    def render(self, text: str) -> str:
        return _EXPRESSION.sub(lambda m: self.value(m.group(1)), str(text))

    def condition(self, condition: str | None) -> bool:
        if condition is None:
            return not self.failed  # success()
        condition = _EXPRESSION.sub(lambda m: m.group(1), condition).strip()
        ok = True
        for part in condition.split("&&"):
            match = re.fullmatch(r"\s*([\w.-]+)\s*(==|!=)\s*'([^']*)'\s*", part)
            assert match, f"the test runner does not know the condition {part!r}"
            left = self.value(match.group(1))
            ok = ok and ((left == match.group(3)) == (match.group(2) == "=="))
        return ok and not self.failed

    def run(self) -> _Runner:
        for step in self.steps:
            name = step["name"]
            if not self.condition(step.get("if")):
                self.logs[name] = "skipped"
                continue
            uses = step.get("uses", "")
            if uses.startswith("actions/setup-python"):
                self.logs[name] = "setup-python stand-in"
            elif uses.startswith("github/codeql-action/upload-sarif"):
                self.uploaded.append(({k: self.render(v) for k, v in step["with"].items()}, name))
                self.logs[name] = "upload-sarif stand-in"
            elif step.get("id") == "install":
                assert "pip install" in step["run"] and '"$OVADAPT_ACTION_PATH"' in step["run"]
                assert step["env"]["OVADAPT_ACTION_PATH"] == "${{ github.action_path }}"
                self.logs[name] = "not run (the checkout is installed already)"
            else:
                self._script(step)
        return self

    def _script(self, step: dict) -> None:
        output = self.temp / f"output-{len(self.logs)}"
        output.write_text("", encoding="utf-8")
        script = self.temp / f"step-{len(self.logs)}.sh"
        script.write_text(step["run"], encoding="utf-8")
        env = dict(
            os.environ,
            PATH=self.path,
            GITHUB_OUTPUT=str(output),
            RUNNER_TEMP=str(self.temp),
            GITHUB_WORKSPACE=str(self.workspace),
            GITHUB_ACTION_PATH=str(ROOT),
            NO_COLOR="1",
        )
        env.update({key: self.render(value) for key, value in step.get("env", {}).items()})
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        self.logs[step["name"]] = proc.stdout + proc.stderr
        if step.get("id"):
            pairs = [
                line.split("=", 1)
                for line in output.read_text(encoding="utf-8").splitlines()
                if "=" in line
            ]
            self.outputs[step["id"]] = dict(pairs)
        if proc.returncode != 0:
            self.failed = True
            self.logs[step["name"]] += f"\n[exit {proc.returncode}]"


def _setup_python(temp: Path) -> Path:
    """setup-python's stand-in: a folder whose `python` starts the interpreter running these tests (it has
    this checkout installed). A script that execs it, not a link: a virtual environment's interpreter
    started through a link in another folder no longer finds its environment."""
    folder = temp / "bin"
    folder.mkdir()
    python = folder / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return folder


def _repository(tmp_path: Path, bad: bool = True) -> Path:
    repo = tmp_path / "repo"
    (repo / "fixtures" / "nested").mkdir(parents=True)
    (repo / "src").mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, capture_output=True)
    source = (
        CORPUS / "OVA104" / "bad_flag_true.json"
        if bad
        else CORPUS / "OVA103" / "ok_specializes.json"
    )
    (repo / "fixtures" / "nested" / "adapter.json").write_text(
        source.read_text(encoding="utf-8"), encoding="utf-8"
    )
    (repo / "src" / "build.py").write_text(
        "def build():\n    return {'summary': 'one line'}\n", encoding="utf-8"
    )
    return repo


def _validated(sarif_file: str) -> dict:
    return validate_sarif(json.loads(Path(sarif_file).read_text(encoding="utf-8")))


@pytest.fixture
def bash() -> None:
    if shutil.which("bash") is None or shutil.which("git") is None:
        pytest.fail("bash and git are required for the action test")


def test_action_steps_lint_upload_and_fail_on_findings(tmp_path: Path, bash) -> None:
    repo = _repository(tmp_path)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    runner = _Runner(repo, temp, {"paths": "fixtures src", "sarif-category": "fixtures-scan"}).run()
    assert runner.outputs["lint"]["exit-code"] == "1", runner.logs
    sarif_file = runner.outputs["lint"]["sarif-file"]
    assert sarif_file == str(temp / "ovadapt-lint.sarif")
    ((upload, _),) = runner.uploaded
    assert upload == {"sarif_file": sarif_file, "category": "fixtures-scan"}
    sarif = _validated(sarif_file)
    run = sarif["runs"][0]
    assert run["automationDetails"]["id"] == "fixtures-scan/"
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    ]
    assert uris and set(uris) == {"fixtures/nested/adapter.json"}
    assert all((repo / uri).is_file() for uri in uris)
    assert str(tmp_path) not in json.dumps(sarif)
    # The last step annotates the findings, ends with the summary line, and fails the job.
    assert runner.failed
    log = runner.logs["Annotate findings"]
    assert (
        "::error file=fixtures/nested/adapter.json," in log
        and "title=OVA104 issue-projection::" in log
    )
    assert "ovadapt-lint: 1 finding(s) (1 error) in 1 of 2 file(s)" in log and "[exit 1]" in log


def test_action_can_report_without_failing_or_uploading(tmp_path: Path, bash) -> None:
    repo = _repository(tmp_path)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    runner = _Runner(
        repo, temp, {"upload": "false", "fail-on-findings": "false", "python-version": ""}
    ).run()
    assert not runner.failed, runner.logs
    assert runner.uploaded == [] and runner.logs["Upload SARIF to code scanning"] == "skipped"
    assert runner.logs["Set up Python"] == "skipped"
    assert runner.outputs["lint"]["exit-code"] == "1"
    assert "::error file=fixtures/nested/adapter.json," in runner.logs["Annotate findings"]
    _validated(runner.outputs["lint"]["sarif-file"])


def test_action_on_a_clean_repository_and_a_bad_option(tmp_path: Path, bash) -> None:
    repo = _repository(tmp_path, bad=False)
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    runner = _Runner(repo, temp, {"args": "--config pyproject.toml --select OVA1"}).run()
    # A missing config file is a usage error: exit 2 fails the lint step before anything is uploaded.
    assert runner.failed and runner.outputs["lint"]["exit-code"] == "2"
    assert runner.uploaded == [] and runner.logs["Annotate findings"] == "skipped"
    assert "config file not found" in runner.logs["Run ovadapt-lint"]

    (tmp_path / "runner-temp2").mkdir()
    runner = _Runner(repo, tmp_path / "runner-temp2", {"args": "--select OVA1"}).run()
    assert not runner.failed, runner.logs
    assert (
        runner.outputs["lint"]["exit-code"] == "0" and runner.logs["Annotate findings"] == "skipped"
    )
    ((upload, _),) = runner.uploaded
    sarif = _validated(upload["sarif_file"])
    assert sarif["runs"][0]["results"] == []
