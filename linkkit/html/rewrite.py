"""Links, rewrite and absolutize over a whole document: scan, resolve against the base, replace spans in place."""

from __future__ import annotations

import bisect
import codecs
import dataclasses
import io
import operator
import re
import string
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from typing import NamedTuple, TypeVar

from ..uri.percent import percent_encode
from ..uri.resolution import Base
from .base import _base, _target
from .css import _css_escape, _encodable, css_escape_chars, css_escape_unencodable
from .decoding import OWN_CODECS, _decoded, encoded
from .encoding import _BOMS, _encoding, _is_ascii_compatible, meta_codec
from .places import ASCII_WHITESPACE, REFRESH, SRCSET, TOKENS, URL, Link, read_refresh
from .tokenizer import CDATA_TEXT, FOREIGN_TEXT, RAW_TEXT, STYLE_TEXTS, _SURROGATES, _decode, _Found, _Scan, _scan
from .visible import ESCAPED, HIDDEN, RAW, TEXT, Run, text_found

Document = TypeVar("Document", str, bytes)

# ------------------------------------------------------------------------------------------- public functions
class _Document(NamedTuple):
    view: str  # the text tokenized: the str itself, bytes one character per byte, or the decoded bytes
    codec: str | None  # the encoding of bytes input
    starts: list[int] | None = None  # for decoded bytes, the input offset of each view offset (BOM included)
    tentative: bool = False  # the codec is the prescan's or the fallback's: a <meta> the parser meets changes it

    @property
    def one_to_one(self) -> bool:
        """True when view offsets are the input's offsets (str, or bytes tokenized one character per byte)."""
        return self.starts is None

    def offset(self, position: int) -> int:
        """The input offset of a view offset."""
        return position if self.starts is None else self.starts[position]

    def offsets(self, positions: set[int]) -> dict[int, int]:
        """Input offsets of view offsets: byte offsets of the decoded text's positions."""
        starts = self.starts
        return {p: p for p in positions} if starts is None else {p: starts[p] for p in positions}


def _prepare(document: str | bytes, encoding: str | None) -> _Document:
    if isinstance(document, str):
        return _Document(document, None)
    if not isinstance(document, (bytes, bytearray, memoryview)):
        raise TypeError(f"an HTML document is bytes or str, not {type(document).__name__}")
    data = bytes(document)
    codec, tentative = _encoding(data, encoding)
    if _is_ascii_compatible(codec):
        return _Document(data.decode("latin-1"), codec, None, tentative)
    # UTF-16, ISO-2022-JP and the like: tokenize the decoded text and map its offsets back to bytes.
    bom = next((len(b) for b, c in _BOMS if data.startswith(b) and c == codec), 0)
    text, starts = _decoded(data[bom:], codec)
    return _Document(_SURROGATES.sub("\ufffd", text), codec, [bom + at for at in starts], tentative)


def _prepared_and_scanned(document: str | bytes, encoding: str | None) -> tuple[_Document, _Scan]:
    """*document* prepared and tokenized; read again in the encoding the first <meta> the tokenizer meets declares
    when it differs from a tentative one (:class:`~linkkit.html.encoding.Sniffed`; HTML 13.2.6.4.4, and "change
    the encoding", 13.2.3.4, reads the document anew in it)."""
    prepared = _prepare(document, encoding)
    scan = _scan(prepared.view, prepared.codec if prepared.one_to_one else None,
                 meta_codec if prepared.tentative else None)  # a <meta> is read only where it can change it
    if scan.declared is not None and scan.declared != prepared.codec:
        prepared = _prepare(document, scan.declared)
        scan = _scan(prepared.view, prepared.codec if prepared.one_to_one else None)
    return prepared, scan


class _Resolved(NamedTuple):
    """A scanned document with the target of each URL it holds."""

    prepared: _Document
    found: list[_Found]
    uris: list[str]
    base: str | None  # the effective base
    base_hrefs: set[int]  # the indices of the <base href> links, resolved against base_url
    base_url: str | None
    texts: Iterable[int]  # the indices of the visible text's references (``text=True``)
    documents: list[_Nested]  # the <iframe srcdoc> documents (``hidden=True``)

    def links(self) -> list[Link]:
        """The Links, spans in input offsets; built from columns by C loops, with no Python loop of its own."""
        found = self.found
        spans: Iterable[tuple[int, int]] = map(_SPAN, found)
        if not self.prepared.one_to_one:
            where = self.prepared.offsets({p for f in found for p in f.span})
            spans = [(where[start], where[end]) for start, end in spans]
        bases = [self.base] * len(found)
        for index in self.texts:  # the visible text's references are not resolved
            bases[index] = None
        for index in self.base_hrefs:
            bases[index] = self.base_url
        return _new_links(len(found), (map(_TAG, found), map(_ATTR, found), map(_RAW, found), self.uris, spans, bases,
                                       repeat(None)))


class _Nested(NamedTuple):
    """An ``<iframe srcdoc>`` value read as the document it is (HTML 4.8.5), with ``hidden=True``: that document
    resolved, where its value starts in the view of the document holding it and its quote, and where each of its
    characters lies there (None: ``start`` plus its offset)."""

    resolved: _Resolved
    start: int
    quote: str | None
    offsets: list[int] | None

    def at(self, offset: int) -> int:
        """The view offset, in the document holding it, of an offset of this document."""
        return self.start + offset if self.offsets is None else self.offsets[offset]


def _all_links(resolved: _Resolved) -> list[Link]:
    """The Links of *resolved* and of its ``<iframe srcdoc>`` documents (their spans in the input's offsets), in
    document order."""
    own = resolved.links()
    for nested in resolved.documents:
        def outer(offset: int, nested: _Nested = nested) -> int:
            return resolved.prepared.offset(nested.at(offset))

        own += [_moved(link, outer) for link in _all_links(nested.resolved)]
    return sorted(own, key=_START) if resolved.documents else own


def _moved(link: Link, where: Callable[[int], int]) -> Link:
    """*link*, found in an ``<iframe srcdoc>`` document, with its span where *where* puts its offsets."""
    return dataclasses.replace(link, _span=(where(link.start()), where(link.end())))


# Each field's slot setter, in the order of Link's fields (the last, _flags, None until .flags is read).
_LINK_SETTERS = [getattr(Link, field.name).__set__ for field in dataclasses.fields(Link)]
_consume = deque[object](maxlen=0).extend  # runs an iterator to its end in C


def _new_links(count: int, columns: Iterable[Iterable[object]]) -> list[Link]:
    """*count* Links whose fields are *columns*, in the order of Link's fields: each made by object.__new__ and its
    slots set by their descriptors, in C loops. The frozen dataclass's __init__, a Python frame with a call of
    object.__setattr__ per field, took about 1 us a link, more than two thirds of building it."""
    links = list(map(object.__new__, repeat(Link, count)))
    for setter, column in zip(_LINK_SETTERS, columns, strict=True):
        _consume(map(setter, links, column))
    return links


def _resolved(
    document: str | bytes,
    base_url: str | None,
    encoding: str | None,
    text: TextOptions | None = None,
) -> _Resolved:
    """Scan *document* and resolve each URL against the document's base; with *text*, add the references of the
    visible text (the plain-text scanner's reading, not resolved), merged in document order."""
    prepared, scan = _prepared_and_scanned(document, encoding)
    codec = prepared.codec if prepared.one_to_one else None
    found, base_hrefs, readings = scan.found, scan.base_hrefs, {}
    runs: list[Run] = []
    if text is not None:
        visible, runs = text_found(prepared.view, codec, abbreviated=text.abbreviated, emails=text.emails,
                                   anchors=text.anchors, refang=text.refang, hidden=text.hidden,
                                   documents=text.depth < MAX_SRCDOC_DEPTH, cdata=scan.cdata)
        if text.hidden:
            visible = _outside(visible, found)
        if visible:
            order = sorted(range(len(found) + len(visible)),
                           key=lambda i: found[i].span if i < len(found) else visible[i - len(found)][0].span)
            position = {old: new for new, old in enumerate(order)}
            base_hrefs = {position[i] for i in base_hrefs}
            readings = {position[len(found) + i]: uri for i, (_, uri) in enumerate(visible)}
            merged = [*found, *(f for f, _ in visible)]
            found = [merged[i] for i in order]
    base = _base(scan.base.raw if scan.base is not None else None, base_url)
    # HTML 4.8.5: an iframe srcdoc document's base is its container's (the "fallback base URL", 2.4.1)
    inner = None if text is None else text._replace(depth=text.depth + 1)
    documents = [_Nested(_resolved(value, base, None, inner), start, quote, offsets)
                 for start, end, _, quote in runs
                 for value, offsets in [_decode(prepared.view, start, end, codec, True)]]
    parsed_base = None if base is None else Base(base)
    # A document repeats its links: each value is resolved once, and the lists are built by C loops. The visible
    # text's references are not resolved: the scanner's reading is their target.
    raws = list(map(_RAW, found))
    resolved = [raw for index, raw in enumerate(raws) if index not in readings] if readings else raws
    targets = {raw: _target(raw, parsed_base) for raw in dict.fromkeys(resolved)}
    uris: list[str] = list(map(targets.get, raws, raws))  # a reading (a default here) is replaced below
    for index, reading in readings.items():
        uris[index] = reading
    if base_hrefs:  # a <base href> is resolved against the retrieval URL (its fallback base)
        parsed_base_url = None if base_url is None else Base(base_url)
        for index in base_hrefs:
            uris[index] = _target(raws[index], parsed_base_url)
    return _Resolved(prepared, found, uris, base, base_hrefs, base_url, readings.keys(), documents)


_TAG, _ATTR, _RAW, _SPAN = map(operator.attrgetter, ("tag", "attr", "raw", "span"))
_START = operator.methodcaller("start")


def _outside(visible: list[tuple[_Found, str]], found: list[_Found]) -> list[tuple[_Found, str]]:
    """The text's references that share no character with a URL of the markup (*found*, whose spans are disjoint):
    with ``hidden``, a ``style`` attribute or a ``<style>`` is read as text too, where its ``url()`` is a link."""
    if not visible or not found:
        return visible
    spans = sorted(map(_SPAN, found))
    kept = []
    for item in visible:
        start, end = item[0].span
        before = bisect.bisect_left(spans, (end,)) - 1  # the last URL starting before the reference ends
        if before < 0 or spans[before][1] <= start:
            kept.append(item)
    return kept


class TextOptions(NamedTuple):
    """The plain-text scanner's options for the visible text (``text=True``)."""

    abbreviated: bool = True
    emails: bool = False
    anchors: bool = False  # the text of an <a href> too
    refang: bool = False  # defanged spellings read back (linkkit.finditer's refang)
    hidden: bool = False  # the text no reader is shown too, and <iframe srcdoc> documents (linkkit.html.visible)
    depth: int = 0  # how many srcdoc documents hold the one read


# srcdoc documents read inside one another, at most: each level costs a call frame and a copy of what it holds, so a
# deeper one (which only a hostile page writes) is read as the text of an attribute value, not as a document.
MAX_SRCDOC_DEPTH = 16


def links(
    document: str | bytes,
    *,
    base_url: str | None = None,
    encoding: str | None = None,
    text: bool = False,
    abbreviated: bool = True,
    emails: bool = False,
    anchors: bool = False,
    refang: bool = False,
    hidden: bool = False,
) -> list[Link]:
    """Every URL of an HTML *document* in document order, resolved against its base (RFC 3986 5.1.1, 5.2).

    *base_url* is the retrieval URL (5.1.3); *encoding* overrides a <meta> declaration (a BOM still wins).
    With *text*, the references written in the visible text are found too, by the plain-text scanner's policy
    (*abbreviated* and *emails* are its options): a Link with tag ``#text``, attr the scanner's delimiter (so
    ``where`` is ``"#text bare"``), ``raw`` the text with its character references decoded, ``uri`` the scanner's
    reading (never resolved: ``base`` is None), and a span over the written form. The text of an ``<a href>`` is
    passed over (its ``href`` is the link), unless *anchors*. With *refang*, the visible text's defanged
    spellings are read back (``hxxps://evil[.]example/``; :func:`linkkit.finditer`). With *hidden* too (for a
    rewriting that must reach every secret, never for extraction), the references of the text no reader is shown
    (attribute values that hold no URL, comments, ``<script>``, ``<style>``, ``<title>``...) and the links of an
    ``<iframe srcdoc>`` document (HTML 4.8.5), resolved against this document's base, are found too.
    """
    options = _text_options(text, abbreviated, emails, anchors, refang, hidden)
    return _all_links(_resolved(document, base_url, encoding, options))


def _text_options(text: bool, abbreviated: bool, emails: bool, anchors: bool,
                  refang: bool = False, hidden: bool = False) -> TextOptions | None:
    return TextOptions(abbreviated, emails, anchors, refang, hidden) if text else None


def _held(value: str, kind: str) -> str:
    """*value* with what its place cannot hold percent-encoded (RFC 3986 2.1), so that it reads back as written:
    NUL (HTML reads U+FFFD) and surrounding ASCII whitespace (stripped) anywhere; any ASCII whitespace in lists
    (ping, itemtype) and srcset, which it would split; leading and trailing commas in srcset (the candidate
    splitting drops them); quotes in a refresh URL (they end a quoted one and open an unquoted one). An empty
    value fits only where a whole attribute is one URL: elsewhere it is a ValueError."""
    if not value and kind != URL:
        raise ValueError(f"an empty URL cannot be written in a {kind} value: it would vanish or change its neighbours")
    inner = _HELD_INNER.get(kind) or _held_inner(kind)
    edges = SRCSET_EDGES if kind == SRCSET else ASCII_WHITESPACE
    if inner.isdisjoint(value) and value[:1] not in edges and value[-1:] not in edges:
        return value  # the common case: nothing to encode (an empty value is never taken here: "" is in any str)
    core = value.strip(edges)
    head = value[: len(value) - len(value.lstrip(edges))]
    tail = value[len(head) + len(core) :]
    if not inner.isdisjoint(core):
        core = "".join(percent_encode(c) if c in inner else c for c in core)
    return percent_encode(head) + core + percent_encode(tail)


def _held_inner(kind: str) -> frozenset[str]:
    """What a value of this kind of place cannot hold inside it (see :func:`_held`)."""
    return frozenset("\0" + (ASCII_WHITESPACE if kind in (TOKENS, SRCSET) else "") + ("'\"" if kind == REFRESH else ""))


_HELD_INNER = {kind: _held_inner(kind) for kind in (URL, TOKENS, SRCSET, REFRESH)}
SRCSET_EDGES = ASCII_WHITESPACE + ","


def _held_after(before: str, value: str) -> str:
    """*value* (already :func:`_held`) as a refresh URL written after *before*, the content's text up to it, with
    its first character percent-encoded (RFC 3986 2.1) when the "shared declarative refresh steps" (HTML 4.2.5.3)
    would read it as part of what precedes a URL: a "URL=" where none was written ("0; url=x" reads "x"), or a ";"
    or "," where only whitespace followed the time ("0 ;x" reads "x"). That first character is ASCII ("u", ";",
    ","), and "%75" is "u" (2.3: an unreserved character and its triplet are equivalent)."""
    read = next(read_refresh(before + value), None)
    if read is not None and read[0] == len(before) and read[2] == value:
        return value
    return f"%{ord(value[0]):02X}{value[1:]}"


QUOTES_AND_STYLE_TEXTS = "\"'" + STYLE_TEXTS  # the places written as they are, not unquoted values
_ENDS_UNQUOTED = ASCII_WHITESPACE + ">"  # what ends an unquoted attribute value (13.2.5.38)


def _needs_quotes(value: str) -> bool:
    """Whether an unquoted attribute value must be quoted to be read back (13.2.5.38)."""
    return not value or value[0] in "\"'" or any(c in value for c in _ENDS_UNQUOTED)


def _written(value: str, css: str | None, quote: str | None) -> tuple[str, str]:
    """*value* escaped for its place (only what the place needs) and how to write what its encoding lacks."""
    if css is not None:
        value = _css_escape(value, css)
    if quote == RAW_TEXT:
        if "</" in value:  # "</style" would end the element: "<" as a CSS escape
            value = css_escape_chars(value, "<")
        return value, CSS_ESCAPES
    if quote == FOREIGN_TEXT:  # text: "<" would start a tag and "&" a character reference
        return value.replace("&", "&amp;").replace("<", "&lt;"), CSS_ESCAPES
    if quote == CDATA_TEXT:
        if "]]>" in value:  # it would end the CDATA section: ">" as a CSS escape
            value = css_escape_chars(value, ">")
        return value, CSS_ESCAPES
    value = value.replace("&", "&amp;").replace("\r", "&#13;")  # a literal CR would be read as LF (13.2.3.5)
    if quote == '"':
        value = value.replace('"', "&quot;")
    elif quote == "'":
        value = value.replace("'", "&#39;")
    return value, "xmlcharrefreplace"


def _written_text(value: str, quote: str | None) -> tuple[str, str]:
    """*value* written in the visible text, and how to write what the encoding lacks: in text (and RCDATA) "&" and
    "<" would start a reference or markup (">" is escaped for symmetry); raw text (<xmp>, after <plaintext>) and a
    CDATA section show every character as written, so a reference or an escape there would be read as written: what
    the encoding lacks is percent-encoded (RFC 3987 3.1), and so is the "<" of a "</" that could end the element, the
    ">" of a "]]>" that would end the section (RFC 3986 2.1)."""
    if quote == ESCAPED:
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"), "xmlcharrefreplace"
    if quote == HIDDEN:  # a comment, script or style: "<" and ">" (which no URI holds, RFC 3986 2) might end it
        return value.replace("<", "%3C").replace(">", "%3E"), PERCENT_ESCAPES
    if quote == RAW:
        return value.replace("</", "%3C/"), PERCENT_ESCAPES
    return value.replace("]]>", "]]%3E"), PERCENT_ESCAPES


def rewrite(
    document: Document,
    repl: Callable[[Link], str],
    *,
    base_url: str | None = None,
    encoding: str | None = None,
    text: bool = False,
    abbreviated: bool = True,
    emails: bool = False,
    anchors: bool = False,
    refang: bool = False,
    hidden: bool = False,
) -> Document:
    """*document* with each URL replaced by ``repl(link)``; every other byte is copied as it is.

    A link whose new value equals its ``raw`` is not touched. A new value is written literally in the
    document's encoding, escaped only as its place needs (``&`` and the quote in attributes; CSS escapes in
    CSS; a numeric character reference for a character the encoding lacks; an unquoted value gets quotes only
    when it must). The result has the type of *document*. With *text*, the references of the visible text are
    links too (see :func:`links`); a new value there is written as text (``&``, ``<``, ``>`` escaped). With
    *anchors* too, the text of an ``<a href>`` is read as well: a rewriting that must reach every URL written
    (redaction, defanging) changes ``<a href="http://u:pw@h/">http://u:pw@h/</a>`` in both places. With *refang*
    too, the visible text's defanged spellings are links (see :func:`links`): redaction must reach the password of
    a report's ``hxxp[:]//u:pw@evil[.]example/`` as :func:`linkkit.security.redact_text` does. With *hidden* too,
    the text no reader is shown and the ``<iframe srcdoc>`` documents are rewritten as well (see :func:`links`):
    a shared archive carries them. A new value there is written for its place in that document, and the markup
    that makes escaped for the srcdoc attribute; in a comment, ``<script>`` or ``<style>``, ``<`` and ``>`` are
    percent-encoded.
    """
    options = _text_options(text, abbreviated, emails, anchors, refang, hidden)
    resolved = _resolved(document, base_url, encoding, options)
    codec, edits = _edits(resolved, [repl(link) for link in resolved.links()], _nested_edits(resolved, repl))
    del resolved  # the decoded text and the URLs found are not needed to write: not held while the output grows
    return _apply(document, codec, edits)


def absolutize(document: Document, base_url: str | None = None, *, encoding: str | None = None) -> Document:
    """*document* with every relative reference replaced by its absolute form (:func:`rewrite` with
    ``lambda link: link.uri``)."""
    return absolutize_counted(document, base_url, encoding=encoding)[0]


def absolutize_counted(
    document: Document, base_url: str | None = None, *, encoding: str | None = None
) -> tuple[Document, int]:
    """:func:`absolutize`'s document and how many links it held, the count a batch's summary reports (building
    each :class:`Link` for :func:`rewrite` to count would cost absolutizing about a tenth more)."""
    resolved = _resolved(document, base_url, encoding)
    codec, edits = _edits(resolved, resolved.uris)
    count = len(resolved.uris)
    del resolved  # the decoded text and the URLs found are not needed to write: not held while the output grows
    return _apply(document, codec, edits), count


Edit = tuple[int, int, str, str]  # start, end, the new text, the codec error handler that writes it


def _nested_edits(resolved: _Resolved, repl: Callable[[Link], str],
                  where: Callable[[int], int] = int) -> list[Edit]:
    """The edits, in view offsets of *resolved*, that rewrite its ``<iframe srcdoc>`` documents by *repl*: each
    document's own edits, their text escaped as the attribute's value (*where* puts *resolved*'s input offsets in
    the outermost document's, so that *repl* sees the spans :func:`links` reports)."""
    edits: list[Edit] = []
    for nested in resolved.documents:
        def outer(offset: int, nested: _Nested = nested) -> int:
            return where(resolved.prepared.offset(nested.at(offset)))

        inner = nested.resolved
        news = [repl(_moved(link, outer)) for link in inner.links()]
        edits += [(nested.at(start), nested.at(end), _in_value(text, nested.quote), "xmlcharrefreplace")
                  for start, end, text, _ in _edits(inner, news, _nested_edits(inner, repl, outer))[1]]
    return edits


_ENDS_UNQUOTED_VALUE = re.compile("[\t\n\f >\"'<=`]")  # 13.2.5.38: what ends an unquoted value or is an error in it


def _in_value(markup: str, quote: str | None) -> str:
    """*markup* written in an attribute value delimited by *quote* so that it reads back as itself: "&", CR and the
    quote as character references, and in an unquoted value whatever would end it too."""
    written = _written(markup, None, quote)[0]
    return _ENDS_UNQUOTED_VALUE.sub(lambda c: f"&#{ord(c.group())};", written) if quote == "" else written


def _edits(resolved: _Resolved, news: list[str], nested: Sequence[Edit] = ()) -> tuple[str | None, list[Edit]]:
    """The document's codec (None for str) and the edits, in input offsets and in order, that replace the URLs
    *resolved* found by *news*, each escaped for its place, and the *nested* edits (in view offsets: those of its
    ``<iframe srcdoc>`` documents)."""
    edits: list[Edit] = []  # view offsets until the end
    prepared = resolved.prepared
    view = prepared.view
    # Changes in unquoted values, grouped by value: one that must be quoted is quoted as a whole.
    unquoted: dict[tuple[int, int], list[tuple[_Found, str]]] = {}
    for f, new in zip(resolved.found, news, strict=True):
        if new == f.raw:
            continue
        quote = f.quote
        # The common case, inlined: a URL in a double-quoted attribute, nothing in it to escape or encode.
        if (
            quote == '"' and f.kind == URL and new.isprintable() and "&" not in new and '"' not in new
            and new[:1] != " " and new[-1:] != " " and f.span[0] == f.start
        ):
            edits.append((f.span[0], f.span[1], new, "xmlcharrefreplace"))
            continue
        new = _held(new, f.kind)
        if f.kind == REFRESH:  # what precedes the URL in the content, its references decoded
            new = _held_after(_decode(view, f.start, f.span[0], None, True)[0], new)
        if f.kind == TEXT:
            text, errors = _written_text(new, f.quote)
            if f.quote == ESCAPED:
                text = _after_reference(view, f.start, f.span[0], text)
            edits.append((f.span[0], f.span[1], text, errors))
        elif quote and quote in QUOTES_AND_STYLE_TEXTS:
            text, errors = _written(new, f.css, quote)
            if quote in _REFERENCES_READ:
                text = _after_reference(view, f.start, f.span[0], text)
            edits.append((f.span[0], f.span[1], text, errors))
        else:
            unquoted.setdefault((f.start, f.end), []).append((f, new))
    edits += nested
    if not edits and not unquoted:
        return prepared.codec, edits
    for (start, end), items in unquoted.items():
        first, first_new = items[0]
        if first.quote is None:  # an attribute without a value gets one
            added = "'" if '"' in first_new and "'" not in first_new else '"'
            text, errors = _written(first_new, first.css, added)
            edits.append((start, end, f"={added}{text}{added}", errors))
            continue
        added = ""
        value = view[start:end]
        for item, item_new in sorted(items, key=lambda pair: pair[0].span, reverse=True):
            value = value[: item.span[0] - start] + _written(item_new, item.css, "")[0] + value[item.span[1] - start :]
        if _needs_quotes(value):
            added = "'" if '"' in value and "'" not in value else '"'
            edits.append((start, start, added, "strict"))
            if '"' in view[start:end] and added == '"':  # a literal '"' of the old value, outside the URLs
                edits.extend(
                    (i, i + 1, "&quot;", "strict")
                    for i in range(start, end)
                    if view[i] == '"' and not any(a <= i < b for a, b in (item.span for item, _ in items))
                )
        for item, item_new in items:
            text, errors = _written(item_new, item.css, added)
            edits.append((item.span[0], item.span[1], _after_reference(view, start, item.span[0], text), errors))
        if added:  # after the URL edits: an empty value's URL and both quotes share one position
            edits.append((end, end, added, "strict"))
    if unquoted or nested:  # the loop's edits are in document order, as the URLs found are; these are after them
        edits.sort(key=_edit_order)
    if not prepared.one_to_one:
        where = prepared.offsets({p for start, end, _, _ in edits for p in (start, end)})
        edits = [(where[start], where[end], text, errors) for start, end, text, errors in edits]
    return prepared.codec, edits


# Where character references are read: attribute values and the text of an SVG <style> (13.2.6.5).
_REFERENCES_READ = frozenset("\"'" + FOREIGN_TEXT)
# An "&" and a run of "#", letters and digits right before a URL may be a character reference left open (no ";"): a
# new value starting with an ASCII letter, digit, ";" or "=" would change how it reads (13.2.5.72-80: "&quot" + "h"
# is no reference in an attribute, "&#34" + "1" is another number, "&not" + "in;" is "&notin;").
_OPEN_REFERENCE = re.compile(r"&[#0-9A-Za-z]*")
_EXTENDS_REFERENCE = frozenset(string.ascii_letters + string.digits + ";=")


def _after_reference(view: str, start: int, position: int, text: str) -> str:
    """*text*, written at *position* of a value or text that starts at *start* and whose references are read, with
    its first character as a numeric reference when it would extend a reference left open right before it
    (``style=url(&quot/>`` made absolute is ``url(&quot&#104;ttp://...``, not ``url(&quothttp://...``)."""
    if text[:1] not in _EXTENDS_REFERENCE:
        return text
    ampersand = view.rfind("&", start, position)
    if ampersand < 0 or _OPEN_REFERENCE.fullmatch(view, ampersand, position) is None:
        return text
    return f"&#{ord(text[0])};{text[1:]}"


def _edit_order(edit: Edit) -> tuple[int, int]:
    return edit[0], edit[1]


def _apply(document: Document, codec: str | None, edits: list[Edit]) -> Document:
    """*document* with each (start, end) replaced by its text, encoded in *codec* (None: *document* is a str)."""
    if not edits:
        return document
    if isinstance(document, str):
        pieces = []
        position = 0
        for start, end, text, _ in edits:
            pieces.append(document[position:start])
            pieces.append(text)
            position = end
        pieces.append(document[position:])
        return "".join(pieces)
    assert codec is not None  # bytes always have one
    # Bytes are written into one growing buffer from views of the input, not copies: the output is the only new
    # document-sized buffer, and BytesIO hands it over without a copy.
    source = memoryview(document)
    output = io.BytesIO()
    write = output.write
    position = 0
    for start, end, text, errors in edits:
        write(source[position:start])
        write(_encoded(text, codec, errors))
        position = end
    write(source[position:])
    return output.getvalue()


# The "error handler" of a value in CSS: a character the encoding lacks is written as a CSS escape. Done by
# css_escape_unencodable before encoding, so that no codec error handler is registered (no process-wide state).
CSS_ESCAPES = "css-escapes"
# The same for a URL in raw text or a CDATA section: a character the encoding lacks is percent-encoded (its UTF-8
# octets, RFC 3987 3.1), since no reference or escape is read there.
PERCENT_ESCAPES = "percent-escapes"


def _percent_unencodable(text: str, codec: str) -> str:
    """*text* with each character *codec* cannot write percent-encoded (RFC 3987 3.1: its UTF-8 octets)."""
    if text.isascii():
        return text
    return "".join(c if c.isascii() or _encodable(c, codec) else percent_encode(c) for c in text)


def _encoded(text: str, codec: str, errors: str) -> bytes:
    """*text* in *codec*, a character it lacks written as the *errors* handler escapes it; character by character
    when the codec refuses the handler (idna and punycode allow only "strict"). Never raises: a character
    neither it nor its escape can be written in is written as its escape in ASCII."""
    if errors == CSS_ESCAPES:
        text, errors = css_escape_unencodable(text, codec), "strict"
    elif errors == PERCENT_ESCAPES:
        text, errors = _percent_unencodable(text, codec), "strict"
    try:  # Python's codec without a call for most documents (UTF-8)
        return text.encode(codec, errors) if codec not in OWN_CODECS else encoded(text, codec, errors)
    except (ValueError, LookupError):
        pass
    pieces = []
    for character in text:
        try:
            replacement = codecs.lookup_error(errors)(UnicodeEncodeError(codec, character, 0, 1, "not encodable"))[0]
        except UnicodeEncodeError:  # "strict": a quote, always ASCII
            replacement = character
        escaped = replacement if isinstance(replacement, str) else replacement.decode("latin-1")
        for form in (character, escaped):
            try:
                pieces.append(encoded(form, codec))
                break
            except (ValueError, LookupError):
                continue
        else:
            pieces.append(escaped.encode("ascii", "xmlcharrefreplace"))
    return b"".join(pieces)


