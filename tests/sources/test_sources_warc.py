"""The WARC policy of linkkit.sources.warc, end to end through ``linkkit extract --format jsonl``, on archives
written in the tests (tests/warc_builder.py)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from fixtures_loader import FIXTURES
from warc_builder import chunked, per_record_gzip, record, response, unfinished

from linkkit import cli
from linkkit.sources.warc import record_document

PAGE = b'<!doctype html><p><a href="next.html">next</a> <img srcset="a.png 1x, /b.png 2x">'


def extract(capsys: pytest.CaptureFixture[str], *paths: Path, status: int = 0) -> list[dict[str, object]]:
    assert cli.main(["extract", "--format", "jsonl", "-j", "1", *map(str, paths)]) == status
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_response_gives_its_html_links_resolved_against_the_target_uri(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = write(tmp_path, "a.warc", response("http://site.example/dir/page", PAGE,
                                                 headers=[("Content-Type", "text/html")]))
    records = extract(capsys, archive)
    assert [(r["where"], r["uri"]) for r in records] == [
        ("a href", "http://site.example/dir/next.html"),
        ("img srcset", "http://site.example/dir/a.png"),
        ("img srcset", "http://site.example/b.png"),
    ]
    first = records[0]
    assert (first["input"], first["offset"], first["target_uri"], first["base"]) == (
        str(archive), 0, "http://site.example/dir/page", "http://site.example/dir/page")
    assert first["record_id"].startswith("<urn:uuid:")
    # issue 10's one schema names the position (a WARC record's offset and WARC-Record-ID) as one object
    assert first["position"] == {"offset": 0, "record_id": first["record_id"]}


def test_a_chunked_gzip_payload_is_dechunked_then_decompressed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = chunked(gzip.compress(PAGE))
    archive = write(tmp_path, "c.warc", response("http://site.example/", body, headers=[
        ("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip"),
    ]))
    assert [r["uri"] for r in extract(capsys, archive)] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]


@pytest.mark.parametrize(("body", "coding"), [
    (PAGE, None), (gzip.compress(PAGE), "gzip"), (b"abc " + PAGE, None), (b"0x1f " + PAGE, None),
], ids=["html", "gzip", "hex-like-word", "hex-like-prefix"])
def test_a_payload_said_to_be_chunked_that_is_not_is_read_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: bytes, coding: str | None
) -> None:
    # some tools archive a payload de-chunked and keep its Transfer-Encoding: chunked; its first line is then no
    # chunk size (RFC 9112 7.1: 1*HEXDIG, extensions, CRLF), and warcio and jwarc read it as it is. It gave no links.
    headers = [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")]
    archive = write(tmp_path, "n.warc", response("http://site.example/", body,
                                                 headers=headers + ([("Content-Encoding", coding)] if coding else [])))
    assert [r["uri"] for r in extract(capsys, archive)] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]


@pytest.mark.parametrize("encode", [zlib.compress, lambda data: zlib.compress(data)[2:-4]], ids=["zlib", "raw"])
def test_a_deflate_payload_is_decompressed_zlib_or_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], encode: object
) -> None:
    archive = write(tmp_path, "d.warc", response("http://site.example/", encode(PAGE), headers=[  # type: ignore[operator]
        ("Content-Type", "text/html"), ("Content-Encoding", "deflate")]))
    assert extract(capsys, archive)[0]["uri"] == "http://site.example/next.html"


def test_a_zstd_payload_is_decompressed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # RFC 8878 7.2 registers the "zstd" content coding (browsers send it in Accept-Encoding); it was an error record
    archive = write(tmp_path, "z.warc", response("http://site.example/", _zstd(PAGE), headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", "zstd")]))
    assert extract(capsys, archive)[0]["uri"] == "http://site.example/next.html"


def test_a_zstd_payload_cut_short_gives_the_links_of_what_decompresses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a Zstandard block decompresses whole (RFC 8878 3.1.1.2): the payload is the blocks flushed before the cut
    page = b"".join(f'<a href="/p{i}">{i}</a>'.encode() for i in range(50))
    archive = write(tmp_path, "t.warc", response("http://site.example/", unfinished(page, "zstd"), headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", "zstd")], extra={"WARC-Truncated": "length"}))
    assert [r["uri"] for r in extract(capsys, archive)] == [f"http://site.example/p{i}" for i in range(50)]


def test_a_brotli_payload_is_decompressed_when_brotli_is_at_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    brotli = pytest.importorskip("brotli")
    archive = write(tmp_path, "b.warc", response("http://site.example/", brotli.compress(PAGE), headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", "br")]))
    assert extract(capsys, archive)[0]["uri"] == "http://site.example/next.html"


def _brotli(data: bytes) -> bytes:
    return pytest.importorskip("brotli").compress(data)  # type: ignore[no-any-return]


def _zstd(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor().compress(data)


CODINGS = {"gzip": gzip.compress, "deflate": zlib.compress, "br": _brotli}


@pytest.mark.parametrize("coding", list(CODINGS))
def test_a_payload_the_crawler_cut_short_gives_the_links_of_what_decompresses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], coding: str
) -> None:
    # WARC 1.1 5.13 (WARC-Truncated): the record is whole, its payload is not; what decompresses is read
    page = b"".join(f'<a href="/p{i}">{i:05d} {i * 7919 % 10007}</a>\n'.encode() for i in range(3000))
    payload = CODINGS[coding](page)
    archive = write(tmp_path, "t.warc", response("http://site.example/", payload[: len(payload) // 2], headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", coding)], extra={"WARC-Truncated": "length"}))
    found = extract(capsys, archive)
    assert 100 < len(found) < 3000
    assert [r["uri"] for r in found] == [f"http://site.example/p{i}" for i in range(len(found))]


def test_a_transfer_coding_besides_chunked_is_undone_before_the_content_coding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 9112 6.1: Transfer-Encoding lists codings in the order applied, chunked last
    body = chunked(gzip.compress(zlib.compress(PAGE)))
    archive = write(tmp_path, "t.warc", response("http://site.example/", body, headers=[
        ("Content-Type", "text/html"), ("Transfer-Encoding", "gzip, chunked"), ("Content-Encoding", "deflate")]))
    assert extract(capsys, archive)[0]["uri"] == "http://site.example/next.html"


@pytest.mark.parametrize(("field", "codings"), [
    ("Content-Encoding", ["gzip", "br"]), ("Content-Encoding", ["deflate", "gzip"]),
    ("Transfer-Encoding", ["gzip", "chunked"]),
], ids=["gzip-then-br", "deflate-then-gzip", "gzip-then-chunked"])
def test_a_coding_field_written_on_several_lines_is_one_list_in_their_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, codings: list[str]
) -> None:
    # RFC 9110 5.3: the lines of a list-based field (Content-Encoding 8.4, Transfer-Encoding RFC 9112 6.1) combine
    # into one comma-separated list, in order; the first line alone was undone, and the page was an error record
    encoders = {"gzip": gzip.compress, "deflate": zlib.compress, "br": _brotli, "chunked": chunked}
    body = PAGE
    for coding in codings:
        body = encoders[coding](body)
    headers = [("Content-Type", "text/html")] + [(field, coding) for coding in codings]
    archive = write(tmp_path, "l.warc", response("http://site.example/", body, headers=headers))
    assert [r["uri"] for r in extract(capsys, archive)] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]


def test_a_gzip_payload_of_several_members_gives_the_links_of_every_member(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 1952 2.2: a gzip file is a series of members (a server that compresses a page piece by piece writes
    # several); the first member alone was read. Bytes after the last member that start none are ignored, and so
    # is a damaged member after intact ones (the links of those before it are not lost to an error record).
    for tail in (b"\r\n", gzip.compress(b"x")[:10] + b"\xff" * 8):  # a member's header, then no DEFLATE block
        body = gzip.compress(PAGE[:30]) + gzip.compress(PAGE[30:]) + tail
        archive = write(tmp_path, "m.warc", response("http://site.example/", body, headers=[
            ("Content-Type", "text/html"), ("Content-Encoding", "gzip")]))
        assert [r["uri"] for r in extract(capsys, archive)] == [
            "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]


@pytest.mark.parametrize("interim", [
    b"HTTP/1.1 100 Continue\r\n\r\n",
    b"HTTP/1.1 103 Early Hints\r\nLink: </hint.css>; rel=preload\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n",
], ids=["100", "103-then-100"])
def test_interim_responses_before_the_final_one_are_passed_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], interim: bytes
) -> None:
    # RFC 9110 15.2: one or more 1xx responses may come before the final response, whose fields and body count
    final = b"HTTP/1.1 301 Moved\r\nLocation: /moved\r\nContent-Type: text/html\r\n\r\n<a href=x>x</a>"
    block = interim + final
    archive = write(tmp_path, "i.warc", record("response", block, target="http://site.example/d/",
                                                content_type="application/http;msgtype=response"))
    found = extract(capsys, archive)
    assert [(r["where"], r["uri"]) for r in found] == [
        ("http location", "http://site.example/moved"), ("a href", "http://site.example/d/x")]
    begin, end = found[0]["span"]
    assert block[begin:end] == b"/moved"


def test_windows_1252_is_not_latin_1_and_the_http_charset_beats_the_meta(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # iso-8859-1 is a label of windows-1252 (Encoding Standard): 0x92 is U+2019, not the C1 control U+0092
    page = b'<meta charset="utf-8"><a href="/caf\x92s">x</a>'
    archive = write(tmp_path, "w.warc", response("http://site.example/", page, headers=[
        ("Content-Type", "text/html; charset=ISO-8859-1")]))
    [link] = extract(capsys, archive)
    assert link["raw"] == "/caf\u2019s"
    assert link["uri"].startswith("http://site.example/caf")
    assert "\u0092" not in link["uri"]


def test_the_meta_prescan_decides_when_http_declares_no_charset_and_a_bom_beats_http(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    meta = response("http://site.example/m", b'<meta charset="windows-1252"><a href="/\x93q\x94">x</a>',
                    headers=[("Content-Type", "text/html")])
    bom = response("http://site.example/b", b'\xef\xbb\xbf<a href="/\xc3\xa9">x</a>',
                   headers=[("Content-Type", "text/html; charset=windows-1252")])
    archive = write(tmp_path, "e.warc", meta + bom)
    assert [r["raw"] for r in extract(capsys, archive)] == ["/\u201cq\u201d", "/\u00e9"]


BOTH = b"see http://t.example/ <a href='\xc3\xa9'>"  # UTF-8 bytes: windows-1252 reads them as two characters
DECLARED = [  # (the Content-Type field values, what comes out of BOTH: (where, raw))
    (["text/plain", "text/html"], [("a href", "\u00e9")]),
    (["text/html", "text/plain"], [("bare", "http://t.example/")]),
    (["text/html, text/plain"], [("bare", "http://t.example/")]),
    (['text/plain; x="a, text/html"'], [("bare", "http://t.example/")]),
    (["text/html; charset=utf-8", "text/html; charset=windows-1252"], [("a href", "\u00c3\u00a9")]),
    (["text/html; charset=windows-1252", "text/html"], [("a href", "\u00c3\u00a9")]),
    (["text/html; charset=windows-1252", "*/*"], [("a href", "\u00c3\u00a9")]),
    (["text/html; charset=windows-1252; charset=utf-8"], [("a href", "\u00c3\u00a9")]),
    (['text/html; charset="win\\dows-1252"'], [("a href", "\u00c3\u00a9")]),
    (["text/html; charset = windows-1252"], [("a href", "\u00e9")]),
    (["text/html;;charset=windows-1252"], [("a href", "\u00c3\u00a9")]),
    (["unknown/unknown"], [("bare", "http://t.example/")]),
    (["application/unknown"], [("bare", "http://t.example/")]),
    (["text"], [("bare", "http://t.example/")]),
]


@pytest.mark.parametrize(("content_types", "expected"), DECLARED, ids=[
    "duplicate-last-wins", "duplicate-last-wins-text", "comma-list", "comma-in-quotes", "last-charset",
    "charset-kept-for-the-same-type", "any-type-skipped", "first-charset-parameter", "quoted-pair",
    "spaces-around-equals", "empty-parameter", "unknown-unknown", "application-unknown", "invalid-type"])
def test_the_content_type_is_the_one_fetch_extracts_from_every_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content_types: list[str], expected: list[tuple[str, str]]
) -> None:
    # Fetch "extract a MIME type", as a browser reads a page: of several Content-Type fields (or values split by
    # commas outside quotes) the last valid one, not */*, keeping an earlier charset of the same type; the MIME
    # Sniffing Standard 4.4 parses each (the first charset parameter, quotes and escapes undone, no spaces around
    # "=", RFC 9110 5.6.6); one that names no type (invalid, unknown/unknown) is sniffed (7). The first field
    # counted, and a type that named none gave no body links.
    headers = [("Content-Type", value) for value in content_types]
    archive = write(tmp_path, "t.warc", response("http://site.example/", BOTH, headers=headers))
    assert [(r["where"], r["raw"]) for r in extract(capsys, archive)] == expected


LABELS = [  # (Content-Type, body, the raw of its one link)
    ("text/plain; charset=iso-8859-1", b"see http://t.example/p?\x80", "http://t.example/p?\u20ac"),
    ("text/plain; charset=us-ascii", b"see http://t.example/p?\x80", "http://t.example/p?\u20ac"),
    ("text/plain; charset=x-sjis", "see http://t.example/\u65e5\u672c".encode("shift_jis"), "http://t.example/\u65e5\u672c"),
    ("text/html; charset=x-sjis", "<a href='/\u65e5\u672c'>".encode("shift_jis"), "/\u65e5\u672c"),
    ("text/html; charset=windows-31j", "<a href='/\u65e5\u672c'>".encode("cp932"), "/\u65e5\u672c"),
]


@pytest.mark.parametrize(("content_type", "body", "raw"), LABELS,
                         ids=["latin-1-text", "ascii-text", "x-sjis-text", "x-sjis-html", "windows-31j-html"])
@pytest.mark.parametrize("record_type", ["response", "resource"])
def test_a_declared_charset_is_read_by_the_encoding_standards_labels_for_text_as_for_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content_type: str, body: bytes, raw: str, record_type: str
) -> None:
    # Encoding Standard 4.2, which browsers read every web page's charset by: iso-8859-1 and us-ascii name
    # windows-1252 (0x80 is U+20AC, not the C1 control that ended the text's URL), x-sjis and windows-31j name
    # Shift_JIS (Python knows neither label: the charset was ignored, and the page read as UTF-8)
    if record_type == "response":
        one = response("http://site.example/", body, headers=[("Content-Type", content_type)])
    else:
        one = record("resource", body, target="http://site.example/", content_type=content_type)
    assert [r["raw"] for r in extract(capsys, write(tmp_path, "l.warc", one))] == [raw]


@pytest.mark.parametrize(("label", "charset"), [
    ("windows-1252", "windows-1252"), ("UTF-8", "UTF-8"), ("bogus", "bogus"),
    ("ISO-8859-1", "cp1252"), ("x-sjis", "shift_jis"), ("utf-16", "utf-16-le"),
])
def test_a_documents_charset_is_the_label_declared_unless_python_reads_it_otherwise(label: str, charset: str) -> None:
    # the document's charset is what the record declares; where Python's codec of that label is not the Encoding
    # Standard's encoding (or Python lacks the label), the codec that is
    block = f"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset={label}\r\n\r\n<p>".encode()
    document = record_document("a.warc", 0, "response", {"warc-target-uri": "http://site.example/"}, block)
    assert document is not None and document.charset == charset


def test_warc_field_names_are_read_in_any_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # ISO 28500 4: WARC named fields are read as HTTP's are, their names not case-sensitive; a record whose
    # "warc-type" was written in lower case was passed over as a record of no type
    page = response("http://site.example/", PAGE, headers=[("Content-Type", "text/html")])
    resource = record("resource", b"<a href=r>", target="http://site.example/d/", content_type="text/html")
    archive = write(tmp_path, "c.warc", page.replace(b"WARC-Type:", b"warc-type:", 1)
                    + resource.replace(b"WARC-Type:", b"WARC-TYPE:", 1).replace(b"WARC-Target-URI", b"warc-target-uri"))
    assert [r["uri"] for r in extract(capsys, archive)] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png",
        "http://site.example/d/r"]


def test_header_links_come_first_in_header_order_resolved_against_the_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    headers = [
        ("Content-Type", "text/html"),
        ("Link", '</style.css>; rel=stylesheet; title="a, <b>", <https://cdn.example/x.js>; rel=preload'),
        ("Location", "/moved/here"),
        ("Refresh", "5; url=later.html"),
        ("Link", "<next/>; rel=next"),
        ("Content-Location", "/elsewhere/other/"),
    ]
    archive = write(tmp_path, "h.warc", response("http://site.example/dir/page", b'<a href="rel">x</a>',
                                                 status="301 Moved Permanently", headers=headers))
    records = extract(capsys, archive)
    assert [(r["where"], r["uri"]) for r in records] == [
        ("http link", "http://site.example/style.css"),
        ("http link", "https://cdn.example/x.js"),
        ("http location", "http://site.example/moved/here"),
        ("http refresh", "http://site.example/dir/later.html"),
        ("http link", "http://site.example/dir/next/"),
        ("http content-location", "http://site.example/elsewhere/other/"),
        # Content-Location is not a base (RFC 7231 3.1.4.2): the body resolves against the target URI
        ("a href", "http://site.example/dir/rel"),
    ]
    block = archive.read_bytes()
    start = block.index(b"HTTP/1.1")
    for found in records[:-1]:  # a header link's span is where its URL is written in the HTTP header block
        begin, end = found["span"]
        assert block[start + begin:start + end].decode() == found["raw"]


@pytest.mark.parametrize(("written", "raw"), [
    (b"/caf\xc3\xa9?q=\xc3\xbc", "/caf\u00e9?q=\u00fc"),  # UTF-8, as servers write it and browsers read it
    (b"/caf\xe9", "/caf\u00e9"),  # not UTF-8: each byte its ISO-8859-1 character (RFC 9110 5.5)
], ids=["utf-8", "latin-1"])
def test_a_header_url_written_in_raw_bytes_is_read_as_utf_8_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: bytes, raw: str
) -> None:
    block = b"HTTP/1.1 302 Found\r\nLocation: " + written + b"\r\nLink: <" + written + b">\r\n\r\n"
    archive = write(tmp_path, "u.warc", record("response", block, target="http://site.example/",
                                                content_type="application/http;msgtype=response"))
    found = extract(capsys, archive)
    assert [(r["where"], r["raw"]) for r in found] == [("http location", raw), ("http link", raw)]
    assert all(block[slice(*r["span"])] == written for r in found)


def test_folded_header_fields_give_their_urls_with_spans_on_the_bytes_as_archived(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # RFC 9112 5.2: an obs-fold is read as a space, and each URL's span is still where its bytes are
    block = (b"HTTP/1.1 301 Moved\r\nLink: </a>;\r\n\trel=prev,\r\n <b>; rel=next\r\nLocation:\r\n /moved\r\n"
             b"Refresh: 0;\r\n url=/later\r\nContent-Type: text/html;\r\n charset=utf-8\r\n\r\n<a href=x>x</a>")
    archive = write(tmp_path, "f.warc", record("response", block, target="http://site.example/d/",
                                                content_type="application/http;msgtype=response"))
    found = extract(capsys, archive)
    assert [(r["where"], r["raw"]) for r in found] == [
        ("http link", "/a"), ("http link", "b"), ("http location", "/moved"), ("http refresh", "/later"),
        ("a href", "x")]
    assert all(block[slice(*r["span"])].decode() == r["raw"] for r in found[:4])


def test_an_empty_link_target_names_the_page_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # RFC 8288 3: the target is a URI-Reference, and "" is one (RFC 3986 4.1): the target URI, as href="" is
    archive = write(tmp_path, "e.warc", response("http://site.example/a/page", b'<a href="">self</a>', headers=[
        ("Content-Type", "text/html"), ("Link", '<>; rel="canonical", <x>')]))
    assert [(r["where"], r["raw"], r["uri"]) for r in extract(capsys, archive)] == [
        ("http link", "", "http://site.example/a/page"), ("http link", "x", "http://site.example/a/x"),
        ("a href", "", "http://site.example/a/page")]


ENVELOPES = [json.loads(line) for line in (FIXTURES / "http" / "envelopes.jsonl").read_text("utf-8").splitlines()]


@pytest.mark.parametrize("case", ENVELOPES, ids=[case["case"] for case in ENVELOPES])
def test_http_envelopes_as_servers_write_them_give_their_header_links_as_the_policy_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: dict[str, object]
) -> None:
    # each case (tests/fixtures/http/envelopes.jsonl) is a response record's block, one byte per character, and the
    # links it gives, header links first (each span on the bytes of its URL), then the body's
    block = str(case["block"]).encode("latin-1")
    content_type = str(case.get("content_type", "application/http;msgtype=response"))
    archive = write(tmp_path, "e.warc", record("response", block, target="http://site.example/d/page",
                                                content_type=content_type))
    found = extract(capsys, archive)
    assert [[r["where"], r["raw"]] for r in found] == case["links"]
    assert all(block[slice(*r["span"])].decode() == r["raw"] for r in found if str(r["where"]).startswith("http "))


def test_location_counts_only_on_a_redirection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = write(tmp_path, "l.warc", response("http://site.example/", b"", headers=[
        ("Content-Type", "text/html"), ("Location", "/not-a-redirect")]))
    assert extract(capsys, archive) == []


def test_an_html_base_href_overrides_the_target_uri(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = b'<base href="http://other.example/root/"><a href="x">x</a>'
    archive = write(tmp_path, "b.warc", response("http://site.example/page", page,
                                                 headers=[("Content-Type", "text/html")]))
    assert [r["uri"] for r in extract(capsys, archive)] == ["http://other.example/root/", "http://other.example/root/x"]


def test_an_angle_bracketed_target_uri_is_stripped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = write(tmp_path, "t.warc", response("<http://site.example/dir/>", PAGE, version="1.0",
                                                 headers=[("Content-Type", "text/html")]))
    records = extract(capsys, archive)
    assert records[0]["uri"] == "http://site.example/dir/next.html"
    assert records[0]["target_uri"] == "http://site.example/dir/"


@pytest.mark.parametrize(("written", "target"), [
    (b"http://site.example/caf\xc3\xa9/", "http://site.example/caf\u00e9/"),  # UTF-8, as ISO 28500 4 writes it
    (b"<http://site.example/caf\xe9/>", "http://site.example/caf\u00e9/"),  # not UTF-8: each byte its ISO-8859-1 one
    # written twice (a record has one target), the last counts whatever its bytes, as it does when both are UTF-8
    (b"http://first.example/\r\nWARC-Target-URI: http://site.example/caf\xe9/", "http://site.example/caf\u00e9/"),
], ids=["utf-8", "latin-1", "twice"])
def test_a_target_uri_written_in_raw_bytes_is_read_as_utf_8_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: bytes, target: str
) -> None:
    # a byte that is not UTF-8 was U+FFFD in the target URI, the base and every link resolved against it
    one = response("http://site.example/PLACE/", b"<a href=x>", headers=[("Content-Type", "text/html")])
    archive = write(tmp_path, "t.warc", one.replace(b"http://site.example/PLACE/", written))
    [found] = extract(capsys, archive)
    assert (found["target_uri"], found["base"], found["uri"]) == (target, target, target + "x")


def test_resource_records_are_read_by_their_warc_content_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = record("resource", b"see http://a.example/doc.", target="file:///notes.txt", content_type="text/plain")
    page = record("resource", b'<a href="b.html">b</a>', target="http://site.example/a/",
                  content_type="text/html; charset=utf-8")
    image = record("resource", b"\x89PNG http://not.example/", target="http://site.example/i.png",
                   content_type="image/png")
    archive = write(tmp_path, "r.warc", text + page + image)
    assert [(r["kind"], r["uri"]) for r in extract(capsys, archive)] == [
        ("uri", "http://a.example/doc"), ("url", "http://site.example/a/b.html")]


UNDECLARED = [  # (payload, headers besides none of Content-Type, what comes out: (where, uri))
    (b'\n <p>see <a href="x">x</a>', [], [("a href", "http://site.example/d/x")]),
    (b"<!DOCTYPE html><a href=y>", [], [("a href", "http://site.example/d/y")]),
    (b"<!-- c --><A HREF=z>", [], [("a href", "http://site.example/d/z")]),
    (gzip.compress(b"<html><a href=g>"), [("Content-Encoding", "gzip")], [("a href", "http://site.example/d/g")]),
    (b"notes: http://t.example/a. <a href=n>", [], [("bare", "http://t.example/a")]),
    (b"\xef\xbb\xbfsee http://bom.example/", [], [("bare", "http://bom.example/")]),
    (b"\x89PNG\r\n\x1a\n\x00\x00 http://png.example/", [("Link", "</l>")], [("http link", "http://site.example/l")]),
    (b"%PDF-1.7 http://pdf.example/", [], []),
    (b"", [("Content-Location", "/c")], [("http content-location", "http://site.example/c")]),
]


@pytest.mark.parametrize(("payload", "headers", "expected"), UNDECLARED,
                         ids=["p", "doctype", "comment", "gzip", "text", "bom", "png", "pdf", "empty"])
def test_a_payload_without_a_content_type_is_read_as_a_browser_sniffs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], payload: bytes, headers: list[tuple[str, str]],
    expected: list[tuple[str, str]],
) -> None:
    # RFC 9110 8.3: without Content-Type the recipient may examine the data; the MIME Sniffing Standard 7.1 does
    # (an HTML pattern, else text/plain unless binary data bytes or a PDF signature). The body gave no links.
    archive = write(tmp_path, "n.warc", response("http://site.example/d/", payload, headers=headers))
    assert [(r["where"], r["uri"]) for r in extract(capsys, archive)] == expected
    if not headers:  # a resource record without a WARC Content-Type, alike
        archive = write(tmp_path, "r.warc", record("resource", payload, target="http://site.example/d/"))
        assert [(r["where"], r["uri"]) for r in extract(capsys, archive)] == expected


def test_a_response_to_another_protocol_is_read_as_a_resource_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # no HTTP envelope (its WARC Content-Type no application/http, no status line): its content is the page, whose
    # lines are no header fields
    ftp = record("response", b'<a href="rel">x</a>\nLink: <http://not.example/>', target="ftp://f.example/d/",
                 content_type="text/html")
    dns = record("response", b"20260101000000\nexample.com.\t300\tIN\tA\t192.0.2.1\n", target="dns:example.com",
                 content_type="text/dns")
    # a status line makes it HTTP whatever the WARC Content-Type says
    mislabelled = record("response", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: </l>\r\n\r\n<a href=x>",
                         target="http://site.example/", content_type="text/html")
    archive = write(tmp_path, "p.warc", ftp + dns + mislabelled)
    assert [(r["where"], r["uri"]) for r in extract(capsys, archive)] == [
        ("a href", "ftp://f.example/d/rel"), ("http link", "http://site.example/l"),
        ("a href", "http://site.example/x")]


def _http(status: str, headers: list[tuple[str, str]], body: bytes = b"", version: str = "HTTP/1.1") -> bytes:
    """An HTTP message as a record's block holds it: a status or request line, fields, an empty line, the body."""
    return "".join(f"{line}\r\n" for line in [f"{version} {status}".strip(), *(f"{n}: {v}" for n, v in headers)]
                   ).encode("latin-1") + b"\r\n" + body


def _wget() -> tuple[bytes, list[tuple[str, str]]]:
    """WARC/1.0 as wget 1.21 writes it: target URIs in <...>, each response after its request, a 301, the
    manifest (metadata) and its arguments and log as resources, one gzip member per record."""
    http, meta = "application/http;msgtype=", "metadata://gnu.org/software/wget/warc/"
    page = b'<html><meta charset="windows-1252"><a href="caf\x92.html">x</a> <img src="/i.png">'
    records = [
        record("warcinfo", b"software: Wget/1.21.3 (linux-gnu)\r\nformat: WARC File Format 1.0\r\n", version="1.0",
               content_type="application/warc-fields"),
        record("request", _http("", [("Host", "site.example"), ("Referer", "http://r.example/")],
                                version="GET / HTTP/1.1"),
               target="<http://site.example/>", content_type=http + "request", version="1.0"),
        record("response", _http("200 OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")],
                                 chunked(page)), target="<http://site.example/>", content_type=http + "response",
               version="1.0"),
        record("response", _http("301 Moved Permanently", [("Location", "/new/"), ("Content-Length", "0")]),
               target="<http://site.example/old>", content_type=http + "response", version="1.0"),
        record("metadata", b"<urn:uuid:00000000-0000-0000-0000-000000000001>\n", target=f"<{meta}MANIFEST.txt>",
               content_type="text/plain", version="1.0"),
        record("resource", b'"-r" "http://site.example/" \n', target=f"<{meta}wget_arguments.txt>",
               content_type="text/plain", version="1.0"),
        record("resource", b"--2026-11-24 00:00:00--  http://site.example/old\nLocation: /new/ [following]\n",
               target=f"<{meta}wget.log>", content_type="text/plain", version="1.0"),
    ]
    return per_record_gzip(records)[0], [
        ("a href", "http://site.example/caf\u2019.html"), ("img src", "http://site.example/i.png"),
        ("http location", "http://site.example/new/"), ("quote", "http://site.example/"),
        ("bare", "http://site.example/old")]


def _heritrix() -> tuple[bytes, list[tuple[str, str]]]:
    """WARC/1.0 as Heritrix 3 writes it: a dns: response, robots.txt, outlinks in metadata, a revisit by digest, an
    HTTP/1.0 response compressed with gzip, one gzip member per record."""
    http = "application/http; msgtype=response"
    records = [
        record("warcinfo", b"software: Heritrix/3.4.0\r\n", version="1.0", content_type="application/warc-fields"),
        record("response", b"20261124000000\nsite.example.\t300\tIN\tA\t192.0.2.1\n", target="dns:site.example",
               content_type="text/dns", version="1.0"),
        record("response", _http("200 OK", [("Content-Type", "text/plain")], b"Sitemap: http://site.example/s.xml\n"),
               target="http://site.example/robots.txt", content_type=http, version="1.0"),
        record("metadata", b"via: http://site.example/robots.txt\r\noutlink: http://site.example/x L a/@href\r\n",
               target="http://site.example/", content_type="application/warc-fields", version="1.0"),
        record("revisit", _http("200 OK", [("Content-Type", "text/html"), ("Link", "</rv>")]),
               target="http://site.example/again", content_type=http, version="1.0", extra={
                   "WARC-Profile": "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest",
                   "WARC-Refers-To": "<urn:uuid:00000000-0000-0000-0000-000000000009>", "WARC-Truncated": "length"}),
        record("response", _http("200 OK", [("Content-Type", "text/html; charset=UTF-8"), ("Content-Encoding", "gzip")],
                                 gzip.compress(b'<a href="p.html">p</a>'), version="HTTP/1.0"),
               target="http://site.example/d/", content_type=http, version="1.0"),
    ]
    return per_record_gzip(records)[0], [("bare", "http://site.example/s.xml"), ("a href", "http://site.example/d/p.html")]


def _common_crawl() -> tuple[bytes, list[tuple[str, str]]]:
    """WARC/1.0 as Common Crawl writes it: request, response (its payload stored decoded, the original codings
    renamed X-Crawler-*, cut at its size limit) and metadata per page; then a WET conversion record."""
    http = "application/http; msgtype="
    page = b"".join(b'<a href="/p%d">%d</a>' % (i, i) for i in range(5))
    records = [
        record("request", _http("", [("Host", "cc.example")], version="GET /a HTTP/1.1"), target="https://cc.example/a",
               content_type=http + "request", version="1.0"),
        record("response", _http("200 OK", [
            ("Content-Type", "text/html; charset=UTF-8"), ("X-Crawler-Content-Encoding", "gzip"),
            ("X-Crawler-Content-Length", "999")], page[:-12]), target="https://cc.example/a",
               content_type=http + "response", version="1.0",
               extra={"WARC-Truncated": "length", "WARC-Identified-Payload-Type": "text/html"}),
        record("metadata", b"fetchTimeMs: 12\r\ncharset-detected: UTF-8\r\n", target="https://cc.example/a",
               content_type="application/warc-fields", version="1.0"),
        record("conversion", b"A page https://wet.example/\n", target="https://cc.example/a", content_type="text/plain",
               version="1.0"),
    ]
    return per_record_gzip(records)[0], [("a href", f"https://cc.example/p{i}") for i in range(4)]


def _browsertrix() -> tuple[bytes, list[tuple[str, str]]]:
    """WARC/1.1 as Browsertrix and Webrecorder write it: the page's response, its page info (JSON) and its
    extracted text as resources named by urn: target URIs."""
    records = [
        response("https://bt.example/p/", b'<a href="q">q</a>', headers=[
            ("content-type", "text/html; charset=utf-8"), ("link", "<https://bt.example/f.woff2>; rel=preload")]),
        record("resource", b'{"url": "https://bt.example/p/", "title": "p"}', target="urn:pageinfo:https://bt.example/p/",
               content_type="application/json"),
        record("resource", b"q https://linked.example/", target="urn:text:https://bt.example/p/",
               content_type="text/plain"),
    ]
    return per_record_gzip(records)[0], [
        ("http link", "https://bt.example/f.woff2"), ("a href", "https://bt.example/p/q"),
        ("bare", "https://linked.example/")]


@pytest.mark.parametrize("writer", [_wget, _heritrix, _common_crawl, _browsertrix],
                         ids=["wget", "heritrix", "common-crawl", "browsertrix"])
def test_archives_shaped_as_real_writers_write_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], writer: Callable[[], tuple[bytes, list[tuple[str, str]]]]
) -> None:
    # the policy over each writer's shape: responses and resources read, every other record type passed over, the
    # payload decoded, the header links first, each record in its place
    archive, expected = writer()
    assert [(r["where"], r["uri"]) for r in extract(capsys, write(tmp_path, "w.warc.gz", archive))] == expected


def test_records_that_hold_no_page_give_no_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = b"GET / HTTP/1.1\r\nReferer: http://r.example/\r\n\r\n"
    others = b"".join([
        record("warcinfo", b"software: http://tool.example/", content_type="application/warc-fields"),
        record("request", body, target="http://site.example/", content_type="application/http;msgtype=request"),
        record("metadata", b"outlink: http://m.example/", target="http://site.example/",
               content_type="application/warc-fields"),
        record("revisit", b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", target="http://site.example/",
               extra={"WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}),
        record("conversion", b"http://c.example/", target="http://site.example/", content_type="text/plain"),
        response("http://site.example/p.png", b"\x89PNG <a href='x'>", headers=[("Content-Type", "image/png")]),
    ])
    archive = write(tmp_path, "o.warc", others)
    assert extract(capsys, archive) == []


def test_a_plain_text_response_is_scanned_in_its_http_charset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "voir http://é.example/ç.".encode("latin-1")
    archive = write(tmp_path, "p.warc", response("http://site.example/a.txt", body,
                                                 headers=[("Content-Type", "text/plain; charset=iso-8859-1")]))
    [found] = extract(capsys, archive)
    assert (found["uri"], found["line"], found["column"]) == ("http://é.example/ç", 1, 6)


@pytest.mark.parametrize("compression", ["none", "per-record", "whole", "bzip2"])
def test_every_framing_gives_the_same_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], compression: str
) -> None:
    records = [response(f"http://site.example/{i}/", PAGE, headers=[("Content-Type", "text/html")]) for i in range(3)]
    data = b"".join(records)
    if compression == "per-record":
        data, offsets = per_record_gzip(records)
    elif compression == "whole":
        data = gzip.compress(data)
    elif compression == "bzip2":
        data = bz2.compress(data)
    archive = write(tmp_path, "f.warc.x", data)
    found = extract(capsys, archive)
    assert [r["uri"] for r in found] == [
        uri for i in range(3)
        for uri in (f"http://site.example/{i}/next.html", f"http://site.example/{i}/a.png", "http://site.example/b.png")
    ]
    if compression == "none":
        starts = [0, len(records[0]), len(records[0]) + len(records[1])]
        assert sorted({r["offset"] for r in found}) == starts
    if compression == "per-record":
        assert sorted({r["offset"] for r in found}) == offsets


def _four_pages(per_record: bool, *, repeat: int) -> tuple[bytes, list[int]]:
    """An archive of four HTML responses, each linking "/pN" *repeat* times, and the offset of each record."""
    records = [response(f"http://site.example/{i}", f'<a href="/p{i}">x</a>'.encode() * repeat,
                        headers=[("Content-Type", "text/html")]) for i in range(4)]
    if per_record:
        return per_record_gzip(records)
    return b"".join(records), [sum(map(len, records[:i])) for i in range(4)]


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("cut", [5, 60, -10], ids=["in-version-line", "in-header", "in-content"])
def test_a_truncated_archive_keeps_every_earlier_record_and_reports_the_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, cut: int
) -> None:
    data, offsets = _four_pages(per_record, repeat=20)
    if cut > 0:
        end = offsets[3] + cut
    else:  # inside the last record's content: its deflate stream or its bytes cut a quarter from their end
        end = offsets[3] + (len(data) - offsets[3]) * 3 // 4 if per_record else len(data) - 100
    archive = write(tmp_path, "cut.warc.gz" if per_record else "cut.warc", data[:end])
    found = extract(capsys, archive, status=1)
    assert [r["uri"] for r in found if r["kind"] != "error"] == [
        f"http://site.example/p{i}" for i in range(3) for _ in range(20)]
    [error] = [r for r in found if r["kind"] == "error"]
    assert error["input"] == str(archive)
    assert error["offset"] == offsets[3]
    assert str(offsets[3]) in error["error"]
    assert found[-1] is error  # the error sits where the record's links would be


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress], ids=["gzip", "bzip2", "xz"])
def test_an_archive_compressed_whole_gives_each_record_its_offset_in_the_decompressed_archive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], compress: object
) -> None:
    # no record starts a gzip member of its own: the member's offset would name no record (it named the same
    # offset for every record of a block), the decompressed archive's offset names each
    data, offsets = _four_pages(False, repeat=1)
    archive = write(tmp_path, "w.warc.gz", compress(data))  # type: ignore[operator]
    found = extract(capsys, archive)
    assert [(r["offset"], r["uri"]) for r in found] == [(offsets[i], f"http://site.example/p{i}") for i in range(4)]


@pytest.mark.parametrize("compression", ["gzip", "zstd"])
@pytest.mark.parametrize("cut", [0, 5, 60, -100], ids=["at-the-record", "in-version-line", "in-header", "in-content"])
def test_an_archive_compressed_whole_and_cut_short_keeps_every_earlier_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], compression: str, cut: int
) -> None:
    data, offsets = _four_pages(False, repeat=20)
    end = offsets[3] + cut if cut >= 0 else len(data) + cut
    archive = write(tmp_path, "cut.warc.gz", unfinished(data[:end], compression))
    found = extract(capsys, archive, status=1)
    assert [r["uri"] for r in found if r["kind"] != "error"] == [
        f"http://site.example/p{i}" for i in range(3) for _ in range(20)]
    [error] = [r for r in found if r["kind"] == "error"]
    assert (error["input"], error["offset"]) == (str(archive), offsets[3])
    assert f"record at offset {offsets[3]}: truncated" in error["error"]
    assert found[-1] is error


@pytest.mark.parametrize("target", ["/page", "//site.example/page", "page", "\ufffdttp://site.example/", "1a:b"])
def test_a_relative_target_uri_is_no_base_and_the_next_records_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    # RFC 3986 5.1: a base URI is absolute; the links of a record whose target has no scheme stay as written
    relative = response(target, b'<a href="x">x</a>', headers=[("Content-Type", "text/html"), ("Link", "<y>")])
    good = response("http://site.example/ok", PAGE, headers=[("Content-Type", "text/html")])
    archive = write(tmp_path, "r.warc", relative + good)
    found = extract(capsys, archive)
    assert [(r["uri"], r["base"], r["target_uri"]) for r in found[:2]] == [("y", None, target), ("x", None, target)]
    assert [r["uri"] for r in found[2:]] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]


def test_a_record_whose_target_is_no_base_resolves_header_and_body_links_against_base_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --base is the retrieval URL of what has none of its own: the header links as the body's (they stayed relative)
    relative = response("/page", b'<a href="x">x</a>', headers=[("Content-Type", "text/html"), ("Link", "<y>")])
    archive = write(tmp_path, "r.warc", relative)
    assert cli.main(["extract", "--format", "jsonl", "-j", "1", "--base", "http://given.example/d/", str(archive)]) == 0
    found = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["where"], r["uri"], r["base"]) for r in found] == [
        ("http link", "http://given.example/d/y", "http://given.example/d/"),
        ("a href", "http://given.example/d/x", "http://given.example/d/")]


def test_a_response_of_another_type_still_gives_its_header_links_but_no_body_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = response("http://site.example/img/logo", b"\x89PNG http://not.example/", headers=[
        ("Content-Type", "image/png"), ("Link", '<http://site.example/licence>; rel="license"')])
    archive = write(tmp_path, "i.warc", image)
    assert [(r["where"], r["uri"]) for r in extract(capsys, archive)] == [("http link", "http://site.example/licence")]


@pytest.mark.parametrize(("coding", "payload"), [
    ("gzip", b"\x1f\x8b\x08garbage <a href=lost>"), ("deflate", b"\x78\x9c\x01garbage"),
    ("compress", b"\x1f\x9d\x90<a>"),
], ids=["damaged-gzip", "damaged-deflate", "unsupported"])
def test_an_undecodable_content_coding_is_an_error_record_after_the_header_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], coding: str, payload: bytes
) -> None:
    bad = response("http://site.example/", payload, headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", coding), ("Link", "</a>; rel=next")])
    good = response("http://site.example/ok", PAGE, headers=[("Content-Type", "text/html")])
    archive = write(tmp_path, "g.warc", bad + good)
    found = extract(capsys, archive, status=1)
    assert [(r["kind"], r["uri"]) for r in found][:2] == [("url", "http://site.example/a"), ("error", None)]
    assert f"content coding {coding!r}" in found[1]["error"]
    assert found[2]["uri"] == "http://site.example/next.html"  # the next record is read


@pytest.mark.parametrize(("codings", "text"), [
    (["gzip"], b""), (["x-gzip"], b""), (["deflate"], b""), (["br"], b""), (["br"], b"Lorem ipsum "), (["zstd"], b""),
    (["gzip", "gzip"], b""), (["utf-8"], b""), (["none"], b""),
], ids=["gzip", "x-gzip", "deflate", "br", "br-read-as-a-stream-start", "zstd", "gzip-twice", "utf-8", "none"])
def test_a_payload_its_content_coding_cannot_undo_that_holds_no_binary_data_is_read_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], codings: list[str], text: bytes
) -> None:
    # a tool that archives a page decoded and keeps its Content-Encoding (or a server naming a coding it did not
    # apply) leaves a text no coding undoes: it is read as warcio and ReplayWeb.page read it, its links given (it was
    # an error record, the page's links lost); a coding that failed is then reported, an error record naming the
    # record's offset after its links, as a compressed page cut short is; one linkkit does not know is passed over,
    # as browsers pass over it. Brotli has no magic number: a text that reads as the start of a stream giving nothing
    # ("Lorem...") gave no links, no error
    from linkkit.sources.http import _brotli

    archive = write(tmp_path, "s.warc", response("http://site.example/", text + PAGE, headers=[
        ("Content-Type", "text/html")] + [("Content-Encoding", coding) for coding in codings]))
    failed = codings[0] in ("gzip", "x-gzip", "deflate", "zstd") or (codings[0] == "br" and _brotli() is not None)
    found = extract(capsys, archive, status=1 if failed else 0)
    assert [r["uri"] for r in found if r["kind"] != "error"] == [
        "http://site.example/next.html", "http://site.example/a.png", "http://site.example/b.png"]
    errors = [r for r in found if r["kind"] == "error"]
    assert len(errors) == failed and (not failed or found[-1] is errors[0])
    if failed:
        assert errors[0]["offset"] == 0 and f"content coding {codings[-1]!r}" in str(errors[0]["error"])
        assert "read as it is" in str(errors[0]["error"])


@pytest.mark.parametrize("coding", ["gzip", "deflate", "br", "zstd"])
def test_a_payload_that_decodes_past_the_held_limit_is_an_error_record_after_the_header_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, coding: str
) -> None:
    # a bomb (a small record decoding to gigabytes) is decoded no further than the most held whole
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", 4096)
    encode = {**CODINGS, "zstd": _zstd}[coding]
    bomb = response("http://site.example/", encode(PAGE + b" " * 5000), headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", coding), ("Link", "</a>; rel=next")])
    under = response("http://site.example/ok", encode(PAGE + b" " * 3000), headers=[
        ("Content-Type", "text/html"), ("Content-Encoding", coding)])
    found = extract(capsys, write(tmp_path, "b.warc", bomb + under), status=1)
    assert [(r["kind"], r["uri"]) for r in found][:2] == [("url", "http://site.example/a"), ("error", None)]
    assert "larger than 4096 bytes" in found[1]["error"]
    assert found[2]["uri"] == "http://site.example/next.html"  # the next record, under the limit, is read


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
def test_a_record_past_the_held_limit_is_read_no_further_and_an_error_only_where_it_would_give_links(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, per_record: bool
) -> None:
    # a page, a resource or an image of gigabytes is not held whole: memory stays bounded whatever the archive holds
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", 4096)
    big = PAGE + b" " * 5000
    records = [
        response("http://site.example/big", big, headers=[("Content-Type", "text/html"), ("Link", "</a>; rel=x")]),
        record("resource", big, target="http://site.example/big.txt", content_type="text/plain"),
        response("http://site.example/big.png", b"\x89PNG" + b"\0" * 6000, headers=[("Content-Type", "image/png")]),
        response("http://site.example/ok", PAGE, headers=[("Content-Type", "text/html")]),
    ]
    data = per_record_gzip(records)[0] if per_record else b"".join(records)
    found = extract(capsys, write(tmp_path, "big.warc.gz" if per_record else "big.warc", data), status=1)
    assert [(r["kind"], r["target_uri"], r["uri"]) for r in found][:4] == [
        ("url", "http://site.example/big", "http://site.example/a"), ("error", "http://site.example/big", None),
        ("error", "http://site.example/big.txt", None), ("url", "http://site.example/ok", "http://site.example/next.html")]
    assert "a record larger than 4096 bytes" in found[1]["error"]


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
def test_reading_goes_on_at_the_next_record_after_a_corrupt_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool
) -> None:
    data, offsets = _four_pages(per_record, repeat=1)
    damaged = bytearray(data)
    for at in range(offsets[1] + 4, offsets[1] + 24):  # the second record's header (or deflate stream) garbled
        damaged[at] ^= 0x55
    archive = write(tmp_path, "bad.warc.gz" if per_record else "bad.warc", bytes(damaged))
    found = extract(capsys, archive, status=1)
    assert [r["uri"] for r in found] == ["http://site.example/p0", None, "http://site.example/p2",
                                         "http://site.example/p3"]
    assert found[1]["offset"] == offsets[1] and str(offsets[1]) in found[1]["error"]


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
def test_reading_goes_on_past_corrupt_records_one_after_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool
) -> None:
    # reading resumed at a record that is corrupt too: its error names it, and reading goes on (it went back to
    # the archive's start and never ended)
    data, offsets = _four_pages(per_record, repeat=1)
    damaged = bytearray(data)
    for bad in (1, 2):  # each record still starts as one (its member, its version line), and fails further on
        at = (offsets[bad] + offsets[bad + 1]) // 2 if per_record else data.index(b"Content-Length", offsets[bad])
        for position in range(at, at + 4):  # the member's deflate stream; the Content-Length field's name
            damaged[position] ^= 0x55
    archive = write(tmp_path, "bad.warc.gz" if per_record else "bad.warc", bytes(damaged))
    found = extract(capsys, archive, status=1)
    assert [(r["offset"], r["uri"]) for r in found] == [
        (offsets[0], "http://site.example/p0"), (offsets[1], None), (offsets[2], None),
        (offsets[3], "http://site.example/p3")]


@pytest.mark.parametrize("kept", [5, 40, 120], ids=["in-version-line", "in-header", "in-content"])
def test_reading_goes_on_at_a_record_that_follows_a_cut_one_without_a_line_break(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kept: int
) -> None:
    # two files joined where the first was cut: the next record's version line starts inside the cut one's line
    records = [response(f"http://site.example/{i}", f'<a href="/p{i}">x</a>'.encode(),
                        headers=[("Content-Type", "text/html")]) for i in range(3)]
    data = records[0] + records[1][:kept] + records[2]
    archive = write(tmp_path, "joined.warc", data)
    found = extract(capsys, archive, status=1)
    assert [r["uri"] for r in found] == ["http://site.example/p0", None, "http://site.example/p2"]
    assert found[1]["offset"] == len(records[0])
    assert found[2]["offset"] == len(records[0]) + kept


@pytest.mark.parametrize("lost", [1, 3, 5, 30, 60], ids=["lf", "crlf-cr", "a-byte", "half-the-page", "more"])
def test_a_record_cut_in_its_content_is_named_and_the_record_its_length_runs_into_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lost: int
) -> None:
    # the second record lost its last bytes (of its closing CRLF CRLF, or of its page too) and the third follows
    # at once: the second's Content-Length runs into the third's header. The error named the third's offset and
    # the third was lost; now the second's offset is named (after the links of what it holds), the third read.
    body = b"".join(f'<a href="/q{i}">{i}</a>'.encode() for i in range(5))
    records = [response(f"http://site.example/{i}", body, headers=[("Content-Type", "text/html")]) for i in range(3)]
    data = records[0] + records[1][: len(records[1]) - lost] + records[2]
    found = extract(capsys, write(tmp_path, "cut.warc", data), status=1)
    errors = [r for r in found if r["kind"] == "error"]
    assert [r["offset"] for r in errors] == [len(records[0])]
    assert [r["target_uri"] for r in found if r["kind"] != "error"][-5:] == ["http://site.example/2"] * 5


def _content_length_off_by(one: bytes, by: int) -> bytes:
    """The record *one* (uncompressed) with its Content-Length *by* bytes more (or fewer) than its block holds."""
    length = len(one.split(b"\r\n\r\n", 1)[1]) - 4
    return one.replace(b"Content-Length: %d\r\n" % length, b"Content-Length: %d\r\n" % (length + by), 1)


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("by", [-1, -5, -40, 5], ids=["one-short", "five-short", "a-page-short", "five-long"])
@pytest.mark.parametrize("last", [False, True], ids=["middle", "last"])
def test_a_record_whose_content_length_is_wrong_is_the_one_named_and_the_next_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, by: int, last: bool
) -> None:
    # ISO 28500 4: a record is its header, Content-Length bytes of block, then CRLF CRLF. A second record whose
    # Content-Length is wrong leaves bytes that are no record after its block (or runs into the next gzip member):
    # the error named those bytes' offset or the next record's, whose links were lost in a .warc.gz, and said
    # "Invalid WARC header". Now the second record is named, with its record_id, and the third is read.
    body = b'<a href="/q">q</a>'
    records = [response(f"http://site.example/{i}", body, headers=[("Content-Type", "text/html")]) for i in range(3)]
    if last:
        records.pop()
    records[1] = _content_length_off_by(records[1], by)
    data, offsets = per_record_gzip(records) if per_record else (b"".join(records), [0, len(records[0])])
    found = extract(capsys, write(tmp_path, "wrong.warc.gz" if per_record else "wrong.warc", data), status=1)
    errors = [r for r in found if r["kind"] == "error"]
    assert [(r["offset"], r["target_uri"]) for r in errors] == [(offsets[1], "http://site.example/1")]
    read = [r["target_uri"] for r in found if r["kind"] != "error"]
    assert read[0] == "http://site.example/0"
    assert last or read[-1] == "http://site.example/2"  # the third is read


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("length", [50_000_000_000, 10**20], ids=["50-GB", "past-64-bits"])
@pytest.mark.parametrize("last", [False, True], ids=["middle", "last"])
def test_a_content_length_no_file_holds_is_an_error_record_and_the_next_record_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, length: int, last: bool
) -> None:
    # finding where reading stopped read the record's Content-Length bytes at once: a read of 10**20 bytes ended
    # in a traceback (OverflowError) and the whole archive's output was lost; one of 50 GB allocated it
    body = b'<a href="/q">q</a>'
    records = [response(f"http://site.example/{i}", body, headers=[("Content-Type", "text/html")]) for i in range(3)]
    if last:
        records.pop()
    records[1] = _content_length_off_by(records[1], length)
    data, offsets = per_record_gzip(records) if per_record else (b"".join(records), [0, len(records[0])])
    found = extract(capsys, write(tmp_path, "huge.warc.gz" if per_record else "huge.warc", data), status=1)
    assert [r["offset"] for r in found if r["kind"] == "error"] == [offsets[1]]
    read = [r["target_uri"] for r in found if r["kind"] != "error"]
    assert read[0] == "http://site.example/0"
    assert last or read[-1] == "http://site.example/2"


@pytest.mark.parametrize("field", [" < /c > ;rel=prev", "<\t/c >", "< /c>, < >"], ids=["spaces", "tab", "and-empty"])
def test_a_link_target_written_with_spaces_in_its_brackets_has_the_url_as_raw_and_span(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    # RFC 8288 3: "<" URI-Reference ">", and a URI holds no space: the span held the spaces the raw left out
    block = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: {field}\r\n\r\n".encode()
    archive = write(tmp_path, "s.warc", record("response", block, target="http://site.example/d/p",
                                                content_type="application/http;msgtype=response"))
    found = extract(capsys, archive)
    assert (found[0]["raw"], found[0]["uri"]) == ("/c", "http://site.example/c")
    assert all(block[slice(*r["span"])].decode() == r["raw"] for r in found)


def test_a_records_warning_and_error_on_standard_error_name_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a line on standard error named only the archive ("a.warc:1:25: warning"), not which of its records; the
    # archive's own errors say "record at offset N", and so do a record's warnings and decoding errors now
    records = [response(f"http://site.example/{i}", body, headers=[("Content-Type", f"text/plain{charset}")])
               for i, (body, charset) in enumerate([
                   (b"see http://x.example/ ok", ""),
                   (b"see http://x.example/caf\xe9 ok", ""),
                   ("see http://x.example/".encode("utf-16-le") + b"!", "; charset=utf-16le"),
               ])]
    archive = write(tmp_path, "a.warc", b"".join(records))
    assert cli.main(["extract", "-j", "1", str(archive)]) == 1
    second, third = len(records[0]), len(records[0] + records[1])
    assert capsys.readouterr().err.splitlines() == [
        f"linkkit: {archive}: record at offset {second}:1:25: warning: 1 byte(s) not valid utf-8; kept unchanged",
        f"linkkit: error: {archive}: record at offset {third}: cannot decode byte 42 as utf-16-le: truncated data",
    ]


@pytest.mark.parametrize("damage", ["early", "late", "cut-out"])
def test_a_warc_gz_whose_first_member_is_damaged_is_still_an_archive_and_the_next_records_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    # the first member decompressed only up to its damage, and that failure hid the version line the file was told
    # by: the .warc.gz was read as a compressed text (or not at all), and every record after it lost
    records = [response(f"http://site.example/{i}", PAGE, headers=[("Content-Type", "text/html")]) for i in range(3)]
    data, offsets = per_record_gzip(records)
    first = bytearray(data[: offsets[1]])
    if damage == "cut-out":
        del first[len(first) // 2 : len(first) // 2 + 10]
    else:
        first[20 if damage == "early" else len(first) - 12] ^= 0x10
    found = extract(capsys, write(tmp_path, "d.warc.gz", bytes(first) + data[offsets[1]:]), status=1)
    assert (found[0]["kind"], found[0]["offset"]) == ("error", 0)
    assert [r["target_uri"] for r in found[1:]] == ["http://site.example/1"] * 3 + ["http://site.example/2"] * 3


@pytest.mark.parametrize("version", [b"WARX/1.1", b"WARC/", b"\x00ARC/1.1", b"WARC/1.1 garbage"],
                         ids=["a-letter", "cut", "a-nul", "trailing"])
@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
def test_an_archive_whose_first_version_line_is_damaged_is_still_an_archive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: bytes, per_record: bool
) -> None:
    # the file was told a web archive only by its first bytes "WARC/": with them damaged it was scanned as a text
    # (its records' target URIs came out as bare URIs, their pages' links lost); the record is an error now
    records = [response(f"http://site.example/{i}", PAGE, headers=[("Content-Type", "text/html")]) for i in range(3)]
    records[0] = version + records[0][len(b"WARC/1.1"):]
    data = per_record_gzip(records)[0] if per_record else b"".join(records)
    found = extract(capsys, write(tmp_path, "v.warc.gz" if per_record else "v.warc", data), status=1)
    assert (found[0]["kind"], found[0]["offset"]) == ("error", 0)
    assert [r["target_uri"] for r in found[1:]] == ["http://site.example/1"] * 3 + ["http://site.example/2"] * 3


@pytest.mark.parametrize("framing", ["uncompressed", "gzip-per-record", "gzip-whole"])
def test_a_record_whose_content_length_runs_over_the_next_records_gives_its_own_links_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], framing: str
) -> None:
    # the second record's Content-Length took in the third record whole and the fourth's header: the third's links
    # came out twice, once as the second's (resolved against its target URI) and once its own
    pages = [f'<a href="/p{i}">{i}</a>'.encode() for i in range(5)]
    records = [response(f"http://site.example/{i}/", page, headers=[("Content-Type", "text/html")])
               for i, page in enumerate(pages)]
    records[1] = _content_length_off_by(records[1], len(records[2]) + 40)
    data = {"uncompressed": b"".join(records), "gzip-per-record": per_record_gzip(records)[0],
            "gzip-whole": gzip.compress(b"".join(records))}[framing]
    found = extract(capsys, write(tmp_path, "over.warc" if framing == "uncompressed" else "over.warc.gz", data),
                    status=1)
    assert [(r["kind"], r["target_uri"], r["uri"]) for r in found] == [
        ("url", "http://site.example/0/", "http://site.example/p0"),
        ("url", "http://site.example/1/", "http://site.example/p1"),
        ("error", "http://site.example/1/", None),
        ("url", "http://site.example/2/", "http://site.example/p2"),
        ("url", "http://site.example/3/", "http://site.example/p3"),
        ("url", "http://site.example/4/", "http://site.example/p4"),
    ]


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress, _zstd], ids=["gzip", "bzip2", "xz",
                                                                                          "zstd"])
@pytest.mark.parametrize("by", [-5, 5], ids=["short", "long"])
def test_reading_an_archive_compressed_whole_goes_on_after_a_record_whose_content_length_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], by: int, compress: Callable[[bytes], bytes]
) -> None:
    # its decompression intact, the archive can be read on at the next version line (it stopped there)
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    records[1] = _content_length_off_by(records[1], by)
    found = extract(capsys, write(tmp_path, "w.warc.z", compress(b"".join(records))), status=1)
    assert [r["kind"] for r in found] == ["url", "url", "error", "url"]
    assert (found[2]["offset"], found[3]["target_uri"]) == (len(records[0]), "http://site.example/2")


@pytest.mark.parametrize("compression", ["gzip", "zstd"])
@pytest.mark.parametrize("by", [-5, 5], ids=["short", "long"])
def test_an_archive_compressed_whole_cut_short_after_a_corrupt_record_keeps_the_records_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], compression: str, by: int
) -> None:
    # looking for the next version line after the corrupt record met the cut: the decompressor's EOFError ended in
    # a traceback, every record's output lost; now the corrupt record is named and reading ends at the cut
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(2)]
    records[1] = _content_length_off_by(records[1], by)
    data = unfinished(b"".join(records) + b"<p>the rest of the archive, cut</p>" * 20, compression)
    found = extract(capsys, write(tmp_path, "w.warc.z", data), status=1)
    assert (found[0]["kind"], found[0]["offset"]) == ("url", 0)
    assert [(r["kind"], r["offset"]) for r in found if r["kind"] == "error"] == [("error", len(records[0]))]


def test_an_archive_compressed_whole_whose_first_header_is_damaged_is_read_on_at_the_next_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # without the first record's Content-Length, compressed whole was not told from gzip per record, and no member
    # after the first opened a record: every record was lost
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    records[0] = records[0].replace(b"Content-Length: ", b"Content-Lenth: ", 1)
    found = extract(capsys, write(tmp_path, "w.warc.gz", gzip.compress(b"".join(records))), status=1)
    assert [(r["kind"], r["offset"]) for r in found] == [("error", 0), ("url", len(records[0])),
                                                        ("url", len(records[0] + records[1]))]


@pytest.mark.parametrize("framing", ["uncompressed", "gzip-per-record", "gzip-whole", "bzip2"])
@pytest.mark.parametrize("name", [b"content-length", b"CONTENT-LENGTH", b"Content-length"])
def test_a_content_length_field_named_in_any_case_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], framing: str, name: bytes
) -> None:
    # ISO 28500 4: field names are case-insensitive. FastWARC reads the length of 'Content-Length' alone: it took the
    # block of a record writing 'content-length' for the next header, the record and the next one were lost and an
    # error named the next one; now the record is read again by linkkit (decompressed again from the file compressed
    # whole) and reading goes on after it
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    records[1] = records[1].replace(b"Content-Length:", name + b":", 1)
    data, offsets = per_record_gzip(records) if framing == "gzip-per-record" else (b"".join(records), [
        0, len(records[0]), len(records[0] + records[1])])
    data = {"gzip-whole": gzip.compress, "bzip2": bz2.compress}.get(framing, bytes)(data)
    found = extract(capsys, write(tmp_path, "case.warc", data))
    assert [(r["offset"], r["target_uri"], r["uri"]) for r in found] == [
        (offsets[i], f"http://site.example/{i}", "http://site.example/q") for i in range(3)]


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("kept", ["Content-Length:", "Content-Length: "], ids=["at-the-colon", "at-the-space"])
def test_an_archive_cut_inside_a_content_length_field_names_that_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, kept: str
) -> None:
    # cut right after 'Content-Length:', the last record read as one of no length: no error at all, status 0
    data, offsets = _four_pages(False, repeat=2)
    data = data[: data.index(kept.encode(), offsets[3]) + len(kept)]
    if per_record:
        cut = data[offsets[3]:]
        data = per_record_gzip([data[offsets[i]:offsets[i + 1]] for i in range(3)])[0]
        offsets[3] = len(data)
        data += gzip.compress(cut)
    found = extract(capsys, write(tmp_path, "cut.warc", data), status=1)
    assert [r["uri"] for r in found[:-1]] == [f"http://site.example/p{i}" for i in range(3) for _ in range(2)]
    assert (found[-1]["kind"], found[-1]["offset"]) == ("error", offsets[3])


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("value", [b"", b"abc", b"-5", b"12abc", b"2 49"])
def test_a_content_length_that_is_no_number_is_an_error_record_and_the_next_record_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, value: bytes
) -> None:
    # ISO 28500 5.3: Content-Length = 1*DIGIT
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    length = len(records[1].split(b"\r\n\r\n", 1)[1]) - 4
    records[1] = records[1].replace(b"Content-Length: %d" % length, b"Content-Length: " + value, 1)
    data, offsets = per_record_gzip(records) if per_record else (b"".join(records), [0, len(records[0])])
    found = extract(capsys, write(tmp_path, "nan.warc", data), status=1)
    assert [(r["kind"], r["offset"], r["target_uri"]) for r in found] == [
        ("url", 0, "http://site.example/0"), ("error", offsets[1], "http://site.example/1"),
        ("url", found[-1]["offset"], "http://site.example/2")]
    assert "Content-Length" in found[1]["error"]


def _ending(one: bytes, how: str) -> bytes:
    """The record *one* (uncompressed, its page ending in a line end) damaged where its block ends: its
    Content-Length one byte long or short, or its closing CRLF CRLF missing or written otherwise."""
    if how in ("one-long", "one-short"):
        return _content_length_off_by(one, 1 if how == "one-long" else -1)
    return one[:-4] + {"no-closing": b"", "one-crlf": b"\r\n", "lf-lf": b"\n\n"}[how]


@pytest.mark.parametrize("framing", ["uncompressed", "gzip-per-record", "gzip-whole"])
@pytest.mark.parametrize("how", ["one-long", "one-short", "no-closing", "one-crlf", "lf-lf"])
def test_a_record_that_crlf_crlf_does_not_follow_is_named_though_the_next_record_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], framing: str, how: str
) -> None:
    # ISO 28500 4: a record is its header, Content-Length bytes of block, then CRLF CRLF. FastWARC passes over line
    # ends between records, so a length a line end too long or short (a page ending in a line end), or a closing
    # CRLF CRLF missing, gave no error at all, status 0; now the record gives its links, then its error
    body = b'<a href="/q">q</a>\r\n'
    records = [response(f"http://site.example/{i}", body, headers=[("Content-Type", "text/html")]) for i in range(3)]
    records[1] = _ending(records[1], how)
    data, offsets = per_record_gzip(records) if framing == "gzip-per-record" else (b"".join(records), [
        0, len(records[0]), len(records[0] + records[1])])
    if framing == "gzip-whole":
        data = gzip.compress(data)
    found = extract(capsys, write(tmp_path, "end.warc", data), status=1)
    assert [(r["kind"], r["offset"], r["target_uri"]) for r in found] == [
        ("url", offsets[0], "http://site.example/0"), ("url", offsets[1], "http://site.example/1"),
        ("error", offsets[1], "http://site.example/1"), ("url", offsets[2], "http://site.example/2")]
    assert "does not end it" in found[2]["error"]


@pytest.mark.parametrize("how", ["one-long", "one-short", "lf-lf"])
def test_the_last_record_that_crlf_crlf_does_not_follow_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    # only the file's end may cut the closing CRLF CRLF short (no byte of the record is lost then)
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>\n', headers=[("Content-Type", "text/html")])
               for i in range(2)]
    records[1] = _ending(records[1], how)
    found = extract(capsys, write(tmp_path, "end.warc", b"".join(records)), status=1)
    assert [(r["kind"], r["offset"]) for r in found] == [
        ("url", 0), ("url", len(records[0])), ("error", len(records[0]))]


@pytest.mark.parametrize("kept", [0, 2], ids=["none", "crlf"])
def test_a_last_record_whose_closing_crlf_crlf_the_files_end_cuts_short_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kept: int
) -> None:
    one = response("http://site.example/", b'<a href="/q">q</a>\n', headers=[("Content-Type", "text/html")])
    found = extract(capsys, write(tmp_path, "end.warc", one[: len(one) - 4 + kept]))
    assert [r["uri"] for r in found] == ["http://site.example/q"]


@pytest.mark.parametrize("after", [b"garbage\r\n", bytes(64)], ids=["text", "nuls"])
def test_a_gzip_member_holding_bytes_after_its_record_is_named_and_the_next_member_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], after: bytes
) -> None:
    # the error named the next member, whose record was lost
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    members = [gzip.compress(records[0]), gzip.compress(records[1] + after), gzip.compress(records[2])]
    found = extract(capsys, write(tmp_path, "m.warc.gz", b"".join(members)), status=1)
    assert [(r["kind"], r["offset"]) for r in found] == [
        ("url", 0), ("url", len(members[0])), ("error", len(members[0])),
        ("url", len(members[0] + members[1]))]


@pytest.mark.parametrize("at", [0, 1])
@pytest.mark.parametrize("bit", [0, 5, 7])
def test_a_warc_gz_whose_magic_number_is_damaged_is_still_an_archive_and_the_next_members_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], at: int, bit: int
) -> None:
    # a bit flipped in the first member's ID1 or ID2 (RFC 1952 2.3.1): no magic number told the file compressed, and
    # it was skipped as a binary file, every record lost, status 0
    records = [response(f"http://site.example/{i}", b'<a href="/q">q</a>', headers=[("Content-Type", "text/html")])
               for i in range(3)]
    data, offsets = per_record_gzip(records)
    damaged = bytearray(data)
    damaged[at] ^= 1 << bit
    found = extract(capsys, write(tmp_path, "flip.warc.gz", bytes(damaged)), status=1)
    assert [(r["kind"], r["offset"]) for r in found] == [("error", 0), ("url", offsets[1]), ("url", offsets[2])]


@pytest.mark.parametrize("per_record", [False, True], ids=["uncompressed", "gzip-per-record"])
@pytest.mark.parametrize("where", [0, 1, 2], ids=["at-the-start", "in-a-header", "in-a-block"])
def test_a_zeroed_block_is_an_error_at_the_records_it_hits_and_the_others_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], per_record: bool, where: int
) -> None:
    # 512 bytes zeroed, as a damaged disk block leaves them. At the file's start the archive was skipped as a binary
    # file (status 0, every record lost); inside a header FastWARC read on through the NUL bytes into the next
    # record's header and gave that record's block, type and links as the damaged one's, without an error
    records = [response(f"http://site.example/{i}", f'<p><a href="/q{i}">q</a>'.encode() * 12,
                        headers=[("Content-Type", "text/html")]) for i in range(6)]
    data, offsets = per_record_gzip(records) if per_record else (b"".join(records), [
        sum(map(len, records[:i])) for i in range(6)])
    start = [0, offsets[1] + 60, offsets[2] + (offsets[3] - offsets[2]) // 2][where]
    damaged = data[:start] + bytes(512) + data[start + 512:]
    ends = [*offsets[1:], len(data)]
    hit = [at for at, end in zip(offsets, ends, strict=True) if at < start + 512 and end > start]
    found = extract(capsys, write(tmp_path, "zeroed.warc", damaged), status=1)
    links = [(r["offset"], r["uri"]) for r in found if r["kind"] != "error"]
    assert [link for link in links if link[0] not in hit] == [
        (at, f"http://site.example/q{i}") for i, at in enumerate(offsets) if at not in hit for _ in range(12)]
    errors = [r["offset"] for r in found if r["kind"] == "error"]
    assert errors and errors[0] == hit[0] and set(errors) <= set(hit)


@pytest.mark.parametrize("kept", [1, 7, 40], ids=["in-its-magic", "in-its-version-line", "in-its-header"])
def test_standard_input_cut_inside_a_header_names_that_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kept: int
) -> None:
    # read once, the stream cannot be read again: the error named the record before the cut one, whose links are
    # all out
    data, offsets = _four_pages(False, repeat=2)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data[: offsets[3] + kept])))
    found = extract(capsys, Path("-"), status=1)
    assert [r["uri"] for r in found[:-1]] == [f"http://site.example/p{i}" for i in range(3) for _ in range(2)]
    assert (found[-1]["kind"], found[-1]["offset"]) == ("error", offsets[3])
