"""The batch's pure function on a text read as a stream that fails part way (a damaged compressed file): every
reference of the text read before the failure, then the error."""

from __future__ import annotations

import gzip
import io
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import linkkit
from linkkit import cli
from linkkit.batch import extract as extract_module
from linkkit.batch.extract import ExtractOptions, RefangedStream, extract
from linkkit.sources import Document
from linkkit.text import finditer_stream
from linkkit.text.stream import stream_reach

TEXT = "".join(f"line {i} <http://example.org/{i}> and www.example.com/{i}, see\n" for i in range(3000)).encode()


class _Damaged(io.RawIOBase):
    """*data*, then the error a damaged gzip member raises."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        chunk = self.data.read(len(buffer))
        if not chunk:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        buffer[: len(chunk)] = chunk
        return len(chunk)


@pytest.mark.parametrize("cut", [0, 100, 70000, len(TEXT) - 7])
def test_a_stream_cut_short_gives_every_reference_read_before_the_cut_then_the_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cut: int
) -> None:
    path = tmp_path / "t.txt.gz"
    path.write_bytes(b"")
    monkeypatch.setattr(extract_module, "open_input", lambda name: _Damaged(TEXT[:cut]))
    outcome = extract(Document(str(path), "text", path=str(path), size=len(TEXT)), ExtractOptions())
    assert b"".join(outcome.lines).decode().splitlines() == linkkit.findall(TEXT[:cut].decode())
    assert outcome.failed == 1
    assert outcome.messages == [f"linkkit: error: {path}: cannot decompress further: Compressed file ended before "
                                "the end-of-stream marker was reached"]


PAGE = b"<!doctype html>" + b"".join(b'<p><a href="/p%d">page %d</a> %d\n' % (i, i, i * 7919 % 65521)
                                      for i in range(6000))


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("size", [600, len(PAGE)])  # within the first 8 KiB, held at once; past it, read where found
def test_an_html_page_cut_short_in_its_compressed_file_gives_the_links_before_the_cut_then_the_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str, size: int
) -> None:
    # the error came alone: every link of the page was lost with the damage, where a text gave those before it
    packed = gzip.compress(PAGE[:size])
    cut = tmp_path / "cut.html.gz"
    cut.write_bytes(packed[: len(packed) * 3 // 4])
    kept = zlib.decompressobj(wbits=31).decompress(cut.read_bytes())  # what gzip gives of it before the damage
    whole = tmp_path / "kept.html"
    whole.write_bytes(kept)
    assert cli.main(["extract", "-q", str(whole)]) == 0
    expected = capsys.readouterr().out
    assert cli.main(["extract", "-q", "-j", jobs, str(cut), str(whole)]) == 1
    out, err = capsys.readouterr()
    assert out == expected * 2 and expected.count("\n") > 5
    assert err.startswith(f"linkkit: error: {cut}: cannot decompress further: Compressed file ended before the "
                          f"end-of-stream marker was reached (at byte {len(kept)} of its content)")


# -- a stream's defanged references read back --------------------------------------------------------------------------

DEFANGED_PIECES = st.sampled_from([
    "hxxp[:]//", "hXXps://", "h**p://", "[://]", "evil[.]example", "a(.)b", "x[dot]y", "{.}", "[@]", "u:pw", "/p",
    " ", "\n", "www[.]", "http://ok.example/", "<", ">", "(", ")", "[.]", "mailto[:]", "é", "\u2010\n", "-", ".",
])


@given(st.lists(DEFANGED_PIECES, max_size=200).map("".join), st.integers(1, 700), st.integers(1, 90),
       st.integers(6, 60))
# Found while writing it: --max-length cut a reference inside the "http" read from "hxxp", so the next one started
# inside that spelling: its text as written had come out with a slice running backwards ("ttp://[.hxxp").
@example(text="www[.]hxxp[:]//[.].\n(w" * 3, piece=5, chunk_size=7, max_length=9)
def test_a_stream_read_back_finds_what_finditer_refang_finds_in_the_whole_text(
    text: str, piece: int, chunk_size: int, max_length: int
) -> None:
    # RefangedStream reads a window at a time (REFANG_CONTEXT either side); each reference is put back where it is
    # written, its spans and raw text as finditer(text, refang=True) gives them, the edits behind the stream's
    # reach let go (the text repeated past one and a half times the reach)
    reach = stream_reach(chunk_size, max_length)
    text *= 3 * reach // 2 // max(1, len(text)) + 1
    refanging = RefangedStream(reach)
    pieces = iter([text[at:at + piece] for at in range(0, len(text), piece)])
    found = [refanging.as_written(ref) for ref in
             finditer_stream(refanging.reading(pieces), chunk_size=chunk_size, max_length=max_length)]
    whole = list(linkkit.finditer(text, refang=True, max_length=max_length))
    assert found == whole
    assert [ref.raw for ref in found] == [ref.raw for ref in whole]
    for ref in found:
        outer_start, outer_end = ref.outer_span()
        assert ref.string[outer_start - ref.offset : outer_end - ref.offset] == text[outer_start:outer_end]


def test_extract_refang_of_a_long_stream_gives_the_lines_and_columns_of_the_whole_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # read back, a reference lags further behind the text as written than the reach: the lines are counted up to
    # where the stream has settled, not a fixed reach back
    monkeypatch.setattr(extract_module, "CHUNK_SIZE", 61)
    text = "".join(f"{i} h**p://u:pw@evil[.]example/{i} [.][.][.][.][.] x[dot]y(dot)z\n" for i in range(3000))
    options = {"abbreviated": True, "emails": False, "max_length": 40}
    rows = list(extract_module.text_rows(iter([text[at:at + 97] for at in range(0, len(text), 97)]), options,
                                         True, refang=True))
    whole = list(linkkit.finditer(text, refang=True, max_length=40))
    assert [(ref.span(), ref.raw, ref.uri) for ref, _, _ in rows] == [(ref.span(), ref.raw, ref.uri) for ref in whole]
    assert [(line, column) for _, line, column in rows] == [
        (text.count("\n", 0, ref.start()) + 1, ref.start() - text.rfind("\n", 0, ref.start())) for ref in whole]
    assert rows[-1][1:] == (3000, 6)


WRITE_UP = (b'<p>Stage one beacons to <code>hxxps://login-portal[.]example/signin</code>, then fetches\n'
            b'http://plain.example/x, not linked. <a href="https://vendor.example/report">Report</a>\n'
            b'<a href="hxxp://linked[.]example/">hxxp://shown[.]example/</a></p>')


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_refang_adds_an_html_pages_defanged_references_not_its_texts_others(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], jobs: str
) -> None:
    # issue 12: "With the option, the scanner finds them" -- a threat report is often a web page, whose defanged
    # references are in its text; its other references in text stay out, as without the option (issue 4)
    page = tmp_path / "write-up.html"
    page.write_bytes(WRITE_UP)
    assert cli.main(["extract", "-j", jobs, "--refang", "--format", "jsonl", str(page)]) == 0
    found = [json.loads(line) for line in capsysbinary.readouterr().out.splitlines()]
    assert [(link["where"], link["raw"], link["uri"]) for link in found] == [
        ("#text bare", "hxxps://login-portal[.]example/signin", "https://login-portal.example/signin"),
        ("a href", "https://vendor.example/report", "https://vendor.example/report"),
        ("a href", "hxxp://linked[.]example/", "hxxp://linked[.]example/"),  # an attribute's value is as it is
        ("#text bare", "hxxp://shown[.]example/", "http://shown.example/"),  # a link's text is text
    ]
    assert WRITE_UP[found[0]["span"][0]:found[0]["span"][1]] == b"hxxps://login-portal[.]example/signin"
    assert (found[0]["line"], found[0]["column"]) == (1, 31)
    assert cli.main(["extract", "-j", jobs, str(page)]) == 0
    assert capsysbinary.readouterr().out == b"https://vendor.example/report\nhxxp://linked[.]example/\n"
