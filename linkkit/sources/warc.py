"""Web archives (WARC 1.0 and 1.1, ISO 28500): the records that hold pages, as documents with their retrieval
base, charset and HTTP header links. Records are framed by FastWARC (gzip per record, gzip whole, or
uncompressed); the HTTP envelope is read here, so that header order and spans are the bytes as archived.

The policy:
- ``response`` records whose HTTP payload is HTML (``text/html``, ``application/xhtml+xml``) or plain text, and
  ``resource`` records (no HTTP envelope; the type is the WARC ``Content-Type``) are read; ``request``,
  ``revisit``, ``warcinfo``, ``metadata`` and ``conversion`` records give no links, nor do other payloads (a
  ``response`` of another type still gives its header links).
- The payload is de-chunked (``Transfer-Encoding: chunked``) and its ``Content-Encoding`` undone (gzip, deflate,
  and br when the ``brotli`` package is importable).
- The base is ``WARC-Target-URI`` (RFC 3986 5.1.3), ``<...>`` stripped (WARC 1.0's grammar has them); an HTML
  ``<base href>`` overrides it; ``Content-Location`` is not a base (RFC 7231 3.1.4.2 and appendix B).
- The HTTP charset goes to the finders: for HTML after the BOM and before the ``<meta>`` prescan.
- A record cut short, or an archive that cannot be read further, is a failure naming the archive and the offset;
  the records before it are intact.
"""

from __future__ import annotations

import mmap
import re
import zlib
from collections.abc import Generator, Iterator
from typing import IO

from .document import ERROR, HTML, TEXT, Document, Position, failure
from .http import DecodingError, dechunked, decoded, header_links, media_type, parse

WARC_MAGIC = b"WARC/"
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain"})


def is_warc(head: bytes) -> bool:
    """An uncompressed WARC starts with its version line (ISO 28500 5: ``WARC/1.0``, ``WARC/1.1``)."""
    return head.startswith(WARC_MAGIC)


def target_uri(value: str | None) -> str | None:
    """``WARC-Target-URI`` without the ``<...>`` WARC 1.0's grammar (and some writers since) put around it."""
    if value is None:
        return None
    value = value.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1].strip()
    return value or None


def _kind(content_type: str | None) -> str | None:
    if content_type in HTML_TYPES:
        return HTML
    if content_type in TEXT_TYPES:
        return TEXT
    return None


def record_document(
    archive: str, offset: int, record_type: str, headers: dict[str, str], block: bytes
) -> Document | None:
    """The document a record stands for, or None when the policy reads nothing from it. *headers* are the WARC
    header fields by lower-case name; *block* the record's content block."""
    target = target_uri(headers.get("warc-target-uri"))
    position = Position(offset=offset, record_id=headers.get("warc-record-id"), target_uri=target)
    if record_type == "resource":
        content_type, charset = media_type(headers.get("content-type"))
        kind = _kind(content_type)
        if kind is None:
            return None
        return Document(archive, kind, block, base=target, charset=charset, position=position, size=len(block),
                        content_type=content_type)
    if record_type != "response":
        return None
    envelope = parse(block)
    links = header_links(envelope)
    content_type, charset = media_type(envelope.get("content-type"))
    kind = _kind(content_type)
    payload = b""
    if kind is not None:
        payload = envelope.payload
        if "chunked" in (envelope.get("transfer-encoding") or "").lower():
            payload = dechunked(payload)
        try:
            payload = decoded(payload, envelope.get("content-encoding"))
        except DecodingError as error:
            return Document(archive, ERROR, error=f"record at offset {offset}: {error}", position=position,
                            header_links=links, base=target, size=len(block))
    if kind is None and not links:
        return None
    return Document(archive, kind or TEXT, payload, base=target, charset=charset, position=position,
                    header_links=links, size=len(block), content_type=content_type)


def _unread(path: str, last: int | None) -> int | None:
    """Where bytes start in the file *path* (uncompressed, or gzip per record) that no record was read from, after
    the record at offset *last* (None: no record was read): a record whose header was cut short ends FastWARC's
    iteration without an error."""
    with open(path, "rb") as file:
        file.seek(last or 0)
        tail = file.read()
    if last is None:
        return 0 if tail.strip() else None
    if tail.startswith(b"\x1f\x8b"):
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            member.decompress(tail)
        except zlib.error:
            return None
        if not member.eof:  # the last member lacks its end (RFC 1952 2.2: CRC32 and ISIZE close a member)
            return last
        rest = member.unused_data
    else:
        header_end = tail.find(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length:[ \t]*(\d+)", tail[:header_end])
        if header_end < 0 or length is None:
            return None
        rest = tail[header_end + 4 + int(length.group(1)):]
    if not rest.strip(b"\r\n"):
        return None
    return last + len(tail) - len(rest) + (len(rest) - len(rest.lstrip(b"\r\n")))


def documents(stream: IO[bytes], archive: str, *, path: str | None = None) -> Iterator[Document]:
    """The documents of the WARC read from *stream* (compressed or not), in archive order; a failure document for
    a truncated or unreadable record. *path*, the file *stream* reads when it is the file as stored, lets a record
    cut inside its header be told, and reading go on at the next record after a corrupt one (the next gzip member
    that opens a record, or the next ``WARC/1.`` line); without it reading stops there."""
    failed = yield from _records(stream, archive, path)
    while failed is not None and path is not None:
        resume = _next_record(path, failed)
        if resume is None:
            return
        with open(path, "rb") as rest:
            rest.seek(resume)
            failed = yield from _records(rest, archive, path)


def _next_record(path: str, after: int) -> int | None:
    """The offset of the first record that starts after *after* in the file *path*: a gzip member whose content
    starts ``WARC/``, or in an uncompressed file a ``WARC/1.`` version line; None when there is none."""
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        gzip_members = data[:2] == b"\x1f\x8b"
        marker = b"\x1f\x8b\x08" if gzip_members else b"\nWARC/1."
        position = after
        while (position := data.find(marker, position + 1)) >= 0:
            if not gzip_members:
                return position + 1
            try:
                head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[position : position + 4096], 16)
            except zlib.error:
                continue
            if head.startswith(WARC_MAGIC):
                return position
    return None


def _records(stream: IO[bytes], archive: str, path: str | None) -> Generator[Document, None, int | None]:
    """The documents of the records read from *stream* on; returns the offset of a record that stopped the
    reading (truncated, corrupt), or None at the end of the archive."""
    from fastwarc.warc import ArchiveIterator

    offset = 0
    last = None
    try:
        for record in ArchiveIterator(stream, parse_http=False):
            offset = last = record.stream_pos
            block = record.reader.read()
            headers = {name.lower(): value for name, value in record.headers}
            if "content-length" not in headers:  # a header cut short: ISO 28500 5.3 makes the field mandatory
                yield failure(archive, f"record at offset {offset}: truncated header (no Content-Length)",
                              Position(offset=offset, record_id=headers.get("warc-record-id")))
                return offset
            if len(block) < record.content_length:
                yield failure(
                    archive, f"record at offset {offset}: truncated: {len(block)} of {record.content_length} "
                    "content bytes", Position(offset=offset, record_id=record.record_id),
                )
                return offset
            record_type = str(record.record_type).rpartition(".")[2]  # "response" (or "WarcRecordType.response")
            document = record_document(archive, offset, record_type, headers, block)
            if document is not None:
                yield document
        unread = None if path is None else _unread(path, last)
        if unread is not None:
            yield failure(archive, f"record at offset {unread}: truncated or not a WARC record",
                          Position(offset=unread))
        return unread
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as error:  # OSError; and a Rust panic in FastWARC (pyo3's PanicException is no Exception)
        at = None
        if path is not None:
            try:
                at = _unread(path, last)
            except (OSError, ValueError, zlib.error):
                at = None
        if at is None:
            at = offset
        yield failure(archive, f"record at offset {at}: cannot be read: {error}", Position(offset=at))
        return at
