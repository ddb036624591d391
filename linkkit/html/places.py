"""Where URLs live in HTML: the element -> attribute table, the readers that split a value into its URLs, and Link."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from ..link import SpanMatch
from ..uri.charset import always_match
from .base import _scheme

if TYPE_CHECKING:
    from ..security.flags import Flag

# HTML standard, Infra "ASCII whitespace": TAB, LF, FF, CR, SPACE (CR survives input preprocessing only in
# values, where it is whitespace all the same); and as a regex character class.
ASCII_WHITESPACE = "\t\n\f\r "
WS = "[" + "".join(re.escape(c) for c in ASCII_WHITESPACE) + "]"  # one of them, in a regex

# ------------------------------------------------------------------------------------------- where URLs live
URL, TOKENS, SRCSET, CSS = "url", "tokens", "srcset", "css"
REFRESH = "refresh"  # the URL of a <meta http-equiv=refresh content>
# Which places hold URLs (HTML standard, the attributes whose value is a "valid URL potentially surrounded by
# spaces", a list of them, or a srcset; HTML 4.01 for the obsolete ones): element -> attribute -> how its value
# holds URLs. Read-only: the tokenizer compiles its patterns from this table once, so an edit could not take effect.
_PLACES: dict[str, dict[str, str]] = {
    "a": {"href": URL, "ping": TOKENS},
    "area": {"href": URL, "ping": TOKENS},
    "link": {"href": URL, "imagesrcset": SRCSET},
    "base": {"href": URL},
    "img": {"src": URL, "srcset": SRCSET, "longdesc": URL},
    "source": {"src": URL, "srcset": SRCSET},
    "script": {"src": URL},
    "iframe": {"src": URL, "longdesc": URL},
    "frame": {"src": URL, "longdesc": URL},
    "embed": {"src": URL},
    "audio": {"src": URL},
    "video": {"src": URL, "poster": URL},
    "track": {"src": URL},
    "input": {"src": URL, "formaction": URL},
    "button": {"formaction": URL},
    "form": {"action": URL},
    "blockquote": {"cite": URL},
    "q": {"cite": URL},
    "del": {"cite": URL},
    "ins": {"cite": URL},
    "object": {"data": URL},
    "body": {"background": URL},
    "table": {"background": URL},
    "td": {"background": URL},
    "th": {"background": URL},
    "html": {"manifest": URL},
    "head": {"profile": TOKENS},  # HTML 4.01 7.4.4.3: "one or more meta data profiles, separated by white space"
}
# Attributes that hold URLs on every element; on SVG and MathML elements also href and xlink:href.
PLACES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {tag: MappingProxyType(attributes) for tag, attributes in _PLACES.items()}
)
GLOBAL_PLACES: Mapping[str, str] = MappingProxyType({"itemtype": TOKENS, "itemid": URL, "style": CSS})
FOREIGN_PLACES: Mapping[str, str] = MappingProxyType({"href": URL, "xlink:href": URL, **GLOBAL_PLACES})

@dataclass(frozen=True, slots=True)
class Link(SpanMatch):
    """A URL found in an HTML document, shaped like :class:`re.Match` (:class:`linkkit.link.LinkLike`).

    ``raw`` is the URL as the HTML parser yields it (character references decoded, surrounding ASCII whitespace
    stripped; for CSS, escapes decoded); ``span()`` is where it lies in the input (byte offsets for bytes, str
    offsets for str); ``uri`` is its target resolved against ``base``, or ``raw`` itself when there is no base to
    resolve a relative reference against (then ``is_relative`` is true and ``base`` is None). ``where`` is
    ``"TAG ATTR"`` (``"a href"``), or ``"style #text"`` for a URL in the text of a ``<style>`` element.
    """

    tag: str
    attr: str | None
    raw: str
    uri: str
    _span: tuple[int, int]
    base: str | None
    _flags: tuple[Flag, ...] | None = field(default=None, compare=False, repr=False)  # .flags, once read

    @property
    def flags(self) -> tuple[Flag, ...]:
        """What ``uri`` does that RFC 3986 section 7 warns about (:func:`linkkit.security.flags`, context
        ``html``: a ``javascript:`` URL is flagged; ``text`` for a reference of the visible text), computed on
        first read and kept."""
        return self._flags_in(self.uri, "text" if self.tag == "#text" else "html")

    @property
    def where(self) -> str:
        """The kind of place that held the URL: ``"TAG ATTR"``, or ``"TAG #text"`` for the text of <style>."""
        return f"{self.tag} {self.attr if self.attr is not None else '#text'}"

    # "url": every link of an HTML document is a URL of the HTML standard (a text reference's kind is one of uri,
    # urn, abbreviated, email); a class attribute, read without a call for each link a batch writes
    kind: ClassVar[str] = "url"

    @property
    def is_relative(self) -> bool:
        """True when ``uri`` is still a relative reference (RFC 3986 4.2): there was no base to resolve it."""
        return _scheme(self.uri) is None



# -------------------------------------------------------------------------------------- values holding URLs
# Each reader takes a decoded value and yields (start, end, raw, css) for each URL in it.
Reader = Callable[[str], Iterator[tuple[int, int, str, str | None]]]
_NOT_WHITESPACE = re.compile(r"[^\t\n\f\r ]+")


def read_url(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """A single URL: the value without its surrounding ASCII whitespace (HTML "valid URL potentially
    surrounded by spaces")."""
    start = len(value) - len(value.lstrip(ASCII_WHITESPACE))
    end = max(start, len(value.rstrip(ASCII_WHITESPACE)))
    yield start, end, value[start:end], None


def read_tokens(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """Space-separated URLs (ping, itemtype)."""
    for match in _NOT_WHITESPACE.finditer(value):
        yield match.start(), match.end(), match.group(), None


# "parse a srcset attribute" step 8: descriptors (and parenthesized parts, commas allowed) up to the next comma.
_DESCRIPTORS = re.compile(r"(?:[^,(]++|\([^)]*+\)?)*+,?")
# Step 3: what the splitting loop skips before a candidate.
_COMMA_OR_WHITESPACE = "," + ASCII_WHITESPACE


def read_srcset(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """The URL of each image candidate, split as "parse a srcset attribute" (HTML 4.8.4.3.10) splits them.

    The descriptors are tokenized (to find where a candidate ends) but not validated: a candidate that the
    standard's descriptor parser would skip for selection (``a.png 1x 2x``) is still a URL written in the page.
    """
    length = len(value)
    position = 0
    while True:
        while position < length and value[position] in _COMMA_OR_WHITESPACE:  # step 3: splitting loop
            position += 1
        if position >= length:
            return
        start = position
        while position < length and value[position] not in ASCII_WHITESPACE:  # step 5
            position += 1
        end = position
        if value[end - 1] == ",":  # step 7: trailing commas end the candidate
            while value[end - 1] == ",":
                end -= 1
        else:  # step 8: the descriptor tokenizer runs to a comma outside parentheses, or to the end
            position = always_match(_DESCRIPTORS, value, position).end()
        yield start, end, value[start:end], None


def read_refresh(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """The URL of a <meta http-equiv=refresh> content, by the "shared declarative refresh steps" (HTML 4.2.5.3
    / 7.11.1): a time, then ";" or ",", then the URL with "URL=" and one pair of quotes optional."""
    length = len(value)
    position = length - len(value.lstrip(ASCII_WHITESPACE))
    digits = position
    while position < length and value[position].isascii() and value[position].isdigit():
        position += 1
    if position == digits and value[position : position + 1] != ".":
        return
    while position < length and (value[position] == "." or (value[position].isascii() and value[position].isdigit())):
        position += 1
    if position < length:
        if value[position] not in ";," + ASCII_WHITESPACE:
            return
        while position < length and value[position] in ASCII_WHITESPACE:
            position += 1
        if position < length and value[position] in ";,":
            position += 1
        while position < length and value[position] in ASCII_WHITESPACE:
            position += 1
    if position >= length:
        return
    start = position
    if value[position : position + 3].lower() == "url":
        position += 3
        while position < length and value[position] in ASCII_WHITESPACE:
            position += 1
        if value[position : position + 1] == "=":
            position += 1
            while position < length and value[position] in ASCII_WHITESPACE:
                position += 1
            start = position  # "skip quotes" follows
    elif value[position : position + 2].lower() == "ur":
        start = position  # "UR" without "L": the whole rest is the URL ("jump to parse")
    end = length
    if start == position and value[position : position + 1] in ("'", '"'):
        quote = value[position]
        start += 1
        close = value.find(quote, start)
        end = length if close == -1 else close
    yield from ((start + a, start + b, raw, css) for a, b, raw, css in read_url(value[start:end]) if raw)




