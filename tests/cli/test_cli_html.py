"""The HTML command line: ``extract`` on HTML and ``absolutize``, in-process on files under tmp_path."""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from linkkit import cli
from fixtures_loader import ROOT

CORPUS_HTML = ROOT / "corpora" / "html"
MANIFEST = {
    entry["document"]: entry
    for entry in json.loads((CORPUS_HTML / "manifest.json").read_text(encoding="utf-8"))["documents"]
}


def corpus_copy(tmp_path: Path, document: str, name: str | None = None) -> Path:
    """A copy of a corpus document under tmp_path (the tests never touch the corpus itself)."""
    path = tmp_path / (name or document)
    shutil.copyfile(CORPUS_HTML / document, path)
    return path


def gold(document: str) -> list[dict[str, Any]]:
    lines = (CORPUS_HTML / document.replace(".html", ".links.jsonl")).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def absolutized(document: str) -> bytes:
    return (CORPUS_HTML / document.replace(".html", ".absolutized.html")).read_bytes()


def url(document: str) -> str:
    return str(MANIFEST[document]["url"])


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# -- extract -----------------------------------------------------------------------------------------------------


def test_extract_lists_the_absolute_links_of_an_html_file_in_document_order(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "base-relative.html")
    assert cli.main(["extract", str(path), "--base", url("base-relative.html")]) == 0
    assert capsys.readouterr().out.splitlines() == [link["uri"] for link in gold("base-relative.html")]


def test_extract_jsonl_gives_tag_attr_where_raw_uri_line_and_byte_span_of_each_link(tmp_path, capsys) -> None:
    # issue 4: "--format jsonl with tag, attr, raw, span"; "where" spells tag and attr in the one schema of issue 10
    path = corpus_copy(tmp_path, "windows-1252.html")
    assert cli.main(["extract", "--format", "jsonl", "--base", url("windows-1252.html"), str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [
        {"tag": g["tag"], "attr": g["attr"], "where": f"{g['tag']} {g['attr'] or '#text'}", "raw": g["raw"],
         "uri": g["uri"], "span": g["span"]}
        for g in gold("windows-1252.html")
    ]
    assert [{key: r[key] for key in ("tag", "attr", "where", "raw", "uri", "span")} for r in records] == expected
    assert {(r["input"], r["unit"], r["kind"]) for r in records} == {(str(path), "byte", "url")}
    data = path.read_bytes()
    for r in records:
        start = r["span"][0]
        assert r["line"] == data.count(b"\n", 0, start) + 1
        assert r["column"] == start - (data.rfind(b"\n", 0, start) + 1) + 1


def test_extract_detects_html_by_content_whatever_the_file_name(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "srcset.html", "saved-page")
    assert cli.main(["extract", "--base", url("srcset.html"), str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [link["uri"] for link in gold("srcset.html")]


def test_extract_detects_html_on_standard_input_by_content(monkeypatch, capsys) -> None:
    set_stdin(monkeypatch, b"\xef\xbb\xbf\n<!-- saved -->\n<!DOCTYPE html><p><a href='x.html'>x</a> http://text.example/")
    assert cli.main(["extract", "--base", "http://example.com/d/"]) == 0
    assert capsys.readouterr().out == "http://example.com/d/x.html\n"


def test_extract_detects_a_utf16_html_document_by_content(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "utf-16.html", "page.dat")
    assert cli.main(["extract", "--format", "jsonl", "--base", url("utf-16.html"), str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["uri"], r["span"]) for r in records] == [(g["uri"], g["span"]) for g in gold("utf-16.html")]


def test_extract_detects_xhtml_opening_with_its_xml_declaration_by_content(tmp_path, capsys) -> None:
    # not a text whose one link is the doctype's system identifier: the page's links, resolved
    path = tmp_path / "page"
    path.write_bytes(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"'
                     b' "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">'
                     b'<body><a href="next.html">next</a></body></html>\n')
    assert cli.main(["extract", "--base", "http://example.com/d/", str(path)]) == 0
    assert capsys.readouterr().out == "http://example.com/d/next.html\n"


def test_extract_scans_text_that_merely_mentions_html_tags_as_text(tmp_path, capsys) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b'Write <html> and <a href="x.html"> first; docs at http://example.org/guide\n')
    assert cli.main(["extract", "--base", "http://example.com/", str(path)]) == 0
    assert capsys.readouterr().out == "http://example.org/guide\n"


def test_extract_without_base_reports_relative_links_as_they_are(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "no-url-no-base.html")
    assert cli.main(["extract", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [link["uri"] for link in gold("no-url-no-base.html")]


def test_extract_unique_prints_each_html_link_once(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "srcset.html")
    assert cli.main(["extract", "--unique", "--base", url("srcset.html"), str(path)]) == 0
    expected = list(dict.fromkeys(link["uri"] for link in gold("srcset.html")))
    assert capsys.readouterr().out.splitlines() == expected


def test_extract_names_a_missing_html_file_and_still_reads_the_others(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "frames.html")
    missing = tmp_path / "missing.html"
    assert cli.main(["extract", str(missing), str(path), "--base", url("frames.html")]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [link["uri"] for link in gold("frames.html")]
    assert str(missing) in err


def test_extract_refuses_a_base_without_scheme_as_a_usage_error(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "frames.html")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["extract", str(path), "--base", "/relative/only"])
    assert exit_.value.code == 2
    assert "--base" in capsys.readouterr().err


# -- absolutize --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("document", ["markup.html", "windows-1252.html", "shift_jis.html", "crlf.html", "bom.html"])
def test_absolutize_writes_the_gold_bytes_to_standard_output(tmp_path, capsysbinary, document) -> None:
    path = corpus_copy(tmp_path, document)
    assert cli.main(["absolutize", str(path), "--base", url(document)]) == 0
    assert capsysbinary.readouterr().out == absolutized(document)
    assert path.read_bytes() == (CORPUS_HTML / document).read_bytes()


def test_absolutize_reads_standard_input(monkeypatch, capsysbinary) -> None:
    set_stdin(monkeypatch, (CORPUS_HTML / "entities.html").read_bytes())
    assert cli.main(["absolutize", "-", "--base", url("entities.html")]) == 0
    assert capsysbinary.readouterr().out == absolutized("entities.html")


def test_absolutize_output_file_gets_the_result_and_the_input_is_untouched(tmp_path) -> None:
    path = corpus_copy(tmp_path, "css.html")
    out = tmp_path / "out.html"
    assert cli.main(["absolutize", str(path), "--base", url("css.html"), "-o", str(out)]) == 0
    assert out.read_bytes() == absolutized("css.html")
    assert path.read_bytes() == (CORPUS_HTML / "css.html").read_bytes()


def test_absolutize_in_place_replaces_each_file_keeping_its_mode_and_leaves_no_temporary_file(tmp_path) -> None:
    first = corpus_copy(tmp_path, "meta-refresh.html")
    second = corpus_copy(tmp_path, "invalid-bytes.html")
    os.chmod(first, 0o640)
    assert cli.main(["absolutize", "--in-place", "--base", url("meta-refresh.html"), str(first)]) == 0
    assert cli.main(["absolutize", "--in-place", "--base", url("invalid-bytes.html"), str(second)]) == 0
    assert first.read_bytes() == absolutized("meta-refresh.html")
    assert second.read_bytes() == absolutized("invalid-bytes.html")
    assert first.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["invalid-bytes.html", "meta-refresh.html"]


def test_absolutize_uses_the_encoding_option_over_the_bytes_guess(tmp_path, capsysbinary) -> None:
    document = "encoding-argument.html"
    path = corpus_copy(tmp_path, document)
    argv = ["absolutize", str(path), "--base", url(document), "--encoding", MANIFEST[document]["encoding"]]
    assert cli.main(argv) == 0
    assert capsysbinary.readouterr().out == absolutized(document)


def test_absolutize_in_place_keeps_the_bytes_of_a_utf8_page_labelled_iso_8859_1(tmp_path) -> None:
    # iso-8859-1 means windows-1252, whose 0x81 is U+0081 (Encoding Standard): the C3 81 of a UTF-8 "Á" stays
    page = b'<meta charset=iso-8859-1><a href="\xc3\x81ngel.html">\xc3\x81ngel</a>\r\n<img src="caf\xc3\xa9.png">'
    path = tmp_path / "page.html"
    path.write_bytes(page)
    assert cli.main(["absolutize", "--in-place", "--base", "http://e.com/d/", str(path)]) == 0
    assert path.read_bytes() == page.replace(b'="', b'="http://e.com/d/')


def test_absolutize_names_an_unknown_encoding_and_leaves_the_file_alone(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "css.html")
    argv = ["absolutize", "--in-place", str(path), "--base", url("css.html"), "--encoding", "no-such-codec"]
    assert cli.main(argv) == 1
    assert str(path) in capsys.readouterr().err
    assert path.read_bytes() == (CORPUS_HTML / "css.html").read_bytes()


def test_absolutize_names_a_missing_file_and_still_rewrites_the_others(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "frames.html")
    missing = tmp_path / "gone.html"
    assert cli.main(["absolutize", "--in-place", "--base", url("frames.html"), str(missing), str(path)]) == 1
    assert str(missing) in capsys.readouterr().err
    assert path.read_bytes() == absolutized("frames.html")


@pytest.mark.parametrize(
    "extra",
    [
        ["--base", "no-scheme/here"],  # the base must be absolute (RFC 3986 5.1)
        ["--base", "http://example.com/", "--in-place", "-o", "x.html"],  # one target only
        ["--base", "http://example.com/", "-o", "{input}"],  # -o would overwrite the input
    ],
)
def test_absolutize_usage_errors_exit_2_and_leave_the_input_alone(tmp_path, capsys, extra) -> None:
    path = corpus_copy(tmp_path, "frames.html")
    argv = ["absolutize", str(path), *(arg.replace("{input}", str(path)) for arg in extra)]
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err
    assert path.read_bytes() == (CORPUS_HTML / "frames.html").read_bytes()


def test_absolutize_in_place_needs_file_names(monkeypatch, capsys) -> None:
    set_stdin(monkeypatch, b"<a href=x>")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["absolutize", "--in-place", "--base", "http://example.com/"])
    assert exit_.value.code == 2
    assert "--in-place" in capsys.readouterr().err


def test_absolutize_needs_a_base(tmp_path, capsys) -> None:
    path = corpus_copy(tmp_path, "frames.html")
    with pytest.raises(SystemExit) as exit_:
        cli.main(["absolutize", str(path)])
    assert exit_.value.code == 2
    assert "--base" in capsys.readouterr().err


# -- encodings and edge cases ------------------------------------------------------------------------------------------


def test_extract_encoding_overrides_the_meta_charset_even_when_it_is_utf8(tmp_path, capsys) -> None:
    # The <meta> says windows-1252, the bytes are UTF-8: --encoding utf-8 (the default's name) must still win.
    path = tmp_path / "page.html"
    path.write_bytes('<meta charset="windows-1252"><a href="http://example.com/café">x</a>'.encode())
    assert cli.main(["extract", "--encoding", "utf-8", str(path)]) == 0
    assert capsys.readouterr().out == "http://example.com/café\n"
    assert cli.main(["extract", str(path)]) == 0
    assert capsys.readouterr().out == "http://example.com/cafÃ©\n"  # the <meta> decides without --encoding


@pytest.mark.parametrize("command", [["extract"], ["absolutize", "--base", "http://example.com/"]])
def test_html_with_an_encoding_that_is_no_text_encoding_is_an_error_of_each_input(tmp_path, capsys, command) -> None:
    first, second = corpus_copy(tmp_path, "frames.html"), corpus_copy(tmp_path, "css.html")
    assert cli.main([*command, "--encoding", "rot13", str(first), str(second)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.startswith(f"linkkit: error: {path}: ") for path, line in zip((first, second), err, strict=True)] == [
        True, True,
    ]
    assert "Traceback" not in "\n".join(err)


@pytest.mark.parametrize("place", ["file", "in-place", "stdin"])
def test_absolutize_of_html_larger_than_can_be_held_is_an_error_and_reads_no_further(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], place: str
) -> None:
    # Before: read whole without bound (`absolutize --base URL /dev/zero` took 5 GB in 10 s, and more).
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", 10_000)
    page = b"<!doctype html><a href=x>" + b"a" * 30_000
    path = tmp_path / "page.html"
    path.write_bytes(page)
    argv = ["absolutize", "--base", "http://h/", *{"file": [str(path)], "in-place": ["--in-place", str(path)],
                                                    "stdin": []}[place]]
    if place == "stdin":
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(page), encoding="utf-8"))
    assert cli.main(argv) == 1
    name = "<stdin>" if place == "stdin" else str(path)
    assert capsys.readouterr().err == (
        f"linkkit: error: {name}: an HTML document larger than 10000 bytes, the most held whole: not read past it\n")
    assert path.read_bytes() == page
