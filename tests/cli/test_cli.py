"""The command line: run in-process through ``main(argv)``, on files under tmp_path only."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import linkkit
from linkkit import cli
from linkkit import io as linkkit_io
from linkkit.batch import extract as batch_extract
from linkkit.batch import rewrite as batch_rewrite
from fixtures_loader import ROOT

CORPUS_TEXT = ROOT / "corpora" / "text"
GOLD_TEXT = CORPUS_TEXT.parent / "gold" / "text"

MAIL = (
    "Hi,\n"
    "the spec is at <URL:http://www.example.org/faq/uri-\n"
    "   delimiting.html> and see (http://example.com/a).\n"
    "Note: 10:30 is not a link, nor is C:\\Users.\n"
    "Again: http://example.com/a, and www.example.net/x.\n"
)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# -- extract -----------------------------------------------------------------------------------------------------


def test_extract_prints_one_cleaned_uri_per_line_in_text_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "mail.txt", MAIL)
    assert cli.main(["extract", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "http://www.example.org/faq/uri-delimiting.html",
        "http://example.com/a",
        "http://example.com/a",
        "http://www.example.net/x",
    ]


def test_extract_reads_standard_input_when_no_file_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    set_stdin(monkeypatch, b"see <http://example.org/p> now\n")
    assert cli.main(["extract"]) == 0
    assert capsys.readouterr().out == "http://example.org/p\n"


def test_extract_unique_prints_each_uri_once_at_its_first_occurrence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "mail.txt", MAIL)
    assert cli.main(["extract", "--unique", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["http://www.example.org/faq/uri-delimiting.html", "http://example.com/a", "http://www.example.net/x"]


def test_extract_jsonl_gives_file_line_column_span_and_the_reference_facts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "mail.txt", MAIL)
    assert cli.main(["extract", "--format", "jsonl", str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    first = records[0]
    start = MAIL.index("http://www.example.org")
    # issue 10's one schema (a file read whole: position null), then issue 3's keys it spells otherwise
    assert list(first) == [*linkkit.link.KEYS, "position", "file", "delimiter"]
    assert first["input"] == first["file"] == str(path) and first["position"] is None
    assert (first["unit"], first["base"]) == ("character", None)
    assert (first["line"], first["column"]) == (2, len("the spec is at <URL:") + 1)
    assert first["span"][0] == start
    assert MAIL[first["span"][0]:first["span"][1]] == first["raw"]
    assert first["uri"] == "http://www.example.org/faq/uri-delimiting.html"
    assert first["raw"] == "http://www.example.org/faq/uri-\n   delimiting.html"
    assert (first["where"], first["delimiter"], first["kind"]) == ("url-prefix", "url-prefix", "uri")
    last = records[-1]
    assert (last["line"], last["uri"], last["raw"]) == (5, "http://www.example.net/x", "www.example.net/x")
    assert last["column"] == len("Again: http://example.com/a, and ") + 1


def test_extract_names_a_missing_file_goes_on_with_the_others_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.txt", "<http://example.org/ok>\n")
    missing = tmp_path / "missing.txt"
    assert cli.main(["extract", str(missing), str(good)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "http://example.org/ok\n"
    assert str(missing) in captured.err


def test_extract_names_an_input_that_is_a_directory_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.txt", "<http://example.org/ok>\n")
    assert cli.main(["extract", str(tmp_path), str(good)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "http://example.org/ok\n"
    assert f"linkkit: error: {tmp_path}: Is a directory" in captured.err


def test_extract_reports_undecodable_bytes_by_line_and_column_and_keeps_them(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = write(tmp_path, "latin1.txt", b"caf\xe9\nsee http://example.org/cafe \xe9t\xe9\n")
    assert cli.main(["extract", str(path)]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == b"http://example.org/cafe\n"
    assert f"{path}:1:4: warning: 3 byte(s) not valid utf-8".encode() in captured.err


def test_undecodable_byte_position_counts_lines_across_chunks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "a.txt", b"first line\nsecond line\nthe \xff byte http://example.org/\n")
    monkeypatch.setattr(batch_extract, "CHUNK_SIZE", 5)
    monkeypatch.setattr(linkkit_io, "DECODE_SIZE", 5)
    assert cli.main(["extract", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "http://example.org/\n"
    assert f"linkkit: {path}:3:5: warning: 1 byte(s) not valid utf-8; kept unchanged" in captured.err


def test_extract_decodes_with_the_given_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "latin1.txt", "voir <http://example.org/café> ici\n".encode("latin-1"))
    assert cli.main(["extract", "--encoding", "latin-1", str(path)]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("http://example.org/café\n", "")


def test_extract_reads_in_chunks_and_finds_what_the_whole_text_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bounded memory: the file is read in small chunks; every reference, even one across a chunk boundary, is found.
    line = "行 {}：<http://example.org/{}/a-\n  b> 和 www.example.com/{}。Re: 10:30\r\n"
    text = "".join(line.format(i, i, i) for i in range(300))
    path = write(tmp_path, "big.txt", text)
    monkeypatch.setattr(batch_extract, "CHUNK_SIZE", 97)
    monkeypatch.setattr(linkkit_io, "DECODE_SIZE", 97)
    assert cli.main(["extract", "--format", "jsonl", str(path)]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    whole = list(linkkit.finditer(text))
    assert [(r["uri"], r["raw"], tuple(r["span"])) for r in records] == [(m.uri, m.raw, m.span()) for m in whole]
    assert [r["line"] for r in records] == [text.count("\n", 0, m.start()) + 1 for m in whole]


def test_line_and_column_stay_right_after_old_chunks_are_dropped() -> None:
    text = "".join(f"{'x' * (i % 7)}\n" if i % 3 else "abc\r\n" for i in range(2000))
    lines = linkkit_io.Lines(keep=50)
    for start in range(0, len(text), 13):
        lines.feed(text[start:start + 13])
    offsets = range(len(text) - 40, len(text), 3)
    located = [lines.locate(offset) for offset in offsets]
    assert located == [(text.count("\n", 0, o) + 1, o - (text.rfind("\n", 0, o) + 1) + 1) for o in offsets]
    assert sum(map(len, lines.chunks)) < 50 + 2 * 13


def test_extract_jsonl_escapes_undecodable_bytes_so_each_line_stays_valid_json(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    # A file name that is not UTF-8 reaches Python as lone surrogates (PEP 383), as undecodable text does.
    path = write(tmp_path, "caf\udce9.txt", "see <http://example.org/> now\n")
    assert cli.main(["extract", "--format", "jsonl", str(path)]) == 0
    line = capsysbinary.readouterr().out.decode("utf-8")
    assert "caf\\udce9.txt" in line
    assert json.loads(line)["input"] == str(path)


@pytest.mark.parametrize(("form", "end"), [("tsv", b"\n"), ("csv", b"\r\n")])
def test_extract_tsv_and_csv_write_a_name_that_is_not_utf_8_as_its_bytes(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], form: str, end: bytes
) -> None:
    path = write(tmp_path, "caf\udce9.txt", "see <http://example.org/> now\n")
    assert cli.main(["extract", "--format", form, str(path)]) == 0
    row = capsysbinary.readouterr().out.split(end)[1]
    assert row.startswith(os.fsencode(path) + (b"\t" if form == "tsv" else b","))


def test_extract_switches_abbreviations_off_and_emails_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.txt", "www.example.com and alice@example.net\n")
    assert cli.main(["extract", "--no-abbreviated", "--emails", str(path)]) == 0
    assert capsys.readouterr().out == "mailto:alice@example.net\n"


def test_main_job_extracts_the_gold_references_of_every_bundled_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(CORPUS_TEXT.iterdir())
    assert cli.main(["extract", *map(str, files)]) == 0
    expected = [
        json.loads(line)["uri"]
        for path in files
        for line in (GOLD_TEXT / f"{path.name}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert capsys.readouterr().out.splitlines() == expected


# -- rewrite -----------------------------------------------------------------------------------------------------


def test_rewrite_without_options_returns_the_input_byte_for_byte(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    data = MAIL.encode() + b"bad byte \xff here http://example.org/\xfe\r\n"
    path = write(tmp_path, "mail.txt", data)
    assert cli.main(["rewrite", str(path)]) == 0
    assert capsysbinary.readouterr().out == data


PIECES = st.sampled_from(["http://", "<URL:", "www.", "ex-\n", "\r\n", " ", ">", "(", ")", "a", "é", "\xff", "\xe9"])


@given(st.lists(PIECES.map(lambda p: p.encode("latin-1") if p in ("\xff", "\xe9") else p.encode()), max_size=40))
def test_rewrite_without_options_is_the_identity_on_any_bytes(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory, "in.txt")
        path.write_bytes(data)
        args = cli.build_parser().parse_args(["rewrite", str(path)])
        out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
        assert args.run(args, out, err) == 0
        out.flush()
        assert out.buffer.getvalue() == data
        assert path.read_bytes() == data


def test_rewrite_angle_wraps_each_reference_not_already_in_angle_brackets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "a <http://example.org/x> b (http://example.com/y). <URL:ftp://e.example/> www.example.net.\n"
    path = write(tmp_path, "a.txt", text)
    assert cli.main(["rewrite", "--angle", str(path)]) == 0
    assert capsys.readouterr().out == (
        "a <http://example.org/x> b (<http://example.com/y>). <URL:ftp://e.example/> <www.example.net>.\n"
    )


def test_rewrite_unwrap_joins_a_wrapped_reference_onto_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "mail.txt", MAIL)
    assert cli.main(["rewrite", "--unwrap", str(path)]) == 0
    out = capsys.readouterr().out
    assert "<URL:http://www.example.org/faq/uri-delimiting.html> and see" in out
    assert out.replace("uri-delimiting", "uri-\n   delimiting") == MAIL


def test_rewrite_unwrap_joins_a_bare_reference_broken_after_a_hyphen_and_keeps_the_hyphen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 3986 appendix C: whitespace around a line break after a hyphen is ignored; the hyphen may be real.
    path = write(tmp_path, "a.txt", "see http://example.org/web-\n   architecture/notes and more -\nprose\n")
    assert cli.main(["rewrite", "--unwrap", str(path)]) == 0
    assert capsys.readouterr().out == "see http://example.org/web-architecture/notes and more -\nprose\n"


def test_rewrite_normalize_replaces_each_reference_by_its_normal_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.txt", "see HTTP://Example.COM:80/a/./b/../c/%7euser now.\n")
    assert cli.main(["rewrite", "--normalize", str(path)]) == 0
    assert capsys.readouterr().out == f"see {linkkit.normalize('HTTP://Example.COM:80/a/./b/../c/%7euser')} now.\n"
    assert linkkit.normalize("HTTP://Example.COM:80/a/./b/../c/%7euser") == "http://example.com/a/c/~user"


def test_rewrite_never_modifies_its_input_without_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.txt", "x http://Example.COM/ y\n")
    before = path.read_bytes()
    assert cli.main(["rewrite", "--normalize", "--angle", str(path)]) == 0
    assert path.read_bytes() == before


def test_rewrite_output_file_gets_the_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "a.txt", "x http://Example.COM/ y\n")
    out = tmp_path / "out.txt"
    assert cli.main(["rewrite", "--normalize", "-o", str(out), str(path)]) == 0
    assert out.read_text(encoding="utf-8") == "x http://example.com/ y\n"
    assert capsys.readouterr().out == ""


def test_rewrite_in_place_replaces_files_atomically_and_keeps_their_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write(tmp_path, "a.txt", "x http://Example.COM/ y\n")
    second = write(tmp_path, "b.txt", "no references here\n")
    first.chmod(0o640)
    assert cli.main(["rewrite", "--in-place", "--normalize", str(first), str(second)]) == 0
    assert first.read_text(encoding="utf-8") == "x http://example.com/ y\n"
    assert second.read_text(encoding="utf-8") == "no references here\n"
    assert first.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]  # no temporary file left behind
    assert capsys.readouterr().out == ""


def test_a_rewritten_document_is_on_disk_before_its_rename_and_links_are_not_waited_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "never loses data": a document rewritten in place (or into -o) is flushed before the rename makes it the file;
    # extract's -o holds links that running again makes again, renamed into place without waiting for the disk
    flushed: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda descriptor: (flushed.append(descriptor), real_fsync(descriptor)))
    document = write(tmp_path, "a.txt", "x http://Example.COM/ y\n")
    assert cli.main(["extract", "-o", str(tmp_path / "links.txt"), str(document)]) == 0
    assert (tmp_path / "links.txt").read_text(encoding="utf-8") == "http://Example.COM/\n" and flushed == []
    assert cli.main(["rewrite", "--normalize", "-o", str(tmp_path / "out.txt"), str(document)]) == 0
    assert len(flushed) == 1
    assert cli.main(["rewrite", "--in-place", "--normalize", str(document)]) == 0
    assert document.read_text(encoding="utf-8") == "x http://example.com/ y\n" and len(flushed) == 2
    assert capsys.readouterr().out == ""


def test_rewrite_in_place_through_a_symbolic_link_rewrites_its_target(tmp_path: Path) -> None:
    target = write(tmp_path, "target.txt", "x http://Example.COM/ y\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert cli.main(["rewrite", "--in-place", "--normalize", str(link)]) == 0
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "x http://example.com/ y\n"


IN_PLACE = {"rewrite": ["rewrite", "--in-place", "--angle"],
            "absolutize": ["absolutize", "--in-place", "--base", "http://example.com/d/"]}


@pytest.mark.parametrize("command", IN_PLACE)
def test_in_place_refuses_a_device_as_sed_i_does(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    # a device has no content to replace: --in-place /dev/null was taken as an unchanged file (status 0)
    assert cli.main([*IN_PLACE[command], os.devnull]) == 1
    assert capsys.readouterr().err == f"linkkit: error: {os.devnull}: not a regular file; not rewritten in place\n"


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin")
@pytest.mark.parametrize("command", IN_PLACE)
def test_in_place_refuses_a_pipe_named_as_a_file(command: str) -> None:
    # `... | linkkit rewrite --in-place /dev/stdin`: the pipe was opened for writing by the run reading it, which
    # then waited for its own end of file for ever (the timeout guards against that hang; it times nothing)
    done = subprocess.run([sys.executable, "-m", "linkkit", *IN_PLACE[command], "/dev/stdin"], input=b"see <a>\n",
                          capture_output=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"linkkit: error: /dev/stdin: not a regular file; not rewritten in place\n"


def test_rewrite_in_place_keeps_undecodable_bytes(tmp_path: Path) -> None:
    # (not "\xff\xfe": that is the UTF-16LE byte order mark, which makes the file UTF-16)
    path = write(tmp_path, "a.txt", b"\xfe\xfe x HTTP://EXAMPLE.ORG/ \xe9 y\r\n")
    assert cli.main(["rewrite", "--in-place", "--angle", str(path)]) == 0
    assert path.read_bytes() == b"\xfe\xfe x <HTTP://EXAMPLE.ORG/> \xe9 y\r\n"


def test_rewrite_in_place_goes_on_after_a_missing_file_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.txt", "x www.example.org y\n")
    assert cli.main(["rewrite", "--in-place", "--angle", str(tmp_path / "nope.txt"), str(good)]) == 1
    assert good.read_text(encoding="utf-8") == "x <www.example.org> y\n"
    assert "nope.txt" in capsys.readouterr().err


def test_rewrite_refuses_an_html_input_unless_asked_to_treat_it_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = write(tmp_path, "page.html", '<html><a href="http://Example.COM/">x</a></html>\n')
    assert cli.main(["rewrite", "--angle", "--in-place", str(page)]) == 1
    assert page.read_text(encoding="utf-8") == '<html><a href="http://Example.COM/">x</a></html>\n'
    assert f"{page}: looks like HTML" in capsys.readouterr().err
    assert cli.main(["rewrite", "--normalize", "--as-text", str(page)]) == 0
    assert capsys.readouterr().out == '<html><a href="http://example.com/">x</a></html>\n'


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["extract", "--format", "xml"],
        ["rewrite", "--in-place"],
        ["rewrite", "--in-place", "-"],
        ["rewrite", "--in-place", "-o", "out.txt", "a.txt"],
    ],
    ids=["no-command", "unknown-command", "bad-format", "in-place-stdin", "in-place-dash", "in-place-and-output"],
)
def test_usage_errors_exit_with_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_output_file_that_is_also_an_input_is_a_usage_error_and_the_file_is_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.txt", "x http://Example.COM/ y\n")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["rewrite", "--normalize", "-o", str(path), str(path)])
    assert exit_info.value.code == 2
    assert path.read_text(encoding="utf-8") == "x http://Example.COM/ y\n"


def test_python_dash_m_linkkit_runs_the_command_line(tmp_path: Path) -> None:

    path = write(tmp_path, "a.txt", "see <http://example.org/m>\n")
    done = subprocess.run(
        [sys.executable, "-m", "linkkit", "extract", str(path)], capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(linkkit.__file__).parent.parent)},
    )
    assert (done.returncode, done.stdout) == (0, "http://example.org/m\n")


def test_rewrite_unwrap_drops_quoted_mail_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A reference wrapped inside a quoted reply: the "> " that starts the continued line is not part of it.
    source = write(tmp_path, "reply.txt", "> see <http://example.com/a-\n> long/path> ok\n")
    assert cli.main(["rewrite", "--unwrap", str(source)]) == 0
    assert capsys.readouterr().out == "> see <http://example.com/a-long/path> ok\n"


# -- output errors -----------------------------------------------------------------------------------------------------

ROOT = Path(linkkit.__file__).parent.parent
MANY_LINKS_TEXT = "".join(f"see http://example.com/{i} and more\n" for i in range(60_000)).encode()
MANY_LINKS_HTML = b"<!DOCTYPE html>" + b"".join(b'<a href="p%d.html">x</a>\n' % i for i in range(60_000))
SUBCOMMANDS = {  # each writes well over a pipe's 64 KiB to standard output
    "extract": (["extract"], MANY_LINKS_TEXT),
    "rewrite": (["rewrite", "--angle"], MANY_LINKS_TEXT),
    "absolutize": (["absolutize", "--base", "http://example.com/d/"], MANY_LINKS_HTML),
}


def linkkit_process(argv: list[str], **popen: object) -> subprocess.Popen[bytes]:

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "linkkit", *argv], env=env, **popen)  # type: ignore[call-overload]


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_closed_pipe_ends_quietly_with_the_sigpipe_status(tmp_path: Path, command: str) -> None:
    # `linkkit ... | head -1`: the reader goes away; no traceback, no "Exception ignored", status 128 + SIGPIPE.

    argv, data = SUBCOMMANDS[command]
    path = write(tmp_path, "in.dat", data)
    process = linkkit_process([*argv, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()
    process.stdout.close()
    assert process.wait(timeout=120) == 141
    with process.stderr:
        assert process.stderr.read() == b""


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_a_full_disk_on_standard_output_is_a_clear_error_and_status_1(tmp_path: Path, command: str) -> None:

    argv, data = SUBCOMMANDS[command]
    path = write(tmp_path, "in.dat", data)
    with open("/dev/full", "wb") as full:
        process = linkkit_process([*argv, str(path)], stdout=full, stderr=subprocess.PIPE)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 1
    assert err.decode() == "linkkit: error: <stdout>: cannot write: No space left on device\n"


WARNED = b"see http://a.example/ \xff and http://b.example/\n"  # a byte that does not decode: a warning


def _close(descriptor: int) -> Callable[[], None]:
    """What a child runs before linkkit starts: *descriptor* closed, as the shell's ``N>&-`` leaves it."""
    return lambda: os.close(descriptor)


@pytest.mark.parametrize("stderr", ["full", "closed"])
@pytest.mark.parametrize("argv", [["extract", "-j", "1"], ["extract", "-j", "2"], ["rewrite", "--angle", "--in-place"]])
def test_a_standard_error_that_cannot_be_written_loses_only_the_messages(
    tmp_path: Path, stderr: str, argv: list[str]
) -> None:
    # Before: the first warning raised, so `extract -r` gave one link of 266 and `rewrite --in-place` nothing.
    paths = [write(tmp_path, f"{name}.txt", WARNED) for name in "ab"]
    with open("/dev/full", "wb") as full:
        redirect: dict[str, object] = {"stderr": full} if stderr == "full" else {"preexec_fn": _close(2)}
        process = linkkit_process([*argv, *map(str, paths)], stdout=subprocess.PIPE, **redirect)
        out, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    if argv[0] == "extract":
        assert out == b"http://a.example/\nhttp://b.example/\n" * 2
    else:
        assert [path.read_bytes() for path in paths] == [b"see <http://a.example/> \xff and <http://b.example/>\n"] * 2


@pytest.mark.parametrize(
    ("argv", "descriptor", "message"),
    [
        (["extract"], 0, "linkkit: error: <stdin>: Bad file descriptor\n"),
        (["extract", "-j", "2", "--format", "jsonl"], 0, "linkkit: error: <stdin>: Bad file descriptor\n"),
        (["rewrite"], 0, "linkkit: error: <stdin>: Bad file descriptor\n"),
        (["absolutize", "--base", "http://h/"], 0, "linkkit: error: <stdin>: Bad file descriptor\n"),
        (["extract", "IN"], 1, "linkkit: error: <stdout>: cannot write: Bad file descriptor\n"),
        (["rewrite", "IN"], 1, "linkkit: error: <stdout>: cannot write: Bad file descriptor\n"),
        (["--version"], 1, "linkkit: error: <stdout>: cannot write: Bad file descriptor\n"),
    ],
)
def test_a_closed_standard_input_or_output_is_an_error_naming_it(
    tmp_path: Path, argv: list[str], descriptor: int, message: str
) -> None:
    # Before: a traceback (sys.stdin or sys.stdout is None), or nothing said and status 0 for --version.
    path = write(tmp_path, "in.txt", WARNED)
    argv = [str(path) if arg == "IN" else arg for arg in argv]
    process = linkkit_process(argv, stderr=subprocess.PIPE, preexec_fn=_close(descriptor))
    _, err = process.communicate(timeout=120)
    assert (process.returncode, err.decode()) == (1, message)


@pytest.mark.parametrize("command", ["rewrite", "absolutize"])
def test_a_full_disk_for_the_output_file_is_a_clear_error_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    argv, data = SUBCOMMANDS[command]
    path = write(tmp_path, "in.dat", data)
    assert cli.main([*argv, "-o", "/dev/full", str(path)]) == 1
    assert capsys.readouterr().err == "linkkit: error: /dev/full: cannot write: No space left on device\n"


@pytest.mark.parametrize("output", ["missing/out.txt", "dangling"])
def test_an_output_that_cannot_be_made_is_named_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, output: str
) -> None:
    # the file written is the link's target, but the message names what the user wrote (it named the resolved path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dangling").symlink_to("missing/target.txt")
    write(tmp_path, "in.txt", b"http://a.example/\n")
    assert cli.main(["extract", "in.txt", "-o", output]) == 1
    assert capsys.readouterr().err == f"linkkit: error: {output}: cannot write: No such file or directory\n"


# -- encodings ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["extract", "rewrite"])
@pytest.mark.parametrize("encoding", ["rot13", "base64", "no-such-codec"])
def test_an_encoding_that_is_no_text_encoding_is_an_error_of_each_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, encoding: str
) -> None:
    first, second = write(tmp_path, "a.txt", "x http://example.org/ y\n"), write(tmp_path, "b.txt", "z\n")
    assert cli.main([command, "--encoding", encoding, str(first), str(second)]) == 1
    captured = capsys.readouterr()
    reason = "unknown encoding" if encoding == "no-such-codec" else "is not a text encoding"
    assert captured.out == ""
    assert [line.startswith(f"linkkit: error: {name}: ") and reason in line
            for name, line in zip((first, second), captured.err.splitlines(), strict=True)] == [True, True]


@pytest.mark.parametrize("command", ["extract", "rewrite"])
def test_an_encoding_name_holding_an_undecodable_byte_is_an_unknown_encoding_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    first = write(tmp_path, "a.txt", "x http://example.org/ y\n")
    assert cli.main([command, "--encoding", "utf-8\udcff", str(first)]) == 1  # argv bytes not UTF-8 (PEP 383)
    assert capsys.readouterr().err.startswith(f"linkkit: error: {first}: unknown encoding ")


@pytest.mark.parametrize("command", ["extract", "rewrite"])
def test_bytes_the_encoding_cannot_even_keep_are_an_error_naming_their_offset_and_the_batch_goes_on(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], command: str
) -> None:
    odd = write(tmp_path, "odd.txt", "x http://example.org/odd\n".encode("utf-16-le") + b"x")  # UTF-16 of odd length
    good = write(tmp_path, "good.txt", "<http://example.org/good>\n".encode("utf-16-le"))
    assert cli.main([command, "--encoding", "utf-16", str(odd), str(good)]) == 1
    captured = capsysbinary.readouterr()
    err = captured.err.decode()
    assert f"linkkit: error: {odd}: cannot decode byte 50 as utf-16-le: truncated data\n" in err
    assert "Traceback" not in err
    out = captured.out.decode("utf-8" if command == "extract" else "utf-16-le")
    assert out.endswith("http://example.org/good\n" if command == "extract" else "<http://example.org/good>\n")


def test_rewrite_o_keeps_no_part_of_an_input_that_failed_and_leaves_a_file_no_input_reached_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # -o is written atomically: the start of a long input that then failed was installed, status 1 (a half rewrite)
    odd = write(tmp_path, "odd.txt", ("x http://example.org/odd\n" * 3000).encode("utf-16-le") + b"x")
    good = write(tmp_path, "good.txt", "<http://example.org/good>\n".encode("utf-16-le"))
    out = write(tmp_path, "out.txt", b"old\n")
    assert cli.main(["rewrite", "--angle", "--encoding", "utf-16", "-o", str(out), str(odd)]) == 1
    assert out.read_bytes() == b"old\n"
    assert cli.main(["rewrite", "--angle", "--encoding", "utf-16", "-o", str(out), str(good), str(odd), str(good)]) == 1
    assert out.read_bytes() == ("<http://example.org/good>\n" * 2).encode("utf-16-le")
    assert capsys.readouterr().err.count(f"{odd}: cannot decode byte 150000 as utf-16-le: truncated data") == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["good.txt", "odd.txt", "out.txt"]


BOM_TEXT = "http://example.org/a first\nthen <http://example.org/b>\n"


@pytest.mark.parametrize(
    "bom, codec",
    [("\ufeff".encode(c), c) for c in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")],
    ids=["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"],
)
def test_a_bom_decides_the_encoding_of_a_text_file_and_is_not_a_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bom: bytes, codec: str
) -> None:
    path = write(tmp_path, "bom.txt", bom + BOM_TEXT.encode(codec))
    assert cli.main(["extract", "--format", "jsonl", "--encoding", "latin-1", str(path)]) == 0  # the BOM wins
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert [(r["uri"], r["line"], r["column"], r["span"][0]) for r in records] == [
        ("http://example.org/a", 1, 1, 0), ("http://example.org/b", 2, 7, BOM_TEXT.index("http://example.org/b")),
    ]
    assert captured.err == ""


@pytest.mark.parametrize(
    "bom, codec, argv",
    [
        (True, "utf-16-be", []),
        (True, "utf-16-le", []),
        (True, "utf-32-be", []),
        (True, "utf-8", []),
        (False, "utf-16-le", ["--encoding", "utf-16"]),  # no BOM: UTF-16 is little-endian, as in HTML
        (False, "utf-16-be", ["--encoding", "utf-16-be"]),
        (False, "latin-1", ["--encoding", "latin-1"]),
        (False, "shift_jis", ["--encoding", "shift_jis"]),
        (False, "iso2022_jp", ["--encoding", "iso2022_jp"]),
    ],
)
def test_rewrite_writes_in_the_input_encoding_and_byte_order(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], bom: bool, codec: str, argv: list[str]
) -> None:
    word = "ü" if codec == "latin-1" else "見"
    text = f"{word}: HTTP://EXAMPLE.org/{word}\r\nand {word}\n"
    mark = "\ufeff".encode(codec) if bom else b""
    path = write(tmp_path, "in.txt", mark + text.encode(codec))
    assert cli.main(["rewrite", *argv, str(path)]) == 0
    assert capsysbinary.readouterr().out == mark + text.encode(codec)  # the identity, byte for byte
    assert cli.main(["rewrite", "--angle", "--in-place", *argv, str(path)]) == 0
    angled = text.replace(f"HTTP://EXAMPLE.org/{word}", f"<HTTP://EXAMPLE.org/{word}>")
    assert path.read_bytes() == mark + angled.encode(codec)


# -- rewrite streams ---------------------------------------------------------------------------------------------------

STREAM_PIECES = st.sampled_from(["http://", "<URL:", "www.", "ex-\n", "\r\n", " ", ">", "(", ")", "a", "é", ".", "%"])


@given(
    st.lists(STREAM_PIECES, max_size=60).map("".join), st.integers(1, 40), st.integers(1, 30),
    st.booleans(),
)
# Found with 20,000 examples: a reference's end rules look past it (a hyphen-wrapped next line), further than a
# tiny chunk and max_length; the text written out must wait for that decision too.
@example(text="http://http://http://http://http://", chunk_size=1, max_length=6, normalizing=False)
def test_streamed_rewrite_is_sub_on_the_whole_text_and_writes_as_it_reads(
    text: str, chunk_size: int, max_length: int, normalizing: bool
) -> None:
    args = cli.build_parser().parse_args(["rewrite", "--angle", *(["--normalize"] if normalizing else [])])
    replace, options = cli._replacement(args), {"max_length": max_length}
    pieces = [text[i:i + chunk_size] for i in range(0, len(text), chunk_size)]
    written: list[str] = []
    lag: list[int] = []  # characters read but not yet written, each time a chunk is read

    def chunks() -> Iterator[str]:
        for piece in pieces:
            lag.append(sum(map(len, pieces[:len(lag)])) - sum(map(len, written)))
            yield piece

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch_rewrite, "CHUNK_SIZE", chunk_size)
        changed = cli._rewrite_stream(chunks(), replace, options, written.append)
        reach = cli._stream_reach(options)
    expected = linkkit.sub(replace, text, **options)
    assert "".join(written) == expected
    assert changed == (expected != text)
    assert max(lag, default=0) <= reach + chunk_size  # memory: bounded by the reach, not by the text


def test_rewrite_of_a_long_text_without_references_writes_as_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_rewrite, "CHUNK_SIZE", 100)
    written: list[int] = []
    behind: list[int] = []

    def chunks() -> Iterator[str]:
        for index in range(1000):
            behind.append(index * 100 - sum(written))
            yield "no reference here, none at all. " * 3 + "then"  # 100 characters

    cli._rewrite_stream(chunks(), lambda ref: ref.group(), {"max_length": 100}, lambda text: written.append(len(text)))
    assert sum(written) == 100_000
    assert max(behind) <= cli._stream_reach({"max_length": 100}) + 100


# -- one reference per line --------------------------------------------------------------------------------------------


def test_plain_output_percent_encodes_what_would_break_the_line() -> None:
    assert cli._plain_line("http://e.example/a\nb\r\tc\x0bd\x85e\u2028f\x00g") == (
        "http://e.example/a%0Ab%0D%09c%0Bd%C2%85e%E2%80%A8f%00g"
    )
    assert cli._plain_line("http://e.example/caf\u00e9") == "http://e.example/caf\u00e9"


def test_extract_prints_one_line_per_html_link_even_when_an_href_holds_line_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = write(tmp_path, "p.html", '<a href="http://e.example/a\nb">1</a><a href="http://e.example/c\x0bd\u2028e">2</a>')
    assert cli.main(["extract", str(page)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[1] == "http://e.example/c%0Bd%E2%80%A8e"


# -- --in-place and -o files -------------------------------------------------------------------------------------------


def test_in_place_refuses_a_read_only_file_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ro.txt", "x www.example.org y\n")
    path.chmod(0o444)
    assert cli.main(["rewrite", "--angle", "--in-place", str(path)]) == 1
    assert f"linkkit: error: {path}: read-only; not replaced (--force replaces it)" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "x www.example.org y\n"
    assert cli.main(["rewrite", "--angle", "--in-place", "--force", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == "x <www.example.org> y\n"
    assert path.stat().st_mode & 0o777 == 0o444


@pytest.mark.parametrize("argv", [["extract"], ["rewrite", "--angle"], ["absolutize", "--base", "http://h/"]])
def test_an_output_file_that_is_read_only_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # every subcommand's -o takes the --force its message names (extract refused --force as unknown)
    source = write(tmp_path, "in.txt", "x www.example.org y\n")
    output = write(tmp_path, "out.txt", "old\n")
    output.chmod(0o444)
    assert cli.main([*argv, str(source), "-o", str(output)]) == 1
    assert f"linkkit: error: {output}: read-only; not replaced (--force replaces it)" in capsys.readouterr().err
    assert output.read_text(encoding="utf-8") == "old\n"
    assert cli.main([*argv, str(source), "-o", str(output), "--force"]) == 0
    assert output.read_text(encoding="utf-8") != "old\n"
    assert output.stat().st_mode & 0o777 == 0o444


def test_in_place_refuses_a_hard_linked_file_unless_forced_then_keeps_the_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "a.txt", "x www.example.org y\n")
    other = tmp_path / "b.txt"
    os.link(path, other)
    assert cli.main(["rewrite", "--angle", "--in-place", str(path)]) == 1
    assert "has 2 hard links, which replacing it would split; not replaced" in capsys.readouterr().err
    assert cli.main(["rewrite", "--angle", "--in-place", "--force", str(path)]) == 0
    assert other.read_text(encoding="utf-8") == "x <www.example.org> y\n"
    assert os.path.samefile(path, other)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_in_place_keeps_the_owner_or_refuses_when_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "a.txt", "x www.example.org y\n")
    os.chown(path, 65534, 65534)
    assert cli.main(["rewrite", "--angle", "--in-place", str(path)]) == 0
    assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)
    os.chown(path, 65533, 65533)

    def refused(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refused)  # as for a user who may write the file but not give files away
    assert cli.main(["rewrite", "--unwrap", "--normalize", "--in-place", str(path)]) == 1
    assert "owned by 65533:65533, which replacing it would change; not replaced" in capsys.readouterr().err
    assert cli.main(["rewrite", "--normalize", "--in-place", "--force", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == "x <http://www.example.org/> y\n"
    assert (path.stat().st_uid, path.stat().st_gid) == (65533, 65533)


def test_a_later_run_removes_the_temporary_file_a_killed_run_left(tmp_path: Path) -> None:

    path = write(tmp_path, "a.txt", "x www.example.org y\n")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead, alive = linkkit_io.temporary_path(path, int(gone.stdout)), linkkit_io.temporary_path(path, os.getppid())
    unrelated = tmp_path / ".b.txt.linkkit-tmp-1x"
    for leftover in (dead, alive, unrelated):
        leftover.write_bytes(b"x" * 1000)
    assert cli.main(["rewrite", "--angle", "--in-place", str(path)]) == 0
    assert not dead.exists()  # its run was killed (SIGKILL leaves it): removed
    assert alive.exists() and unrelated.exists()  # another run still writing, and a file not ours: kept


APPENDED = b"appended meanwhile: http://late.example/\n"


def _appending(function: object, path: Path) -> object:
    """*function*, after which another program appends a line to *path*: the file changes while it is rewritten."""

    def wrapped(*args: object, **kwargs: object) -> object:
        result = function(*args, **kwargs)  # type: ignore[operator]
        with open(path, "ab") as appender:
            appender.write(APPENDED)
        return result

    return wrapped


@pytest.mark.parametrize(
    ("name", "content", "argv", "module", "function"),
    [
        ("a.txt", b"x www.example.org y\n", ["rewrite", "--angle", "--in-place"], cli, "_rewrite_from"),
        ("a.html", b"<!doctype html><a href=x>y</a>\n", ["absolutize", "--base", "http://h/", "--in-place"],
         batch_rewrite, "absolutized"),
        ("a.eml", b"From: a@b\nContent-Type: text/html\n\n<a href=x>y</a>\n",
         ["absolutize", "--base", "http://h/", "--in-place"], batch_rewrite, "rewrite_messages"),
    ],
)
def test_in_place_leaves_a_file_that_changed_while_it_was_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str, content: bytes,
    argv: list[str], module: object, function: str,
) -> None:
    path = write(tmp_path, name, content)
    monkeypatch.setattr(module, function, _appending(getattr(module, function), path))
    assert cli.main([*argv, str(path)]) == 1
    assert f"{path}: changed while it was being rewritten; left as it is now (run again)" in capsys.readouterr().err
    assert path.read_bytes() == content + APPENDED  # the line appended meanwhile is not lost
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_tree_rewritten_in_place_leaves_a_file_that_changed_after_its_first_bytes_were_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # rewrite -r reads a file's first bytes to tell it before its target is made: a change from then on counts
    tree = tmp_path / "site"
    tree.mkdir()
    path = write(tree, "a.txt", b"x www.example.org y\n")
    monkeypatch.setattr(batch_rewrite, "_treatment", _appending(batch_rewrite._treatment, path))
    assert cli.main(["rewrite", "-r", "--angle", "--in-place", "-j", "1", "-q", str(tree)]) == 1
    assert "changed while it was being rewritten" in capsys.readouterr().err
    assert path.read_bytes() == b"x www.example.org y\n" + APPENDED
    assert sorted(p.name for p in tree.iterdir()) == ["a.txt"]


@pytest.mark.parametrize(
    ("argv", "refused"),
    [
        (["extract", "-o", "in.txt", "in.txt"], "-o in.txt is also an input (in.txt)"),
        (["extract", "-o", "./in.txt", "other.txt", "in.txt"], "-o ./in.txt is also an input (in.txt)"),
        (["extract", "-o", "link.txt", "in.txt"], "-o link.txt is also an input (in.txt)"),
        (["extract", "--files-from", "list", "-o", "list"], "-o list is also an input (list)"),
        # a name the --files-from list holds is an input as much as one named on the line
        (["extract", "--force", "--files-from", "list", "-o", "in.txt"],
         "-o in.txt is also an input (in.txt, in list)"),
        (["extract", "--force", "-j", "2", "--files-from", "list", "-o", "link.txt"],
         "-o link.txt is also an input (in.txt, in list)"),
        (["rewrite", "--angle", "--files-from", "list", "-o", "hard.txt"],
         "-o hard.txt is also an input (in.txt, in list); use --in-place to rewrite a file in place"),
        (["absolutize", "--base", "http://h/", "--files-from", "list", "-o", "in.txt"],
         "-o in.txt is also an input (in.txt, in list); use --in-place to rewrite a file in place"),
        (["rewrite", "--angle", "--force", "-o", "hard.txt", "in.txt"],
         "-o hard.txt is also an input (in.txt); use --in-place to rewrite a file in place"),
        (["absolutize", "--base", "http://h/", "-o", "link.txt", "in.txt"],
         "-o link.txt is also an input (in.txt); use --in-place to rewrite a file in place"),
    ],
)
def test_an_output_that_is_an_input_by_any_name_is_refused_and_the_input_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], refused: str
) -> None:
    monkeypatch.chdir(tmp_path)
    content = b"see http://a.example/ here\n"
    for name in ("in.txt", "other.txt"):
        write(tmp_path, name, content)
    (tmp_path / "list").write_bytes(b"in.txt\n")
    (tmp_path / "link.txt").symlink_to("in.txt")
    os.link(tmp_path / "in.txt", tmp_path / "hard.txt")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert f"error: {refused}" in capsys.readouterr().err
    assert (tmp_path / "in.txt").read_bytes() == content
    assert (tmp_path / "list").read_bytes() == b"in.txt\n"


def test_output_file_gets_the_umask_mode_and_an_existing_one_keeps_its_mode(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "x www.example.org y\n")
    new, old = tmp_path / "new.txt", write(tmp_path, "old.txt", "")
    old.chmod(0o640)
    previous = os.umask(0o022)
    try:
        assert cli.main(["rewrite", "--angle", "-o", str(new), str(path)]) == 0
        assert cli.main(["rewrite", "--angle", "-o", str(old), str(path)]) == 0
    finally:
        os.umask(previous)
    assert new.stat().st_mode & 0o777 == 0o644
    assert old.stat().st_mode & 0o777 == 0o640
    assert old.read_text(encoding="utf-8") == "x <www.example.org> y\n"


# -- --version and subcommand usage ------------------------------------------------------------------------------------


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"linkkit {version('linkkit')}\n"
    assert linkkit.__version__ == version("linkkit")


@pytest.mark.parametrize("command", ["extract", "rewrite", "absolutize"])
def test_a_wrong_option_shows_the_usage_of_its_subcommand(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        base = ["--base", "http://example.com/"] if command != "rewrite" else []
        cli.main([command, *base, "--frobnicate", "x.txt"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: linkkit {command} ")
    assert err.endswith(f"linkkit {command}: error: unrecognized arguments: --frobnicate\n")


def test_max_length_cuts_a_long_reference_in_extract_and_rewrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.txt"
    path.write_text("see http://example.com/aaaaaaaaaa and more\n", encoding="utf-8")
    assert cli.main(["extract", "--max-length", "12", str(path)]) == 0
    assert capsys.readouterr().out == "http://examp\n"  # cut at 12 characters; the scan goes on after the cut
    assert cli.main(["rewrite", "--angle", "--max-length", "12", str(path)]) == 0
    assert capsys.readouterr().out == "see <http://examp>le.com/aaaaaaaaaa and more\n"
    with pytest.raises(SystemExit):
        cli.main(["extract", "--max-length", "0", str(path)])


def test_rewrite_refuses_binary_and_compressed_files_and_leaves_them_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"\x00\x01binary http://bin.example/ \x00\xff")
    packed = tmp_path / "notes.txt.gz"
    packed.write_bytes(gzip.compress(b"see http://a.example/ x\n"))
    before = {path: path.read_bytes() for path in (binary, packed)}
    assert cli.main(["rewrite", "--in-place", "--angle", str(binary), str(packed)]) == 1
    err = capsys.readouterr().err
    assert "bin.dat: binary; not rewritten" in err and "notes.txt.gz: gzip-compressed; not rewritten" in err
    assert {path: path.read_bytes() for path in before} == before


def test_rewrite_refuses_a_web_archive_whose_records_it_would_corrupt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A record rewritten as text no longer has the length its Content-Length says (nor its digests): the archive
    # read back was "truncated" at that record.
    archive = tmp_path / "crawl.warc"
    block = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nsee http://u:pw@h.example/?token=abcdef\n"
    archive.write_bytes(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n"
                        % (len(block), block))
    before = archive.read_bytes()
    for options in (["--angle"], ["--redact-query", "token", "--"], ["--defang"]):
        assert cli.main(["rewrite", "--in-place", *options, str(archive)]) == 1
        assert "crawl.warc: a web archive; not rewritten" in capsys.readouterr().err
        assert archive.read_bytes() == before


def test_absolutize_refuses_a_web_archive_and_a_compressed_file_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Made absolute as HTML, a WARC's records lost the lengths their Content-Length says (the archive read back had
    # "Invalid WARC header" errors), against a base none of its records was retrieved from; a gzip page came out as
    # it went in, with status 0.
    block = b'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href="page.html">p</a>'
    archive = tmp_path / "crawl.warc"
    archive.write_bytes(b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/\r\n"
                        b"Content-Length: %d\r\n\r\n%s\r\n\r\n" % (len(block), block))
    packed = tmp_path / "page.html.gz"
    packed.write_bytes(gzip.compress(b'<a href="page.html">p</a>'))
    page = tmp_path / "page.html"
    page.write_text('<a href="page.html">p</a>')
    before = {path: path.read_bytes() for path in (archive, packed)}
    argv = ["absolutize", "--base", "https://b.example/", "--in-place", str(archive), str(packed), str(page)]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "crawl.warc: a web archive; not rewritten" in err and "page.html.gz: gzip-compressed; not rewritten" in err
    assert {path: path.read_bytes() for path in before} == before
    assert page.read_text() == '<a href="https://b.example/page.html">p</a>'


def test_an_unreadable_files_from_list_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in (str(tmp_path / "missing.txt"), str(tmp_path)):  # no such file; a folder
        with pytest.raises(SystemExit) as stopped:
            cli.main(["extract", "--files-from", name])
        assert stopped.value.code == 2
        assert f"--files-from {name}:" in capsys.readouterr().err


def test_extract_refuses_an_output_file_inside_a_folder_it_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("http://a.example/\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        cli.main(["extract", "-r", str(tmp_path), "-o", str(tmp_path / "out.txt")])
    assert stopped.value.code == 2 and "would be read as input" in capsys.readouterr().err
    assert not (tmp_path / "out.txt").exists()


def test_the_max_length_help_names_the_scanners_own_default(capsys: pytest.CaptureFixture[str]) -> None:
    # the help writes the default out (the parser does not load the scanner): it must stay the scanner's
    from linkkit.text import ScanOptions

    with pytest.raises(SystemExit):
        cli.main(["extract", "--help"])
    assert f"(default {ScanOptions().max_length})" in " ".join(capsys.readouterr().out.split())


QUERY_TEXT = "see https://e.example/a?sid=1&token=2&x=3 now\n"
BOTH = "see https://e.example/a?sid=***&token=***&x=3 now\n"


@pytest.mark.parametrize(("argv", "expected"), [
    (["--redact-query", "token", "FILE"], "see https://e.example/a?sid=1&token=***&x=3 now\n"),
    (["--redact-query", "sid", "token", "FILE"], BOTH),  # issue 12's spelling: NAME... then the file
    (["--redact-query", "sid,token", "FILE"], BOTH),
    (["--redact-query", "sid", "--redact-query", "token", "FILE"], BOTH),
    (["FILE", "--redact-query", "sid", "token"], BOTH),
    (["--redact-query", "sid", "token", "--", "FILE"], BOTH),
    (["--redact-query", "sid", "FILE", "FILE"], "see https://e.example/a?sid=***&token=2&x=3 now\n" * 2),
])
def test_redact_query_takes_its_names_and_leaves_the_files_after_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    path = write(tmp_path, "notes.txt", QUERY_TEXT)
    assert cli.main(["rewrite", *[str(path) if arg == "FILE" else arg for arg in argv]]) == 0
    assert capsys.readouterr().out == expected
    assert path.read_text(encoding="utf-8") == QUERY_TEXT  # written to standard output, the file untouched


REPORT = ("C2 hxxp[:]//bot:pw@evil[.]example/gate?sid=9&x=1, then h**ps://u:pass@203.0.113[.]7/ and "
          "www[.]evil[.]example/?sid=8 (hXXp[://]admin:hunter2@c2(.)evil(dot)example/) http://a:b@ok.example/\n")


@pytest.mark.parametrize(("options", "keywords", "first"), [
    (["--redact"], {}, "C2 hxxp[:]//bot:***@evil[.]example/gate?sid=9&x=1, then h**ps://u:***@203.0.113[.]7/"),
    (["--redact", "--drop-userinfo"], {"drop_userinfo": True}, "C2 hxxp[:]//evil[.]example/gate?sid=9&x=1, then"),
    (["--redact-query", "sid", "--"], {"query": ["sid"]}, "C2 hxxp[:]//bot:***@evil[.]example/gate?sid=***&x=1,"),
])
@pytest.mark.parametrize("lines", [1, 2000])  # 2,000 lines: past the stream's reach with --max-length 100
@pytest.mark.parametrize("stdin", [False, True])
def test_rewrite_redact_masks_the_secrets_of_defanged_references_as_redact_text_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], options: list[str],
    keywords: dict[str, object], first: str, lines: int, stdin: bool,
) -> None:
    # a threat report's defanged URL carries the same password: the streamed rewrite read it without refanging
    # (hxxp[:]//bot:pw@evil[.]example/ kept pw), where linkkit.security.redact_text reads it refanged
    from linkkit.security import redact_text

    text = REPORT * lines
    path = write(tmp_path, "report.txt", text)
    if stdin:
        set_stdin(monkeypatch, text.encode())
    assert cli.main(["rewrite", "--max-length", "100", *options, "-" if stdin else str(path)]) == 0
    out = capsys.readouterr().out
    # each line on its own, as redact_text masks it (a failing comparison of the whole text would be slow to show)
    assert set(out.splitlines(keepends=True)) == {redact_text(REPORT, **keywords)}  # type: ignore[arg-type]
    assert len(out) == len(redact_text(REPORT, **keywords)) * lines  # type: ignore[arg-type]
    assert out.startswith(first)
    assert "pw@" not in out and "hunter2" not in out and "pass@" not in out
    assert path.read_text(encoding="utf-8") == text  # written to standard output, the file untouched


def test_rewrite_redact_masks_the_defanged_references_of_an_html_pages_visible_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # as redact_html does (html.rewrite refang=True): the page's text kept hxxp[:]//bot:pw@evil[.]example/'s password
    page = ('<p>C2 hxxp[:]//bot:pw@evil[.]example/ and <a href="http://u:pw2@a.example/?sid=1">'
            "hxxp://u:pw2@a[.]example/?sid=1</a></p>\n")
    path = write(tmp_path, "report.html", page)
    assert cli.main(["rewrite", "--redact-query", "sid", "--", str(path)]) == 0
    assert capsys.readouterr().out == (
        '<p>C2 hxxp[:]//bot:***@evil[.]example/ and <a href="http://u:***@a.example/?sid=***">'
        "hxxp://u:***@a[.]example/?sid=***</a></p>\n")
    assert path.read_text(encoding="utf-8") == page


HIDDEN_PAGE = ('<title>http://u:pw@t.example/</title><img src=a.png alt="see http://u:pw@a.example/x">'
               "<!-- http://u:pw@c.example/ --><script>u='http://u:pw@j.example/'</script>"
               "<iframe srcdoc=\"&lt;a href='http://u:pw@i.example/'&gt;x&lt;/a&gt;\"></iframe>\n")


@pytest.mark.parametrize("name", ["page.html", "page.eml"])
def test_rewrite_redact_masks_what_a_page_carries_unshown_as_redact_html_does(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], name: str
) -> None:
    # html.rewrite(hidden=True), redaction's reach: <title>, alt, a comment, a script and an iframe srcdoc kept pw,
    # in an HTML file and in a message's HTML part alike
    head = b"From: a@example.org\nContent-Type: text/html; charset=utf-8\n\n" if name.endswith(".eml") else b""
    data = head + HIDDEN_PAGE.encode()
    path = write(tmp_path, name, data)
    assert cli.main(["rewrite", "--redact", str(path)]) == 0
    out = capsysbinary.readouterr().out
    assert out == data.replace(b":pw@", b":***@") and out.count(b":***@") == 5
    assert path.read_bytes() == data


@pytest.mark.parametrize("name", ["report.eml", "reports.mbox"])
def test_rewrite_redact_masks_the_defanged_references_of_a_message_as_redact_message_does(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], name: str
) -> None:
    # mail.rewrite(refang=True): a message's text part and Subject kept hxxp[:]//bot:pw@evil[.]example/'s password
    message = (b"From: a@example.org\r\nSubject: C2 hxxp[:]//s:pw@evil[.]example/\r\nContent-Type: text/plain\r\n"
               b"\r\nC2 hxxp[:]//bot:pw@evil[.]example/?sid=1 and http://u:pw@ok.example/\r\n")
    data = b"From a@example.org Mon Jan  1 00:00:00 2024\r\n" + message if name.endswith(".mbox") else message
    path = write(tmp_path, name, data)
    assert cli.main(["rewrite", "--redact-query", "sid", "--", str(path)]) == 0
    out = capsysbinary.readouterr().out
    assert out == data.replace(b":pw@", b":***@").replace(b"sid=1", b"sid=***")
    assert path.read_bytes() == data


@pytest.mark.parametrize("part", [
    b"Content-Type: text/plain\n\nIOC: hxxps://evil[.]example/a and http://ok.example/b\n",
    b"Content-Type: text/html\n\n<p>IOC: hxxps://evil[.]example/a &amp; <a href=http://ok.example/b>b</a>\n",
])
def test_extract_refang_reads_a_messages_text_parts_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], part: bytes
) -> None:
    # an analyst's reports come by mail: a message's plain text and an HTML part's visible text are refanged alike
    path = write(tmp_path, "report.eml", b"From: a@example.org\nSubject: IOC\n" + part)
    assert cli.main(["extract", "--refang", "--format", "jsonl", str(path)]) == 0
    records = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert [(r["raw"], r["uri"]) for r in records] == [
        ("hxxps://evil[.]example/a", "https://evil.example/a"), ("http://ok.example/b", "http://ok.example/b")]
    start = part.index(b"hxxps") - part.index(b"\n\n") - 2
    assert records[0]["span"] == [start, start + 24]
    assert cli.main(["extract", str(path)]) == 0  # without --refang, the defanged spelling is no reference of it
    assert "https://evil.example/a" not in capsys.readouterr().out


@pytest.mark.parametrize("stored", ["plain", "gzip"])
@pytest.mark.parametrize("size", [1, 2000])  # 2,000 lines: past the first bytes, read as a stream from its path
def test_extract_refang_reads_defanged_references_of_a_text_held_whole_or_streamed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], stored: str, size: int
) -> None:
    # issue 12: with refanging the scanner finds them, .uri refanged, .raw and .span() as written
    line = "IOC: hxxps://evil[.]example/a and http://ok.example/b\n"
    data = (line * size).encode()
    path = write(tmp_path, "report.txt" + (".gz" if stored == "gzip" else ""),
                 gzip.compress(data) if stored == "gzip" else data)
    assert cli.main(["extract", "--refang", "--format", "jsonl", str(path)]) == 0
    records = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert [(r["raw"], r["uri"]) for r in records] == [
        ("hxxps://evil[.]example/a", "https://evil.example/a"), ("http://ok.example/b", "http://ok.example/b")] * size
    assert records[-2]["span"] == [len(line) * (size - 1) + 5, len(line) * (size - 1) + 29]
    assert (records[-2]["line"], records[-2]["column"]) == (size, 6)
