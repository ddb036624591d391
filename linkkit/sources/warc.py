"""Web archives (WARC 1.0 and 1.1, ISO 28500): the records that hold pages, as documents with their retrieval
base, charset and HTTP header links. Records are framed by FastWARC (gzip per record, gzip whole, or
uncompressed); the HTTP envelope is read here, so that header order and spans are the bytes as archived.

The policy:
- ``response`` records whose HTTP payload is HTML (``text/html``, ``application/xhtml+xml``) or plain text, and
  ``resource`` records (no HTTP envelope; the type is the WARC ``Content-Type``) are read, and so is a response to
  another protocol than HTTP (its WARC ``Content-Type`` no ``application/http``), as a resource; ``request``,
  ``revisit``, ``warcinfo``, ``metadata`` and ``conversion`` records give no links, nor do other payloads (a
  ``response`` of another type still gives its header links). A payload that declares no type is sniffed. The
  type and charset are those Fetch extracts from every ``Content-Type`` field; a charset label is the Encoding
  Standard's.
- The payload is de-chunked (``Transfer-Encoding: chunked``), any other transfer coding and its ``Content-Encoding``
  undone (gzip, deflate, and br when the ``brotli`` package is importable); a payload cut short gives what its
  start decompresses to.
- The base is ``WARC-Target-URI`` (RFC 3986 5.1.3), ``<...>`` stripped (WARC 1.0's grammar has them), when it is
  absolute (RFC 3986 5.1: a base has a scheme); an HTML ``<base href>`` overrides it; ``Content-Location`` is not a
  base (RFC 7231 3.1.4.2 and appendix B).
- The HTTP charset goes to the finders: for HTML after the BOM and before the ``<meta>`` prescan.
- A record cut short, or an archive that cannot be read further, is a failure naming the archive and the offset;
  the records before it are intact. An archive compressed whole (its first gzip member holds more than its first
  record) is read decompressed, like a bzip2, xz or Zstandard one: its offsets are those of the decompressed
  archive, since no record starts a member of its own.
"""

from __future__ import annotations

import codecs
import functools
import io
import mmap
import os
import re
import zlib
from collections.abc import Generator, Iterator
from typing import IO, TYPE_CHECKING, NamedTuple, cast

from .. import io as linkkit_io
from ..io import read_some
from ..uri.charset import SCHEME
from .compressed import CORRUPT, decompressed, peek_gunzipped
from .document import ERROR, HTML, TEXT, Document, Position, failure
from .files import BINARY_SNIFF
from .http import (
    RESOURCE_HEADER,
    DecodingError,
    ReadAsIs,
    dechunked,
    decoded,
    field_text,
    header_links,
    holds_binary_data,
    media_type,
    opens_response,
    parse,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer
    from fastwarc.warc import HeaderMap

WARC_MAGIC = b"WARC/"
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({"text/plain"})


def is_warc(head: bytes) -> bool:
    """An uncompressed WARC starts with its version line (ISO 28500 5: ``WARC/1.0``, ``WARC/1.1``), or with a
    record header whose version line is damaged (a corrupt first record is an error record, and the next records
    are read: such an archive was scanned as a text, its pages' links lost). So does a ``.warc.gz`` whose first
    two bytes are damaged (:func:`_mended_gzip_warc`), which no magic number tells compressed, and an archive
    whose first bytes are zeroed (:func:`_zeroed_framing`)."""
    return _opens_record(head) or _mended_gzip_warc(head) or _zeroed_framing(head) is not None


def _opens_record(head: bytes) -> bool:
    """Whether *head* opens a WARC record: its version line, or a damaged one followed by header fields."""
    if head.startswith(WARC_MAGIC):
        return True
    return head.find(b"\r\n", 1, 34) > 0 and _DAMAGED_VERSION.match(head) is not None  # a first line of 1-32 bytes


def _mended_gzip_warc(head: bytes) -> bool:
    """Whether *head* is a gzip member whose ID1 and ID2 (its first two bytes, RFC 1952 2.3.1) are damaged, its CM
    intact, and that opens a WARC record once they are mended: a bit flipped there made a ``.warc.gz`` a binary
    file, skipped with every record (now its first record is an error, and the next members are read)."""
    return head[2:3] == b"\x08" and head[:2] != b"\x1f\x8b" and _opens_record(peek_gunzipped(b"\x1f\x8b" + head[2:]))


def _zeroed_framing(head: bytes) -> str | None:
    """How an archive whose first bytes are zeroed (a run of NUL bytes, as a damaged disk block leaves them) is
    framed, told by the record that follows them in *head*: ``gzip`` when a gzip member opens one, ``warc`` when a
    version line starts a line; None when none follows (a binary file). Such an archive was skipped as a binary
    file, every record lost; now its first record is an error, and the records after the zeros are read."""
    if not head.startswith(b"\x00"):
        return None
    rest = head.lstrip(b"\x00")
    member = rest.find(_GZIP_MEMBER)
    if member >= 0 and is_gzip_warc(rest[member:]):
        return "gzip"
    return "warc" if _LINE_VERSION.search(rest) is not None else None


# A version line at a line's start (or at the start of the bytes searched).
_LINE_VERSION = re.compile(rb"(?:^|\n)WARC/1\.[0-9]\r?\n")


def _gzip_framed(head: bytes) -> bool:
    """Whether the stored archive starting with *head* is made of gzip members (the members' own magic, a first
    member whose magic is damaged, or zeroed bytes before the members)."""
    return head.startswith(b"\x1f\x8b") or _mended_gzip_warc(head) or _zeroed_framing(head) == "gzip"


# A first line that is no version line, then header fields ending in CRLF up to a field only a WARC record header
# holds (ISO 28500 5.2-5.3: WARC-Type and WARC-Record-ID are mandatory); a text quoting one rarely ends lines in CRLF.
_DAMAGED_VERSION = re.compile(rb"[^\r\n]{1,32}\r\n(?:[!-9;-~]+:[^\r\n]*\r\n){0,8}WARC-(?:Type|Record-ID):")


_GZIP_MEMBER = b"\x1f\x8b\x08"  # a gzip member's ID1, ID2 and CM (deflate), RFC 1952 2.3.1
_PEEK_SIZE = 4096  # the compressed bytes a gzip member is judged by: does it open a record?


def is_gzip_warc(head: bytes) -> bool:
    """Whether a gzip file starting with *head* is a web archive: its first member opens with a version line, or,
    that member damaged before its version line decompresses, a later member starting in *head* does, as reading
    goes on at the next member that opens a record (it was read as no archive, and every record lost)."""
    position = 0
    while position >= 0:
        if _opens_record(peek_gunzipped(head[position:])):
            return True
        position = head.find(_GZIP_MEMBER, position + 1)
    return False


def target_uri(value: str | None) -> str | None:
    """``WARC-Target-URI`` without the ``<...>`` WARC 1.0's grammar (and some writers since) put around it."""
    if value is None:
        return None
    value = value.strip()
    if value.startswith("<") and value.endswith(">"):
        value = value[1:-1].strip()
    return value or None


# A valid scheme and its ":" at the start of a URI (RFC 3986 3.1).
_SCHEME_COLON = re.compile(f"(?:{SCHEME}):")


def retrieval_base(target: str | None) -> str | None:
    """The base a record's links resolve against: its target URI when that is absolute (RFC 3986 5.1: a base URI
    has a valid scheme); a relative or damaged one (``/page``, ``//host/page``, ``\ufffdttp://...``) names no
    base, and the links stay as written."""
    if target is None or _SCHEME_COLON.match(target) is None:
        return None
    return target


def _kind(content_type: str | None) -> str | None:
    if content_type in HTML_TYPES:
        return HTML
    if content_type in TEXT_TYPES:
        return TEXT
    return None


# The MIME Sniffing Standard's rules for an unknown MIME type (7.1), as browsers read a page served without a
# Content-Type: its first 1445 bytes (the resource header), an HTML pattern after leading whitespace bytes and
# before a tag-terminating byte; a PDF or PostScript signature; binary data bytes, or none (text/plain).
_HTML_PATTERN = re.compile(
    rb"[\t\n\x0c\r ]*<(?:!DOCTYPE HTML|HTML|HEAD|SCRIPT|IFRAME|H1|DIV|FONT|TABLE|A|STYLE|TITLE|B|BODY|BR|P|!--)[ >]",
    re.IGNORECASE,
)
_NOT_TEXT = (b"%PDF-", b"%!PS-Adobe-")


def _sniffed(payload: bytes) -> str | None:
    """What a payload that declares no media type is read as (RFC 9110 8.3: its recipient may examine the data;
    the MIME Sniffing Standard 7.1 says how): HTML, plain text, or nothing (binary, PDF, an empty payload)."""
    head = payload[:RESOURCE_HEADER]
    if _HTML_PATTERN.match(head):
        return HTML
    if not head or head.startswith(_NOT_TEXT):
        return None
    if head.startswith((b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf")):  # 7.1: a BOM, text/plain
        return TEXT
    return None if holds_binary_data(head) else TEXT


# The MIME Sniffing Standard 7: a supplied MIME type that says it is unknown is sniffed as a missing one is.
_UNKNOWN_TYPES = frozenset({"unknown/unknown", "application/unknown"})


@functools.lru_cache(maxsize=256)
def _declared(*content_types: str | None) -> tuple[str | None, str | None]:
    """The media type and encoding that ``Content-Type`` values (several HTTP fields, or a WARC record's one, or
    none) declare, as Fetch reads them (:func:`linkkit.sources.http.media_type`); None for a type they do not name
    (none valid, or ``unknown/unknown``), which is then sniffed. Cached: an archive repeats a few values."""
    content_type, charset = media_type([value for value in content_types if value is not None])
    return (None if content_type in _UNKNOWN_TYPES else content_type), _encoding(charset)


def _encoding(label: str | None) -> str | None:
    """The charset a record declares, as Python is to read it: the label as written where Python's codec of that
    name is the encoding the Encoding Standard (4.2) gives it, as browsers read every page's charset, else that
    encoding's codec (``iso-8859-1`` and ``us-ascii`` are windows-1252, ``x-sjis`` is Shift_JIS)."""
    if label is None:
        return None
    from ..html.encoding import label_codec  # loaded with the first charset declared

    codec = label_codec(label)
    try:
        python = codecs.lookup(label).name
    except (LookupError, ValueError):  # ValueError: a label with a NUL
        python = None
    return label if codec is None or codec == python else codec


def _holds_http(headers: dict[str, str], block: bytes) -> bool:
    """Whether a ``response`` record's block is an HTTP response: it opens with a status line, or its WARC
    ``Content-Type`` says so (``application/http``, ISO 28500 annex A). A response to another protocol (``dns:``,
    or FTP as Heritrix writes it) is its content itself, read as a resource is."""
    return opens_response(block) or _declared(headers.get("content-type"))[0] == "application/http"


def record_document(
    archive: str, offset: int, record_type: str, headers: dict[str, str], block: bytes
) -> Document | None:
    """The document a record stands for, or None when the policy reads nothing from it. *headers* are the WARC
    header fields by lower-case name; *block* the record's content block."""
    position = _record_position(offset, headers)
    base = retrieval_base(position.target_uri)
    if record_type == "resource" or (record_type == "response" and not _holds_http(headers, block)):
        content_type, charset = _declared(headers.get("content-type"))
        kind = _kind(content_type) if content_type else _sniffed(block)
        if kind is None:
            return None
        return Document(archive, kind, block, base=base, charset=charset, position=position, size=len(block),
                        content_type=content_type)
    if record_type != "response":
        return None
    envelope = parse(block)
    links = header_links(envelope)
    content_type, charset = _declared(*envelope.values("content-type"))
    kind = _kind(content_type)
    payload, problem = b"", None
    if kind is not None or not content_type:
        payload = envelope.payload
        transfer = [c.strip() for c in envelope.combined("transfer-encoding").lower().split(",") if c.strip()]
        if "chunked" in transfer:
            payload = dechunked(payload)
        try:  # RFC 9112 6.1: the transfer codings (chunked last), then the content codings (RFC 9110 8.4)
            payload = decoded(payload, ",".join(c for c in transfer if c != "chunked"))
            payload = decoded(payload, envelope.combined("content-encoding"))
        except ReadAsIs as error:  # its links, then the error
            payload, problem = error.payload, f"record at offset {offset}: {error}"
        except DecodingError as error:
            return Document(archive, ERROR, error=f"record at offset {offset}: {error}", position=position,
                            header_links=links, base=base, size=len(block))
        if not content_type:
            kind = _sniffed(payload)
    if kind is None:
        if not links:
            return None
        kind, payload = TEXT, b""  # its header links alone
    return Document(archive, kind, payload, base=base, charset=charset, position=position,
                    header_links=links, error=problem, size=len(block), content_type=content_type)


_RECORD_LENGTH = re.compile(rb"(?im)^content-length:[ \t]*(\d+)")  # ISO 28500 5.3


class _Unread(NamedTuple):
    """Where reading an archive stopped short: the offset of bytes no record was read from, and why, when the
    record read last is itself the one at fault (``reason`` None: unread bytes after it)."""

    offset: int
    reason: str | None = None


def _unread(path: str, last: int | None, start: int) -> _Unread | None:
    """Where bytes start in the file *path* (uncompressed, or gzip per record) that no record was read from, after
    the record at offset *last*, or from *start* on when no record was read since reading began there: a record
    whose header was cut short ends FastWARC's iteration without an error. The record at *last* is the one named
    when it does not end where it should: its header is cut short at the file's end, its gzip member has no end
    or holds bytes after it that are no record, or its Content-Length does not end it."""
    with open(path, "rb") as file:
        if last is None:
            file.seek(start)
            while chunk := file.read(1 << 16):  # anything but blank lines from *start* on is unread
                if chunk.strip():
                    return _Unread(start)
            return None
        try:
            content, end, member_end = _stored_record(file, last)
        except zlib.error:
            return None
        if member_end == _NO_END:  # the last member lacks its end (RFC 1952 2.2: CRC32 and ISIZE close a member)
            return _Unread(last, "truncated: its gzip member has no end")
        if end is None:  # no Content-Length read: a header that the file's end cuts short is the record's fault
            cut = len(content) < _HEADER_WINDOW and b"\r\n\r\n" not in content  # (a longer one is not judged)
            return _Unread(last, "truncated header") if cut else None
        if _misframed(content, end):
            return _does_not_end(last, end - content.find(b"\r\n\r\n") - 4)
        after = content[end:].lstrip(b"\r\n")
        if member_end is not None and after and _VERSION_LINE.match(after) is None:
            return _Unread(last, "its gzip member holds bytes after its record that start no record")
        rest_at = last + end if member_end is None else member_end
        file.seek(rest_at)
        rest = file.read(_HEADER_WINDOW)
    if not rest.strip(b"\r\n"):
        return None
    return _Unread(rest_at + len(rest) - len(rest.lstrip(b"\r\n")))


def _does_not_end(offset: int, length: int | str) -> _Unread:
    """The fault of the record at *offset* whose Content-Length, *length*, does not end it (ISO 28500 4)."""
    return _Unread(offset, f"its Content-Length ({length}) does not end it: no CRLF CRLF after its block")


_NO_END = -1  # a gzip member without its end, as _stored_record gives its end


def _stored_record(file: IO[bytes], at: int) -> tuple[bytes, int | None, int | None]:
    """The record at offset *at* of the stored archive *file* (uncompressed, or gzip per record), read again: its
    bytes (its gzip member's content, or the file from the record on up to its block's end and a window after it,
    no further than the file's end), where its content block ends in them (None when its header gives no
    Content-Length), and where its gzip member ends in the file (``_NO_END`` when it has no end; None in an
    uncompressed file). A damaged member raises zlib.error."""
    file.seek(at)
    head = file.read(_HEADER_WINDOW)
    if head.startswith(b"\x1f\x8b"):
        content, member_end = _member_content(file, head)
        return content, _block_end(content), _NO_END if member_end is None else member_end
    end = _block_end(head)
    if end is None:
        return head, None, None
    # one record read, not the rest of the file, nor past the file's end: a read allocates its size, and a wrong
    # Content-Length may name any size
    wanted = min(end + _HEADER_WINDOW, os.fstat(file.fileno()).st_size - at)
    return head + file.read(max(0, wanted - len(head))), end, None


def _member_content(file: IO[bytes], first: bytes) -> tuple[bytes, int | None]:
    """The content of the gzip member that *first*, read from *file*, starts with (*file* read on as it needs), and
    the offset in *file* where the member ends; None when it has no end."""
    member = zlib.decompressobj(16 + zlib.MAX_WBITS)
    pieces, data = [], first
    while data:
        pieces.append(member.decompress(data))
        if member.eof:
            return b"".join(pieces), file.tell() - len(member.unused_data)
        data = file.read(1 << 16)
    return b"".join(pieces), None


def documents(stream: IO[bytes], archive: str, *, path: str | None = None, reread: str | None = None,
              ) -> Iterator[Document]:
    """The documents of the WARC read from *stream* (compressed or not), in archive order; a failure document for
    a truncated or unreadable record. *path*, the file *stream* reads when it is the file as stored, lets a record
    cut inside its header be told, and reading go on at the next record after a corrupt one (the next gzip member
    that opens a record, or the next ``WARC/1.`` line); without it reading stops there. A stored archive compressed
    whole is read as a decompressed one is: its records start no gzip member. *reread*, the file a decompressed
    *stream* was read from, lets reading go on after a corrupt record too (:func:`_read_on_decompressed`)."""
    if path is not None and compressed_whole(stream):
        yield from _read_on_decompressed(decompressed(stream), archive, path)
        return
    if path is None:
        if reread is not None:
            yield from _read_on_decompressed(stream, archive, reread)
        else:
            yield from _cut_records(_Cut(stream), archive)
        return
    failed = yield from _records(stream, archive, path)
    while failed is not None:
        resume = _next_record(path, failed)
        if resume is None:
            return
        with open(path, "rb") as rest:
            rest.seek(resume)
            failed = yield from _records(rest, archive, path)


def _read_on_decompressed(whole: IO[bytes], archive: str, path: str) -> Iterator[Document]:
    """The documents of the archive *whole* decompresses, the file *path* compressed whole (gzip, bzip2, xz,
    Zstandard): after a corrupt record, its decompression intact, reading goes on at the next version line,
    decompressed again from the file's start (it stopped there)."""
    with whole:
        failed = yield from _cut_records(_Cut(whole, source=path), archive)
    while failed is not None:
        resume = _next_decompressed_record(path, failed)
        if resume is None:
            return
        with _decompressed_from(path, resume) as rest:
            failed = yield from _cut_records(_Cut(rest, resume, source=path), archive)


_HEADER_WINDOW = 1 << 16  # more than any WARC header block a writer makes; a longer one is not judged


def _misframed(content: bytes, end: int) -> bool:
    """Whether the record *content* starts with (a gzip member's content, or the file from the record on), whose
    content block ends at *end* by its Content-Length, does not end there: CRLF CRLF does not follow its block
    (ISO 28500 4: its length is wrong, by a line end too, runs into the next record or past its member's end, or
    the closing CRLF CRLF is missing or written otherwise). Only the end of *content* (the file's, or the gzip
    member's) may cut that CRLF CRLF short: the record's bytes are all there."""
    if content.startswith(b"\r\n\r\n", end):
        return False
    return len(content) < end or not b"\r\n\r\n".startswith(content[end:])


def _block_end(content: bytes) -> int | None:
    """Where the content block of the record *content* starts with ends, before the CRLF CRLF that closes the
    record (ISO 28500 4: header, empty line, Content-Length bytes of block, CRLF CRLF); None when its header is
    not complete in *content* or has no Content-Length."""
    header_end = content.find(b"\r\n\r\n")
    length = _RECORD_LENGTH.search(content, 0, header_end) if header_end >= 0 else None
    if length is None:
        return None
    return header_end + 4 + int(length.group(1))


def compressed_whole(stream: IO[bytes]) -> bool:
    """Whether *stream* (a seekable file at a gzip archive's start, left where it was) is compressed whole, not a
    gzip member per record (WARC 1.1 annex D): its first member holds bytes after its first record, or, that
    record's header damaged, another version line. Only the first member is decompressed, up to that record's end
    and a little more, a window at a time."""
    start = stream.tell()
    if stream.read(2) != b"\x1f\x8b":
        stream.seek(start)
        return False
    stream.seek(start)
    member = zlib.decompressobj(16 + zlib.MAX_WBITS)
    head = b""  # the member's first bytes, until they hold the first record's header
    end = None  # where the first record ends in the member's content
    seen = 0  # the member's content bytes before *out*
    pending = b""
    try:
        while not member.eof:
            if not pending and not (pending := stream.read(_HEADER_WINDOW)):
                break  # cut inside the first member: FastWARC's reading reports it
            out = member.decompress(pending, _HEADER_WINDOW)
            pending = member.unconsumed_tail
            if end is None:
                head += out
                end = _block_end(head)  # what follows it, its closing CRLFs aside, is more
                if end is None:
                    if len(head) >= _HEADER_WINDOW:
                        break
                    continue
                out, seen = head, 0
            if out[max(0, end - seen):].strip(b"\r\n"):
                return True
            seen += len(out)
    except zlib.error:
        pass
    finally:
        stream.seek(start)
    # a first record whose header gives no end (damaged): the member holds more when another record starts in it
    return end is None and _VERSION_LINE.search(head, 1) is not None


class ForwardStream(io.RawIOBase):
    """A stream read forward only, as FastWARC reads an archive: it tells where it stands, the bytes it gave
    (``position``, which :meth:`readinto` counts), and cannot be moved."""

    position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Only where the stream stands can be asked (FastWARC asks); it cannot be moved."""
        if (whence, offset) in ((io.SEEK_CUR, 0), (io.SEEK_SET, self.position)):
            return self.position
        raise io.UnsupportedOperation("seek")


class _Cut(ForwardStream):
    """A decompressed archive read until its compressed stream fails (cut short, or damaged): the failure ends the
    stream for FastWARC, which then reports the record it cut, and is kept in ``error``. It counts the bytes it
    gave and keeps its last two reads (FastWARC reads 64 KiB at a time), so that a record cut inside its header is
    found (:meth:`cut_at`), whether its decompression failed or the stream ended (standard input cut short)."""

    def __init__(self, stream: IO[bytes], position: int = 0, source: str | None = None) -> None:
        self.stream = stream
        self.source = source  # the file it decompresses, which can be decompressed again (not standard input)
        self.position = position  # where *stream* stands in the decompressed archive
        self.reads = (b"", b"")  # the last two reads, kept as they are (joining them on each read would copy)
        self.error: BaseException | None = None
        self.ended = False  # its end was read

    def readinto(self, target: WriteableBuffer) -> int:
        if self.error is not None:
            return 0
        buffer = memoryview(target).cast("B")
        try:
            data = read_some(self.stream, len(buffer))
        except CORRUPT as error:
            self.error = error
            return 0
        buffer[: len(data)] = data
        self.position += len(data)
        self.reads = (self.reads[1], data)
        self.ended = not data
        return len(data)

    def cut_at(self) -> int:
        """The offset of the record the failure cut: the start of a header not yet complete (its version line,
        or a prefix of it, after the last empty line); else the end of what was read."""
        tail = b"".join(self.reads)[-_HEADER_WINDOW:]
        blank = tail.rfind(b"\r\n\r\n")
        rest = tail[blank + 4 :] if blank >= 0 else tail
        if rest and (rest.startswith(WARC_MAGIC) or WARC_MAGIC.startswith(rest)):
            return self.position - len(rest)
        version = tail.rfind(b"\nWARC/1.")
        if version > blank:
            return self.position - len(tail) + version + 1
        return self.position


def _cut_records(stream: _Cut, archive: str) -> Generator[Document, None, int | None]:
    """The documents of a decompressed archive read through *stream*: a failure of its decompression is an error at
    the record it cut (after the records before it), unless that record was reported cut already. Returns the
    offset of a corrupt record that stopped the reading while the decompression was intact (reading could go on
    after it), else None."""
    failed = yield from _records(cast(IO[bytes], stream), archive, None)
    if stream.error is not None:
        if failed is None:
            yield _cut_failure(archive, stream)
        return None
    return failed


def _decompressed_from(path: str, start: int) -> IO[bytes]:
    """The archive *path* compressed whole, decompressed and read up to *start*: a reading that resumes there."""
    stream = decompressed(open(path, "rb"))  # noqa: SIM115 - closed with *stream*, which the caller closes
    try:
        while start > 0 and (skipped := stream.read(min(start, 1 << 20))):
            start -= len(skipped)
    except BaseException:
        stream.close()
        raise
    return stream


def _next_decompressed_record(path: str, after: int) -> int | None:
    """The offset in the decompressed archive *path* of the first version line after *after*, or None: none
    before its end, or before its decompression fails (a file cut short after a corrupt record, which is named)."""
    with _decompressed_from(path, after + 1) as stream:
        position, tail = after + 1, b""
        try:
            while chunk := stream.read(1 << 16):
                window = tail + chunk
                line = _VERSION_LINE.search(window)
                if line is not None:
                    return position - len(tail) + line.start()
                tail = window[-16:]  # a version line across two reads
                position += len(chunk)
        except CORRUPT:
            pass
    return None


def _cut_failure(archive: str, stream: _Cut) -> Document:
    """The error record of an archive whose decompression failed, at the record it cut."""
    at = stream.cut_at()
    return failure(archive, f"record at offset {at}: truncated: {stream.error}", Position(offset=at))


# A record's version line (ISO 28500 5.1), wherever it starts: a record cut short inside a line may be followed at
# once by the next record, with no line break between them.
_VERSION_LINE = re.compile(rb"WARC/1\.[0-9]\r?\n")


def _next_record(path: str, after: int) -> int | None:
    """The offset of the first record that starts after *after* in the file *path*: a gzip member whose content
    starts ``WARC/``, or in an uncompressed file a ``WARC/1.`` version line; None when there is none."""
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        if not _gzip_framed(data[:BINARY_SNIFF]):  # told by the bytes that told the file an archive
            line = _VERSION_LINE.search(data, after + 1)
            return None if line is None else line.start()
        position = after
        while (position := data.find(_GZIP_MEMBER, position + 1)) >= 0:
            try:
                head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[position : position + _PEEK_SIZE], 16)
            except zlib.error:
                continue
            if head.startswith(WARC_MAGIC):
                return position
    return None


def _record_position(offset: int, headers: dict[str, str]) -> Position:
    """The position of the record at *offset* whose WARC header fields (by lower-case name) are *headers*: those
    of one cut short too, as far as its header was read, so that its error record is named as its links are."""
    return Position(offset=offset, record_id=headers.get("warc-record-id"),
                    target_uri=target_uri(headers.get("warc-target-uri")))


class _Read(NamedTuple):
    """A record read, held back until the next one is read: its document, and what it was
    made from, to be made again from its own bytes alone if the record turns out not to end where it says."""

    document: Document | None
    offset: int
    record_type: str
    headers: dict[str, str]
    block: bytes
    size: int = 0  # the record's bytes as ISO 28500 4 lays them out: its header, its Content-Length, CRLF CRLF


def _records(stream: IO[bytes], archive: str, path: str | None) -> Generator[Document, None, int | None]:
    """The documents of the records read from *stream* on; returns where a record stopped the reading, the offset
    after which the next record is looked for (that of a record truncated or corrupt, or the last byte of one read
    again by linkkit), or None at the end of the archive. Each record's document is given once the next
    record is read, or reading ends: one whose Content-Length runs over the records after it then gives the links
    of its own bytes, not theirs (:func:`_given`)."""
    from fastwarc.warc import ArchiveIterator

    offset = start = stream.tell()  # where this reading began: the file's start, or a record reading resumed at
    last = None
    last_position = Position(offset=offset)
    held: _Read | None = None
    members = _gzip_members(stream, path)
    try:
        for record in ArchiveIterator(stream, parse_http=False):
            if held is not None:
                # a record followed by CRLF CRLF ends where the next one starts, its gzip member's ISIZE (RFC 1952
                # 2.3.1) its size; told otherwise only when they differ (a record's bytes are not read again)
                next_at = record.stream_pos
                laid_out = (next_at - held.offset if members is None
                            else int.from_bytes(members[next_at - 4 : next_at], "little")) == held.size & 0xFFFFFFFF
                fault = None if laid_out else _unclosed(held, next_at, stream, path)
                if (document := _given(archive, held, fault)) is not None:
                    yield document
                if fault is not None:
                    yield _unread_failure(archive, fault, "", _record_position(held.offset, held.headers))
            held = None
            offset = last = record.stream_pos
            limit = linkkit_io.HELD_LIMIT  # a record past it: its start only (a read of a size allocates that size)
            block = record.reader.read() if record.content_length <= limit else record.reader.read(limit + 1)
            headers = {name.lower(): value for name, value in record.headers}
            if "\ufffd" in headers.get("warc-target-uri", ""):
                headers["warc-target-uri"] = _field_as_written(record.headers, b"warc-target-uri")
            last_position = _record_position(offset, headers)
            if "content-length" not in headers:  # a header cut short: ISO 28500 5.3 makes the field mandatory
                yield failure(archive, f"record at offset {offset}: truncated header (no Content-Length)",
                              last_position)
                return offset
            if not record.content_length and (length := _declared_length(headers["content-length"])) != 0:
                if length is None:  # FastWARC reads such a value as 0, and the block as the next header
                    yield failure(archive, f"record at offset {offset}: truncated or corrupt header (Content-Length "
                                  f"{headers['content-length']!r} is no number)", last_position)
                    return offset
                if b"Content-Length" not in record.headers.keys_bytes():  # named in another case: no length read
                    return (yield from _read_again(archive, stream, path, offset, headers))
                if length < 1 << 64:  # (past 64 bits no file holds it: read as a length that does not end it)
                    # FastWARC read no length from a header it took otherwise: zeroed bytes made it run into the next
                    yield failure(archive, f"record at offset {offset}: corrupt header (its Content-Length, {length}, "
                                  "is not read)", last_position)
                    return offset
            if len(block) <= limit and len(block) < record.content_length:
                yield failure(archive, f"record at offset {offset}: truncated: {len(block)} of "
                              f"{record.content_length} content bytes", last_position)
                return offset
            header = record.headers.__getstate__()[0]  # the header as FastWARC read it
            if b"\x00" in header:  # no field holds one (ISO 28500 5.2): a zeroed block, which FastWARC read through
                # into the next record's header, whose block, type and all it gave as this record's
                yield failure(archive, f"record at offset {offset}: corrupt header (NUL bytes)", last_position)
                continue
            record_type = headers.get("warc-type", "").strip().lower()  # field names and types in any case
            size = len(header) + record.content_length + 4  # the record laid out as ISO 28500 4 says
            held = _Read(_held_document(archive, offset, record_type, headers, block), offset, record_type, headers,
                         block, size)
        unread = None if path is None else _unread(path, last, start)
        if held is not None and (document := _given(archive, held, unread)) is not None:
            yield document
        if unread is not None:
            yield _unread_failure(archive, unread, "truncated or not a WARC record", last_position)
            return unread.offset
        return None
    except (KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as error:  # OSError; and a Rust panic in FastWARC (pyo3's PanicException is no Exception)
        if isinstance(stream, _Cut) and stream.error is not None:  # FastWARC read the cut as a bad header
            if held is not None and held.document is not None:
                yield held.document
            ended = _cut_failure(archive, stream)
            yield ended
            return ended.position.offset
        at = _ran_over(held)  # a stream: judged by the last record's own bytes
        if path is not None:
            try:
                at = _unread(path, last, start)
            except (OSError, ValueError, zlib.error):
                at = None
        elif at is None and isinstance(stream, _Cut) and stream.ended and (cut := stream.cut_at()) != stream.position:
            at = _Unread(cut)  # a header that the stream's end cut short (it named the record before it)
        if held is not None and (document := _given(archive, held, at)) is not None:
            yield document
        stopped = at or _Unread(offset)
        yield _unread_failure(archive, stopped, f"cannot be read: {error}", last_position)
        return stopped.offset
    finally:
        if members is not None:
            members.close()


def _field_as_written(headers: HeaderMap, name: bytes) -> str:
    """The value of the WARC field *name* (lower case) read from its bytes as :func:`linkkit.sources.http.field_text`
    reads an HTTP one: UTF-8 (ISO 28500 4) where its bytes are UTF-8, else each byte its ISO-8859-1 character, as
    warcio reads a header (FastWARC made each byte that is not UTF-8 U+FFFD: a target URI lost its letters)."""
    values = [value for field, value in headers.items_bytes() if field.lower() == name]
    return field_text(values[-1].strip().decode("latin-1")) if values else ""  # the last, as the fields by name


# ISO 28500 5.3: Content-Length = "Content-Length" ":" 1*DIGIT (spaces around a field value are no part of it).
_DIGITS = re.compile(r"[ \t]*([0-9]+)[ \t]*")


def _declared_length(value: str) -> int | None:
    """The length a record's Content-Length field declares, or None when it is no number (a header cut short or
    corrupt: ``Content-Length:`` with nothing after it, ``-5``, ``12abc``)."""
    digits = _DIGITS.fullmatch(value)
    return None if digits is None else int(digits.group(1))


def _read_again(archive: str, stream: IO[bytes], path: str | None, offset: int, headers: dict[str, str],
                ) -> Generator[Document, None, int]:
    """The record at *offset* whose Content-Length field FastWARC did not read (it reads that name in its own case
    only, where ISO 28500 4 makes field names case-insensitive: ``content-length``), read again by linkkit
    (:func:`_record_again`): its document, then its error if it is cut short or does not end where its length
    says; an error alone from standard input, which cannot be read again. FastWARC took the record's block for
    the next header: returns the offset after which the next record is looked for."""
    position = _record_position(offset, headers)
    try:
        again = _record_again(stream, path, offset)
    except CORRUPT as error:
        yield failure(archive, f"record at offset {offset}: cannot be read: {error}", position)
        return offset
    if again is None:
        yield failure(archive, f"record at offset {offset}: cannot be read from a stream: its Content-Length field "
                      "is not written 'Content-Length'", position)
        return offset
    content, end, member_end = again
    block_start = content.find(b"\r\n\r\n") + 4
    if end is None or len(content) < end:
        yield failure(archive, f"record at offset {offset}: truncated: {max(0, len(content) - block_start)} of "
                      f"{headers['content-length'].strip()} content bytes", position)
        return offset
    record_type = headers.get("warc-type", "").strip().lower()
    block = content[block_start:end]
    held = _Read(_held_document(archive, offset, record_type, headers, block), offset, record_type, headers, block)
    fault = None
    if member_end == _NO_END:  # (RFC 1952 2.2: CRC32 and ISIZE close a member)
        fault = _Unread(offset, "truncated: its gzip member has no end")
    elif _misframed(content, end):
        fault = _does_not_end(offset, len(block))
    if (document := _given(archive, held, fault)) is not None:
        yield document
    if fault is not None:
        yield _unread_failure(archive, fault, "", position)
        return offset
    return (offset + end if member_end is None else member_end) - 1


def _record_again(stream: IO[bytes], path: str | None, offset: int) -> tuple[bytes, int | None, int | None] | None:
    """The record at *offset* read again, as :func:`_stored_record` gives it: from the stored file *path*, or
    decompressed again from the file a decompressed *stream* was read from (its block no further than
    ``HELD_LIMIT``); None when it cannot be read again (standard input)."""
    if path is not None:
        with open(path, "rb") as file:
            return _stored_record(file, offset)
    source = stream.source if isinstance(stream, _Cut) else None
    if source is None:
        return None
    with _decompressed_from(source, offset) as rest:
        content = rest.read(_HEADER_WINDOW)
        end = _block_end(content)
        if end is not None:  # (a read allocates its size, and a wrong Content-Length may name any size)
            content += rest.read(max(0, min(end, linkkit_io.HELD_LIMIT + 1) + _HEADER_WINDOW - len(content)))
        return content, end, None


def _unclosed(held: _Read, next_at: int, stream: IO[bytes], path: str | None) -> _Unread | None:
    """The fault of the record *held* when CRLF CRLF does not follow its block (ISO 28500 4), though FastWARC read
    the next record after it, at *next_at* (it passes over line ends between records: a length a line end too long
    or short, or a closing CRLF CRLF missing, went unnoticed), asked when the record is not laid out as ISO 28500
    4 says (:func:`_records` tells that at once): told by its bytes, read again from the stored file *path*, or
    from the last reads of a decompressed *stream* (not judged when they no longer hold them)."""
    content = _bytes_again(held.offset, next_at, stream, path)
    end = None if content is None else _block_end(content)
    if content is None or end is None or content.startswith(b"\r\n\r\n", end):
        return None
    return _does_not_end(held.offset, held.headers["content-length"].strip())


def _gzip_members(stream: IO[bytes], path: str | None) -> mmap.mmap | None:
    """The stored archive *path*, which *stream* reads, mapped when it is made of gzip members (so that each
    member's ISIZE is read at once), else None."""
    if path is None or not _gzip_framed(os.pread(stream.fileno(), BINARY_SNIFF, 0)):
        return None
    return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)


def _bytes_again(offset: int, next_at: int, stream: IO[bytes], path: str | None) -> bytes | None:
    """The bytes of the record at *offset*, whose next record starts at *next_at*, read again (a gzip member's
    content): from the stored file *path*, or from the last reads a decompressed *stream* keeps; None when neither
    holds them."""
    if path is not None:
        try:
            with open(path, "rb") as file:
                return _stored_record(file, offset)[0]
        except zlib.error:
            return None
    if not isinstance(stream, _Cut):
        return None
    kept = b"".join(stream.reads)
    first = stream.position - len(kept)  # the offset of the first byte kept
    return kept[offset - first : next_at - first] if offset >= first else None


def _ran_over(held: _Read | None) -> _Unread | None:
    """In an archive read as a stream, where no byte after a record can be read again, the record read last when
    its block holds a version line: its Content-Length ran over the next record (reading failed right after it)."""
    if held is None or _VERSION_LINE.search(held.block) is None:
        return None
    return _Unread(held.offset, f"its Content-Length ({len(held.block)}) runs over the next record's version line")


def _held_document(archive: str, offset: int, record_type: str, headers: dict[str, str], block: bytes,
                   ) -> Document | None:
    """:func:`record_document` of a record read no further than ``HELD_LIMIT``: a page larger than that is an
    error, not read past it."""
    document = record_document(archive, offset, record_type, headers, block)
    if document is not None and len(block) > linkkit_io.HELD_LIMIT and document.data:
        document = document._replace(kind=ERROR, data=None,
                                     error=f"record at offset {offset}: {linkkit_io.too_large('a record')}")
    return document


def _given(archive: str, held: _Read, stopped: _Unread | None) -> Document | None:
    """The document of the record *held* back, given where reading stopped: a record at fault whose block holds
    the next record's version line (its Content-Length runs into the records after it) is made again from its
    block up to that line, so that the next records' links are not given as its own (they are read after it)."""
    if stopped is None or stopped.reason is None or stopped.offset != held.offset:
        return held.document
    line = _VERSION_LINE.search(held.block)
    if line is None:
        return held.document
    return _held_document(archive, held.offset, held.record_type, held.headers, held.block[: line.start()])


def _unread_failure(archive: str, unread: _Unread, otherwise: str, last: Position) -> Document:
    """The error record of where reading stopped: the record read last, named with its header's fields, when it is
    the one at fault (*unread* says why); else the bytes no record was read from, *otherwise* saying why."""
    if unread.reason is not None:
        return failure(archive, f"record at offset {unread.offset}: {unread.reason}", last)
    return failure(archive, f"record at offset {unread.offset}: {otherwise}", Position(offset=unread.offset))
