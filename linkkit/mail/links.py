"""Every link of a message: its text parts decoded, each read with the finder of its type against the right base.

    >>> from linkkit import mail
    >>> message = (b"Content-Type: text/plain; charset=utf-8\\r\\nContent-Transfer-Encoding: quoted-printable\\r\\n"
    ...            b"\\r\\nSee https:=\\r\\n//example.org/caf=C3=\\r\\n=A9?a=3D1 today.\\r\\n")
    >>> [(link.part, link.uri) for link in mail.links(message)]
    [('1', 'https://example.org/café?a=1')]
"""

from __future__ import annotations

import email.message
import re
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple

import linkkit
from linkkit.link import SpanMatch

if TYPE_CHECKING:  # the finders are loaded on first use (linkkit's face): reading a mailbox does not load them
    from linkkit import html
    from linkkit.security.flags import Flag
    from linkkit.text.reference import Reference

from .base import entity_base, is_absolute
from .errors import Problem
from .flowed import delsp_flowed, unflow
from .message import ContentIds, Entity, content_ids, field_value, parameter, parse
from .parts import Decoded, decode_text, decode_transfer, header_text, html_charset, without_comments

Source = Literal["text", "html-attr", "html-text", "header"]
TEXT_TYPES = frozenset({"text/plain", "text/html"})

# RFC 2369 3.1-3.6 and RFC 5064 2: the header fields whose values are URLs in angle brackets.
LINK_HEADERS = (
    "List-Help",
    "List-Subscribe",
    "List-Unsubscribe",
    "List-Post",
    "List-Owner",
    "List-Archive",
    "Archived-At",
)
_ANGLE_URL = re.compile(r"<([^<>]*)>")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class MailLink(SpanMatch):
    """A link found in a message, shaped like :class:`re.Match` (and :class:`linkkit.link.LinkLike`).

    ``span()`` is where the link lies in the decoded text of its part (or of its header field, unfolded and
    RFC 2047-decoded); ``raw`` is what is written there (for HTML, as the HTML parser yields it); ``uri`` the
    target.  ``part`` is the IMAP section number (RFC 3501 6.4.5; ``"HEADER"`` or ``"2.HEADER"`` for a header
    field), ``content_type`` the part's type, ``source`` one of ``text``, ``html-attr``, ``html-text``,
    ``header``, ``where`` the place (the scanner's delimiter, ``"TAG ATTR"``, or the header's name), ``base`` what
    a relative reference was resolved against.  ``charset_fallback`` says the part's charset was unknown or lied
    and the text was read as UTF-8 or windows-1252; ``target_part`` is, for a ``cid:`` link (RFC 2392), the part
    whose Content-ID it names; ``inner`` is what the part's finder gave (a :class:`linkkit.Reference` for a
    text/plain part, with ``.unwrapped`` and ``.outer_span()``; a :class:`linkkit.html.Link` for HTML).  In a
    ``format=flowed; delsp=yes`` part (RFC 3676 4.2) a reference may span soft line breaks: ``span()`` and ``raw``
    are where it is written, breaks included, and ``inner`` is found in the part's text with them removed.
    """

    uri: str
    raw: str
    _span: tuple[int, int]
    where: str
    part: str
    content_type: str
    source: Source
    kind: str
    base: str | None = None
    charset_fallback: bool = False
    target_part: str | None = None
    # What the finder of the part's type found (a linkkit.Reference, a linkkit.html.Link), spans in the part's text
    # (a flowed part's without its soft line breaks).
    inner: Reference | html.Link | None = field(default=None, compare=False, repr=False)
    _flags: tuple[Flag, ...] | None = field(default=None, compare=False, repr=False)  # .flags, once read

    @property
    def flags(self) -> tuple[Flag, ...]:
        """What ``uri`` does that RFC 3986 section 7 warns about (:func:`linkkit.security.flags`, context
        ``mail``: a ``javascript:`` link is flagged), computed on first read and kept."""
        return self._flags_in(self.uri, "mail")

    def __repr__(self) -> str:
        return (
            f"<linkkit.mail.MailLink part={self.part!r}, source={self.source!r}, span={self._span!r}, "
            f"raw={self.raw!r}, uri={self.uri!r}>"
        )


class TextPart(NamedTuple):
    """A text/plain or text/html leaf, decoded: where it is, its text, how it was decoded, its base."""

    entity: Entity
    data: bytes  # the body with its transfer encoding undone
    decoded: Decoded
    base: str | None


class Reading(NamedTuple):
    """A message read: its bytes, its entity tree (over ``buffer``, or over its copy with bare CRs as LFs: the same
    offsets), what was wrong with it."""

    buffer: bytes
    root: Entity
    problems: list[Problem]


def message_bytes(message: bytes | bytearray | memoryview | email.message.Message) -> bytes:
    """The bytes of *message*; an ``email.message.Message`` is serialized (without a ``From `` line)."""
    if isinstance(message, (bytes, bytearray, memoryview)):
        return bytes(message)
    if isinstance(message, email.message.Message):
        try:
            return message.as_bytes(unixfrom=False, policy=message.policy.clone(linesep="\r\n", max_line_length=0))
        except Exception:
            return message.as_string(unixfrom=False).encode("utf-8", "surrogateescape")
    raise TypeError(f"a message is bytes or an email.message.Message, not {type(message).__name__}")


def read(message: bytes | bytearray | memoryview | email.message.Message) -> Reading:
    """Parse *message* into its entity tree; never raises on bytes.  A message whose lines all end in a bare CR (a
    classic Mac OS mailbox's; RFC 5322 2.3 wants CRLF) is read with its CRs as line ends, as the ``email`` package
    reads them, and reported: it was one header line, its links none."""
    buffer = message_bytes(message)
    problems: list[Problem] = []
    lines = buffer
    if b"\n" not in buffer and b"\r" in buffer:
        lines = buffer.replace(b"\r", b"\n")  # one byte for one: the entities' offsets are the message's
        problems.append(Problem("", "structure", "lines end in a bare CR, not CRLF (RFC 5322 2.3): read as line ends"))
    return Reading(buffer, parse(lines, problems), problems)


def _charset(entity: Entity) -> str | None:
    value = parameter(entity.type_field, "charset")
    return value.strip() if value else None


def text_parts(reading: Reading, base_url: str | None) -> Iterator[TextPart | Entity]:
    """In MIME order: each message entity (for its header fields) and each decoded text leaf with its base."""

    def walk(entity: Entity, outer: str | None) -> Iterator[TextPart | Entity]:
        if entity.is_message:  # an encapsulated message's base is its container's (RFC 3986 5.1.2)
            yield entity
        base = entity_base(entity, outer)
        if entity.children:
            for child in entity.children:
                yield from walk(child, base)
            return
        if entity.content_type not in TEXT_TYPES:
            return
        encoding = entity.transfer_encoding
        data, problem = decode_transfer(entity.body, encoding)
        if problem is not None:
            reading.problems.append(Problem(entity.part, "transfer-encoding", problem))
        label = _charset(entity)
        if entity.content_type == "text/html":
            label = html_charset(data, label)
        decoded = decode_text(data, label)
        if decoded.problem is not None:
            reading.problems.append(Problem(entity.part, "charset", decoded.problem))
        yield TextPart(entity, data, decoded, base)

    if base_url is not None and not is_absolute(base_url):
        raise linkkit.ResolutionError(f"base_url {base_url!r} is not absolute: it has no scheme (RFC 3986 5.1)")
    yield from walk(reading.root, base_url)


def part_links(
    part: TextPart, ids: ContentIds, *, abbreviated: bool = True, emails: bool = False, anchors: bool = False,
    refang: bool = False, hidden: bool = False,
) -> list[MailLink]:
    """The links of one decoded text part, in text order; in HTML, the text of an ``<a href>`` too with *anchors*
    and what the page carries unshown with *hidden* (:func:`linkkit.html.links`, redaction's reach); defanged
    spellings of the text read back with *refang*."""
    entity, text, fallback = part.entity, part.decoded.text, part.decoded.fallback
    ctype, number = entity.content_type, entity.part
    found: list[MailLink] = []
    if ctype == "text/plain":
        unflowed = unflow(text) if delsp_flowed(entity.type_field) else None
        for ref in linkkit.finditer(text if unflowed is None else unflowed.text, abbreviated=abbreviated,
                                    emails=emails, refang=refang):
            start, end = ref.span() if unflowed is None else unflowed.span(*ref.span())
            found.append(
                MailLink(ref.uri, text[start:end], (start, end), ref.delimiter, number, ctype, "text", ref.kind, None,
                         fallback, _target(ref.uri, ids, entity.message), ref)
            )
        return found
    for link in linkkit.html.links(text, base_url=part.base, text=True, abbreviated=abbreviated, emails=emails,
                                   anchors=anchors, refang=refang, hidden=hidden):
        if link.tag == "#text":  # a reference in the visible text: where is the scanner's delimiter
            found.append(MailLink(link.uri, link.raw, link.span(), link.attr or "bare", number, ctype, "html-text",
                                  link.kind, None, fallback, _target(link.uri, ids, entity.message), link))
        else:
            found.append(MailLink(link.uri, link.raw, link.span(), link.where, number, ctype, "html-attr", link.kind,
                                  link.base, fallback, _target(link.uri, ids, entity.message), link))
    return found


def _target(uri: str, ids: ContentIds, message: str) -> str | None:
    """The part a ``cid:`` URL of a part of *message* names (RFC 2392 2: the Content-ID, percent-decoded, without
    its brackets), as :meth:`ContentIds.find` looks it up: a part of the same message first, and one written alike
    before one equal but for case, as mail readers match them (HTML editors change the case of what they copy).
    Angle brackets a writer left around the id (``cid:<logo@a.example>``, ``cid:%3Clogo@a.example%3E``) are taken
    off, as for the Content-ID."""
    if not ids or uri[:4].lower() != "cid:":
        return None
    key = urllib.parse.unquote(uri[4:])
    if key[:1] == "<" and key[-1:] == ">":
        key = key[1:-1]
    return ids.find(key, message)


def header_section(entity: Entity) -> str:
    """The IMAP section of a message entity's header (RFC 3501 6.4.5): ``HEADER``, ``2.HEADER`` for the message
    encapsulated in part 2."""
    return f"{entity.number}.HEADER" if entity.number else "HEADER"


def header_links(entity: Entity, ids: ContentIds) -> list[MailLink]:
    """The URLs of a message's List-* (RFC 2369) and Archived-At (RFC 5064) fields, in field order."""
    section = header_section(entity)
    found = []
    names = {name.lower(): name for name in LINK_HEADERS}
    try:
        fields = entity.headers.raw_items()
    except Exception:
        return []
    for name, value in fields:
        if name.lower() not in names:
            continue
        text = header_text(field_value(value))
        fields_own = without_comments(text)  # RFC 2369 2: a URL in a comment is no URL of the field
        matches = list(_ANGLE_URL.finditer(fields_own))
        if not matches and name.lower() == "archived-at" and fields_own.strip():
            # RFC 5064 2: the URI belongs in angle brackets; one written without them is still the archive's URL
            start = len(fields_own) - len(fields_own.lstrip())
            end = len(fields_own.rstrip())
            spans = [(start, end)]
        else:
            spans = [match.span(1) for match in matches]
        for start, end in spans:
            raw = text[start:end]
            uri = _WHITESPACE.sub("", raw)  # RFC 2369 2: whitespace inside the brackets is ignored
            if uri:
                found.append(MailLink(uri, raw, (start, end), name, section, "", "header", "uri", None, False,
                                      _target(uri, ids, entity.message)))
    return found


def links(
    message: bytes | email.message.Message,
    *,
    base_url: str | None = None,
    headers: bool = False,
    unique: bool = False,
    abbreviated: bool = True,
    emails: bool = False,
    on_problem: Callable[[Problem], None] | None = None,
    refang: bool = False,
) -> list[MailLink]:
    """Every link of *message* (the bytes of an RFC 5322 message, or an ``email.message.Message``), in MIME order.

    Every text/plain and text/html leaf is read, both alternatives of a multipart/alternative and the parts of
    attached messages too; ``headers`` adds the URLs of the List-* and Archived-At fields; ``unique`` keeps the
    first occurrence of each absolute URL; *base_url* is where the message was retrieved from (the last base of
    RFC 2557 5).  *abbreviated*, *emails* and *refang* are the plain-text scanner's options (*refang*: a threat
    report's ``hxxps://evil[.]example/`` read as ``https://evil.example/``).  What was wrong with the message goes
    to *on_problem*; a malformed part never stops the others.
    """
    reading = read(message)
    ids = content_ids(reading.root)
    found: list[MailLink] = []
    for item in text_parts(reading, base_url):
        if isinstance(item, Entity):
            if headers:
                found.extend(header_links(item, ids))
        else:
            found.extend(part_links(item, ids, abbreviated=abbreviated, emails=emails, refang=refang))
    if on_problem is not None:
        for problem in reading.problems:
            on_problem(problem)
    if unique:
        seen: set[str] = set()
        kept = []
        for link in found:
            if is_absolute(link.uri):
                if link.uri in seen:
                    continue
                seen.add(link.uri)
            kept.append(link)
        found = kept
    return found


def problems(message: bytes | email.message.Message) -> list[Problem]:
    """What is wrong with *message*: the defects :func:`links` reads past (structure, encodings, charsets)."""
    reading = read(message)
    for _ in text_parts(reading, None):
        pass
    return reading.problems


__all__ = ["LINK_HEADERS", "MailLink", "Reading", "Source", "TextPart", "header_links", "header_section", "links",
           "part_links", "problems", "read", "text_parts"]

