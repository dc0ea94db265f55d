#!/usr/bin/env bash
# One-off: bring the whole code base to the Ruff settings in pyproject.toml (format, then the lint
# findings Ruff can fix safely), and list what is left for a person: the remaining Ruff findings and
# mypy's. Run once, after the open branches are merged (a mass reformat conflicts with every branch),
# and commit the result alone so `git blame --ignore-rev` can skip it. Check mypy's list after it: a
# wrapped line can leave a `# type: ignore` on the wrong line.
set -euo pipefail
cd "$(dirname "$0")/.."
# Fix first: sorting imports changes what the formatter sees.
python3 -m ruff check --fix --exit-zero --quiet .
python3 -m ruff format .
status=0
echo "== ruff check: what is left"
python3 -m ruff check --output-format concise . || status=1
echo "== mypy"
python3 -m mypy || status=1
exit "$status"
