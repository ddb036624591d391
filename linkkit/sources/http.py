"""The HTTP envelope of a WARC ``response`` record (RFC 9112): the status line and header fields as written, the
payload de-chunked and decompressed, the media type and charset, and the URLs the header fields give."""

from __future__ import annotations

import functools
import io
import re
import zlib
from collections.abc import Iterator
from types import ModuleType
from typing import NamedTuple, cast

from .. import io as linkkit_io
from .compressed import decompressing
from .document import HeaderLink

# RFC 9112 2.2: a recipient may take a bare LF as a line terminator; the header section ends at an empty line.
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_FIELD = re.compile(r"([^:\s][^:]*):[ \t]*(.*?)[ \t]*$")
# RFC 9112 4: status-line = HTTP-version SP status-code (3DIGIT) ...; HTTP-name read in any case, as browsers do
# (Chromium's HttpResponseHeaders::ParseVersion): "http/1.1 301" is a redirection.
_STATUS = re.compile(r"HTTP/[0-9](?:\.[0-9])?[ \t]+([0-9]{3})(?![0-9])", re.IGNORECASE)
_HTTP_NAME = b"HTTP/"


def opens_response(block: bytes, start: int = 0) -> bool:
    """Whether an HTTP response's status line starts at *start* in *block*: its HTTP-name, in any case."""
    return block[start : start + len(_HTTP_NAME)].upper() == _HTTP_NAME


# RFC 9112 5.2: an obsolete line folding (a line break, then spaces or tabs) within a field value.
_FOLD = re.compile(r"\r?\n[ \t]+")


def unfolded(value: str) -> str:
    """*value* with each obsolete line folding replaced by one space, as RFC 9112 5.2 asks before it is read."""
    return _FOLD.sub(" ", value) if "\n" in value else value


class Envelope(NamedTuple):
    """An HTTP response as a WARC record holds it: ``fields`` in order, each ``(name in lower case, value, start)``
    with the value as written (a folded one with its line breaks, so that its characters are its bytes) and its
    byte offset in the header block; ``payload`` the message body as sent (still chunked or compressed)."""

    status: int | None
    fields: list[tuple[str, str, int]]
    payload: bytes

    def values(self, name: str) -> list[str]:
        """Every value of field *name* (lower case), unfolded, in header order."""
        return [unfolded(value) for field, value, _ in self.fields if field == name]

    def combined(self, name: str) -> str:
        """The values of the list-based field *name* (``Content-Encoding``, ``Transfer-Encoding``) joined in order
        by commas, as RFC 9110 5.3 combines its field lines: ``gzip`` then ``br`` on two lines is ``gzip, br``."""
        return ", ".join(self.values(name))


def parse(block: bytes) -> Envelope:
    """The status line, header fields and payload of the final HTTP response of *block*: the interim (1xx)
    responses a server may send before it (``100 Continue``, ``103 Early Hints``; RFC 9110 15.2) are passed
    over, save ``101 Switching Protocols``, after which no HTTP follows. Field offsets count from *block*'s
    start."""
    start = 0
    while True:
        status, fields, body = _message(block, start)
        interim = status is not None and 100 <= status < 200 and status != 101
        if not (interim and opens_response(block, body)):
            return Envelope(status, fields, block[body:])
        start = body


def _message(block: bytes, start: int) -> tuple[int | None, list[tuple[str, str, int]], int]:
    """The status code, header fields (as :class:`Envelope` holds them) and payload offset of the HTTP response at
    *start* in *block*; obsolete line folding (RFC 9112 5.2) joins a continuation line to the field before it.
    Nothing after the header block is copied, nor a field's value before its last line is read."""
    end = _HEADER_END.search(block, start)
    head, body = (block[start:], len(block)) if end is None else (block[start : end.start()], end.end())
    text = head.decode("latin-1")  # one character per byte: offsets are byte offsets
    lines = text.split("\n")
    status = _STATUS.match(lines[0].rstrip("\r"))
    spans: list[tuple[str, int, int]] = []  # each field's name and where its value starts and ends in *text*
    offset = len(lines[0]) + 1
    for line in lines[1:]:
        line_end = len(line)
        line = line.rstrip("\r")
        if line[:1] in (" ", "\t") and spans:  # obs-fold: the value goes on to this line's end, as written
            spans[-1] = (spans[-1][0], spans[-1][1], offset + len(line))
        else:
            match = _FIELD.match(line)
            if match is not None:
                spans.append((match.group(1).strip().lower(), offset + match.start(2), offset + match.end(2)))
        offset += line_end + 1
    fields = [(name, text[a:b].rstrip(" \t"), start + a) for name, a, b in spans]
    return int(status.group(1)) if status else None, fields, body


# HTTP token code points and HTTP quoted-string token code points (the MIME Sniffing Standard 2.1, RFC 9110 5.6).
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_QUOTED_TEXT = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
_HTTP_WHITESPACE = " \t\r\n"
_QUOTE_OR_BACKSLASH = re.compile(r'["\\]')
_QUOTE_OR_COMMA = re.compile(r'[",]')
_SEMICOLON_OR_EQUALS = re.compile("[;=]")


def _quoted_string(value: str, position: int) -> tuple[str, int]:
    """The HTTP quoted string at *position* (its opening quote) in *value*, its backslash escapes undone, and where
    it ends (Fetch, "collect an HTTP quoted string"; an unclosed one runs to the end)."""
    out: list[str] = []
    position += 1
    while (stop := _QUOTE_OR_BACKSLASH.search(value, position)) is not None:
        out.append(value[position : stop.start()])
        position = stop.end()
        if stop.group() == '"':
            return "".join(out), position
        if position == len(value):
            out.append("\\")
            return "".join(out), position
        out.append(value[position])
        position += 1
    out.append(value[position:])
    return "".join(out), len(value)


def _split(value: str) -> list[str]:
    """The comma-separated values of a field value, a comma inside a quoted string ending none (Fetch, "get,
    decode, and split")."""
    values: list[str] = []
    pieces: list[str] = []
    position = 0
    while True:
        stop = _QUOTE_OR_COMMA.search(value, position)
        end = len(value) if stop is None else stop.start()
        pieces.append(value[position:end])
        position = end
        if stop is not None and stop.group() == '"':
            _, position = _quoted_string(value, end)
            pieces.append(value[end:position])
            if position < len(value):
                continue
        values.append("".join(pieces).strip(" \t"))
        pieces = []
        if position >= len(value):
            return values
        position += 1  # the comma


def _mime_type(value: str) -> tuple[str, str | None] | None:
    """The essence (``type/subtype`` in lower case) and charset parameter of a MIME type, or None when it is none
    (the MIME Sniffing Standard 4.4, "parse a MIME type": a parameter's first value counts, quotes and escapes
    undone, an empty one ignored)."""
    value = value.strip(_HTTP_WHITESPACE)
    kind, slash, _ = value.partition("/")
    position = value.find(";", len(kind))
    position = len(value) if position < 0 else position
    subtype = value[len(kind) + 1 : position].rstrip(_HTTP_WHITESPACE)
    if not slash or not _TOKEN.fullmatch(kind) or not _TOKEN.fullmatch(subtype):
        return None
    charset = None
    while position < len(value) and charset is None:
        position += 1  # the ";", then whitespace (skipped in place: a copy of the rest per parameter is quadratic)
        while position < len(value) and value[position] in _HTTP_WHITESPACE:
            position += 1
        stop = _SEMICOLON_OR_EQUALS.search(value, position)
        if stop is None or stop.group() == ";":  # a name without a value
            position = len(value) if stop is None else stop.start()
            continue
        name, position = value[position : stop.start()].lower(), stop.end()
        if value.startswith('"', position):
            parameter, position = _quoted_string(value, position)
            end = value.find(";", position)
            position = len(value) if end < 0 else end
        else:
            end = value.find(";", position)
            end = len(value) if end < 0 else end
            parameter, position = value[position:end].rstrip(_HTTP_WHITESPACE), end
            if not parameter:  # empty, unquoted: no value at all (a quoted "" is one)
                continue
        if name == "charset" and _QUOTED_TEXT.fullmatch(parameter):
            charset = parameter
    return f"{kind}/{subtype}".lower(), charset


def media_type(content_types: list[str]) -> tuple[str | None, str | None]:
    """The media type (lower case) and charset that ``Content-Type`` field values declare, or (None, None), as Fetch
    "extract a MIME type" reads them: of several (duplicate fields, or values split by commas) the last valid one
    that is not ``*/*``, given an earlier one's charset when it is of the same type and declares none."""
    essence = charset = declared = None
    for value in _split(", ".join(content_types)) if content_types else ():
        parsed = _mime_type(value)
        if parsed is None or parsed[0] == "*/*":
            continue
        declared = parsed[1]
        if parsed[0] != essence:
            essence, charset = parsed[0], declared
        elif declared is None:
            declared = charset
    return essence, declared or None  # a quoted "" declares a charset, none that names an encoding


# RFC 9112 7.1: chunk-size (1*HEXDIG), then chunk extensions (";" ...) and the line's end.
_CHUNK_SIZE = re.compile(rb"[ \t]*([0-9A-Fa-f]+)[ \t]*(?:;[^\n]*)?\r?\n")


def dechunked(payload: bytes) -> bytes:
    """The body of a ``Transfer-Encoding: chunked`` payload (RFC 9112 7.1): chunk extensions ignored, the trailer
    dropped; a payload cut short keeps the chunks read. One whose first line is no chunk size is the body as it is:
    the tool that archived it de-chunked it and kept the header (warcio and jwarc read such a payload so)."""
    out = bytearray()
    position = 0
    while True:
        size_line = _CHUNK_SIZE.match(payload, position)
        if size_line is None:
            return payload if position == 0 else bytes(out)
        size = int(size_line.group(1), 16)
        if size == 0:
            break
        start = size_line.end()
        out += payload[start : start + size]
        position = start + size
        if payload.startswith(b"\r\n", position):
            position += 2
        elif payload.startswith(b"\n", position):
            position += 1
    return bytes(out)


class DecodingError(ValueError):
    """A payload whose Content-Encoding cannot be undone: unknown, unavailable, or corrupt."""


class ReadAsIs(DecodingError):
    """A payload that a content coding it names cannot undo and that holds no binary data, given as it is in
    ``payload``: its links are read, and this failure reported after them (bad input loses no data)."""

    def __init__(self, message: str, payload: bytes) -> None:
        super().__init__(message)
        self.payload = payload


# The MIME Sniffing Standard 7.1: a resource header (the first 1445 bytes) holding a binary data byte is no text.
RESOURCE_HEADER = 1445
_BINARY_DATA = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")


def holds_binary_data(payload: bytes) -> bool:
    """Whether *payload*'s resource header holds a binary data byte (the MIME Sniffing Standard 7.1), as every
    compressed payload's does and no text's."""
    return _BINARY_DATA.search(payload, 0, RESOURCE_HEADER) is not None


def decoded(payload: bytes, content_encoding: str | None) -> bytes:
    """*payload* with its content codings undone, the last applied first (RFC 9110 8.4). A payload cut short (a
    record the crawler truncated, ``WARC-Truncated``) gives what its start decompresses to, in every coding. One
    that decompresses to more than ``linkkit.io.HELD_LIMIT`` bytes (a bomb) is an error, read no further. One that
    holds no binary data is read as it is, as warcio and ReplayWeb.page read it, where a coding cannot undo it: a
    coding linkkit does not know (``Content-Encoding: utf-8``, which the server did not apply; browsers pass over
    it) at once, and one that fails (the tool that archived the page stored it decoded and kept the field, or the
    data is damaged) with :class:`ReadAsIs`, which says so after its links."""
    if not content_encoding:
        return payload
    for coding in reversed([c.strip().lower() for c in content_encoding.split(",") if c.strip()]):
        if coding == "identity":
            continue
        try:
            payload = _undone(coding, payload, linkkit_io.HELD_LIMIT + 1)
        except Exception as error:  # zlib.error, ValueError, OSError, brotli.error; DecodingError: no such coding
            if isinstance(error, DecodingError):
                if holds_binary_data(payload):
                    raise
                return payload
            if holds_binary_data(payload):
                raise DecodingError(f"content coding {coding!r}: {error}") from None
            raise ReadAsIs(f"content coding {coding!r}: {error}; its payload, which holds no binary data, read as it "
                           "is", payload) from None
        if len(payload) >= linkkit_io.HELD_LIMIT + 1:
            raise DecodingError(linkkit_io.too_large("a payload decoded"))
    return payload


def _undone(coding: str, payload: bytes, most: int) -> bytes:
    """*payload* with the content coding *coding* undone, at most *most* bytes of it."""
    if coding in ("gzip", "x-gzip"):
        return _gunzipped(payload, most)
    if coding == "deflate":  # RFC 9110 8.4.1.2: zlib; some servers send raw DEFLATE, as browsers accept
        try:
            return zlib.decompressobj().decompress(payload, most)
        except zlib.error:
            return zlib.decompressobj(-zlib.MAX_WBITS).decompress(payload, most)
    if coding == "zstd":  # RFC 8878 7.2, with the Zstandard reader compressed files use
        return _zstd_undone(payload, most)
    brotli = _brotli() if coding == "br" else None
    if brotli is not None:
        decompressor = brotli.Decompressor()
        try:
            out = bytes(decompressor.process(payload, output_buffer_limit=most)[:most])
        except TypeError:  # a brotli before 1.1 has no output limit
            out = bytes(decompressor.process(payload))
        if payload and not out and not decompressor.is_finished():  # RFC 7932 has no magic number: many a text
            raise ValueError("no Brotli stream")  # reads as the start of a stream that gives nothing
        return out
    raise DecodingError(f"content coding {coding!r} is not supported")


def _gunzipped(payload: bytes, most: int) -> bytes:
    """*payload* in content coding ``gzip`` decompressed, at most *most* bytes: every member of it, as a gzip file
    is a series of members (RFC 1952 2.2); bytes after a member that start no intact one are ignored, as bytes
    after the last member are (a damaged first member is an error)."""
    member = zlib.decompressobj(16 + zlib.MAX_WBITS)
    out = member.decompress(payload, most)
    while member.eof and member.unused_data.startswith(b"\x1f\x8b") and len(out) < most:
        rest, member = member.unused_data, zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out += member.decompress(rest, most - len(out))
        except zlib.error:
            break
    return out


def _zstd_undone(payload: bytes, most: int) -> bytes:
    """*payload* in content coding ``zstd`` decompressed, at most *most* bytes; one cut short gives what its start
    decompresses to, a damaged one is an OSError."""
    reader = cast(io.BufferedReader, decompressing(io.BytesIO(payload), "zstd"))  # read1: nothing lost at a cut
    out = bytearray()
    try:
        while len(out) < most and (piece := reader.read1(min(1 << 16, most - len(out)))):
            out += piece
    except EOFError:  # cut short inside its frame
        pass
    return bytes(out)


@functools.cache
def _brotli() -> ModuleType | None:
    """The brotli module for Content-Encoding "br" (RFC 7932), where one is at hand: imported when a payload
    needs it, since the import costs about 3 ms of every run's start."""
    try:
        import brotli
    except ImportError:  # pragma: no cover - brotli is optional
        return None
    return cast(ModuleType, brotli)


def _link_targets(value: str) -> Iterator[tuple[int, int]]:
    """Where each target ``<...>`` of a ``Link`` field value lies (RFC 8288 3: ``#link-value``, each
    ``"<" URI-Reference ">" *( OWS ";" OWS link-param )``); a comma inside a quoted parameter ends nothing. A
    link-value that does not open with ``<`` gives none (``title="<x>"`` is no target), nor does a ``<`` not
    closed before the next one (``</a; rel=x, </b>`` gives ``/b``), as browsers drop such a link-value."""
    position, length = 0, len(value)
    while position < length:
        while position < length and value[position] in _OWS_OR_FOLD:
            position += 1
        if value.startswith("<", position):
            end = value.find(">", position + 1)
            if end < 0:
                return
            start = value.rfind("<", position, end)  # RFC 3986 2: no URI-Reference holds "<"
            yield start + 1, end
            position = end + 1
        quoted = False
        while position < length:  # the parameters (or what is no link-value), to the comma that ends it
            character = value[position]
            if character == '"':
                quoted = not quoted
            elif character == "\\" and quoted:
                position += 1
            elif character == "," and not quoted:
                break
            position += 1
        position += 1  # the comma


def field_text(value: str) -> str:
    """A field value read one character per byte, as written: UTF-8 when its bytes are UTF-8 (servers write URLs
    so, and browsers read a ``Location`` so: WHATWG Fetch issues 843 and 883), else each byte its ISO-8859-1
    character (RFC 9110 5.5)."""
    if value.isascii():
        return value
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return value


# RFC 9110 5.5: the spaces and tabs around a field value are no part of it, nor is an obs-fold's line break; not
# str.strip()'s whitespace, which takes in the byte that ends UTF-8 "à" (C3 A0) or "Å" (C3 85) read one per character.
_OWS_OR_FOLD = " \t\r\n"


def header_links(envelope: Envelope) -> tuple[HeaderLink, ...]:
    """The URLs of the header fields, in header order: ``Location`` on a redirection (3xx, RFC 9110 10.2.2),
    ``Content-Location`` (RFC 9110 8.7), every target of every ``Link`` field (RFC 8288; ``<>``, the empty
    reference, names the page itself), and the URL of a ``Refresh`` field (read as the HTML standard reads a
    ``<meta http-equiv=refresh>``). Spans are byte offsets in the header block."""
    found: list[HeaderLink] = []
    redirect = envelope.status is not None and 300 <= envelope.status < 400
    for name, value, start in envelope.fields:
        if (name == "location" and redirect) or name == "content-location":
            raw = unfolded(value).strip(_OWS_OR_FOLD)
            if raw:  # the span is the value's, without the line break and spaces a folded one starts with
                lead = len(value) - len(value.lstrip(_OWS_OR_FOLD))
                found.append(HeaderLink(f"http {name}", field_text(raw), (start + lead, start + len(value))))
        elif name == "link":
            for a, b in _link_targets(value):
                written = value[a:b]  # the span is the URL's, without spaces written inside the brackets
                a += len(written) - len(written.lstrip(_OWS_OR_FOLD))
                b -= len(written) - len(written.rstrip(_OWS_OR_FOLD))
                found.append(HeaderLink("http link", field_text(unfolded(value[a:b])), (start + a, start + max(a, b))))
        elif name == "refresh":  # read as <meta http-equiv=refresh> is; linkkit.html loaded only for one
            from ..html.places import read_refresh

            for a, b, raw, _ in read_refresh(value):
                found.append(HeaderLink("http refresh", field_text(unfolded(raw)), (start + a, start + b)))
    return tuple(found)
