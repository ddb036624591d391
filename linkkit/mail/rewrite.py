"""Rewriting the links of a message, keeping the message intact.

Only a part that holds a changed link changes: its text is rewritten, encoded again in its own charset and with
its own Content-Transfer-Encoding (quoted-printable lines of at most 76 characters, base64 with the part's line
length, RFC 2045 6.7, 6.8), and spliced in place of the old body.  Headers (but for the message's own fields that
hold URLs or free text, when asked), boundaries, preamble and epilogue (RFC 2046 5.1.1), attachments and every
other part are copied byte for byte, so an identity ``repl`` returns the input unchanged, whatever it holds.
"""

from __future__ import annotations

import email.message
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import linkkit

if TYPE_CHECKING:  # loaded on first use (linkkit's face): importing linkkit.mail does not load the finders
    from linkkit import ScanOptions

from ..uri.percent import percent_encode
from .links import LINK_HEADERS, MailLink, TextPart, header_section, part_links, read, text_parts
from .errors import Problem
from .message import ContentIds, Entity, content_ids
from .parts import can_encode, encode_text, encode_transfer

Repl = Callable[[MailLink], str]
Edit = tuple[int, int, bytes]  # (start, end, new bytes) in one buffer


def _fitted(value: str, part: TextPart) -> str:
    """*value* with each character the part cannot carry percent-encoded as UTF-8 (RFC 3987 3.1, RFC 3986 2.5).
    A part said to be 7bit (or saying nothing, RFC 2045 6.1) whose bytes are already not all ASCII is 8bit in fact:
    its charset writes the new text as it wrote the old (an absolutized ``href="café.html"`` keeps its é)."""
    encoding = part.entity.transfer_encoding
    if encoding == "7bit" and not part.data.isascii():
        encoding = "8bit"
    if can_encode(value, part.decoded, encoding):
        return value
    return "".join(c if can_encode(c, part.decoded, encoding) else percent_encode(c) for c in value)


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    pieces, position = [], 0
    for start, end, new in edits:
        pieces.append(text[position:start])
        pieces.append(new)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _rewritten_text(part: TextPart, found: list[MailLink], new: dict[int, str], options: ScanOptions,
                    anchors: bool, refang: bool, hidden: bool) -> str:
    """The part's text with the links of *found* whose index is in *new* replaced."""
    text = part.decoded.text
    if part.entity.content_type == "text/plain":
        return _splice(text, [(found[i].start(), found[i].end(), value) for i, value in sorted(new.items())])
    # HTML: linkkit.html writes each new value as its place needs (attribute, CSS, visible text); its links are
    # those of part_links, told apart by their span.
    by_span = {found[i].span(): value for i, value in new.items()}
    return linkkit.html.rewrite(text, lambda link: by_span.get(link.span(), link.raw), base_url=part.base, text=True,
                                abbreviated=options.abbreviated, emails=options.emails, anchors=anchors,
                                refang=refang, hidden=hidden)


def _unchanged(value: str, link: MailLink) -> bool:
    """Whether *value* leaves *link* as it is: its text as written, or as its finder read it (a reference of a
    ``format=flowed; delsp=yes`` part without its soft line breaks, RFC 3676 4.2, which stay)."""
    return value == link.raw or (link.inner is not None and value == link.inner.raw)


def _part_edit(part: TextPart, ids: ContentIds, repl: Repl | str, options: ScanOptions,
               anchors: bool, refang: bool, hidden: bool) -> Edit | None:
    found = part_links(part, ids, abbreviated=options.abbreviated, emails=options.emails, anchors=anchors,
                       refang=refang, hidden=hidden)
    new: dict[int, str] = {}
    for index, link in enumerate(found):
        value = repl if isinstance(repl, str) else repl(link)
        if not isinstance(value, str):
            raise TypeError(f"repl must return a str, not {type(value).__name__} (for {link!r})")
        if not _unchanged(value, link):
            new[index] = _fitted(value, part)
    if not new:
        return None
    text = _rewritten_text(part, found, new, options, anchors, refang, hidden)
    if text == part.decoded.text:
        return None
    data = encode_text(text, part.decoded)
    if data == part.data:
        return None
    entity = part.entity
    return entity.body_start, entity.body_end, _encoded(data, entity)


def _encoded(data: bytes, entity: Entity) -> bytes:
    """*data*, a new body of *entity*, in the entity's Content-Transfer-Encoding and with its line endings."""
    return encode_transfer(data, entity.transfer_encoding, entity.body, entity.newline)


def _apply(buffer: bytes, edits: list[Edit]) -> bytes:
    pieces, position = [], 0
    for start, end, new in sorted(edits):
        pieces.append(buffer[position:start])
        pieces.append(new)
        position = end
    pieces.append(buffer[position:])
    return b"".join(pieces)


def _collect(entity: Entity, own_edits: dict[int, list[Edit]]) -> list[Edit]:
    """The edits of *entity*'s buffer: its own (a message's header fields, a leaf's body), its children's, and for
    a transfer-encoded message/rfc822 part, its body encoded again from the rewritten message inside (RFC 2046
    5.2.1 forbids the encoding; it is kept)."""
    edits = list(own_edits.get(id(entity), ()))
    for child in entity.children:
        inner = _collect(child, own_edits)
        if not inner:
            continue
        if child.buffer is entity.buffer:
            edits.extend(inner)
        else:
            data = _apply(child.buffer, inner)
            edits.append((entity.body_start, entity.body_end, _encoded(data, entity)))
    return edits


def rewrite(
    message: bytes | email.message.Message,
    repl: Repl | str,
    *,
    base_url: str | None = None,
    abbreviated: bool = True,
    emails: bool = False,
    anchors: bool = False,
    headers: bool = False,
    on_problem: Callable[[Problem], None] | None = None,
    refang: bool = False,
    hidden: bool = False,
) -> bytes:
    """*message* with each link of its text parts replaced by ``repl(link)`` (or the string *repl*), a link being
    a :class:`MailLink` as :func:`linkkit.mail.links` gives it.  Returning ``link.raw`` leaves a link alone.
    Header fields are rewritten only with *headers*: then the references of the List-*, Archived-At, Subject and
    Comments fields (``REWRITTEN_FIELDS``) of the message and of the messages attached to it, as redaction and
    defanging need.  An ``email.message.Message`` is serialized first.  With *anchors*, the text of an HTML part's
    ``<a href>`` is read as well (:func:`linkkit.html.rewrite`).  With *refang*, the defanged spellings of the text
    (of text parts, of an HTML part's visible text, of header fields) are links too, as :func:`linkkit.mail.links`
    reads them, each replaced where it is written (redaction masks the password of
    ``hxxp[:]//bot:pw@evil[.]example/``).  With *hidden*, what an HTML part carries unshown is read too (``alt``,
    ``<title>``, comments, scripts, an ``<iframe srcdoc>``: :func:`linkkit.html.rewrite`'s *hidden*, redaction's
    reach).  What was wrong with the message goes to *on_problem*, as :func:`linkkit.mail.links` gives it: a
    malformed part is left as it was, the others are rewritten.
    """
    reading = read(message)
    ids = content_ids(reading.root)
    options = linkkit.ScanOptions(abbreviated=abbreviated, emails=emails)
    own_edits: dict[int, list[Edit]] = {}  # in message order: a message's header before its parts
    for item in text_parts(reading, base_url):
        if isinstance(item, Entity):
            if headers:
                edits = _header_edits(item, repl, options, refang)
                if edits:
                    own_edits[id(item)] = edits
            continue
        edit = _part_edit(item, ids, repl, options, anchors, refang, hidden)
        if edit is not None:
            own_edits.setdefault(id(item.entity), []).append(edit)
    if on_problem is not None:
        for problem in reading.problems:
            on_problem(problem)
    if not own_edits:
        return reading.buffer
    new = _apply(reading.root.buffer, _collect(reading.root, own_edits))
    # a message read with its bare CRs as LFs (it held no LF) is written back with them
    return new if reading.root.buffer is reading.buffer else new.replace(b"\n", b"\r")


# The fields of a message's header whose references rewrite(headers=True) replaces: those that hold URLs (RFC 2369,
# RFC 5064) and its free text (Subject, Comments: RFC 5322 3.6.5), where a secret or a live link would stay.
REWRITTEN_FIELDS = frozenset(name.lower() for name in (*LINK_HEADERS, "Subject", "Comments"))
# A header field (RFC 5322 2.2): its name, and its value with the lines that fold it (2.2.3), up to its line end.
_FIELD = re.compile(rb"^([!-9;-~]+)[ \t]*:([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)", re.MULTILINE)
_ENCODED_WORD = re.compile(r"=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=")  # RFC 2047 2


def _header_edits(message: Entity, repl: Repl | str, options: ScanOptions, refang: bool) -> list[Edit]:
    """The edits of a message entity's header (the top message's or an attached one's): each reference the scanner
    finds in a field of REWRITTEN_FIELDS, folding included (a ``<...>`` URL may be folded, RFC 2369 2), replaced by
    ``repl(link)``, the link's ``source`` ``header``, its ``part`` the header's section (``HEADER``, ``2.HEADER``)
    and its ``inner`` the :class:`linkkit.Reference`; every other byte kept.  An RFC 2047 encoded-word is left as
    it is: a reference in one is not given to *repl*."""
    block = message.buffer[message.header_start : message.body_start]
    section = header_section(message)
    edits: list[Edit] = []
    for field in _FIELD.finditer(block):
        name = field.group(1).decode("ascii")
        if name.lower() not in REWRITTEN_FIELDS:
            continue
        value = field.group(2).decode("utf-8", "surrogateescape")  # RFC 6532 3.2: raw UTF-8 is allowed
        encoded = [word.span() for word in _ENCODED_WORD.finditer(value)]
        word = 0
        new: list[tuple[int, int, str]] = []
        for ref in linkkit.finditer(value, abbreviated=options.abbreviated, emails=options.emails, refang=refang):
            while word < len(encoded) and encoded[word][1] <= ref.start():
                word += 1  # both in order: linear
            if word < len(encoded) and encoded[word][0] < ref.end():
                continue  # in an encoded-word, whose syntax a new value could break
            link = MailLink(ref.uri, ref.group(), ref.span(), name, section, "", "header", ref.kind, inner=ref)
            text = repl if isinstance(repl, str) else repl(link)
            if not isinstance(text, str):
                raise TypeError(f"repl must return a str, not {type(text).__name__} (for {link!r})")
            if text != link.raw:
                new.append((*ref.span(), text))
        if new:
            start, end = field.span(2)
            data = _splice(value, new).encode("utf-8", "surrogateescape")
            edits.append((message.header_start + start, message.header_start + end, data))
    return edits


def absolutize(message: bytes | email.message.Message, base_url: str | None = None, *,
               on_problem: Callable[[Problem], None] | None = None) -> bytes:
    """*message* with every link of its text parts replaced by its target (``link.uri``), resolved against the
    part's base (RFC 2557 5); links that stay relative (no base) are left as written.  *on_problem* as for
    :func:`rewrite`."""
    return rewrite(message, absolute, base_url=base_url, on_problem=on_problem)


def absolute(link: MailLink) -> str:
    """What :func:`absolutize` writes for *link*: an HTML attribute's target; any other link as written (a
    plain-text reference is absolute already, and a ``www.`` host is left as written)."""
    return link.uri if link.source == "html-attr" else link.raw


__all__ = ["REWRITTEN_FIELDS", "absolute", "absolutize", "rewrite"]
