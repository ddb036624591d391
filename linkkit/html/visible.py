"""URLs written in the visible text of a document ("copy this address into your browser: https://..."), found
with the plain-text scanner's policy (``links(..., text=True)``).

The visible text is the text the tokenizer yields outside markup, with character references decoded (13.2.5.72),
except in comments, ``<script>``, ``<style>``, ``<title>``, ``<template>`` (inert), ``<iframe>``, ``<noembed>`` and
``<noframes>`` (fallback content), and except the text of an ``<a href>``: an anchor's text is not scanned, its
``href`` is the link (unless *anchors* is asked for: a rewriting that must reach every URL written, redaction and
defanging, reads it too).  ``<textarea>`` (RCDATA), ``<xmp>`` and what follows ``<plaintext>`` (raw text) are shown,
so they are scanned.  A tag ends a reference: each run of text between two tags is read on its own.  Spans point
into the document and cover a reference's written form (``&amp;`` and all).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from .tokenizer import (
    _MARKUP,
    _RAW_TEXT_END,
    CDATA_TEXT,
    FOREIGN_TEXT,
    RAW_TEXT,
    _attributes,
    _decode,
    _Found,
    _script_end,
    tag_name,
)

TEXT = "text"  # the kind of a URL found in the visible text
# How a run of visible text is written, the quote of the URLs found in it (see _Found): text and RCDATA, where "&"
# starts a character reference and "<" markup; raw text (<xmp>, after <plaintext>), where only an end tag ends it;
# a CDATA section (SVG, MathML), where only "]]>" ends it.
ESCAPED, RAW, CDATA = FOREIGN_TEXT, RAW_TEXT, CDATA_TEXT

# Elements whose content is not shown: not scanned.  script is followed through its escape states (13.2.5.4-31).
_HIDDEN = frozenset({"style", "title", "iframe", "noembed", "noframes"})
_SHOWN_RAW = frozenset({"textarea", "xmp"})  # shown raw text / RCDATA; only textarea's references are decoded
_TEMPLATE_END = re.compile(r"</template(?=[\t\n\f\r />])", re.IGNORECASE)
# Runs are joined with a character that ends every reference and is no line break: a tag ends a reference.
_SEPARATOR = "\x00"


def visible_runs(
    view: str, *, anchors: bool = False, cdata: Mapping[int, int] = MappingProxyType({})
) -> Iterator[tuple[int, int, str]]:
    """(start, end, how it is written: ESCAPED, RAW or CDATA) of each run of visible text of *view*, in document
    order; the text of an ``<a href>`` only with *anchors*. *cdata* maps the "<" of each CDATA section the
    tokenizer found (in SVG and MathML) to where its text ends: that text is text (13.2.5.69), a bogus comment is
    not."""
    position = 0
    in_anchor = False
    length = len(view)
    search = _MARKUP.search
    while position < length:
        match = search(view, position)
        text_end = length if match is None else match.start()
        if text_end > position and not in_anchor:
            yield position, text_end, ESCAPED
        if match is None:
            return
        position = match.end()
        kind = match.lastgroup
        if kind == "close":
            tag = tag_name(match.group("start"))
            if tag == "a":
                in_anchor = not anchors and "href" in _attributes(view, match.start("attrs"), position)
            elif tag == "script":
                position = _script_end(view, position)
            elif tag == "template":
                end = _TEMPLATE_END.search(view, position)
                position = length if end is None else end.start()
            elif tag in _HIDDEN or tag in _SHOWN_RAW:
                end = _RAW_TEXT_END[tag].search(view, position)
                text_end = length if end is None else end.start()
                if tag in _SHOWN_RAW and text_end > position and not in_anchor:
                    yield position, text_end, ESCAPED if tag == "textarea" else RAW
                position = text_end
            elif tag == "plaintext":  # 13.2.5.5: everything after it is text, references included
                if position < length and not in_anchor:
                    yield position, length, RAW
                return
        elif kind == "end":
            if tag_name(match.group("end")) == "a":
                in_anchor = False
        elif kind == "cdata":
            text_end = cdata.get(match.start(), -1)
            if text_end == -1:  # outside SVG and MathML a bogus comment, up to ">"
                close = view.find(">", position)
                position = length if close == -1 else close + 1
            else:  # a CDATA section's text, its references not decoded
                if text_end > position and not in_anchor:
                    yield position, text_end, CDATA
                position = min(text_end + 3, length)
        elif kind == "cut":
            return


def text_found(view: str, codec: str | None, *, abbreviated: bool, emails: bool, anchors: bool = False,
               refang: bool = False, cdata: Mapping[int, int] = MappingProxyType({})) -> list[tuple[_Found, str]]:
    """The references of the visible text of *view* (a document as the tokenizer reads it, *codec* its encoding
    when it holds bytes; the text of an ``<a href>`` with *anchors*; its CDATA sections *cdata*, see
    :func:`visible_runs`), each as a found URL of kind TEXT (tag ``#text``, attr the scanner's delimiter) and the
    scanner's reading of it (defanged spellings read back with *refang*, :func:`linkkit.finditer`)."""
    pieces: list[str] = []
    runs: list[tuple[int, int, int, list[int] | None, str]] = []  # scanned offset, view start, end, offsets, quote
    scanned = 0
    for start, end, written in visible_runs(view, anchors=anchors, cdata=cdata):
        text, offsets = _decode(view, start, end, codec, written == ESCAPED, in_text=True)
        runs.append((scanned, start, end, offsets, written))
        pieces.append(text)
        pieces.append(_SEPARATOR)
        scanned += len(text) + 1
    if not runs:
        return []
    keys = [run[0] for run in runs]

    def run(offset: int, *, is_end: bool) -> tuple[int, int, int, list[int] | None, str]:
        return runs[bisect.bisect_right(keys, offset - 1 if is_end else offset) - 1]

    def position(offset: int, *, is_end: bool) -> int:
        at, start, _end, offsets, _written = run(offset, is_end=is_end)
        return start + offset - at if offsets is None else offsets[offset - at]

    from ..text.scan import finditer  # the scanner loaded only by text=True: a run over HTML links needs none of it

    found = []
    for ref in finditer("".join(pieces), abbreviated=abbreviated, emails=emails, refang=refang):
        if _SEPARATOR in ref.raw:
            continue
        span = (position(ref.start(), is_end=False), position(ref.end(), is_end=True))
        written = run(ref.start(), is_end=False)[4]
        found.append((_Found("#text", ref.delimiter, ref.raw, span, span[0], span[1], written, None, TEXT), ref.uri))
    return found


__all__ = ["CDATA", "ESCAPED", "RAW", "TEXT", "text_found", "visible_runs"]
