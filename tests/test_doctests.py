"""Every example in a linkkit docstring, and in the README, runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re

import pytest

import linkkit
from fixtures_loader import ROOT

MODULES = sorted(info.name for info in pkgutil.walk_packages(linkkit.__path__, "linkkit."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's ``>>>`` examples, its fenced blocks read in order with one namespace (a later block may use an
    earlier one's imports), run from the checkout's root, where their paths (corpora/...) lie."""
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"), re.M | re.S)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    namespace: dict[str, object] = {}
    parser = doctest.DocTestParser()
    for index, block in enumerate(block for block in blocks if ">>> " in block):
        runner.run(parser.get_doctest(block, namespace, f"README.md block {index}", "README.md", 0))
    result = runner.summarize(verbose=False)
    assert result.attempted > 30 and result.failed == 0
