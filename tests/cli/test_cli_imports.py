"""A run loads only the rooms it uses (the face and linkkit.mail load their names on first use): a text file's
extract loads no HTML, mail finder, security or rewriting, and the lazily loaded names are the functions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import linkkit

PACKAGE_ROOT = str(Path(linkkit.__file__).resolve().parent.parent)
NEVER_FOR_EXTRACT = {"linkkit.batch.rewrite", "linkkit.mail.links", "linkkit.mail.rewrite", "linkkit.security",
                     "multiprocessing"}


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running *code*."""
    script = f"{code}\nimport sys\nprint(' '.join(sys.modules))"
    environment = {**os.environ, "PYTHONPATH": PACKAGE_ROOT}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                          check=True)
    return set(done.stdout.split())


def _extract(path: Path) -> str:
    argv = ["extract", "-q", "-j", "1", "-o", f"{path}.out", str(path)]
    return f"from linkkit.cli import main\nmain({argv!r})"


def test_extracting_a_text_file_loads_no_html_mail_finder_security_or_rewriting(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("see http://a.example/x\n")
    loaded = _modules_after(_extract(text))
    assert "linkkit.text.scan" in loaded
    assert not loaded & (NEVER_FOR_EXTRACT | {"linkkit.html"})


def test_extracting_an_html_file_loads_html_and_not_the_others(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text('<a href="x.html">x</a>')
    loaded = _modules_after(_extract(page))
    assert "linkkit.html" in loaded
    assert not loaded & NEVER_FOR_EXTRACT


@pytest.mark.parametrize("first", ["import linkkit.mail.rewrite", "import linkkit.mail.links", "pass"])
def test_mail_links_and_rewrite_are_the_functions_whatever_was_imported_first(first: str) -> None:
    code = f"{first}\nfrom linkkit import mail\nassert callable(mail.links) and callable(mail.rewrite), mail.links"
    _modules_after(code)


@pytest.mark.parametrize("first", ["import linkkit.security.flags", "import linkkit.security.redact", "pass"])
def test_security_names_are_the_functions_whatever_was_imported_first(first: str) -> None:
    code = (f"{first}\nfrom linkkit import security\nimport types\n"
            "assert not isinstance(security.flags, types.ModuleType) and callable(security.flags)\n"
            "assert callable(security.defang) and callable(security.redact), security.redact")
    _modules_after(code)


@pytest.mark.parametrize("first", ["import linkkit.security.redact", "pass"])
def test_the_face_gives_the_security_functions_whatever_was_imported_first(first: str) -> None:
    code = (f"{first}\nimport linkkit\nassert callable(linkkit.redact), linkkit.redact\n"
            "assert linkkit.redact('http://u:pw@h.example/?token=1', query=['token']) == "
            "'http://u:***@h.example/?token=***'\n"
            "assert callable(linkkit.defang) and callable(linkkit.refang) and callable(linkkit.flags)")
    _modules_after(code)


def test_flagging_loads_neither_redaction_nor_defanging() -> None:
    loaded = _modules_after("import linkkit\nassert not linkkit.flags('http://example.org/')")
    assert "linkkit.security.flags" in loaded
    assert not loaded & {"linkkit.security.redact", "linkkit.security.defang", "linkkit.security.refang",
                         "email.message"}


def test_the_face_gives_its_names_and_rooms_on_first_use() -> None:
    code = ("import linkkit\nassert linkkit.parse('http://a/b').host == 'a'\nassert linkkit.html.links(b'<a href=x>')\n"
            "assert linkkit.uri.resolve is linkkit.resolve\nfrom linkkit import finditer, flags\n"
            "assert callable(finditer) and callable(flags)")
    _modules_after(code)


@pytest.mark.parametrize("package", ["linkkit", "linkkit.uri", "linkkit.batch", "linkkit.sources",
                                     "linkkit.security", "linkkit.mail"])
def test_dir_of_a_lazy_package_lists_what_it_gives_before_it_is_loaded(package: str) -> None:
    # PEP 562: a module __getattr__ comes with a __dir__, so that help() documents the names and completion offers them
    code = (f"import {package} as p\nnames = set(dir(p))\nmissing = set(p.__all__) - names\n"
            f"assert not missing, missing\nassert '__name__' in names")
    _modules_after(code)


def test_the_uri_core_loads_its_modules_on_first_use() -> None:
    loaded = _modules_after("import linkkit.uri")
    assert not {name for name in loaded if name.startswith("linkkit.uri.")}
    code = ("import linkkit.uri as uri\nassert uri.validate is uri.validation.validate\n"
            "assert uri.scheme_specific('ftp://h/p;type=a').typecode == 'a'\n"
            "assert uri.urn.parse_urn('urn:ab:c').nid == 'ab'")
    assert {"linkkit.uri.validation", "linkkit.uri.rfc1738", "linkkit.uri.urn"} <= _modules_after(code)


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_the_version_and_the_help_load_none_of_the_machinery(option: str) -> None:
    loaded = _modules_after(f"from linkkit.cli import main\ntry:\n    main([{option!r}])\nexcept SystemExit:\n    pass")
    machinery = ("linkkit.sources", "linkkit.mail", "linkkit.text", "linkkit.html", "linkkit.uri.resolution",
                 "linkkit.batch.drivers", "linkkit.batch.extract", "linkkit.batch.progress")
    assert not {name for name in loaded if name.startswith(machinery)} and "regex" not in loaded


def test_a_scan_whose_references_take_the_hot_path_loads_neither_regex_nor_urns() -> None:
    hot = _modules_after("import linkkit\nassert linkkit.findall('see http://a.example/x, https://b.example/.')")
    assert "linkkit.text.scan" in hot and not hot & {"regex", "linkkit.uri.urn", "linkkit.uri.validation"}
    walked = _modules_after("import linkkit\nassert linkkit.findall('see www.a.example and urn:isbn:0451450523')")
    assert {"regex", "linkkit.uri.urn"} <= walked
