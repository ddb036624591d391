"""The MIME structure of a message, located in its raw bytes: every entity's header and body as byte offsets.

The standard library's ``email`` package reads each header block (``compat32``: it never raises on a malformed
header), but it does not say where a part's body lies in the input, and rewriting must copy every byte outside a
changed body.  So the bodies are found here, by the delimiter rules of RFC 2046 5.1.1::

    preamble CRLF --boundary [--] LWSP CRLF  part  CRLF --boundary LWSP CRLF  part  CRLF --boundary-- ... epilogue
                  \\_______ delimiter line ______/      \\___ the CRLF before a delimiter belongs to it ___/

Parts are numbered as IMAP numbers them (RFC 3501 6.4.5, ``BODY[section]``): the parts of a multipart message are
1, 2, ...; the body of a single-part message is 1; a multipart inside part 2 holds 2.1, 2.2; a ``message/rfc822``
part 2 holds a message whose parts are 2.1, 2.2 (or whose single body is 2.1).
"""

from __future__ import annotations

import email.parser
import email.policy
import email.utils
import re
from dataclasses import dataclass, field
from email.message import Message

from .errors import Problem
from .parts import UUENCODINGS, decode_transfer, without_comments

# Deeper nesting than this is an attack, not a message: the rest is read as opaque bytes.
MAX_DEPTH = 64

_HEADER_PARSER = email.parser.BytesHeaderParser(policy=email.policy.compat32)
# RFC 5322 2.2: the header section's lines, each a field (a name of printable ASCII but ":", then ":"; 4.5.3's
# obsolete syntax allows whitespace before the colon), a folded continuation (starting with WSP) or an mbox "From "
# line, as the standard library's feed parser tells them; RFC 5322 2.1: an empty line ends it.
_HEADER_LINES = re.compile(rb"(?:(?:[\x21-\x39\x3b-\x7e]++[ \t]*+:|[ \t]|From )[^\n]*+(?:\n|\Z))*+")
_EMPTY_LINE = re.compile(rb"\r?\n")
_SPACE_BEFORE_COLON = re.compile(rb"^([\x21-\x39\x3b-\x7e]++)[ \t]++:", re.MULTILINE)  # RFC 5322 4.5.3
_ANGLE_ID = re.compile(r"<[^<>]*>")
_MESSAGE_TYPES = frozenset({"message/rfc822", "message/global"})  # RFC 2046 5.2.1, RFC 6532 3.7
_FOLD = re.compile(r"\r?\n(?=[ \t])")  # RFC 5322 2.2.3: a CRLF before whitespace folds the field
_FOLD_IN_QUOTES = re.compile(r'"[^"\n]*+\n')  # a line break after a '"': perhaps folding a quoted-string
# RFC 2045 5.1: type "/" subtype, each a token (US-ASCII but space, controls and tspecials), then nothing or ";" and
# the parameters; whitespace (folding too) is allowed around each token, as between any two of a field's tokens.
_TOKEN = r"([!#$%&'*+\-.0-9A-Z^_`a-z{|}~]++)"
_MEDIA_TYPE = re.compile(rf"\s*+{_TOKEN}\s*+/\s*+{_TOKEN}\s*+(?:;|\Z)")
_LEADING_TOKEN = re.compile(_TOKEN)
# RFC 2046 5.1.1: what ends a delimiter line after its boundary: "--" for the close delimiter, transport padding,
# the line ending (or the end of the input, perhaps after a CR whose LF a copy lost)
_DELIMITER_END = re.compile(rb"(--)?[ \t]*+(?:\r?\n|\r?\Z)")


@dataclass(slots=True, eq=False)
class Entity:
    """One MIME entity: a message or a body part, with its bytes located in ``buffer``.

    ``part`` is the IMAP section number of the entity (RFC 3501 6.4.5): ``""`` for the top message when it is a
    multipart, ``"1"`` for the body of a single-part message, ``"2.1"`` and so on.  ``buffer[body_start:body_end]``
    is the body as transmitted (still transfer-encoded).  A ``message/rfc822`` entity has one child, the
    encapsulated message, whose ``buffer`` is the decoded body when the part was (wrongly, RFC 2046 5.2.1)
    transfer-encoded, else the same buffer.
    """

    part: str
    number: str  # the number the entity was given: for a message, the prefix of its parts ("" at the top)
    headers: Message
    buffer: bytes
    header_start: int
    body_start: int
    body_end: int
    content_type: str
    is_message: bool  # the entity is a whole message (the top one or an encapsulated one)
    message: str  # the number of the innermost message it belongs to: its own for a message, "" for the top one
    type_field: Message | None  # what reads its Content-Type's parameters (content_type_field), None without one
    children: list[Entity] = field(default_factory=list)
    close_end: int | None = None  # a multipart's: where its close delimiter line ends, None without one

    @property
    def transfer_encoding(self) -> str:
        """The Content-Transfer-Encoding's mechanism, lower-cased, its comments left out (RFC 2045 3, 6.1); ``7bit``
        when absent or empty (RFC 2045 6.1).  The mechanism is a token, which a tspecial ends: ``base64;`` and
        ``base64; charset=utf-8`` are base64 (it was an unknown encoding, read as 8bit, the part's links unread)."""
        value = header(self.headers, "content-transfer-encoding")
        words = without_comments(value).split() if value else None
        if not words:
            return "7bit"
        token = _LEADING_TOKEN.match(words[0])
        return (words[0] if token is None else token[0]).lower()

    @property
    def body(self) -> bytes:
        return self.buffer[self.body_start : self.body_end]

    @property
    def newline(self) -> bytes:
        """The line ending before the body (CRLF or LF): the one new lines of the body take when it has none."""
        return b"\r\n" if self.buffer[max(self.body_start - 2, 0) : self.body_start] == b"\r\n" else b"\n"

    def walk(self) -> list[Entity]:
        """This entity and every entity inside it, in MIME order (depth first)."""
        found = [self]
        for child in self.children:
            found.extend(child.walk())
        return found


def header(headers: Message, name: str) -> str | None:
    """A header's value as written (folded lines kept), None when absent or unreadable; one holding 8-bit bytes,
    which compat32 gives as a ``Header`` of replacement characters, is read from the raw field (:func:`field_value`)."""
    try:
        value = headers.get(name)
        if value is None or isinstance(value, str):
            return value
        name = name.lower()
        return next((field_value(raw) for key, raw in headers.raw_items() if key.lower() == name), str(value))
    except Exception:
        return None


def field_value(raw: str) -> str:
    """A header field's value as the parser keeps it (8-bit bytes as lone surrogates) read as UTF-8, as RFC 6532
    3.2 allows a field to be written, else as windows-1252 (the charset fallback of parts): a raw UTF-8
    ``Content-Location`` or ``List-Archive`` URL was read as replacement characters."""
    if raw.isascii():
        return raw
    try:
        data = raw.encode("ascii", "surrogateescape")
    except UnicodeEncodeError:  # already text
        return raw
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def parse_headers(block: bytes) -> Message:
    """The header fields of *block* (compat32, which never raises on malformed fields).  A field with whitespace
    between its name and its colon (RFC 5322 4.5.3, obs-optional, which a receiver must accept: 4) is read as the
    field: the ``email`` package took it for the first line of a body and left it out (``Content-Type : text/html``
    read as text/plain, an HTML part's links unread)."""
    if b" :" in block or b"\t:" in block:
        block = _SPACE_BEFORE_COLON.sub(rb"\1:", block)
    return _HEADER_PARSER.parsebytes(block)


def _split(buffer: bytes, start: int, end: int) -> tuple[int, int]:
    """(end of the header block, start of the body) of the entity ``buffer[start:end]`` (RFC 5322 2.1).

    The body starts after the empty line that ends the header fields or, when a line that is no header field comes
    first (the empty line is missing), at that line: the two are equal exactly then, short of the end.
    """
    header_end = _HEADER_LINES.match(buffer, start, end).end()  # type: ignore[union-attr]  # matches empty
    empty = _EMPTY_LINE.match(buffer, header_end, end)
    return header_end, header_end if empty is None else empty.end()


def content_type_field(headers: Message) -> tuple[Message | None, str | None]:
    """What reads the Content-Type's parameters for the ``email`` package, and the field's value (None, None when
    there is none): *headers*, or when the field holds comments or is folded inside a quoted-string, that field alone
    unfolded and without comments.  RFC 2045 5.1 allows comments there, and its own example ``text/plain;
    charset=us-ascii (Plain text)`` means ``charset="us-ascii"`` (the comment was read as part of the charset, and
    ``text/html (x)`` as a type of its own).  RFC 5322 2.2.3: unfolding removes each CRLF before whitespace, in a
    quoted-string too, which compat32 keeps: ``boundary="simple\r\n boundary"`` is RFC 2046 5.1.1's ``simple
    boundary`` (the boundary never occurred)."""
    value = header(headers, "content-type")
    if value is None:
        return None, None
    if "(" not in value and ('"' not in value or "\n" not in value or _FOLD_IN_QUOTES.search(value) is None):
        return headers, value
    value = without_comments(_FOLD.sub("", value))
    field = Message()
    field["Content-Type"] = value
    return field, value


def _content_type(value: str | None, default: str) -> str | None:
    """The media type of a Content-Type field's *value*, lower-cased: *default* without the field (RFC 2045 5.2,
    RFC 2046 5.1.5), None when it cannot be read (5.2: "a syntactically invalid Content-Type header field")."""
    if value is None:
        return default
    found = _MEDIA_TYPE.match(value)
    return None if found is None else f"{found[1]}/{found[2]}".lower()


def parameter(field: Message | None, name: str) -> str | None:
    """The value of the Content-Type parameter *name* that *field* (:func:`content_type_field`) reads, RFC 2231
    continuations and charset undone; None when absent or unreadable.  Never raises: compat32's ``get_param`` can,
    and ``collapse_rfc2231_value`` raises ValueError on a charset name with a NUL (``charset*=ut\\0f-8''x``)."""
    if field is None:
        return None
    try:
        value = field.get_param(name)
    except Exception:
        return None
    if isinstance(value, tuple):  # RFC 2231 4: (charset, language, value)
        try:
            value = email.utils.collapse_rfc2231_value(value)
        except ValueError:  # a charset name str() refuses: the value as written
            value = email.utils.unquote(value[2])
    return str(value) if value else None


def _boundary(field: Message | None) -> str | None:
    boundary = parameter(field, "boundary")
    return email.utils.unquote(boundary).rstrip(" ") if boundary else None


def _delimiters(buffer: bytes, start: int, end: int, boundary: bytes) -> list[tuple[int, int, bool]]:
    """The delimiter lines of *boundary* in ``buffer[start:end]``: (start, end, is_close) each; the line ending
    before a delimiter belongs to it, and so does the line ending after it (RFC 2046 5.1.1, transport padding), or
    at the end of the input what is left of one (a CR whose LF a copy lost).  ``--boundary`` is looked for as bytes
    (a regular expression opening with the optional line ending tried every position: 50 MB/s on an attachment)."""
    dash_boundary = b"--" + boundary
    found: list[tuple[int, int, bool]] = []
    position = floor = start  # where to look on; where the line ending before a delimiter may start
    while True:
        at = buffer.find(dash_boundary, position, end)
        if at < 0:
            return found
        line_end = _DELIMITER_END.match(buffer, at + len(dash_boundary), end)
        if line_end is None or (at != start and buffer[at - 1] != 0x0A):
            # "--boundary" in the middle of a line, or followed by more, is no delimiter: on at the next line
            floor, position = at + 1, buffer.find(b"\n", at, end) + 1
            if not position:
                return found
            continue
        if at > floor and buffer[at - 1] == 0x0A:
            at -= 2 if at - 1 > floor and buffer[at - 2] == 0x0D else 1
        close = line_end.group(1) is not None
        found.append((at, line_end.end(), close))
        if close or line_end.end() >= end:
            return found
        position = floor = line_end.end()


def _multipart(entity: Entity, buffer: bytes) -> Entity:
    """*entity*, or the message it encapsulates as written in *buffer* (not transfer-encoded): the entity whose
    multipart delimiters would be lines of *buffer*."""
    if entity.content_type in _MESSAGE_TYPES and entity.children and entity.children[0].buffer is buffer:
        return entity.children[0]
    return entity


def _reuses(entity: Entity, boundary: str, buffer: bytes) -> bool:
    """Whether *entity*, a part of a multipart of *boundary*, is a multipart of that boundary too, or attaches a
    message that is."""
    inner = _multipart(entity, buffer)
    return inner.content_type.startswith("multipart/") and _boundary(inner.type_field) == boundary


def parse(buffer: bytes, problems: list[Problem]) -> Entity:
    """The entity tree of the message *buffer*; defects go to *problems* (nothing raises)."""
    return _entity(buffer, 0, len(buffer), "", True, "", "text/plain", problems, 0)


def _child_number(prefix: str, index: int) -> str:
    return f"{prefix}.{index}" if prefix else str(index)


def _entity(
    buffer: bytes,
    start: int,
    end: int,
    number: str,
    is_message: bool,
    message: str,
    default_type: str,
    problems: list[Problem],
    depth: int,
) -> Entity:
    header_end, body_start = _split(buffer, start, end)
    headers = parse_headers(buffer[start:header_end])
    type_field, type_value = content_type_field(headers)
    ctype = _content_type(type_value, default_type)
    if ctype is None:  # RFC 2045 5.2: "text/plain; charset=us-ascii", its parameters none
        ctype, type_field = "text/plain", None
    multipart = ctype.startswith("multipart/")
    # A single-part message's body is its part 1 (RFC 3501 6.4.5); a multipart message has no number of its own.
    part = number if not is_message or multipart else _child_number(number, 1)
    message = number if is_message else message
    entity = Entity(part, number, headers, buffer, start, body_start, end, ctype, is_message, message, type_field)
    if body_start == header_end < end:
        problems.append(Problem(part, "structure", "no empty line after the header fields (RFC 5322 2.1): the body "
                                "starts at the first line that is no header field"))
    if depth >= MAX_DEPTH:
        if multipart or ctype in _MESSAGE_TYPES:
            problems.append(Problem(part, "structure", f"nested deeper than {MAX_DEPTH} levels: not read"))
        return entity
    if multipart:
        boundary = _boundary(type_field)
        if boundary is None:
            problems.append(Problem(part, "structure", f"{ctype} without a boundary parameter (RFC 2046 5.1.1)"))
            return entity
        try:
            boundary_bytes = boundary.encode("ascii", "surrogateescape")
        except UnicodeEncodeError:
            boundary_bytes = boundary.encode("utf-8", "surrogateescape")
        delimiters = _delimiters(buffer, body_start, end, boundary_bytes)
        if not delimiters:
            problems.append(Problem(part, "structure", f"boundary {boundary!r} does not occur in the body"))
            return entity
        own_problems = len(problems)  # the multipart's own problems go before its parts'
        # RFC 2046 5.1.5: in a multipart/digest, a part without Content-Type is message/rfc822.
        child_default = "message/rfc822" if ctype == "multipart/digest" else "text/plain"
        at = 0  # the delimiter that opens the next part
        while at < len(delimiters) and not delimiters[at][2]:
            part_start = delimiters[at][1]
            part_end = delimiters[at + 1][0] if at + 1 < len(delimiters) else end
            child_number = _child_number(number, len(entity.children) + 1)
            found: list[Problem] = []
            child = _entity(buffer, part_start, part_end, child_number, False, message, child_default, found,
                            depth + 1)
            if at + 1 < len(delimiters) and _reuses(child, boundary, buffer):
                # A multipart reusing its parent's boundary, as its part or as an attached message (RFC 2046 5.1.2
                # forbids it, spam does it): its own delimiters are those up to its close delimiter (its parts' own
                # too, reused again or not), as parsers that try the innermost boundary first read them (MimeKit);
                # the parent's next part starts after that close delimiter, and what lies between is its epilogue.
                found = [Problem(child_number, "structure", f"multipart reusing its parent's boundary {boundary!r} "
                                 "(RFC 2046 5.1.2): its parts are those up to its close delimiter")]
                child = _entity(buffer, part_start, end, child_number, False, message, child_default, found,
                                depth + 1)
                inner = _multipart(child, buffer)
                delimiters = [] if inner.close_end is None else _delimiters(buffer, inner.close_end, end,
                                                                            boundary_bytes)
                at, part_end = -1, delimiters[0][0] if delimiters else end
                child.body_end = inner.body_end = part_end
            problems.extend(found)
            entity.children.append(child)
            at += 1
        if at < len(delimiters):
            entity.close_end = delimiters[at][1]
        else:
            problems.insert(own_problems, Problem(part, "structure", f"no close delimiter --{boundary}-- "
                                                  "(RFC 2046 5.1.1)"))
        if entity.close_end is not None and not entity.children:  # RFC 2046 5.1.1: a body part before the close
            problems.insert(own_problems, Problem(part, "structure", "no body part before the close delimiter "
                                                  f"--{boundary}-- (RFC 2046 5.1.1)"))
        return entity
    if ctype in _MESSAGE_TYPES:
        inner_buffer, inner_start, inner_end = buffer, body_start, end
        encoding = entity.transfer_encoding
        if encoding in ("base64", "quoted-printable") or encoding in UUENCODINGS:
            # RFC 2046 5.2.1 forbids it, clients do it: read the decoded message (rewriting re-encodes it).
            problems.append(Problem(part, "structure", f"{ctype} part is {encoding}-encoded (RFC 2046 5.2.1)"))
            inner_buffer, _ = decode_transfer(buffer[body_start:end], encoding)
            inner_start, inner_end = 0, len(inner_buffer)
        entity.children.append(
            _entity(inner_buffer, inner_start, inner_end, part, True, part, "text/plain", problems, depth + 1)
        )
    return entity


def message_id(buffer: bytes) -> str | None:
    """The Message-ID of the message *buffer* (RFC 5322 3.6.4), folding whitespace removed; None when absent."""
    header_end, _ = _split(buffer, 0, len(buffer))
    value = header(parse_headers(buffer[:header_end]), "message-id")
    return None if value is None else _msg_id(value) or None


def _msg_id(value: str) -> str:
    """A msg-id field's id with its angle brackets (RFC 5322 3.6.4: ``[CFWS] "<" id-left "@" id-right ">" [CFWS]``):
    folding whitespace and the comments around it left out; a value without brackets, whitespace removed."""
    unfolded = "".join(value.split())
    found = _ANGLE_ID.search(unfolded)
    return found.group() if found is not None else unfolded


class ContentIds(dict[str, str]):
    """Content-ID (without its angle brackets, RFC 2392 2) -> part number, first one wins; :meth:`find` looks an id
    up from a part of a given message, which names a part of its own message first.  Content-IDs are to be
    world-unique (RFC 2045 7), but a digest of two newsletters or a forward holding its original can carry two
    alike (``<logo@sender.example>``, Outlook's ``image001.png@...`` copied into the forward)."""

    __slots__ = ("_folded", "in_message")

    def __init__(self) -> None:
        super().__init__()
        self.in_message: dict[tuple[str, str], str] = {}  # (message, id) -> the first part of that message

    def add(self, message: str, key: str, part: str) -> None:
        """Record that *part* of *message* has the Content-ID *key* (the first of each is kept)."""
        self.setdefault(key, part)
        self.in_message.setdefault((message, key), part)

    def find(self, key: str, message: str) -> str | None:
        """The part named by the Content-ID *key* from a part of *message*: one written alike in that message, else
        in any, else one equal but for case (a msg-id's right side is a domain, RFC 5322 3.6.4), in the same
        order."""
        for ids, folded_key in ((self, key), (self.folded(), key.casefold())):
            found = ids.in_message.get((message, folded_key))
            if found is None:
                found = ids.get(folded_key)
            if found is not None:
                return found
        return None

    def folded(self) -> ContentIds:
        """The same ids case-folded, each to the part of the first one that folds so; made on first use (a cid:
        link that matches no id as written)."""
        try:
            return self._folded
        except AttributeError:
            self._folded: ContentIds = ContentIds()
            for (message, key), part in self.in_message.items():
                self._folded.in_message.setdefault((message, key.casefold()), part)
            for key, part in self.items():
                self._folded.setdefault(key.casefold(), part)
            return self._folded


def content_ids(root: Entity) -> ContentIds:
    """The Content-IDs of the parts of the message *root* (:class:`ContentIds`)."""
    ids = ContentIds()
    for entity in root.walk():
        value = header(entity.headers, "content-id")
        if value:
            key = _msg_id(value).strip("<>")  # RFC 2392 2: a Content-ID is a msg-id; cid: names it unbracketed
            if key:
                ids.add(entity.message, key, entity.part)
    return ids


__all__ = ["MAX_DEPTH", "ContentIds", "Entity", "content_ids", "content_type_field", "field_value", "header",
           "message_id", "parameter", "parse", "parse_headers"]
