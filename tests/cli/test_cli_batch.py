"""The command line in batch: output formats, -o, --unique, errors as records, progress and summary, and
rewriting a tree of files (absolutize -r, rewrite -r), each file atomically."""

from __future__ import annotations

import csv
import errno
import gzip
import io
import json
import os
import stat
import select
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from linkkit import cli
from linkkit.batch import drivers
from linkkit.batch import extract as batch_extract
from linkkit.batch.extract import extract_all
from linkkit.batch.formats import COLUMNS
from linkkit.batch.rewrite import retrieval_url
from linkkit.sources import Document, inputs


def main(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> tuple[str, str]:
    assert cli.main(list(argv)) == status
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.fixture
def texts(tmp_path: Path) -> Path:
    root = tmp_path / "texts"
    root.mkdir()
    (root / "a.txt").write_text('one http://a.example/x\ttab and\n"http://b.example/q,uote"\n')
    (root / "b.txt").write_text("again http://a.example/x and http://c.example/\n")
    return root


def test_tsv_and_csv_have_a_header_and_one_row_per_link(texts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = main(capsys, "extract", "--format", "tsv", "-q", "-r", str(texts))
    lines = out.splitlines()
    assert lines[0].split("\t") == list(COLUMNS)
    rows = [dict(zip(COLUMNS, line.split("\t"), strict=True)) for line in lines[1:]]
    assert [(row["uri"], row["line"], row["column"], row["start"]) for row in rows] == [
        ("http://a.example/x", "1", "5", "4"), ("http://b.example/q,uote", "2", "2", "32"),
        ("http://a.example/x", "1", "7", "6"), ("http://c.example/", "1", "30", "29"),
    ]
    out, _ = main(capsys, "extract", "--format", "csv", "-q", "-r", str(texts))
    table = list(csv.DictReader(io.StringIO(out)))
    assert [row["uri"] for row in table] == [row["uri"] for row in rows]
    assert table[0]["input"] == str(texts / "a.txt") and table[0]["kind"] == "uri"


def test_tsv_escapes_tabs_and_line_breaks_inside_a_field() -> None:
    from linkkit.batch.formats import tsv_line

    line = tsv_line({"input": "a\tb\nc\\d", "uri": "http://x/", "span": [1, 2]})
    assert "\n" not in line and line.split("\t")[0] == "a\\tb\\nc\\\\d"


def test_plain_is_the_default_and_text_its_old_name(texts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain, _ = main(capsys, "extract", "-q", "-r", str(texts))
    old, _ = main(capsys, "extract", "--format", "text", "-q", "-r", str(texts))
    assert plain == old == "http://a.example/x\nhttp://b.example/q,uote\nhttp://a.example/x\nhttp://c.example/\n"


def test_unique_keeps_the_first_occurrence_across_files(texts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = main(capsys, "extract", "--unique", "-q", "-r", str(texts))
    assert out.splitlines() == ["http://a.example/x", "http://b.example/q,uote", "http://c.example/"]


def test_output_file_gets_the_records(texts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "links.jsonl"
    out, _ = main(capsys, "extract", "--format", "jsonl", "-o", str(target), "-q", "-r", str(texts))
    assert out == ""
    records = [json.loads(line) for line in target.read_text().splitlines()]
    assert [r["uri"] for r in records] == ["http://a.example/x", "http://b.example/q,uote", "http://a.example/x",
                                           "http://c.example/"]


def test_a_failed_input_is_an_error_record_in_its_place_on_stderr_too_and_exit_1(
    texts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = texts / "missing.txt"
    out, err = main(capsys, "extract", "--format", "jsonl", str(texts / "a.txt"), str(missing), str(texts / "b.txt"),
                    status=1)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["kind"] for r in records] == ["uri", "uri", "error", "uri", "uri"]
    error = records[2]
    assert (error["input"], error["uri"]) == (str(missing), None)
    assert error["error"] == f"{missing}: No such file or directory"
    assert list(error)[:10] == ["input", "line", "column", "span", "unit", "kind", "where", "raw", "uri", "base"]
    assert f"linkkit: error: {missing}: No such file or directory" in err
    # plain output stays one URI per line: the error is on standard error only
    out, _ = main(capsys, "extract", str(missing), str(texts / "b.txt"), status=1)
    assert out == "http://a.example/x\nhttp://c.example/\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_compressed_document_larger_than_can_be_held_is_an_error_and_the_batch_goes_on(
    texts: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    """A bomb: HTML and messages are held whole, so one that decompresses past linkkit.io.HELD_LIMIT is an error of
    its input (memory stays bounded by the limit); the links before it and the other inputs are still given."""
    limit = 10_000
    for module in ("linkkit.io", "linkkit.mail.mailbox", "linkkit.sources.inputs"):
        monkeypatch.setattr(f"{module}.HELD_LIMIT", limit)
    page = texts / "page.html.gz"
    page.write_bytes(gzip.compress(b"<!doctype html><a href=http://p.example/>" + b"a" * 3 * limit))
    box = texts / "box.mbox.gz"
    box.write_bytes(gzip.compress(
        b"From a@example.org Mon Nov 16 09:00:00 2026\nSubject: s\n\nhttp://m.example/\n\n"
        b"From a@example.org Mon Nov 16 09:00:00 2026\nSubject: big\n\n" + b"a" * 3 * limit
    ))
    names = [str(texts / "a.txt"), str(page), str(box), str(texts / "b.txt")]
    out, err = main(capsys, "extract", "--format", "jsonl", "-q", "-j", jobs, *names, status=1)
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["kind"], r["uri"]) for r in records] == [
        ("uri", "http://a.example/x"), ("uri", "http://b.example/q,uote"), ("error", None),
        ("uri", "http://m.example/"), ("error", None), ("uri", "http://a.example/x"), ("uri", "http://c.example/"),
    ]
    too_large = "larger than 10000 bytes, the most held whole: not read past it"
    assert records[2]["error"] == f"{page}: an HTML document {too_large}"
    assert records[4]["error"] == f"{box}: message 1 at offset 75: a message {too_large}"
    assert f"linkkit: error: {page}: an HTML document {too_large}" in err


def test_html_on_standard_input_larger_than_can_be_held_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    limit = 100_000  # more than standard input's first read, so that the rest is read and counted
    for module in ("linkkit.io", "linkkit.sources.inputs"):
        monkeypatch.setattr(f"{module}.HELD_LIMIT", limit)
    page = gzip.compress(b"<!doctype html><a href=http://p.example/>" + b"a" * 3 * limit)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(page), encoding="utf-8"))
    out, err = main(capsys, "extract", "-q", status=1)
    assert out == ""
    assert "linkkit: error: <stdin>: an HTML document larger than 100000 bytes, the most held whole" in err


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        (["extract", "-j", "1"], "http://a.example/x\nhttp://b.example/q,uote\nhttp://a.example/x\nhttp://c.example/\n"),
        (["extract", "-j", "2"], "http://a.example/x\nhttp://b.example/q,uote\nhttp://a.example/x\nhttp://c.example/\n"),
        (["extract", "-r"], "http://a.example/x\nhttp://b.example/q,uote\nhttp://a.example/x\nhttp://c.example/\n"),
        (["rewrite"], None),
        (["absolutize", "--base", "http://h/"], None),
    ],
)
def test_a_listed_name_holding_a_nul_byte_is_an_error_of_that_name_and_the_others_go_on(
    texts: Path, capsys: pytest.CaptureFixture[str], argv: list[str], out: str | None
) -> None:
    # A list read by lines (no -0) with a NUL inside a name: a traceback (ValueError: embedded null byte) before.
    listing = texts.parent / "list"
    listing.write_bytes(b"%s\nx\0y\n%s\n" % (bytes(texts / "a.txt"), bytes(texts / "b.txt")))
    got, err = main(capsys, *argv, "-q", "--files-from", str(listing), status=1)
    expected = "".join((texts / name).read_text() for name in ("a.txt", "b.txt")) if out is None else out
    assert got == expected
    assert err == ("linkkit: error: x\0y: no file name holds a NUL byte (--files-from -0 reads a list of NUL-separated "
                   "names)\n")


@pytest.mark.parametrize(("command", "name", "content", "rewritten"), [
    (["rewrite", "--angle"], "a.txt", "see www.example.org\n", "see <www.example.org>\n"),
    (["absolutize", "--base", "http://h/"], "a.html", '<a href="x">x</a>', '<a href="http://h/x">x</a>'),
])
@pytest.mark.parametrize("null", [False, True])
def test_in_place_rewrites_the_files_a_files_from_list_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str],
    name: str, content: str, rewritten: str, null: bool,
) -> None:
    # find ... -print0 | linkkit rewrite --files-from - -0 --in-place: "--in-place needs file names" (status 2)
    (tmp_path / "one").mkdir()
    paths = [tmp_path / name, tmp_path / "one" / name]
    for path in paths:
        path.write_text(content)
    separator = b"\0" if null else b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"".join(bytes(p) + separator for p in paths))))
    main(capsys, *command, "--in-place", "--files-from", "-", *(["-0"] if null else []))
    assert [path.read_text() for path in paths] == [rewritten, rewritten]


@pytest.mark.parametrize(("argv", "refused"), [
    # the names of the list are inputs as those on the line are: -o took the last one's output alone, status 0
    (["absolutize", "--base", "http://h/", "--files-from", "{list}", "-o", "{out}"], "-o/--output takes one input"),
    # an HTML file named in the list needs --base as one named on the line does (each one was an error, status 1)
    (["absolutize", "--files-from", "{list}", "--in-place"], "--base is required for HTML inputs"),
    (["rewrite", "--files-from", "{empty}", "--in-place"], "--in-place needs file names"),
])
def test_the_usage_checks_of_rewrite_and_absolutize_read_the_names_of_the_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], refused: str,
) -> None:
    pages = [tmp_path / "a.html", tmp_path / "b.html"]
    for page in pages:
        page.write_text('<a href="x">x</a>')
    listing, empty, out = tmp_path / "list", tmp_path / "empty", tmp_path / "out.html"
    listing.write_bytes(b"".join(bytes(page) + b"\n" for page in pages))
    empty.write_bytes(b"")
    with pytest.raises(SystemExit) as stop:
        cli.main([arg.format(list=listing, empty=empty, out=out) for arg in argv])
    assert stop.value.code == 2
    assert refused in capsys.readouterr().err
    assert not out.exists() and all(page.read_text() == '<a href="x">x</a>' for page in pages)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_output_inside_a_folder_the_list_names_for_r_is_refused(
    texts: Path, capsys: pytest.CaptureFixture[str], jobs: str,
) -> None:
    # as when the folder is named on the line: each run read the previous run's output back (and its temporary)
    listing, out = texts.parent / "list", texts / "links.txt"
    listing.write_bytes(bytes(texts) + b"\n")
    with pytest.raises(SystemExit) as stop:
        cli.main(["extract", "-r", "-q", "-j", jobs, "--files-from", str(listing), "-o", str(out)])
    assert stop.value.code == 2
    assert f"-o {out} is inside {texts}, which -r reads" in capsys.readouterr().err
    assert sorted(path.name for path in texts.iterdir()) == ["a.txt", "b.txt"]


def _die_on_b(documents: list[Document], options: Any) -> Any:
    if any(document.name.endswith("b.txt") for document in documents):
        os._exit(3)  # a worker killed (out of memory, a signal) returns nothing
    return extract_all(documents, options)


@pytest.mark.parametrize("output", [False, True])
def test_a_worker_that_dies_ends_the_run_with_an_error_naming_it_and_no_output_file(
    texts: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, output: bool,
) -> None:
    # a traceback on standard output; with -o, "linkkit: error: OUT: cannot write: a worker process ended ..."
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    monkeypatch.setattr(batch_extract, "extract_all", _die_on_b)
    out = texts.parent / "out.txt"
    _, err = main(capsys, "extract", "-r", "-q", "-j", "2", str(texts), *(["-o", str(out)] if output else []),
                  status=1)
    assert err == "linkkit: error: --jobs: a worker process ended without returning its results\n"
    assert not out.exists() and sorted(path.name for path in texts.parent.iterdir()) == ["texts"]


def test_a_summary_line_ends_a_batch_and_quiet_drops_it(texts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (texts / "data.bin").write_bytes(b"\x00\x01http://hidden.example/")
    _, err = main(capsys, "extract", "-r", str(texts))
    [summary] = err.splitlines()
    assert summary.startswith("linkkit: 3 file(s), 2 record(s), 4 link(s), ")
    assert summary.endswith("1 binary file(s) skipped, 0 error(s)")
    assert "MB/s" in summary
    assert main(capsys, "extract", "-r", "-q", str(texts))[1] == ""


@pytest.mark.parametrize("whole", [1 << 20, 100])
def test_every_job_count_gives_the_same_output_messages_and_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], whole: int
) -> None:
    # A file under WHOLE_SIZE is told by the process that reads it (with --jobs 2 a worker, whose binary files,
    # records and errors travel back); a larger one by the main process, which splits a mailbox into messages.
    root = tmp_path / "in"
    root.mkdir()
    (root / "a.txt").write_text("see http://a.example/\n")
    (root / "b.bin").write_bytes(b"\x00\x01 http://hidden.example/")
    (root / "c.mbox").write_bytes(b"".join(b"From x@y Mon Nov 16 09:00:00 2026\nSubject: %d\n\nhttp://c.example/%d\n\n"
                                           % (index, index) for index in range(3)))
    (root / "d.txt").write_bytes(b"bad \xff byte http://d.example/\n")
    (root / "e.html").write_text('<a href="http://e.example/">e</a>')
    (root / "f.txt.gz").write_bytes(b"\x1f\x8b" + b"not gzip" * 4)
    monkeypatch.setattr(inputs, "WHOLE_SIZE", whole)
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 2)  # several chunks: --jobs 2 starts its pool
    seen = {}
    for jobs in ("1", "2"):
        out, err = main(capsys, "extract", "--format", "jsonl", "-r", "-j", jobs, str(root), status=1)
        *messages, summary = err.splitlines()
        seen[jobs] = out, messages, summary.split(" MB in ")[0], summary.split(" MB/s), ")[1]
    assert seen["1"] == seen["2"]
    out, messages, counts, skipped = seen["1"]
    assert [json.loads(line)["uri"] for line in out.splitlines()] == [
        "http://a.example/", "http://c.example/0", "http://c.example/1", "http://c.example/2", "http://d.example/",
        "http://e.example/", None]
    assert counts.startswith("linkkit: 6 file(s), 7 record(s), 6 link(s), ")
    assert skipped == "1 binary file(s) skipped, 1 error(s)"
    assert "d.txt:1:5: warning" in messages[0] and "f.txt.gz" in messages[1]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_only(texts: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli.main(["extract", str(texts / "a.txt")]) == 0
    shown = terminal.getvalue()
    assert "linkkit" in shown and "\r" in shown  # tqdm's bar, redrawn in place
    assert "1 file(s), 1 record(s), 2 link(s)" in shown  # the summary, on a terminal even for one file
    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    assert cli.main(["extract", "-q", str(texts / "a.txt")]) == 0
    assert quiet.getvalue() == ""



@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def _all_written(master: int) -> bytes:
    """What was written to the pseudo-terminal whose master is *master*: one read may return the first write only."""
    pieces = []
    while select.select([master], [], [], 0.2)[0]:
        pieces.append(os.read(master, 65536))
    return b"".join(pieces)


def test_progress_is_drawn_on_a_terminal_that_tells_no_width(texts: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a pseudo-terminal never sized (0 columns, as a container's may be): tqdm followed its width and drew nothing
    master, slave = os.openpty()
    terminal = io.TextIOWrapper(io.FileIO(slave, "w", closefd=True), encoding="utf-8", line_buffering=True)
    monkeypatch.setattr(sys, "stderr", terminal)
    try:
        assert os.get_terminal_size(slave).columns == 0
        assert cli.main(["extract", "-o", os.devnull, str(texts / "a.txt")]) == 0
        terminal.flush()
        shown = _all_written(master).decode("utf-8")
    finally:
        terminal.close()
        os.close(master)
    assert "linkkit: 0.00B [00:00" in shown  # the bar, which the summary line below follows
    assert "1 file(s), 1 record(s), 2 link(s)" in shown

# -- a tree of files ---------------------------------------------------------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "docs" / "a b").mkdir(parents=True)
    (root / "index.html").write_text('<a href="docs/">docs</a><img src="logo.png">')
    (root / "docs" / "a b" / "page.html").write_text('<a href="../../index.html">home</a> <a href="#top">top</a>')
    (root / "docs" / "notes.txt").write_text("read http://example.org/x and more\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return root


def test_each_file_gets_the_url_its_path_under_the_root_implies() -> None:
    assert retrieval_url("https://site.example/", "/s", "/s/docs/a b/page.html") == (
        "https://site.example/docs/a%20b/page.html")
    assert retrieval_url("https://site.example/export", "/s", "/s/index.html") == (
        "https://site.example/export/index.html")
    assert retrieval_url("https://site.example/", "/s", "/s/c%d#e?.html") == "https://site.example/c%25d%23e%3F.html"
    # RFC 3986 4.2: a first segment with a ":" would read as a scheme ("colon:top.html" stayed as it was).
    assert retrieval_url("https://site.example/", "/s", "/s/colon:top.html") == "https://site.example/colon:top.html"
    assert retrieval_url("https://site.example/", "/s", "/s/d/a:b.html") == "https://site.example/d/a:b.html"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_r_with_a_base_resolves_each_file_against_the_url_its_path_under_the_folder_implies(
    site: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    """As absolutize -r gives each file of a site export its URL (issue 10), extract -r --base: a page in docs/a b/
    was resolved against the folder's URL itself (../../index.html went above the site, #top named the folder)."""
    (site / "docs" / "mail.eml").write_bytes(b"From: a@b.example\nContent-Type: text/html\n\n<a href='m.html'>m</a>\n")
    out, _ = main(capsys, "extract", "-r", "-q", "-j", jobs, "--base-url", "https://site.example/export", str(site))
    assert out.splitlines() == [
        "https://site.example/export/index.html",  # ../../index.html from docs/a b/page.html
        "https://site.example/export/docs/a%20b/page.html#top",
        "https://site.example/export/docs/m.html",  # a message's retrieval URL is its file's (RFC 2557 5)
        "http://example.org/x",
        "https://site.example/export/docs/",
        "https://site.example/export/logo.png",
    ]


def test_extract_r_with_a_base_gives_a_file_named_the_base_itself(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = site / "docs" / "a b" / "page.html"
    out, _ = main(capsys, "extract", "-r", "-q", "--base-url", "https://site.example/p.html", str(page))
    assert out.splitlines() == ["https://site.example/index.html", "https://site.example/p.html#top"]


@pytest.mark.parametrize("base_url", ["https://site.example/sub?lang=en", "https://site.example/sub#top",
                                      "https://site.example/sub/?lang=en"])
def test_a_base_url_with_a_query_or_fragment_names_its_folder(base_url: str) -> None:
    # the "/" of a folder was added after the query or fragment, so every file resolved against the host's root
    assert retrieval_url(base_url, "/s", "/s/docs/page.html") == "https://site.example/sub/docs/page.html"


def test_absolutize_r_into_a_mirror_makes_a_site_export_absolute(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {path: path.read_bytes() for path in site.rglob("*") if path.is_file()}
    mirror = tmp_path / "mirror"
    main(capsys, "absolutize", "-r", str(site), "--base-url", "https://site.example/", "-o", str(mirror), "-q")
    assert (mirror / "index.html").read_text() == (
        '<a href="https://site.example/docs/">docs</a><img src="https://site.example/logo.png">')
    assert (mirror / "docs" / "a b" / "page.html").read_text() == (
        '<a href="https://site.example/index.html">home</a> '
        '<a href="https://site.example/docs/a%20b/page.html#top">top</a>')
    assert (mirror / "docs" / "notes.txt").read_bytes() == before[site / "docs" / "notes.txt"]  # copied as it is
    assert (mirror / "logo.png").read_bytes() == before[site / "logo.png"]
    assert {path: path.read_bytes() for path in site.rglob("*") if path.is_file()} == before  # the tree untouched


@pytest.mark.parametrize("command", [["absolutize", "--base-url", "https://site.example/"], ["rewrite", "--angle"]])
def test_a_mirror_keeps_each_files_mode_rewritten_or_copied(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # a private page (0600) came out of absolutize -r world-readable (0666 less the umask) when it was rewritten;
    # a file copied as it is kept its mode
    modes = {site / "index.html": 0o600, site / "docs" / "notes.txt": 0o640, site / "logo.png": 0o604}
    for path, mode in modes.items():
        path.chmod(mode)
    mirror = tmp_path / "mirror"
    main(capsys, command[0], "-r", str(site), *command[1:], "-o", str(mirror), "-q")
    assert {path: stat.S_IMODE((mirror / path.relative_to(site)).stat().st_mode) for path in modes} == modes


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_mirror_holds_the_symbolic_links_of_the_tree_as_links(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # not followed (no -L), a link was left out of the mirror: the site's alias pages and folders were missing
    (site / "home.html").symlink_to("index.html")
    (site / "latest").symlink_to("docs")
    mirror = tmp_path / "mirror"
    main(capsys, "absolutize", "-r", str(site), "--base-url", "https://site.example/", "-o", str(mirror), "-q",
         "-j", jobs)
    assert [(os.readlink(mirror / name), (mirror / name).is_symlink()) for name in ("home.html", "latest")] == [
        ("index.html", True), ("docs", True)]
    assert (mirror / "home.html").read_text().startswith('<a href="https://site.example/docs/">')
    main(capsys, "absolutize", "-r", str(site), "--base-url", "https://site.example/", "-o", str(mirror), "-q",
         "-j", jobs)  # into the same mirror again: each link made again in place
    assert os.readlink(mirror / "latest") == "docs"


@pytest.mark.parametrize("command", [["absolutize", "--base-url", "https://site.example/"], ["rewrite", "--angle"]])
def test_a_mirror_onto_an_existing_file_is_a_usage_error(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # each file's folder was made with mkdir: a traceback (FileExistsError), the output file left as it was
    taken = tmp_path / "links.txt"
    taken.write_text("kept\n")
    with pytest.raises(SystemExit) as stop:
        cli.main([command[0], "-r", str(site), *command[1:], "-o", str(taken), "-q"])
    assert stop.value.code == 2
    assert f"-o {taken} is no folder" in capsys.readouterr().err
    assert taken.read_text() == "kept\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_mirror_folder_that_cannot_be_made_is_an_error_naming_it_not_a_traceback(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # a file where the mirror's root or one of its folders goes: mkdir's OSError ended the run in a traceback
    (tmp_path / "plain").write_text("a file\n")
    _, err = main(capsys, "absolutize", "-r", str(site), "--base-url", "https://site.example/", "-o",
                  str(tmp_path / "plain" / "mirror"), "-q", "-j", jobs, status=1)
    assert err == f"linkkit: error: {tmp_path / 'plain' / 'mirror'}: cannot make the folder: Not a directory\n"
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "docs").write_text("in the way\n")
    _, err = main(capsys, "absolutize", "-r", str(site), "--base-url", "https://site.example/", "-o", str(mirror),
                  "-q", "-j", jobs, status=1)
    assert err.splitlines() == [f"linkkit: error: {mirror / 'docs' / 'a b'}: cannot make the folder: Not a directory",
                                f"linkkit: error: {mirror / 'docs'}: cannot make the folder: File exists"]
    assert sorted(path.name for path in mirror.iterdir()) == ["docs", "index.html", "logo.png"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_r_with_follow_skips_a_link_to_a_fifo_or_a_device_as_it_skips_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # "sockets and FIFOs are skipped" held for the entries themselves only: followed (-L), a link to a FIFO was
    # opened, which waits for a writer for ever, and a link to a device was read (GNU grep -r skips them)
    root = tmp_path / "tree"
    root.mkdir()
    (root / "a.txt").write_text("see http://a.example/\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (root / "to-fifo").symlink_to(fifo)
    (root / "to-null").symlink_to(os.devnull)
    opened = threading.Event()
    done = threading.Event()

    def release() -> None:  # a reader that opened the FIFO gets its end of file, so that a failure is no hang
        while not done.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # no reader (ENXIO)
                done.wait(0.01)
                continue
            opened.set()
            return

    guard = threading.Thread(target=release, daemon=True)
    guard.start()
    try:
        out, err = main(capsys, "extract", "-r", "-L", "-j", jobs, str(root))
    finally:
        done.set()
        guard.join()
    assert not opened.is_set()
    assert out == "http://a.example/\n"
    assert "linkkit: 1 file(s), 1 record(s), 1 link(s)" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_in_place_with_follow_rewrites_a_linked_file_once_against_its_own_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str,
) -> None:
    # alias.html -> d/p.html came first by name: d/p.html's links were resolved against /alias.html
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    (site / "d").mkdir(parents=True)
    elsewhere.mkdir()
    (site / "d" / "p.html").write_text('<a href="x.html">x</a>')
    (site / "alias.html").symlink_to(Path("d", "p.html"))
    (site / "dlink").symlink_to("d")
    (elsewhere / "e.html").write_text('<a href="y.html">y</a>')
    (site / "e1.html").symlink_to(elsewhere / "e.html")
    (site / "e2.html").symlink_to(elsewhere / "e.html")
    _, err = main(capsys, "absolutize", "-r", "-L", "--in-place", "-j", jobs, "--base-url", "https://s.example/",
                  str(site))
    assert (site / "d" / "p.html").read_text() == '<a href="https://s.example/d/x.html">x</a>'
    # outside the tree: under the first link met, once
    assert (elsewhere / "e.html").read_text() == '<a href="https://s.example/y.html">y</a>'
    assert err.startswith("linkkit: 2 file(s), 2 record(s), 2 link(s), ")
    assert (site / "alias.html").is_symlink() and (site / "dlink").is_symlink() and (site / "e1.html").is_symlink()


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("command", [["absolutize", "--base-url", "https://site.example/"], ["rewrite", "--angle"]])
def test_a_mirror_holds_the_empty_folders_of_the_tree_and_a_maildirs_three_folders(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], jobs: str,
) -> None:
    # as cp -R and rsync -a make them: a mirrored Maildir had cur/ alone, no Maildir to a mail reader
    (site / "empty" / "deeper").mkdir(parents=True)
    maildir = site / "mail"
    for folder in ("cur", "new", "tmp"):
        (maildir / folder).mkdir(parents=True)
    (maildir / "cur" / "1.eml").write_bytes(b"From: a@example.org\nSubject: s\n\nsee http://mail.example/x\n")
    (maildir / "tmp" / "2.eml").write_bytes(b"From: a@example.org\nSubject: half delivered\n")
    mirror = tmp_path / "mirror"
    main(capsys, *command, "-r", str(site), "-o", str(mirror), "-q", "-j", jobs)
    folders = sorted(path.relative_to(mirror).as_posix() for path in mirror.rglob("*") if path.is_dir())
    assert folders == ["docs", "docs/a b", "empty", "empty/deeper", "mail", "mail/cur", "mail/new", "mail/tmp"]
    assert list((maildir / "tmp").iterdir()) and not list((mirror / "mail" / "tmp").iterdir())  # being delivered


@pytest.mark.parametrize("how", ["named", "tree in place", "tree mirrored"])
def test_a_compressed_maildir_message_is_written_back_compressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    # Dovecot's zlib plugin stores a Maildir's message files compressed (flag Z): one rewritten came out as plain
    # text under its Z name (named) or was read as a mail file (the tree)
    message = b"From: a@example.org\nContent-Type: text/html\nContent-Base: http://h.example/\n\n<a href=x>x</a>\n"
    tree = tmp_path / "tree"
    for folder in ("cur", "new", "tmp"):
        (tree / "mail" / folder).mkdir(parents=True)
    stored = tree / "mail" / "cur" / "1700000000.M1P1.host,S=60:2,SZ"
    stored.write_bytes(gzip.compress(message))
    mirror = tmp_path / "mirror"
    argv = {"named": [str(tree / "mail"), "--in-place"], "tree in place": ["-r", str(tree), "--in-place"],
            "tree mirrored": ["-r", str(tree), "-o", str(mirror)]}[how]
    main(capsys, "absolutize", "--base-url", "https://site.example/", "-q", *argv)
    written = mirror / stored.relative_to(tree) if how == "tree mirrored" else stored
    assert gzip.decompress(written.read_bytes()) == message.replace(b"href=x", b"href=http://h.example/x")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_apple_mail_bundle_named_is_the_mbox_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # Apple Mail exports a mailbox as NAME.mbox/ holding the file mbox (beside Info.plist): named, it was refused
    # ("Is a directory") by extract, absolutize and rewrite alike
    bundle = tmp_path / "Inbox.mbox"
    bundle.mkdir()
    (bundle / "mbox").write_bytes(b"From a@example.org Mon Nov 16 09:00:00 2026\nContent-Type: text/html\n"
                                  b"Content-Base: http://h.example/\n\n<a href=x>x</a>\n")
    (bundle / "Info.plist").write_text('<!DOCTYPE plist SYSTEM "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n')
    out, _ = main(capsys, "extract", "--format", "jsonl", "-j", jobs, str(bundle))
    assert [(record["input"], record["uri"]) for record in map(json.loads, out.splitlines())] == [
        (str(bundle / "mbox"), "http://h.example/x")]
    main(capsys, "absolutize", "--base", "https://s.example/", "--in-place", str(bundle))
    assert (bundle / "mbox").read_bytes().endswith(b"<a href=http://h.example/x>x</a>\n")
    out, _ = main(capsys, "rewrite", "--angle", str(bundle))
    assert out == (bundle / "mbox").read_text()  # read as the mailbox (its HTML part is absolutize's)


def test_absolutize_r_in_place_rewrites_each_file_and_a_failure_leaves_that_file_as_it_was(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = site / "docs" / "a b" / "page.html"
    old = locked.read_bytes()
    locked.chmod(0o444)  # read-only: not replaced without --force, for every user (replacing() checks the mode)
    _, err = main(capsys, "absolutize", "-r", str(site), "--base", "https://site.example/", "--in-place", "-q",
                  status=1)
    assert f"{locked}: read-only; not replaced" in err
    assert locked.read_bytes() == old
    assert (site / "index.html").read_text().startswith('<a href="https://site.example/docs/">')
    assert not [name for name in os.listdir(site / "docs" / "a b") if "linkkit-tmp" in name]


def test_rewrite_r_rewrites_texts_and_leaves_markup_and_binary_files(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirror = tmp_path / "out"
    main(capsys, "rewrite", "-r", str(site), "--angle", "-o", str(mirror), "-q")
    assert (mirror / "docs" / "notes.txt").read_text() == "read <http://example.org/x> and more\n"
    assert (mirror / "index.html").read_bytes() == (site / "index.html").read_bytes()
    assert (mirror / "logo.png").read_bytes() == (site / "logo.png").read_bytes()
    main(capsys, "rewrite", "-r", str(site), "--angle", "--in-place", "-q")
    assert (site / "docs" / "notes.txt").read_text() == "read <http://example.org/x> and more\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rewrite_r_counts_the_binary_files_it_leaves(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # issue 10: binary files skipped and counted (as ripgrep does), in a batch rewrite's summary too
    _, err = main(capsys, "rewrite", "-r", str(site), "--angle", "-o", str(tmp_path / "out"), "-j", jobs)
    assert "1 binary file(s) skipped, 0 error(s)" in err.splitlines()[-1]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("command", "links"), [
    (["absolutize", "--base-url", "https://site.example/"], 5),  # the pages' 2 + 1 attributes, the message's 2
    (["rewrite", "--angle"], 3),  # the text's reference, the message's 2 (pages are absolutize's)
    (["rewrite", "--defang"], 7),  # and the pages' 3 attributes and the reference in their text
])
def test_a_batch_rewrite_summary_counts_the_links_it_read(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], links: int, jobs: str
) -> None:
    # issue 10: a summary line with files, records, links; absolutize -r and rewrite -r always said 0 link(s)
    (site / "docs" / "a b" / "page.html").write_text('<a href="../../index.html">home</a> http://t.example/')
    (site / "note.eml").write_bytes(b"From: a@b.example\nSubject: s\nContent-Type: text/html\n\n"
                                    b'<a href="r.html">r</a> http://q.example/\n')
    _, err = main(capsys, command[0], "-r", str(site), *command[1:], "-o", str(tmp_path / "out"), "-j", jobs)
    assert f"5 file(s), 5 record(s), {links} link(s)" in err.splitlines()[-1]


@pytest.mark.parametrize("option", [["--redact"], ["--redact-query", "token", "--"], ["--defang"]])
def test_a_redaction_or_defanging_in_batch_refuses_a_compressed_file_or_web_archive_instead_of_passing_it_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    # A compressed log left as it is would keep its secrets in the tree, or in the mirror made to be shared.
    root = tmp_path / "logs"
    root.mkdir()
    packed = gzip.compress(b"GET http://u:pw@h.example/?token=1\n")
    (root / "old.log.gz").write_bytes(packed)
    archive = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Type: text/plain\r\nContent-Length: 33\r\n\r\n"
    (root / "crawl.warc").write_bytes(archive + b"GET http://u:pw@h.example/?sid=3\n\r\n\r\n")
    (root / "new.log").write_text("GET http://u:pw@h.example/?token=2\n")
    mirror = tmp_path / "clean"
    _, err = main(capsys, "rewrite", "-r", "-o", str(mirror), *option, str(root), status=1)
    assert f"{root / 'old.log.gz'}: gzip-compressed; not rewritten" in err
    assert f"{root / 'crawl.warc'}: a web archive; not rewritten" in err
    assert sorted(os.listdir(mirror)) == ["new.log"]
    assert "pw@h.example/?token=2" not in (mirror / "new.log").read_text()
    _, err = main(capsys, "rewrite", "-r", "--in-place", *option, str(root), status=1)
    assert (root / "old.log.gz").read_bytes() == packed
    assert (root / "crawl.warc").read_bytes().startswith(archive + b"GET http://u:pw@")


def test_rewrite_r_streams_a_text_so_its_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    # a text is read and written a chunk at a time into its atomic target, not held whole (nor its new content)
    import tracemalloc

    from linkkit.batch.rewrite import TreeOptions, rewrite_file
    from linkkit.sources import Document

    (tmp_path / "site").mkdir()
    path = tmp_path / "site" / "big.log"
    data = b"".join(b"line %d see http://EXAMPLE.org/a/../%%7e%d now\n" % (i, i) for i in range(30_000))
    path.write_bytes(data)
    options = TreeOptions(command="rewrite", root=str(tmp_path / "site"), out_dir=str(tmp_path / "out"),
                          normalize=True)
    tracemalloc.start()
    try:
        outcome = rewrite_file(Document(str(path), "file", path=str(path), size=len(data)), options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (outcome.failed, outcome.messages, outcome.size) == (0, [], len(data))
    assert (tmp_path / "out" / "big.log").read_bytes() == b"".join(
        b"line %d see http://example.org/~%d now\n" % (i, i) for i in range(30_000))
    assert peak < len(data) // 4  # held whole, old and new, the file took more than twice its size


@pytest.mark.parametrize("argv", [
    ["absolutize", "-r", "{site}", "--base", "https://s.example/"],  # neither --in-place nor -o
    ["rewrite", "-r", "{site}", "{site}", "--in-place"],  # one folder
    ["rewrite", "-r", "{site}", "-o", "{site}/out"],  # the mirror inside the tree
    ["extract", "-0"],  # -0 without --files-from
    ["extract", "--files-from", "-", "-"],  # standard input both the list and an input: one of them read nothing
    ["extract", "--files-from", "-"],  # the list on standard input names "-": the rest of the list read as a text
    ["rewrite", "--files-from", "-"],
])
def test_batch_usage_errors_exit_2(argv: list[str], site: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"-\n%s\n" % bytes(site / "index.html"))))
    with pytest.raises(SystemExit) as stop:
        cli.main([arg.format(site=site) for arg in argv])
    assert stop.value.code == 2


class _Unreadable(io.RawIOBase):
    """A stream whose reads fail as a closed standard input's do (``<&-``)."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


@pytest.mark.parametrize("command", [["extract"], ["rewrite", "--angle"]])
def test_a_files_from_list_that_cannot_be_read_is_a_usage_error_naming_it(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `linkkit extract --files-from - <&-`: a traceback (OSError), where a list that cannot be opened is named
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(_Unreadable())))
    with pytest.raises(SystemExit) as stop:
        cli.main([*command, "--files-from", "-"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.endswith(f" error: --files-from -: {os.strerror(errno.EBADF)}\n")


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_terminated_run_removes_its_temporary_files_and_ends_its_workers(
    tmp_path: Path, signal_name: str
) -> None:
    # Before: kill's SIGTERM ended the main process at once, leaving its spilled outputs (5.7 MB each here) in the
    # temporary folder, and its workers blocked for ever.
    import signal
    import subprocess
    import time

    line = b"http://a.example/x\n" * 300_000
    names = []
    for index in range(4):
        (tmp_path / f"{index}.txt").write_bytes(line)
        names.append(str(tmp_path / f"{index}.txt"))
    spills = tmp_path / "spills"
    spills.mkdir()
    env = {**os.environ, "TMPDIR": str(spills), "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.Popen([sys.executable, "-m", "linkkit", "extract", "-q", "-j", "2", *names],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    for _ in range(3000):  # nobody reads its output: it waits on the pipe while the workers spill theirs
        if len(list(spills.iterdir())) >= 2:
            break
        time.sleep(0.01)
    run.send_signal(getattr(signal, signal_name))
    _, err = run.communicate(timeout=120)
    assert run.returncode == 128 + getattr(signal, signal_name)
    assert b"Traceback" not in err
    assert list(spills.iterdir()) == []


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_tree_rewrite_ended_by_a_signal_leaves_no_temporary_file_and_no_file_half_written(
    tmp_path: Path, signal_name: str, mirror: bool
) -> None:
    # the main process ended its workers with SIGTERM, whose default ended each at once: the file each was rewriting
    # kept its .NAME.linkkit-tmp-PID beside it (which the next -r run read as one more input)
    import signal
    import subprocess
    import time

    tree = tmp_path / "tree"
    tree.mkdir()
    old = b"".join(b"line %d see HTTP://Big.Example/%d now\n" % (i, i) for i in range(120_000))
    new = old.replace(b"HTTP://Big.Example/", b"http://big.example/")
    for index in range(4):
        (tree / f"{index}.txt").write_bytes(old)
    out = tmp_path / "out"
    target = out if mirror else tree
    run = subprocess.Popen(
        [sys.executable, "-m", "linkkit", "rewrite", "-r", str(tree), "--normalize", "-q", "-j", "2",
         *(["-o", str(out)] if mirror else ["--in-place"])],
        stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    for _ in range(6000):  # until each worker is writing a file (not about to open its next one)
        if target.is_dir() and sum(".linkkit-tmp-" in path.name for path in target.iterdir()) == 2:
            break
        time.sleep(0.01)
    run.send_signal(getattr(signal, signal_name))
    _, err = run.communicate(timeout=120)
    assert (run.returncode, err) == (128 + getattr(signal, signal_name), b"")
    assert [path.name for path in target.iterdir() if ".linkkit-tmp-" in path.name] == []
    assert all(path.read_bytes() in (old, new) for path in tree.iterdir())
    assert all(path.read_bytes() == new for path in (out.iterdir() if mirror else ()))


def _piped_inputs() -> dict[str, bytes]:
    """Inputs a pipe may carry that are read past their first 8 KiB: a long text, compressed ones, web archives."""
    from warc_builder import per_record_gzip, response

    text = b"".join(b"line %d http://t.example/%d\n" % (i, i) for i in range(60_000))  # past WHOLE_SIZE: spooled
    archive = [response(f"http://w.example/{i}/", b'<a href="x">x</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    return {"text": text, "gzip-text": gzip.compress(text[:20_000]), "warc": b"".join(archive),
            "warc-gz": per_record_gzip(archive)[0], "gzip-mbox": gzip.compress(b"From a@b\n\nhttp://m.example/\n")}


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", list(_piped_inputs()))
def test_a_pipe_named_as_a_file_is_read_once_as_standard_input_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str, jobs: str
) -> None:
    # a FIFO or a shell's <(...): its first bytes read cannot be read again, nor can a worker open it. A web archive
    # or a compressed file was "not seekable", a long text gave no links (-j 1) or a traceback (-j 2).
    import threading

    data = _piped_inputs()[kind]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=feed)
    writer.start()
    piped, _ = main(capsys, "extract", "--format", "jsonl", "-q", "-j", jobs, str(fifo))
    writer.join()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    expected, _ = main(capsys, "extract", "--format", "jsonl", "-q", "-j", jobs, "-")
    unnamed = {"input": None, "file": None}  # a text's records name it twice (issue 3's "file")
    ours = [{**json.loads(line), **unnamed} for line in piped.splitlines()]
    assert ours and ours == [{**json.loads(line), **unnamed} for line in expected.splitlines()]


def test_r_with_no_file_reads_the_working_directory_as_grep_r_does(
    texts: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # GNU grep: "if no file operand is given, grep -r searches the working directory"; standard input was read
    monkeypatch.chdir(texts)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"http://stdin.example/\n"), encoding="utf-8"))
    out, _ = main(capsys, "extract", "-r", "-q", "--format", "jsonl")
    assert [(record["input"], record["uri"]) for record in map(json.loads, out.splitlines())] == [
        (os.path.join(".", "a.txt"), "http://a.example/x"), (os.path.join(".", "a.txt"), "http://b.example/q,uote"),
        (os.path.join(".", "b.txt"), "http://a.example/x"), (os.path.join(".", "b.txt"), "http://c.example/")]
    with pytest.raises(SystemExit) as stop:  # a usage error: the output would be read as input
        cli.main(["extract", "-r", "-o", "links.txt"])
    assert stop.value.code == 2 and "-o links.txt is inside ., which -r reads" in capsys.readouterr().err
    out, _ = main(capsys, "extract", "-q")  # without -r, standard input as ever
    assert out == "http://stdin.example/\n"
