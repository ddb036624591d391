"""Files and folders as sources: recursion, globs, symbolic links, lists of names, compressed files told by
content, binary files skipped and counted, and inputs that cannot be read reported where they stand."""

from __future__ import annotations

import bz2
import errno
import gzip
import io
import json
import lzma
import os
import pickle
import sys
import tempfile
import zlib
from pathlib import Path

import pytest
import zstandard

import linkkit
from linkkit import cli
from linkkit.sources import Counts, Document, HeaderLink, Position, WalkOptions, documents, names_from
from linkkit.sources import inputs
from linkkit.sources.compressed import compression, open_input
from linkkit.sources.files import is_binary


def run(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 0) -> tuple[list[str], str]:
    assert cli.main(["extract", "-j", "1", *argv]) == status
    captured = capsys.readouterr()
    return captured.out.splitlines(), captured.err


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder of texts, compressed four ways (one nested), with a binary file and a sub-folder."""
    root = tmp_path / "tree"
    (root / "sub" / "deeper").mkdir(parents=True)
    (root / "a.txt").write_text("see http://a.example/1.\n")
    (root / "b.gz").write_bytes(gzip.compress(b"gzip http://b.example/2\n"))
    (root / "sub" / "c.log").write_bytes(bz2.compress(b"bzip2 http://c.example/3\n"))
    (root / "sub" / "d.xz").write_bytes(lzma.compress(b"xz http://d.example/4\n"))
    (root / "sub" / "deeper" / "e.zst").write_bytes(zstandard.ZstdCompressor().compress(b"zstd http://e.example/5\n"))
    (root / "sub" / "deeper" / "f.txt.gz.xz").write_bytes(lzma.compress(gzip.compress(b"nested http://f.example/6\n")))
    (root / "image.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00http://not.example/\x00")
    return root


EXPECTED = [
    "http://a.example/1", "http://b.example/2", "http://c.example/3", "http://d.example/4", "http://e.example/5",
    "http://f.example/6",
]


def test_a_temporary_file_a_killed_rewrite_left_is_no_input(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``.NAME.linkkit-tmp-PID``, what a rewrite killed before it replaced NAME leaves (linkkit.io.temporary_path),
    is passed over under -r: its half-written copy would give the file's links twice. A dot file of the user's
    is read."""
    (tree / ".a.txt.linkkit-tmp-4242").write_text("half http://half.example/\n")
    (tree / ".hidden.txt").write_text("dot http://dot.example/\n")
    out, _ = run(capsys, "-r", str(tree))
    assert "http://half.example/" not in out
    assert "http://dot.example/" in out


def test_a_folder_is_read_recursively_in_name_order_decompressing_by_content(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = run(capsys, "-r", str(tree))
    assert out == EXPECTED
    assert "1 binary file(s) skipped" in err and "0 error(s)" in err
    assert "7 file(s)" in err


def test_compression_is_told_by_magic_number_not_by_name(tmp_path: Path) -> None:
    path = tmp_path / "plain.gz"
    path.write_bytes(b"not compressed")
    assert compression(path.read_bytes()) is None
    with open_input(str(path)) as stream:
        assert stream.read() == b"not compressed"
    hidden = tmp_path / "notes.txt"
    hidden.write_bytes(zstandard.ZstdCompressor().compress(b"hidden"))
    with open_input(str(hidden)) as stream:
        assert stream.read() == b"hidden"


@pytest.mark.parametrize(("head", "expected"), [
    (gzip.compress(b"x"), "gzip"),
    (bz2.compress(b"x"), "bzip2"),
    (bz2.compress(b""), "bzip2"),  # an empty stream: the end-of-stream magic follows the header at once
    (lzma.compress(b"x"), "xz"),
    (zstandard.ZstdCompressor().compress(b"x"), "zstd"),
    (b"BZh is how these notes start: http://a.example/", None),  # three letters are no bzip2 stream
    (b"BZh91AY&SX and more", None),
    (b"BZh0" + bz2.compress(b"x")[4:], None),  # a block size of 0
    (b"BZh9", None),
    (b"\x50\x2a\x4d\x18\x04\x00\x00\x00" + zstandard.ZstdCompressor().compress(b"x"), "zstd"),
    (b"\x5f\x2a\x4d\x18\x00\x00\x00\x00", "zstd"),
    (b"P*M is how these notes start", None),
    (b"Q*M\x19 and more", None),
], ids=["gzip", "bzip2", "bzip2-empty", "xz", "zstd", "text-BZh", "bzip2-bad-magic", "bzip2-size-0", "short",
        "zstd-skippable-first", "zstd-skippable-last-magic", "text-P*M", "no-skippable-magic"])
def test_compression_is_told_by_each_formats_whole_magic(head: bytes, expected: str | None) -> None:
    assert compression(head) == expected


@pytest.mark.parametrize("stdin", [False, True])
def test_a_text_that_starts_like_bzip2_is_read_as_text(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, stdin: bool
) -> None:
    text = b"BZh is how these notes start: http://a.example/\n"
    path = tmp_path / "notes.txt"
    path.write_bytes(text)
    if stdin:
        _stdin(monkeypatch, text)
    assert run(capsys, "-" if stdin else str(path))[0] == ["http://a.example/"]


def test_a_nul_byte_in_the_first_8_kib_makes_a_file_binary_unless_it_is_utf_16_with_a_bom() -> None:
    assert is_binary(b"abc\x00def")
    assert not is_binary("http://x.example/".encode("utf-16"))
    assert not is_binary(b"a" * 100)


def test_a_binary_file_named_on_the_command_line_is_skipped_too(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, str(tree / "image.bin"), str(tree / "a.txt"))
    assert out == ["http://a.example/1"]


def test_include_and_exclude_globs_match_names_and_paths_under_the_folder(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "-r", str(tree), "--include", "*.txt")[0] == ["http://a.example/1"]
    assert run(capsys, "-r", str(tree), "--exclude", "sub")[0] == EXPECTED[:2]
    assert run(capsys, "-r", str(tree), "--include", "sub/deeper/*")[0] == EXPECTED[4:]
    assert run(capsys, "-r", str(tree), "--exclude", "*.gz", "--exclude", "*.xz")[0] == [
        "http://a.example/1", "http://c.example/3", "http://e.example/5"]


def test_symbolic_links_under_a_folder_are_followed_only_when_asked(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.txt").write_text("http://outside.example/\n")
    (tree / "zz-link").symlink_to(outside, target_is_directory=True)
    (tree / "zz-loop").symlink_to(tree, target_is_directory=True)  # a loop back up is entered once, at most
    assert run(capsys, "-r", str(tree))[0] == EXPECTED
    assert run(capsys, "-r", "-L", str(tree))[0] == [*EXPECTED, "http://outside.example/"]


def test_a_maildirs_tmp_folder_is_left_alone_as_its_readers_leave_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    maildir = tmp_path / "mail"
    for folder in ("cur", "new", "tmp"):
        (maildir / folder).mkdir(parents=True)
        message = f"From: a@example.org\nSubject: {folder}\n\nsee http://{folder}.example/\n"
        (maildir / folder / f"1.{folder}").write_text(message)
    expected = ["http://cur.example/", "http://new.example/"]
    assert run(capsys, "-r", str(tmp_path))[0] == expected  # tmp/ holds messages still being delivered
    assert run(capsys, str(maildir))[0] == expected  # as the Maildir read as a mailbox
    (tmp_path / "tmp").mkdir()  # a tmp folder elsewhere is a folder like any other
    (tmp_path / "tmp" / "t.txt").write_text("http://plain.example/\n")
    assert run(capsys, "-r", str(tmp_path))[0] == [*expected, "http://plain.example/"]


def test_an_unreadable_input_is_an_error_in_its_place_and_the_batch_goes_on(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # chmod 000 does not stop root, who may run the tests: a broken symbolic link, followed with -L, is an input
    # that cannot be read for every user; chmod 000 is added when it does stop us.
    (tree / "sub" / "broken").symlink_to(tree / "no-such-file")
    unreadable = [str(tree / "sub" / "broken")]
    if os.geteuid() != 0:
        locked = tree / "sub" / "locked.txt"
        locked.write_text("http://locked.example/\n")
        locked.chmod(0)
        unreadable.append(str(locked))
    out, err = run(capsys, "-r", "-L", "--format", "jsonl", str(tree), status=1)
    records = [json.loads(line) for line in out]
    errors = [r for r in records if r["kind"] == "error"]
    assert [r["input"] for r in errors] == unreadable
    assert [r["uri"] for r in records if r["kind"] != "error"] == EXPECTED
    assert f"linkkit: error: {tree / 'sub' / 'broken'}: No such file or directory" in err
    assert f"{len(unreadable)} error(s)" in err


def test_files_from_reads_names_one_a_line_or_nul_separated(
    tree: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [str(tree / "a.txt"), str(tree / "sub" / "d.xz")]
    listing = tmp_path / "list"
    listing.write_text("\n".join(names) + "\n")
    assert run(capsys, "--files-from", str(listing), "-q")[0] == ["http://a.example/1", "http://d.example/4"]
    listing.write_bytes(b"\0".join(os.fsencode(name) for name in reversed(names)) + b"\0")
    assert run(capsys, "--files-from", str(listing), "-0", "-q")[0] == ["http://d.example/4", "http://a.example/1"]


def test_names_from_splits_across_reads_and_skips_empty_entries() -> None:
    assert list(names_from(io.BytesIO(b"a\n\nb c\r\nd"), null=False)) == ["a", "b c", "d"]
    assert list(names_from(io.BytesIO(b"a\nb\0\0c"), null=True)) == ["a\nb", "c"]


def test_a_dash_is_standard_input_even_when_compressed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = gzip.compress(b"stdin http://in.example/\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert run(capsys, "-")[0] == ["http://in.example/"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"stdin http://in.example/\n")))
    assert run(capsys, "-")[0] == ["http://in.example/"]


LONG_TEXT = "".join(f"line {i} see http://example.org/{i} now\n" for i in range(20000)).encode()


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_standard_input_longer_than_the_whole_size_is_read_once_through_a_temporary_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    # it cannot be read twice, and held whole it would take memory without bound: past WHOLE_SIZE it is spooled
    monkeypatch.setattr(inputs, "WHOLE_SIZE", 4096)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    _stdin(monkeypatch, gzip.compress(LONG_TEXT))
    found = list(documents(["-"], WalkOptions(), Counts()))
    assert [(d.name, d.kind, d.data, d.temporary, d.size) for d in found] == [
        ("<stdin>", "text", None, True, len(LONG_TEXT))]
    assert Path(found[0].path or "").read_bytes() == LONG_TEXT
    _stdin(monkeypatch, gzip.compress(LONG_TEXT))
    assert cli.main(["extract", "-q", "-j", jobs, "-"]) == 0
    assert capsys.readouterr().out.splitlines() == [f"http://example.org/{i}" for i in range(20000)]
    assert [path.name for path in tmp_path.iterdir()] == [Path(found[0].path or "").name]  # the run's own: removed


def test_standard_input_that_cannot_be_spooled_is_an_error_and_leaves_no_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    class Full(io.FileIO):
        """A temporary file on a full disk."""

        def write(self, data: object) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def spool(**_: object) -> Full:
        return Full(tmp_path / "spool", "wb")

    monkeypatch.setattr(inputs, "WHOLE_SIZE", 4096)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", spool)
    _stdin(monkeypatch, LONG_TEXT)
    assert run(capsys, "-", status=1) == ([], "linkkit: error: <stdin>: No space left on device\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("whole_size", [1 << 20, 4096])
def test_standard_input_cut_short_gives_the_links_before_the_cut_then_the_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], whole_size: int
) -> None:
    # a damaged gzip member on standard input is a clear error after the links read before it, never a traceback
    monkeypatch.setattr(inputs, "WHOLE_SIZE", whole_size)
    data = gzip.compress(LONG_TEXT)
    _stdin(monkeypatch, data[: len(data) // 2])
    out, err = run(capsys, "-", status=1)
    expected = [f"http://example.org/{i}" for i in range(20000)]
    assert 1000 < len(out) < 20000 and out[:-1] == expected[: len(out) - 1]  # the last may be cut by the damage
    assert expected[len(out) - 1].startswith(out[-1])
    assert "linkkit: error: <stdin>: cannot decompress further: " in err


def _prefix(compress: str, data: bytes) -> bytes:
    """What a decompressor gives of *data*, a compressed file cut short, before it runs out."""
    if compress == "gzip":
        return zlib.decompressobj(wbits=31).decompress(data)
    if compress == "bzip2":
        return bz2.BZ2Decompressor().decompress(data)
    if compress == "xz":
        return lzma.LZMADecompressor().decompress(data)
    return zstandard.ZstdDecompressor().decompressobj().decompress(data)


COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress,
            "zstd": zstandard.ZstdCompressor().compress}


@pytest.mark.parametrize("compress", list(COMPRESS))
@pytest.mark.parametrize("stdin", [False, True])
@pytest.mark.parametrize("size", ["long", "short"])  # short: cut within the first bytes, read to tell its kind
def test_a_compressed_text_cut_short_gives_every_link_of_what_decompresses_then_the_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, compress: str, stdin: bool,
    size: str,
) -> None:
    # nothing decompressed before the damage is lost: each layer is read a read1 at a time
    text = LONG_TEXT * 4 if size == "long" else LONG_TEXT[:9000]
    data = COMPRESS[compress](text)
    data = data[: len(data) * 2 // 3]
    expected = linkkit.findall(_prefix(compress, data).decode())
    path = tmp_path / "cut.txt.z"
    path.write_bytes(data)
    if stdin:
        _stdin(monkeypatch, data)
    out, err = run(capsys, "-q", "-" if stdin else str(path), status=1)
    # bzip2 and Zstandard give nothing of a block cut short, and a short text is one block
    assert out == expected and (len(expected) > len(text) // 300 or (compress in ("bzip2", "zstd") and size == "short"))
    assert "cannot decompress" in err or "ended inside a frame" in err


@pytest.mark.parametrize("compress", ["gzip", "xz"])
@pytest.mark.parametrize("kind", ["text", "short-text", "mbox", "stdin", "stdin-short"])
def test_a_compressed_input_cut_short_names_where_in_its_content_the_damage_stopped_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, compress: str, kind: str
) -> None:
    # issue 7: a clear error naming the input and the position; "cannot decompress further" named no position
    if kind == "mbox":
        text = b"".join(b"From a@example.org Mon Jan  1 00:00:00 2024\nSubject: %d\n\nhttp://m.example/%d\n\n" % (i, i)
                        for i in range(3000))
    else:
        text = LONG_TEXT[:6000] if kind.endswith("short") else LONG_TEXT
    data = COMPRESS[compress](text)
    data = data[: len(data) * 2 // 3]
    path = tmp_path / ("cut.mbox.z" if kind == "mbox" else "cut.txt.z")
    path.write_bytes(data)
    if kind.startswith("stdin"):
        _stdin(monkeypatch, data)
    _, err = run(capsys, "-q", "-" if kind.startswith("stdin") else str(path), status=1)
    name = "<stdin>" if kind.startswith("stdin") else str(path)
    given = len(_prefix(compress, data))
    assert 0 < given < len(text)
    assert f"linkkit: error: {name}: cannot decompress further: " in err
    assert f" (at byte {given} of its content)\n" in err


@pytest.mark.parametrize("compress", ["bzip2", "zstd"])
@pytest.mark.parametrize("stdin", [False, True])
def test_a_compressed_input_of_which_nothing_decompressed_names_byte_0_of_its_content(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, compress: str, stdin: bool
) -> None:
    # a bzip2 block and a small Zstandard frame decompress whole or not at all: the damage is at byte 0
    data = COMPRESS[compress](LONG_TEXT[:2000])
    data = data[: len(data) * 2 // 3]
    path = tmp_path / "cut.txt.z"
    path.write_bytes(data)
    if stdin:
        _stdin(monkeypatch, data)
    out, err = run(capsys, "-q", "-" if stdin else str(path), status=1)
    name = "<stdin>" if stdin else str(path)
    assert out == []
    assert f"linkkit: error: {name}: cannot decompress: " in err
    assert err.endswith(" (at byte 0 of its content)\n")


def test_documents_carry_kind_name_size_and_position(tree: Path) -> None:
    mbox = tree / "box.mbox"
    mbox.write_bytes(b"From a@x Mon Nov 16 09:00:00 2026\nSubject: 1\n\nhttp://m.example/1\n\n"
                     b"From b@x Mon Nov 16 09:00:00 2026\nSubject: 2\n\nhttp://m.example/2\n")
    counts = Counts()
    found = list(documents([str(mbox), str(tree / "a.txt"), str(tree / "image.bin")], WalkOptions(), counts))
    assert [(d.kind, d.position.message, d.position.offset) for d in found] == [
        ("mail", 0, 0), ("mail", 1, mbox.read_bytes().index(b"From b@")), ("text", None, None)]
    assert found[2].data == b"see http://a.example/1.\n" and found[2].size == len(found[2].data)
    assert (counts.files, counts.binary, counts.skipped) == (3, 1, [str(tree / "image.bin")])


def test_a_large_file_is_read_when_processed_not_when_listed(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 20000 + b" http://late.example/\n")
    [document] = documents([str(big)], WalkOptions(), Counts())
    assert (document.data, document.path, document.size) == (None, str(big), big.stat().st_size)


def test_listing_leaves_a_small_file_to_its_reader_and_splits_a_large_container(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mbox = tree / "box.mbox"
    mbox.write_bytes(b"From a@x Mon Nov 16 09:00:00 2026\nSubject: 1\n\nhttp://m.example/1\n\n"
                     b"From b@x Mon Nov 16 09:00:00 2026\nSubject: 2\n\nhttp://m.example/2\n")
    monkeypatch.setattr(inputs, "WHOLE_SIZE", mbox.stat().st_size)  # the mailbox is large, a.txt small
    counts = Counts()
    found = list(inputs.listed([str(mbox), str(tree / "a.txt"), str(tree / "image.bin")], WalkOptions(), counts))
    assert [(d.kind, d.position.message) for d in found] == [("mail", 0), ("mail", 1), ("file", None),
                                                             ("file", None)]
    assert (found[2].data, found[2].path, found[2].size) == (None, str(tree / "a.txt"), (tree / "a.txt").stat().st_size)
    assert (counts.files, counts.binary) == (3, 0)  # the binary file is told where it is read
    told = Counts()
    assert [d.data for d in inputs.file_documents(str(tree / "a.txt"), told, None)] == [(tree / "a.txt").read_bytes()]
    assert list(inputs.file_documents(str(tree / "image.bin"), told, None)) == [] and told.binary == 1


@pytest.mark.parametrize(("name", "suffix"), [
    ("notes.TXT.gz", ".txt"), ("page.html.zst", ".html"), ("a.tar.gz", ".tar"), ("a.gz", ""), ("a.", "."),
    (".bashrc", ""), ("..a", ""), ("x/.a.gz", ""), ("dir.d/file", ""), ("a..b", ".b"), ("-", ""),
])
def test_the_content_suffix_is_os_path_splitext_s_under_any_compression_suffix(name: str, suffix: str) -> None:
    assert inputs.content_suffix(name) == suffix
    if name != "-":  # the same answer as os.path.splitext, peeled while it names a compression
        stem, expected = os.path.splitext(os.path.basename(name))
        while expected.lower() in inputs.COMPRESSION_SUFFIXES:
            stem, expected = os.path.splitext(stem)
        assert suffix == expected.lower()


def test_a_text_under_the_whole_size_is_read_at_once_by_its_reader(tmp_path: Path) -> None:
    text = tmp_path / "mid.txt"
    text.write_bytes(b"x" * 20000 + b" http://late.example/\n")
    [read] = inputs.file_documents(str(text), Counts(), None, whole=1 << 20)
    assert (read.data, read.size) == (text.read_bytes(), text.stat().st_size)
    [later] = inputs.file_documents(str(text), Counts(), None, whole=20000)  # longer than whole: read from its path
    assert (later.data, later.path) == (None, str(text))


def test_a_compressed_mailbox_is_read_message_by_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mbox = (b"From a@x Mon Nov 16 09:00:00 2026\nSubject: 1\n\nsee http://m.example/1\n\n"
            b"From b@x Mon Nov 16 09:00:00 2026\nSubject: 2\n\nsee http://m.example/2\n")
    path = tmp_path / "list.mbox.gz"
    path.write_bytes(gzip.compress(mbox))
    out, _ = run(capsys, "--format", "jsonl", str(path))
    records = [json.loads(line) for line in out]
    assert [(r["message"], r["offset"], r["uri"]) for r in records] == [
        (0, 0, "http://m.example/1"), (1, mbox.index(b"From b@"), "http://m.example/2")]


def test_zstandard_reads_every_frame_and_a_truncated_frame_is_an_error_after_the_links_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 8878 3.1: a Zstandard file is frames one after another; one cut short is damage, as a cut gzip member is.
    text = "".join(f"see http://example.org/{i} now\n" for i in range(20000)).encode()
    frames = zstandard.ZstdCompressor().compress(text[:300000]) + zstandard.ZstdCompressor().compress(text[300000:])
    (tmp_path / "whole.zst").write_bytes(frames)
    (tmp_path / "cut.zst").write_bytes(frames[: len(frames) // 2])
    assert cli.main(["extract", str(tmp_path / "whole.zst")]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 20000
    assert cli.main(["extract", str(tmp_path / "cut.zst")]) == 1
    out, err = capsys.readouterr()
    assert 0 < len(out.splitlines()) < 20000  # the links before the cut are kept
    assert "cut.zst" in err and "ended inside a frame" in err


def _pzstd(data: bytes) -> bytes:
    """*data* as pzstd writes it: each frame after a skippable frame (RFC 8878 3.1.2) that holds its size."""
    frame = zstandard.ZstdCompressor().compress(data)
    return b"\x50\x2a\x4d\x18\x04\x00\x00\x00" + len(frame).to_bytes(4, "little") + frame


def test_a_zstandard_file_that_opens_with_a_skippable_frame_is_decompressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 8878 3.1.2: a skippable frame may come anywhere, first too (pzstd, shipped with zstd, writes one before
    # each frame); such a file was skipped as binary, its links lost without a word
    text = b"see http://example.org/1 now\n"
    (tmp_path / "p.txt.zst").write_bytes(_pzstd(text[:12]) + _pzstd(text[12:]))
    mbox = b"From a@x Mon Nov 16 09:00:00 2026\nSubject: 1\n\nsee http://m.example/1\n"
    (tmp_path / "m.mbox.zst").write_bytes(_pzstd(mbox))
    out, _ = run(capsys, "--format", "jsonl", str(tmp_path / "p.txt.zst"), str(tmp_path / "m.mbox.zst"))
    assert [(r["uri"], r.get("message")) for r in map(json.loads, out)] == [
        ("http://example.org/1", None), ("http://m.example/1", 0)]


def test_a_document_and_its_position_travel_to_a_worker_whole() -> None:
    document = Document("a.warc", "html", b"<a href=x>", path="a.warc", base="http://e.example/", charset="utf-8",
                        position=Position(offset=3, message=None, record_id="<urn:x>", target_uri="http://e.example/"),
                        header_links=(HeaderLink("http link", "/x", (1, 3)),), error=None, size=10,
                        content_type="text/html")
    assert pickle.loads(pickle.dumps(document)) == document


def test_a_folder_named_without_r_is_a_maildir_or_an_error(tmp_path: Path) -> None:
    found = list(documents([str(tmp_path)], WalkOptions(), Counts()))
    assert [(document.kind, document.error) for document in found] == [("error", "Is a directory")]


def test_a_site_with_new_and_tmp_folders_is_no_maildir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # under -r a Maildir is a folder holding cur/ (as mutt and Dovecot tell one): a page in a site's new/ folder is
    # a page, not a message, and its tmp/ folder is read (it was passed over as a Maildir's)
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "index.html").write_text('<a href="http://page.example/">page</a>\n')
    (tmp_path / "tmp").mkdir()
    (tmp_path / "tmp" / "notes.txt").write_text("http://notes.example/\n")
    assert run(capsys, "-r", str(tmp_path))[0] == ["http://page.example/", "http://notes.example/"]
