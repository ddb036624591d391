"""Loading the table-driven fixture files shared by the test modules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = FIXTURES.parent.parent  # the repository: corpora/, benchmarks/, the package


def load_json(relative: str) -> Any:
    """A JSON fixture file under tests/fixtures."""
    return json.loads((FIXTURES / relative).read_text(encoding="utf-8"))


def load_table(relative: str) -> list[list[str]]:
    """A tab-separated fixture: one case per line, "# " starts a comment line, "-" is left to the caller."""
    rows = []
    for line in (FIXTURES / relative).read_text(encoding="utf-8").split("\n"):
        if line.startswith("# ") or line == "":
            continue
        rows.append(line.split("\t"))
    return rows
