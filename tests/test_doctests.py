"""Every example in a linkkit docstring, and in the README, runs and gives what it shows."""

from __future__ import annotations

import doctest
import importlib
import inspect
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


def _public_attributes(cls: type) -> list[tuple[str, object]]:
    """The public attributes *cls* defines or inherits from linkkit (not from object, tuple or Exception)."""
    return [(name, inspect.getattr_static(cls, name)) for name in dir(cls)
            if not name.startswith("_") and any(name in vars(base) for base in cls.__mro__
                                                if base.__module__.startswith("linkkit"))]


@pytest.mark.parametrize("name", [name for name in linkkit.__all__ if name != "__version__"])
def test_every_public_name_says_what_it_does(name: str) -> None:
    """help(linkkit.X) explains X and each of its public methods, properties and fields (a named tuple's field
    said only "Alias for field number 0")."""
    obj = getattr(linkkit, name)
    assert (inspect.getdoc(obj) or "").strip(), name
    if isinstance(obj, type) and not issubclass(obj, BaseException):
        for attribute, value in _public_attributes(obj):
            if callable(value) or isinstance(value, property) or type(value).__name__ == "_tuplegetter":
                doc = getattr(value, "__doc__", None) or ""
                assert doc.strip() and not doc.startswith("Alias for field"), f"{name}.{attribute}"


def test_the_errors_a_user_catches_are_named_by_the_package() -> None:
    """Every error class an entry point raises is reachable as linkkit.X: a URNError or an RFC 1738 record's error
    is a linkkit.URISyntaxError, with .position and .rule."""
    with pytest.raises(linkkit.URISyntaxError) as raised:
        linkkit.parse_urn("urn:a:b")
    assert (raised.value.position, raised.value.text) == (5, "urn:a:b")
    with pytest.raises(linkkit.URISyntaxError) as raised:
        linkkit.scheme_specific("telnet://h:abc/")
    assert raised.value.position == 11
    assert issubclass(linkkit.URISyntaxError, linkkit.URIError) and "URISyntaxError" in linkkit.__all__
