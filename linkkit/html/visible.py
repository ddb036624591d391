"""URLs written in the visible text of a document ("copy this address into your browser: https://..."), found
with the plain-text scanner's policy (``links(..., text=True)``).

The visible text is the text the tokenizer yields outside markup, with character references decoded (13.2.5.72),
except in comments, ``<script>``, ``<style>``, ``<title>``, ``<template>`` (inert), ``<iframe>``, ``<noembed>`` and
``<noframes>`` (fallback content), and except the text of an ``<a href>``: an anchor's text is not scanned, its
``href`` is the link (unless *anchors* is asked for: a rewriting that must reach every URL written, redaction and
defanging, reads it too).  ``<textarea>`` (RCDATA), ``<xmp>`` and what follows ``<plaintext>`` (raw text) are shown,
so they are scanned.  A tag ends a reference: each run of text between two tags is read on its own.  Spans point
into the document and cover a reference's written form (``&amp;`` and all).

With *hidden*, a rewriting that must reach every secret a shared document carries (redaction, defanging) reads the
text no reader is shown as the page's text too: every attribute value that holds no URL (``alt``, ``title``,
``placeholder``, ``<input value>``, ``content``, event handlers), comments and bogus comments, and the text of
``<script>``, ``<style>``, ``<title>``, ``<template>``, ``<iframe>``, ``<noembed>`` and ``<noframes>``; the value of an
``<iframe srcdoc>``, a document of its own (HTML 4.8.5), is handed back to be read as one.  Extraction never asks it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import NamedTuple

from .decoding import decoded_text
from .tokenizer import (
    _MARKUP,
    _SURROGATES,
    _RAW_TEXT_END,
    CDATA_TEXT,
    FOREIGN_TEXT,
    RAW_TEXT,
    _caseless,
    _decode,
    _Found,
    _read_attribute,
    _script_end,
    _unread_attributes,
    _value,
    tag_name,
)

TEXT = "text"  # the kind of a URL found in the visible text
# How a run of visible text is written, the quote of the URLs found in it (see _Found): text and RCDATA, where "&"
# starts a character reference and "<" markup; raw text (<xmp>, after <plaintext>), where only an end tag ends it;
# a CDATA section (SVG, MathML), where only "]]>" ends it.
ESCAPED, RAW, CDATA = FOREIGN_TEXT, RAW_TEXT, CDATA_TEXT
# With hidden=True: text in which no character reference is read and which a "<" or ">" may end (a comment's "-->",
# a script's "</script" or "<!--", a style's "</style"); an attribute value, its references read as in an attribute
# (a run's quote is the value's); the value of an <iframe srcdoc>, a document of its own.
HIDDEN, VALUE, DOCUMENT = "hidden", "value", "document"
VALUE_TEXT = "value text"  # the kind of a URL found in an attribute value as text (with hidden=True)

# Elements whose content is not shown: not scanned.  script is followed through its escape states (13.2.5.4-31).
_HIDDEN = frozenset({"style", "title", "iframe", "noembed", "noframes"})
_SHOWN_RAW = frozenset({"textarea", "xmp"})  # shown raw text / RCDATA; only textarea's references are decoded
_TEMPLATE_END = re.compile(r"</template(?=[\t\n\f\r />])", re.IGNORECASE)
# Runs are joined with a character that ends every reference and is no line break: a tag ends a reference.
_SEPARATOR = "\x00"
# Any attribute, its name and value located as the tokenizer reads them (13.2.5.32-40).
_ANY_ATTRIBUTE = re.compile(_read_attribute(r"[^\t\n\f\r />][^\t\n\f\r />=]*+"))
# The href of a tag, if it has one: the text of an <a href> is not scanned (its href is the link).
_HREF = re.compile(_unread_attributes(_caseless(["href"])) + _read_attribute(_caseless(["href"])))


# A run of text of a document: ``view[start:end]``, how it is written (ESCAPED, RAW, CDATA, HIDDEN, VALUE or
# DOCUMENT) and, for an attribute value, its quote ('"', "'", "" unquoted), else None. A plain tuple: a page has a run
# between every two tags, and a NamedTuple's Python __new__ cost text=True a fifth of its time.
Run = tuple[int, int, str, str | None]


def _attribute_runs(view: str, tag: str, start: int, end: int) -> Iterator[Run]:
    """The values of every attribute of a start tag whose attributes run from *start* to its ">" at *end*, duplicates
    too (the document carries them): the ``srcdoc`` of an ``<iframe>`` as a DOCUMENT (HTML 4.8.5), others as VALUE."""
    match = _ANY_ATTRIBUTE.match(view, start, end)
    while match is not None and match.end() > start:
        value_start, value_end, quote = _value(match)
        if quote is not None and value_end > value_start:
            srcdoc = tag == "iframe" and match.group("name").lower() == "srcdoc"
            yield value_start, value_end, DOCUMENT if srcdoc else VALUE, quote
        start = match.end()
        match = _ANY_ATTRIBUTE.match(view, start, end)


def _comment_data(markup: str) -> tuple[int, int]:
    """Where the data of a comment or bogus comment (13.2.5.41-52) lies in its *markup*, relative to its "<": after
    "<!--" and before "-->" or "--!>" (none at the end of the file), or after "<!", "<?" or "</" and before ">"."""
    if markup.startswith("<!--"):
        if markup in ("<!-->", "<!--->"):  # 13.2.5.44-45: complete, empty comments
            return 4, 4
        for close in ("--!>", "-->"):
            if markup.endswith(close) and len(markup) >= 4 + len(close):
                return 4, len(markup) - len(close)
        return 4, len(markup)
    return 2 - markup.startswith("<?"), len(markup) - markup.endswith(">")


def visible_runs(
    view: str, *, anchors: bool = False, hidden: bool = False, cdata: Mapping[int, int] = MappingProxyType({})
) -> Iterator[Run]:
    """Each run of visible text of *view* (written ESCAPED, RAW or CDATA), in document order; the text of an ``<a
    href>`` only with *anchors*; with *hidden*, the text no reader is shown too (see the module's docstring), each
    attribute value before the text that follows its tag. *cdata* maps the "<" of each CDATA section the tokenizer
    found (in SVG and MathML) to where its text ends: that text is text (13.2.5.69), a bogus comment is not."""
    position = 0
    in_anchor = False
    length = len(view)
    search = _MARKUP.search
    while position < length:
        match = search(view, position)
        text_end = length if match is None else match.start()
        if text_end > position and not in_anchor:
            yield position, text_end, ESCAPED, None
        if match is None:
            return
        position = match.end()
        kind = match.lastgroup
        if kind == "close":
            tag = tag_name(match.group("start"))
            if hidden:
                yield from _attribute_runs(view, tag, match.start("attrs"), position)
            if tag == "a":
                in_anchor = not anchors and _HREF.match(view, match.start("attrs"), position) is not None
            elif tag == "script":
                text_end = _script_end(view, position)
                if hidden and text_end > position:
                    yield position, text_end, HIDDEN, None
                position = text_end
            elif tag == "template":
                if not hidden:  # inert: its content is shown only where a script clones it
                    end = _TEMPLATE_END.search(view, position)
                    position = length if end is None else end.start()
            elif tag in _HIDDEN or tag in _SHOWN_RAW:
                end = _RAW_TEXT_END[tag].search(view, position)
                text_end = length if end is None else end.start()
                if text_end > position and tag in _SHOWN_RAW and not in_anchor:
                    yield position, text_end, ESCAPED if tag == "textarea" else RAW, None
                elif text_end > position and hidden and tag not in _SHOWN_RAW:
                    yield position, text_end, ESCAPED if tag == "title" else HIDDEN, None  # <title> is RCDATA
                position = text_end
            elif tag == "plaintext":  # 13.2.5.5: everything after it is text, references included
                if position < length and not in_anchor:
                    yield position, length, RAW, None
                return
        elif kind == "end":
            if match.group("end") in ("a", "A"):  # tag_name(...) == "a"
                in_anchor = False
        elif kind == "cdata":
            text_end = cdata.get(match.start(), -1)
            if text_end == -1:  # outside SVG and MathML a bogus comment, up to ">"
                close = view.find(">", position)
                data_end = length if close == -1 else close
                if hidden:  # its data, "[CDATA[" and all (13.2.5.41)
                    yield match.start() + 2, data_end, HIDDEN, None
                position = min(data_end + 1, length)
            else:  # a CDATA section's text, its references not decoded
                if text_end > position and not in_anchor:
                    yield position, text_end, CDATA, None
                position = min(text_end + 3, length)
        elif kind == "cut":
            return
        elif hidden:  # a comment, a bogus comment or a doctype
            data_start, data_end = _comment_data(match.group())
            if data_end > data_start:
                yield match.start() + data_start, match.start() + data_end, HIDDEN, None


# The offsets of a run of text that _run_text read without them, taken by text_found only for a run that holds a
# reference: most runs of a page hold none.
_LATER: list[int] = []


# The runs whose character references are read: text and RCDATA (ESCAPED) as in text, an attribute value as in one.
_REFERENCES = frozenset({ESCAPED, VALUE})


def _run_text(view: str, start: int, end: int, codec: str | None, written: str) -> tuple[str, list[int] | None]:
    """The text of a run of text written so (ESCAPED, RAW, CDATA, HIDDEN or VALUE) and its offsets, as :func:`_decode`
    reads it; but for a run without references read whose offsets are no mere count (it holds a CR, or bytes *codec*
    decodes without error outside ASCII): its text and _LATER."""
    source = view[start:end]
    references = written in _REFERENCES
    if (references and "&" in source) or ("\r" not in source and (codec is None or source.isascii())):
        return _decode(view, start, end, codec, references, in_text=written == ESCAPED)
    text = source if codec is None or source.isascii() else decoded_text(source.encode("latin-1"), codec)
    if text is None or _SURROGATES.search(text):
        return _decode(view, start, end, codec, references, in_text=written == ESCAPED)
    # 13.2.3.5 preprocessing, as _decode does it: CR LF and a lone CR are LF
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd"), _LATER


class TextFound(NamedTuple):
    """What :func:`text_found` finds: each reference as a found URL and the scanner's reading of it, and the runs
    of the ``<iframe srcdoc>`` documents to read as documents (with *hidden*)."""

    references: list[tuple[_Found, str]]
    documents: list[Run]


def text_found(view: str, codec: str | None, *, abbreviated: bool, emails: bool, anchors: bool = False,
               refang: bool = False, hidden: bool = False, documents: bool = True,
               cdata: Mapping[int, int] = MappingProxyType({})) -> TextFound:
    """The references of the visible text of *view* (a document as the tokenizer reads it, *codec* its encoding
    when it holds bytes; the text of an ``<a href>`` with *anchors*; the text no reader is shown with *hidden*; its
    CDATA sections *cdata*, see :func:`visible_runs`), each as a found URL (tag ``#text``, attr the scanner's
    delimiter; kind TEXT, or VALUE_TEXT in an attribute value, whose bounds are its start and end) and the scanner's
    reading of it (defanged spellings read back with *refang*, :func:`linkkit.finditer`). Without *documents*, an
    ``<iframe srcdoc>`` value is read as any other attribute value."""
    pieces: list[str] = []
    # scanned offset, the view offset of each character (_LATER: to be taken when a reference needs them), and the
    # run's start, end, how it is written and quote
    runs: list[tuple[int, list[int] | None, int, int, str, str | None]] = []
    nested: list[Run] = []
    scanned = 0
    for start, end, written, quote in visible_runs(view, anchors=anchors, hidden=hidden, cdata=cdata):
        if written == DOCUMENT:
            if documents:
                nested.append((start, end, written, quote))
                continue
            written = VALUE
        text, offsets = _run_text(view, start, end, codec, written)
        runs.append((scanned, offsets, start, end, written, quote))
        pieces.append(text)
        pieces.append(_SEPARATOR)
        scanned += len(text) + 1
    if not runs:
        return TextFound([], nested)
    keys = [run[0] for run in runs]

    def run(offset: int, *, is_end: bool) -> tuple[int, list[int] | None, int, int, str, str | None]:
        index = bisect.bisect_right(keys, offset - 1 if is_end else offset) - 1
        if runs[index][1] is _LATER:  # a run read without its offsets: a reference lies in it
            at, _, start, end, written, quote = runs[index]
            offsets = _decode(view, start, end, codec, written in _REFERENCES, in_text=written == ESCAPED)[1]
            runs[index] = (at, offsets, start, end, written, quote)
        return runs[index]

    def position(offset: int, *, is_end: bool) -> int:
        at, offsets, start = run(offset, is_end=is_end)[:3]
        return start + offset - at if offsets is None else offsets[offset - at]

    from ..text.scan import finditer  # the scanner loaded only by text=True: a run over HTML links needs none of it

    found = []
    for ref in finditer("".join(pieces), abbreviated=abbreviated, emails=emails, refang=refang):
        if _SEPARATOR in ref.raw:
            continue
        span = (position(ref.start(), is_end=False), position(ref.end(), is_end=True))
        start, end, written, quote = run(ref.start(), is_end=False)[2:]
        if written == VALUE:  # written as an attribute value is: its bounds and quote
            place = _Found("#text", ref.delimiter, ref.raw, span, start, end, quote, None, VALUE_TEXT)
        else:
            place = _Found("#text", ref.delimiter, ref.raw, span, span[0], span[1], written, None, TEXT)
        found.append((place, ref.uri))
    return TextFound(found, nested)


__all__ = ["CDATA", "DOCUMENT", "ESCAPED", "HIDDEN", "RAW", "TEXT", "VALUE", "VALUE_TEXT", "Run", "TextFound",
           "text_found", "visible_runs"]
