"""HTML: find every URL a document holds, resolve it against the document's base, and rewrite it in place.

The tokenizer is linkkit's own, a few compiled regexes that follow the HTML standard's tokenization (13.2.5)
closely enough to locate tags, attributes, comments and raw text, and that record where each value lies in
the input. Rewriting replaces those spans and copies every other byte, so an identity rewrite returns the input
unchanged, whatever it holds. The base is RFC 3986 section 5.1.1 as HTML defines it (seed 000, appendix D).

    >>> [link.uri for link in links('<base href="/a/"><img src="b.png">', base_url="http://example.com/x")]
    ['http://example.com/a/', 'http://example.com/a/b.png']
    >>> absolutize(b"<a href='../up?a=1&amp;b=2'>", "http://example.com/x/y")
    b"<a href='http://example.com/up?a=1&amp;b=2'>"
"""

from __future__ import annotations

import codecs
import functools
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.entities import html5 as NAMED_CHARACTER_REFERENCES
from typing import Any, NamedTuple, TypeVar

from .charset import SCHEME
from .errors import ResolutionError
from .percent import percent_encode
from .resolve import resolve
from .uri import URIReference, parse, split

__all__ = ["Link", "absolutize", "links", "rewrite", "rewrite_lxml", "rewrite_soup"]

Document = TypeVar("Document", str, bytes)

# HTML standard, Infra "ASCII whitespace": TAB, LF, FF, CR, SPACE (CR survives input preprocessing only in
# values, where it is whitespace all the same).
ASCII_WHITESPACE = "\t\n\f\r "
_WS = "[\\t\\n\\f\\r ]"

# ---------------------------------------------------------------------------------------------------- tokenizer
# 13.2.5.32-40: an attribute name runs to whitespace, "/", ">" or "=" (a leading "=" belongs to the name); a value
# is double-quoted, single-quoted, or unquoted (to whitespace or ">"); "a= >" has an empty value. Once "=" is
# seen a value must follow, so a quote left open at end of file makes the whole tag fail to match: the tag is
# cut off and dropped (13.2.5.x "eof-in-tag"). Every loop is possessive, so matching is linear.
_ATTRIBUTE = (
    r"[^\t\n\f\r />][^\t\n\f\r />=]*+"
    rf"(?:{_WS}*+={_WS}*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\f\r >\"'][^\t\n\f\r >]*+|(?=>))|(?!{_WS}*+=))"
)
_TAG_REST = rf"(?:[\t\n\f\r /]*+{_ATTRIBUTE})*+"
_MARKUP = re.compile(
    r"<(?:"
    # 13.2.5.43-52 comments: "<!-->" and "<!--->" are complete, "--!>" closes, an open comment runs to the end.
    r"!--(?:-?>|[^-]*+(?:-(?!-!?>)[^-]*+)*+--!?>|[\s\S]*+)"
    r"|(?P<cdata>!\[CDATA\[)"  # a CDATA section in SVG and MathML, a bogus comment elsewhere (13.2.5.42)
    r"|[!?][^>]*+>?"  # DOCTYPE (whose identifiers are not links) and bogus comments (13.2.5.41)
    rf"|/(?P<end>[A-Za-z][^\t\n\f\r />]*+){_TAG_REST}[\t\n\f\r /]*+>"
    rf"|(?P<start>[A-Za-z][^\t\n\f\r />]*+)(?P<attrs>{_TAG_REST})(?P<close>[\t\n\f\r /]*+>)"
    r"|(?P<cut>/?[A-Za-z])"  # a tag that the end of the file cuts off: dropped, and nothing follows it
    r"|/[^>]*+>?"  # "</>" is ignored; "</" and no letter starts a bogus comment
    r")"
)
# 13.2.5.2-3, 13.2.5.4: raw text and RCDATA end at "</name" followed by whitespace, "/" or ">", in any case.
_RAW_TEXT_END = {
    name: re.compile(rf"</{name}(?=[\t\n\f\r />])", re.IGNORECASE)
    for name in ("style", "xmp", "iframe", "noembed", "noframes", "title", "textarea")
}
# 13.2.5.4-31 script data: inside "<!--", a "<script" makes the next "</script>" not end the element.
_SCRIPT_TOKENS = re.compile(r"<!--|-->|<(/?)script(?=[\t\n\f\r />])", re.IGNORECASE)
_DASHES_GT = re.compile(r"-*>")
# The markup that cannot hold a link or change the state of the scan, skipped inside the regex engine (in HTML
# content): text, comments, bogus comments, end tags but </template>, and start tags that change no state and
# have no attribute of a name that holds URLs somewhere.
_SKIPPED_PATTERN = (
    r"(?:[^<]++"
    r"|<!--(?:-?>|[^-]*+(?:-(?!-!?>)[^-]*+)*+--!?>|[\s\S]*+)"
    r"|<[!?][^>]*+>?"
    rf"|</(?!(?i:template)[\t\n\f\r />])[A-Za-z][^\t\n\f\r />]*+{_TAG_REST}[\t\n\f\r /]*+>"
    r"|</(?![A-Za-z])[^>]*+>?"
    r"|<(?!(?i:{names})[\t\n\f\r />])[A-Za-z][^\t\n\f\r />]*+"
    rf"(?:[\t\n\f\r /]*+(?!(?i:{{attributes}})[\t\n\f\r />=]){_ATTRIBUTE})*+[\t\n\f\r /]*+>"
    r"|<(?![A-Za-z!?/])"
    r")*+"
)
# The hints that a tag outside the table may still carry a link: style, itemtype, itemid (and href in SVG).
_HTML_HINT = re.compile(r"style|item", re.IGNORECASE)
_FOREIGN_HINT = re.compile(r"style|item|href", re.IGNORECASE)

# 13.2.6.5 "in foreign content": these start tags (and </br>, </p>) leave SVG and MathML.
_BREAKOUT = frozenset(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu "
    "meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var".split()
)
_FONT_BREAKOUT = frozenset({"color", "face", "size"})  # a <font> with one of these leaves them too
# 13.2.6 "HTML integration point" and "MathML text integration point": their content is HTML again.
_INTEGRATION_POINTS = {
    "svg": frozenset({"foreignobject", "desc", "title"}),
    "math": frozenset({"mi", "mo", "mn", "ms", "mtext"}),
}

# ------------------------------------------------------------------------------------------- where URLs live
URL, TOKENS, SRCSET, CSS = "url", "tokens", "srcset", "css"
REFRESH = "refresh"  # the URL of a <meta http-equiv=refresh content>
# Issue 4, "Which places hold URLs": element -> attribute -> how its value holds URLs.
PLACES: dict[str, dict[str, str]] = {
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
GLOBAL_PLACES = {"itemtype": TOKENS, "itemid": URL, "style": CSS}
FOREIGN_PLACES = {"href": URL, "xlink:href": URL, **GLOBAL_PLACES}


# Start tags that change the state of the scan even without a link: raw text, foreign content, templates.
_STATE_TAGS = frozenset({"meta", "svg", "math", "template", "script", "style", "xmp", "iframe", "noembed",
                         "noframes", "title", "textarea", "plaintext", "image"})


def _trie(words: list[str]) -> str:
    """A regex matching exactly *words*, factored by common prefixes (the regex engine tries fewer branches)."""
    branches: dict[str, list[str]] = {}
    for word in words:
        branches.setdefault(word[:1], []).append(word[1:])
    alternatives = [re.escape(first) + _trie(rest) for first, rest in sorted(branches.items()) if first]
    if not alternatives:
        return ""
    pattern = alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"
    return f"(?:{pattern})?" if "" in branches else pattern


_SKIPPED = re.compile(
    _SKIPPED_PATTERN.replace("{names}", _trie(sorted(_STATE_TAGS))).replace(
        "{attributes}", _trie(sorted({name for places in PLACES.values() for name in places} | {*GLOBAL_PLACES}))
    )
)


class _Found(NamedTuple):
    """A URL as the scan finds it (view offsets), with what rewriting needs to know of its place.

    start and end delimit the enclosing value; quote is '"', "'", "" (unquoted), None (an attribute without a
    value) or "<" (the text of a <style>); css is None outside CSS, else the quote of the CSS string holding
    the URL or ")" inside an unquoted url().
    """

    tag: str
    attr: str | None
    raw: str
    span: tuple[int, int]
    start: int
    end: int
    quote: str | None
    css: str | None
    kind: str = "url"  # URL, TOKENS, SRCSET, CSS or REFRESH: how the place splits its value


@dataclass(frozen=True, slots=True)
class Link:
    """A URL found in an HTML document.

    ``raw`` is the URL as the HTML parser yields it (character references decoded, surrounding ASCII whitespace
    stripped; for CSS, escapes decoded); ``span`` is where it lies in the input (byte offsets for bytes, str
    offsets for str); ``uri`` is its target resolved against ``base``, or ``raw`` itself when there is no base to
    resolve a relative reference against (then ``is_relative`` is true and ``base`` is None).
    """

    tag: str
    attr: str | None
    raw: str
    uri: str
    span: tuple[int, int]
    base: str | None

    @property
    def is_relative(self) -> bool:
        """True when ``uri`` is still a relative reference (RFC 3986 4.2): there was no base to resolve it."""
        return _scheme(self.uri) is None


# --------------------------------------------------------------------------------------- character references
# 13.2.5.72-80 character reference state; numeric references to C1 controls mean windows-1252 (13.2.5.80).
_CHARACTER_REFERENCE = re.compile(r"&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*;?))")
_C1_REPLACEMENTS = {
    n: c for n in range(0x80, 0xA0) if (c := bytes([n]).decode("cp1252", "ignore")) and ord(c) != n
}


def _character_reference(match: re.Match[str], follower: str) -> str | None:
    """The text a character reference in an attribute value stands for, or None when it is literal text.

    13.2.5.73: in an attribute, a named reference without ";" followed by "=" or an alphanumeric stays as
    written (``?a=1&copy=2`` keeps ``&copy``); the regex takes the whole alphanumeric run, so only "=" is left.
    """
    hexadecimal, decimal, name = match.groups()
    if name is not None:
        if name not in NAMED_CHARACTER_REFERENCES or (name[-1] != ";" and follower == "="):
            return None
        return NAMED_CHARACTER_REFERENCES[name]
    number = int(hexadecimal, 16) if hexadecimal is not None else int(decimal)
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd"
    return _C1_REPLACEMENTS.get(number) or chr(number)


# Lone surrogates a codec may yield (``\\udc80`` in raw_unicode_escape): not text, read as U+FFFD.
_SURROGATES = re.compile("[\ud800-\udfff]")


def _decode(view: str, start: int, end: int, codec: str | None, references: bool) -> tuple[str, list[int] | None]:
    """The text of ``view[start:end]`` as the parser yields it, with the input offset of each character.

    *codec* is the document's encoding when *view* holds bytes (one character per byte); undecodable bytes
    become U+FFFD. The offsets are None when they are ``start + i``, else a list one longer than the text.
    """
    source = view[start:end]
    transcode = codec is not None and not source.isascii()
    if not transcode and not (references and "&" in source) and "\r" not in source:
        return (source.replace("\0", "\ufffd") if "\0" in source else source), None
    parts: list[str] = []
    offsets: list[int] = []
    position = start

    def literal(stop: int) -> None:
        text = view[position:stop]
        if transcode and not text.isascii():
            text, relative = _decoded(text.encode("latin-1"), codec)  # type: ignore[arg-type]
            starts = [position + at for at in relative[:-1]]
        else:
            starts = list(range(position, stop))
        if "\r" in text:  # 13.2.3.5 preprocessing: CR LF and a lone CR are LF (CR LF at the CR's offset)
            kept = [i for i, c in enumerate(text) if not (c == "\n" and i and text[i - 1] == "\r")]
            text = "".join(text[i] for i in kept).replace("\r", "\n")
            starts = [starts[i] for i in kept]
        parts.append(text)
        offsets.extend(starts)

    if references:
        for match in _CHARACTER_REFERENCE.finditer(view, start, end):
            text = _character_reference(match, view[match.end() : match.end() + 1] if match.end() < end else "")
            if text is None:
                continue
            literal(match.start())
            parts.append(text)
            offsets.extend([match.start()] * len(text))
            position = match.end()
    literal(end)
    offsets.append(end)
    text = "".join(parts).replace("\0", "\ufffd")
    if transcode:
        text = _SURROGATES.sub("\ufffd", text)
    return text, offsets


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


def read_srcset(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """The URL of each image candidate, split as "parse a srcset attribute" (HTML 4.8.4.3.10) splits them.

    The descriptors are tokenized (to find where a candidate ends) but not validated: a candidate that the
    standard's descriptor parser would skip for selection (``a.png 1x 2x``) is still a URL written in the page.
    """
    length = len(value)
    position = 0
    while True:
        while position < length and value[position] in ",\t\n\f\r ":  # step 3: splitting loop
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
            position = _DESCRIPTORS.match(value, position).end()  # type: ignore[union-attr]  # "*" matches
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
    while position < length and (value[position] == "." or value[position].isascii() and value[position].isdigit()):
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


# CSS Syntax 3, section 4: comments and strings are skipped; url(...) (4.3.6, either form) and an @import
# string are URLs. An empty url() is not: it is "an invalid resource" (CSS Values 4, 4.5).
# CSS Syntax 3, 4.3.7 "consume an escaped code point": up to six hex digits and one whitespace after them, or any
# other code point but a newline; in an unquoted url() (4.3.6 "consume a url token") that is the whole escape.
_CSS_ESCAPED_CODE_POINT = r"\\(?:[0-9A-Fa-f]{1,6}+(?:\r\n|[\t\n\f\r ])?+|[^\n\r\f0-9A-Fa-f])"
_CSS_STRING_DQ = r'"(?:[^"\\\n\r\f]|\\[\s\S])*+"'
_CSS_STRING_SQ = r"'(?:[^'\\\n\r\f]|\\[\s\S])*+'"
_CSS_TOKENS = re.compile(
    r"/\*(?:[^*]|\*(?!/))*+(?:\*/)?"
    rf"|@(?i:import){_WS}*+(?P<import>{_CSS_STRING_DQ}|{_CSS_STRING_SQ})"
    rf"|(?<![-\w\\\u0080-\U0010ffff])(?i:url)\({_WS}*+(?:(?P<quoted>{_CSS_STRING_DQ}|{_CSS_STRING_SQ})"
    rf"|(?P<unquoted>(?:[^\"'()\\\t\n\f\r \x00-\x08\x0b\x0e-\x1f\x7f]|{_CSS_ESCAPED_CODE_POINT})++){_WS}*+\))"
    rf"|{_CSS_STRING_DQ}|{_CSS_STRING_SQ}|[\"'][^\n\r\f]*+"
    r"|\\[\s\S]"
)
# CSS Syntax 3, 4.3.7 "consume an escaped code point"; an escaped newline inside a string vanishes (4.3.5).
_CSS_ESCAPE = re.compile(r"\\(?:([0-9A-Fa-f]{1,6})(?:\r\n|[\t\n\f\r ])?|(\r\n|[\n\r\f])|([\s\S]))")


def _css_unescape(text: str) -> str:
    def code_point(match: re.Match[str]) -> str:
        hexadecimal, newline, character = match.groups()
        if hexadecimal is None:
            return "" if newline is not None else character
        number = int(hexadecimal, 16)
        return "\ufffd" if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF else chr(number)

    return _CSS_ESCAPE.sub(code_point, text) if "\\" in text else text


def read_css(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """The URLs of a style sheet or a style attribute: url() and @import strings, not comments or other strings."""
    for match in _CSS_TOKENS.finditer(value):
        group = match.lastgroup
        if group is None:
            continue
        start, end = match.span(group)
        if group == "unquoted":
            yield start, end, _css_unescape(value[start:end]), ")"
            continue
        quote = value[start]
        start, end = start + 1, end - 1
        inner = value[start:end]
        start += len(inner) - len(inner.lstrip(ASCII_WHITESPACE))
        end = max(start, start + len(inner.strip(ASCII_WHITESPACE)))
        raw = _css_unescape(value[start:end]).strip(ASCII_WHITESPACE)
        if raw:
            yield start, end, raw, quote


READERS: dict[str, Reader] = {URL: read_url, TOKENS: read_tokens, SRCSET: read_srcset, CSS: read_css}


# -------------------------------------------------------------------------------------------------- scanning
def _script_end(view: str, position: int) -> int:
    """Where the text of a <script> ends: the script data states of 13.2.5.4-31, escaped and double-escaped."""
    state = 0  # 0: script data, 1: escaped (after "<!--"), 2: double escaped (after "<!--" and "<script")
    while True:
        match = _SCRIPT_TOKENS.search(view, position)
        if match is None:
            return len(view)
        token, position = match.group(), match.end()
        if token == "<!--":
            dashes = _DASHES_GT.match(view, position)
            if dashes is not None:  # "<!-->", "<!--->": the dashes of "<!--" close it again
                state, position = 0, dashes.end()
            elif state == 0:
                state = 1
        elif token == "-->":
            state = 0
        elif match.group(1):
            if state != 2:
                return match.start()
            state = 1
        elif state == 1:
            state = 2


# The attributes the scan reads: those that hold URLs, <meta>'s charset, http-equiv and content, and the names
# that make a <font> leave SVG.
_READ_ATTRIBUTES = _trie(
    sorted(
        {name for places in PLACES.values() for name in places}
        | {*FOREIGN_PLACES}
        | {"charset", "http-equiv", "content"}
        | _FONT_BREAKOUT
    )
)
# One read attribute, after the attributes before it that are not read (skipped inside the regex engine).
_READ_ATTRIBUTE = re.compile(
    rf"(?:[\t\n\f\r /]*+(?!(?i:{_READ_ATTRIBUTES})[\t\n\f\r />=]){_ATTRIBUTE})*+"
    rf"[\t\n\f\r /]*+(?P<name>(?i:{_READ_ATTRIBUTES}))(?=[\t\n\f\r />=])"
    rf"(?:{_WS}*+={_WS}*+(?:\"(?P<dq>[^\"]*+)\"|'(?P<sq>[^']*+)'|(?P<uq>[^\t\n\f\r >\"'][^\t\n\f\r >]*+|(?=>))))?"
)


def _attributes(view: str, start: int, end: int) -> dict[str, tuple[int, int, str | None]]:
    """The read attributes of a tag, from *start* to its ">" at *end*: lower-case name -> (value start, value end,
    quote); the first of a name wins."""
    attributes: dict[str, tuple[int, int, str | None]] = {}
    match = _READ_ATTRIBUTE.match(view, start, end)
    while match is not None:
        name, double, single, unquoted = match.groups()
        name = name.lower()
        if name not in attributes:  # 13.2.5.33: a duplicate attribute is dropped
            if double is not None:
                attributes[name] = (match.start(2), match.end(2), '"')
            elif single is not None:
                attributes[name] = (match.start(3), match.end(3), "'")
            elif unquoted is not None:
                attributes[name] = (match.start(4), match.end(4), "")
            else:
                attributes[name] = (match.end(), match.end(), None)
        match = _READ_ATTRIBUTE.match(view, match.end(), end)
    return attributes


class _Scan(NamedTuple):
    found: list[_Found]
    base: _Found | None  # the first <base href> outside templates
    base_hrefs: set[int]  # the indices in found of every HTML <base href>


def _scan(view: str, codec: str | None) -> _Scan:
    """Tokenize *view* once, collecting the URLs in document order and the document's <base href>."""
    found: list[_Found] = []
    base: _Found | None = None
    base_hrefs: set[int] = set()
    templates = 0
    stack: list[tuple[str, str]] = []  # (tag, namespace) of open svg/math roots and HTML integration points
    position = 0
    search, match_markup, skip = _MARKUP.search, _MARKUP.match, _SKIPPED.match

    def collect(tag: str, name: str, kind: str, value: tuple[int, int, str | None]) -> None:
        start, end, quote = value
        text = view[start:end]
        if kind == URL and "&" not in text and text.isprintable() and (codec is None or text.isascii()):
            # the common case, inlined: a plain value without references, NUL or whitespace but spaces
            if not text or text[0] != " " and text[-1] != " ":
                found.append(_Found(tag, name, text, (start, end), start, end, quote, None, kind))
                return
        text, offsets = _decode(view, start, end, codec, True)
        for a, b, raw, css in READERS[kind](text):
            span = (start + a, start + b) if offsets is None else (offsets[a], offsets[b])
            found.append(_Found(tag, name, raw, span, start, end, quote, css, kind))

    def collect_style_text(tag: str, start: int, end: int) -> None:
        text, offsets = _decode(view, start, end, codec, False)
        for a, b, raw, css in read_css(text):
            span = (start + a, start + b) if offsets is None else (offsets[a], offsets[b])
            found.append(_Found(tag, None, raw, span, start, end, "<", css, CSS))

    while True:
        if stack:
            match = search(view, position)
        else:  # in HTML content, only the markup that matters reaches Python
            match = match_markup(view, skip(view, position).end())  # type: ignore[union-attr]  # "*" matches
        if match is None:
            break
        position = match.end()
        kind = match.lastgroup
        if kind is None:
            continue
        namespace = stack[-1][1] if stack else "html"
        if kind == "close":
            tag = match.group("start").lower()
            attributes_start, attributes_end = match.span("attrs")
            if namespace == "html" and (tag == "svg" or tag == "math"):  # the root is an SVG/MathML element
                namespace = tag
            if namespace != "html":
                if tag in _BREAKOUT or (
                    tag == "font"
                    and not _attributes(view, attributes_start, position).keys().isdisjoint(_FONT_BREAKOUT)
                ):
                    while stack and stack[-1][1] != "html":
                        stack.pop()
                    namespace = stack[-1][1] if stack else "html"
            if namespace != "html":
                self_closing = match.group("close").endswith("/>")
                if _FOREIGN_HINT.search(view, attributes_start, attributes_end):
                    count = len(found)
                    attributes = _attributes(view, attributes_start, position)
                    for name, place in FOREIGN_PLACES.items():
                        if name in attributes:
                            collect(tag, name, place, attributes[name])
                    if len(found) - count > 1:
                        found[count:] = sorted(found[count:], key=lambda f: f.span)
                if not self_closing:
                    if tag in _INTEGRATION_POINTS[namespace]:
                        stack.append((tag, "html"))
                    elif tag == namespace:
                        stack.append((tag, namespace))
                    elif tag == "style":  # an SVG <style> is not raw text, but its text (or CDATA) is still CSS
                        text_end = view.find("<", position)
                        text_end = len(view) if text_end == -1 else text_end
                        collect_style_text(tag, position, text_end)
                        if view.startswith("<![CDATA[", text_end):
                            cdata_end = view.find("]]>", text_end)
                            collect_style_text(tag, text_end + 9, len(view) if cdata_end == -1 else cdata_end)
                            position = len(view) if cdata_end == -1 else cdata_end + 3
                continue
            if tag == "image":  # 13.2.6.4.7: "Change the token's tag name to img"
                tag = "img"
            places = PLACES.get(tag)
            count = len(found)
            if places is not None or tag == "meta" or _HTML_HINT.search(view, attributes_start, attributes_end):
                attributes = _attributes(view, attributes_start, position)
                for name, place in (places or {}).items():
                    if name in attributes:
                        collect(tag, name, place, attributes[name])
                        if tag == "base":
                            base_hrefs.add(len(found) - 1)
                            if base is None and templates == 0:
                                base = found[-1]
                for name, place in GLOBAL_PLACES.items():
                    if name in attributes:
                        collect(tag, name, place, attributes[name])
                if tag == "meta" and "content" in attributes and "http-equiv" in attributes:
                    start, end, _ = attributes["http-equiv"]
                    if _decode(view, start, end, codec, True)[0].lower() == "refresh":
                        start, end, quote = attributes["content"]
                        text, offsets = _decode(view, start, end, codec, True)
                        for a, b, raw, _css in read_refresh(text):
                            span = (start + a, start + b) if offsets is None else (offsets[a], offsets[b])
                            found.append(_Found(tag, "content", raw, span, start, end, quote, None, REFRESH))
                if len(found) - count > 1:  # in the order of the attributes
                    found[count:] = sorted(found[count:], key=lambda f: f.span)
            if tag not in _STATE_TAGS:
                continue
            if tag == "template":
                templates += 1
            elif tag == "script":
                position = _script_end(view, position)
            elif tag in _RAW_TEXT_END:
                end_tag = _RAW_TEXT_END[tag].search(view, position)
                text_end = len(view) if end_tag is None else end_tag.start()
                if tag == "style":
                    collect_style_text(tag, position, text_end)
                position = text_end
            elif tag == "plaintext":  # 13.2.5.5: everything after it is text
                break
        elif kind == "end":
            tag = match.group("end").lower()
            if stack and stack[-1][0] == tag:
                stack.pop()
            elif namespace != "html" and tag in ("p", "br"):
                while stack and stack[-1][1] != "html":
                    stack.pop()
            elif tag == "template" and namespace == "html" and templates:
                templates -= 1
        elif kind == "cdata":
            close = view.find("]]>" if namespace != "html" else ">", position)
            position = len(view) if close == -1 else close + (3 if namespace != "html" else 1)
        else:  # "cut": a tag the end of the file cuts off is dropped (13.2.5.x eof-in-tag)
            break
    return _Scan(found, base, base_hrefs)


# -------------------------------------------------------------------------------------------------- encoding
# Encoding labels whose meaning in the Encoding Standard differs from Python's codec of that name.
_WHATWG_ENCODINGS = {
    "cp1252": "ascii us-ascii ansi_x3.4-1968 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 "
    "iso_8859-1 iso_8859-1:1987 l1 latin1 x-cp1252",
    "cp1254": "iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 csisolatin5",
    "cp874": "iso-8859-11 iso8859-11 iso885911 tis-620 dos-874",
    "gbk": "gb2312 gb_2312 gb_2312-80 chinese csgb2312 csiso58gb231280 iso-ir-58 x-gbk",
    "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "cp949": "euc-kr cseuckr csksc56011987 iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601",
    # Python's "utf-16" and "utf-32" write a BOM before every value they encode; the standard means LE.
    "utf-16-le": "utf-16 utf-16le unicode csunicode iso-10646-ucs-2 ucs-2 unicodefeff",
    "utf-16-be": "utf-16be unicodefffe",
    "utf-32-le": "utf-32 utf-32le",
}
_LABELS = {label: codec for codec, labels in _WHATWG_ENCODINGS.items() for label in labels.split()}
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF16_LE, "utf-16-le"))
_META_CHARSET = re.compile(rf"charset{_WS}*=({_WS}*)(?:\"([^\"]*)\"|'([^']*)'|([^\t\n\f\r ;\"']+))", re.IGNORECASE)


# Python codecs that write a byte order mark before every value they encode: the standard means the BOM-less form.
_BOM_WRITING = {"utf-16": "utf-16-le", "utf-32": "utf-32-le", "utf-8-sig": "utf-8"}


def _python_codec(label: str) -> codecs.CodecInfo | None:
    """Python's codec of that name or alias, or None."""
    try:
        return codecs.lookup(label)
    except (LookupError, ValueError):  # ValueError: a label with a NUL
        return None


@functools.lru_cache(maxsize=64)
def _codec(label: str) -> str | None:
    """The Python codec for an encoding label ("get an encoding", Encoding Standard 4.2), or None if unknown or
    not a text encoding (base64, rot13: they do not turn bytes into text)."""
    label = label.strip(ASCII_WHITESPACE).lower()
    if label in _LABELS:
        return _LABELS[label]
    info = _python_codec(label)
    if info is None or not info._is_text_encoding:
        return None
    return _BOM_WRITING.get(info.name, info.name)


def _meta_encoding(document: bytes) -> str | None:
    """The encoding a <meta> in the first 1024 bytes declares ("prescan a byte stream", HTML 13.2.3.2)."""
    view = document[:1024].decode("latin-1")
    position = 0
    while (match := _MARKUP.search(view, position)) is not None:
        position = match.end()
        if match.lastgroup == "cut":
            break
        if match.lastgroup != "close" or match.group("start").lower() != "meta":
            continue
        attributes = _attributes(view, match.start("attrs"), match.end())
        values = {name: view[start:end] for name, (start, end, _) in attributes.items()}
        label = values.get("charset")
        if label is None and values.get("http-equiv", "").lower() == "content-type":
            # "algorithm for extracting a character encoding from a meta element" (HTML 2.5.x)
            found = _META_CHARSET.search(values.get("content", ""))
            label = found and next((g for g in found.groups()[1:] if g is not None), None)
        codec = _codec(label) if label else None
        if codec is not None:
            # 13.2.3.2 step "get an attribute": UTF-16 in a <meta> means UTF-8; x-user-defined means windows-1252
            return "utf-8" if codec.startswith("utf-16") else "cp1252" if codec == "x-user-defined" else codec
    return None


_ASCII_PAIRS = [bytes((first, second)) for first in range(128) for second in range(128)]


@functools.lru_cache(maxsize=64)
def _is_ascii_compatible(codec: str) -> bool:
    """True when every ASCII byte means its ASCII character, whatever byte precedes it, so that the bytes can be
    tokenized as they are. Not so for UTF-16 and EBCDIC, nor for codecs whose ASCII escape sequences change what
    follows ("+" in UTF-7, "~{" in HZ, ESC in ISO-2022, "\\u" in raw_unicode_escape); and no other byte means an
    ASCII character."""
    try:
        if not all(pair.decode(codec) == pair.decode("ascii") for pair in _ASCII_PAIRS):
            return False
    except (ValueError, LookupError):
        return False
    return not any(_decodes_to_ascii(bytes([byte]), codec) for byte in range(128, 256))


def _decodes_to_ascii(data: bytes, codec: str) -> bool:
    """True when *data* reads as ASCII text (mac-farsi's second "<", 0xBC): a delimiter the byte scan would miss."""
    try:
        return data.decode(codec).isascii()
    except (ValueError, LookupError):
        return False


_CHUNK = 4096


def _decoded(data: bytes, codec: str) -> tuple[str, list[int]]:
    """*data* decoded, with the offset in *data* where each character starts (and ``len(data)`` at the end).

    *codec*'s incremental decoder is fed a byte at a time, and each character gets the bytes it came from. The
    bytes that yield nothing (an escape sequence, a UTF-7 "+...-" run) belong to the character after them, unless
    the decoder is back in its initial state after them (a closing "ESC ( B" or "-"): then to the one before, so
    that at every boundary in the initial state new text, encoded from that state, can be spliced. From such a
    state a chunk whose characters are each encoded on their own (valid UTF-16, EBCDIC) is taken at once; a long
    silent run is fed in growing steps: linear. Never raises: bytes the codec rejects are U+FFFD.
    """
    decoder = codecs.getincrementaldecoder(codec)("replace")
    initial = decoder.getstate()
    text: list[str] = []
    starts: list[int] = []
    boundary = position = next_chunk = 0
    step = 1
    while position < len(data):
        if boundary == position >= next_chunk:
            chunk = _decoded_at_once(data[position : position + _CHUNK], codec)
            if chunk is not None:
                text.append(chunk[0])
                starts.extend(position + at for at in chunk[1])
                position = boundary = position + chunk[2]
                continue
            next_chunk = position + _CHUNK
        stop = min(position + step, len(data))
        try:
            out = decoder.decode(data[position:stop], stop == len(data))
        except (ValueError, LookupError):  # a codec that allows no error handler but "strict" (idna, punycode)
            decoder.reset()
            out = "\ufffd"
        position = stop
        if out:
            starts.extend(_character_starts(out, data, boundary, position, codec))
            text.append(out)
            boundary, step = position, 1
        elif (state := decoder.getstate()) == initial:
            boundary = position
        elif len(state[0]) > 64:
            step *= 2
    starts.append(len(data))
    return "".join(text), starts


def _decoded_at_once(chunk: bytes, codec: str) -> tuple[str, list[int], int] | None:
    """*chunk* decoded, the offset where each character starts and the chunk's length, when each character is
    encoded on its own and the chunk's bytes are exactly those encodings; else None."""
    try:
        text = chunk.decode(codec)
        encoded = {character: character.encode(codec) for character in set(text)}
    except (ValueError, LookupError):  # UnicodeError, and codecs such as idna that raise otherwise
        return None
    if not text or b"".join(map(encoded.__getitem__, text)) != chunk:
        return None
    lengths = map(len, map(encoded.__getitem__, text))
    return text, list(itertools.accumulate(lengths, initial=0))[:-1], len(chunk)


def _character_starts(out: str, data: bytes, start: int, end: int, codec: str) -> list[int]:
    """Where each character of *out*, decoded from ``data[start:end]`` at once, starts: the trailing characters
    whose own encoding ends the bytes (a '"' that closes a UTF-7 run, the character after an invalid byte) get
    those bytes, the first gets the rest (a character without bytes of its own starts where the next one does)."""
    carved: list[int] = []
    stop = end
    for character in reversed(out[1:]):
        try:
            own = character.encode(codec)
        except (ValueError, LookupError):
            break
        if not own or stop - len(own) <= start or not data.endswith(own, start, stop):
            break
        stop -= len(own)
        carved.append(stop)
    return [start] + [stop] * (len(out) - 1 - len(carved)) + carved[::-1]


def _encoding(document: bytes, encoding: str | None) -> str:
    """The document's encoding: BOM, then the *encoding* argument, then <meta>, then UTF-8 if the bytes are
    UTF-8, else windows-1252 (HTML 13.2.3.1 "encoding sniffing"; the last step is its frequency analysis)."""
    given = None if encoding is None else _codec(encoding)
    if encoding is not None and given is None:
        if _python_codec(encoding.strip(ASCII_WHITESPACE).lower()) is not None:
            raise LookupError(f"encoding {encoding!r} is not a text encoding: it does not turn bytes into text")
        raise LookupError(f"unknown encoding {encoding!r}: not a label of the Encoding Standard or of Python")
    for bom, codec in _BOMS:
        if document.startswith(bom):
            return codec
    if given is not None:
        return given
    declared = _meta_encoding(document)
    if declared is not None:
        return declared
    if document.isascii():
        return "utf-8"
    try:
        document.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


# ------------------------------------------------------------------------------------------------ resolution
_SCHEME = re.compile(SCHEME)


def _scheme(reference: str) -> str | None:
    """The scheme of *reference* when it has a valid one (RFC 3986 3.1), else None."""
    scheme = split(reference).group(1)  # type: ignore[union-attr]  # appendix B matches any string
    return scheme if scheme is not None and _SCHEME.fullmatch(scheme) else None


_C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")


def _url_input(raw: str) -> str:
    """*raw* as the URL Standard's basic URL parser reads it (HTML parses every URL attribute with it): leading
    and trailing C0 control or space stripped, every ASCII tab or newline removed (``java&#x09;script:``)."""
    return _TAB_OR_NEWLINE.sub("", raw.strip(_C0_CONTROL_OR_SPACE))


def _target(raw: str, base: URIReference | None) -> str:
    """*raw* resolved against *base* by RFC 3986 5.2.2 (strict); *raw* itself when it stays relative or opaque.

    A reference with a scheme of its own keeps it and is resolved only when it is hierarchical (an authority
    or a path starting with "/"), which removes its dot segments; an opaque one (mailto:, javascript:, data:,
    urn:) stays exactly as written. A first segment with a ":" that is no scheme is a path ("./" of RFC 3986 4.2).
    *raw* is first cleaned as the URL parser of the URL Standard cleans its input (see :func:`_url_input`).
    """
    raw = _url_input(raw)
    reference = URIReference._make(split(raw).groups())  # type: ignore[union-attr]  # appendix B matches any string
    scheme = reference.scheme
    if scheme is not None and _SCHEME.fullmatch(scheme):
        if reference.authority is None and not reference.path.startswith("/"):
            return raw
        return resolve(reference, reference)  # 5.2.2: with a scheme, the base is not consulted
    if base is None:
        return raw
    return resolve(base, reference if scheme is None else "./" + raw)


_IGNORED_BASE_SCHEMES = frozenset({"data", "javascript"})


def _base(base_href: str | None, base_url: str | None) -> str | None:
    """The document's base URI: the first <base href> resolved against the retrieval URL (its fallback base URL),
    else that URL."""
    if base_url is not None and _scheme(base_url) is None:
        raise ResolutionError(f"base_url {base_url!r} is not absolute: it has no scheme (RFC 3986 5.1)")
    if base_href is None:
        return base_url
    target = _target(base_href, None if base_url is None else parse(base_url))
    scheme = _scheme(target)
    # HTML "set the frozen base URL": a URL that fails to parse or whose scheme is data or javascript is ignored.
    return base_url if scheme is None or scheme.lower() in _IGNORED_BASE_SCHEMES else target


# ------------------------------------------------------------------------------------------- public functions
class _Document(NamedTuple):
    view: str  # the text tokenized: the str itself, bytes one character per byte, or the decoded bytes
    codec: str | None  # the encoding of bytes input
    starts: list[int] | None = None  # for decoded bytes, the input offset of each view offset (BOM included)

    @property
    def one_to_one(self) -> bool:
        """True when view offsets are the input's offsets (str, or bytes tokenized one character per byte)."""
        return self.starts is None

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
    codec = _encoding(data, encoding)
    if _is_ascii_compatible(codec):
        return _Document(data.decode("latin-1"), codec)
    # UTF-16, ISO-2022-JP and the like: tokenize the decoded text and map its offsets back to bytes.
    bom = next((len(b) for b, c in _BOMS if data.startswith(b) and c == codec), 0)
    text, starts = _decoded(data[bom:], codec)
    return _Document(_SURROGATES.sub("\ufffd", text), codec, [bom + at for at in starts])


class _Resolved(NamedTuple):
    """A scanned document with the target of each URL it holds."""

    prepared: _Document
    found: list[_Found]
    uris: list[str]
    base: str | None  # the effective base
    base_hrefs: set[int]  # the indices of the <base href> links, resolved against base_url
    base_url: str | None

    def links(self) -> Iterator[Link]:
        """The Links, spans in input offsets."""
        where = None if self.prepared.one_to_one else self.prepared.offsets({p for f in self.found for p in f.span})
        for index, (f, uri) in enumerate(zip(self.found, self.uris)):
            span = f.span if where is None else (where[f.span[0]], where[f.span[1]])
            yield Link(f.tag, f.attr, f.raw, uri, span, self.base_url if index in self.base_hrefs else self.base)


def _resolved(document: str | bytes, base_url: str | None, encoding: str | None) -> _Resolved:
    """Scan *document* and resolve each URL against the document's base."""
    prepared = _prepare(document, encoding)
    scan = _scan(prepared.view, prepared.codec if prepared.one_to_one else None)
    base = _base(scan.base.raw if scan.base is not None else None, base_url)
    parsed_base = None if base is None else parse(base)
    parsed_base_url = None if base_url is None else parse(base_url)
    targets: dict[str, str] = {}  # a document repeats its links: each is resolved once
    uris = []
    for index, f in enumerate(scan.found):
        if index in scan.base_hrefs:  # a <base href> is resolved against the retrieval URL (its fallback base)
            uris.append(_target(f.raw, parsed_base_url))
            continue
        uri = targets.get(f.raw)
        if uri is None:
            uri = targets[f.raw] = _target(f.raw, parsed_base)
        uris.append(uri)
    return _Resolved(prepared, scan.found, uris, base, scan.base_hrefs, base_url)


def links(document: str | bytes, *, base_url: str | None = None, encoding: str | None = None) -> list[Link]:
    """Every URL of an HTML *document* in document order, resolved against its base (RFC 3986 5.1.1, 5.2).

    *base_url* is the retrieval URL (5.1.3); *encoding* overrides a <meta> declaration (a BOM still wins).
    """
    return list(_resolved(document, base_url, encoding).links())


def _held(value: str, kind: str) -> str:
    """*value* with what its place cannot hold percent-encoded (RFC 3986 2.1), so that it reads back as written:
    NUL (HTML reads U+FFFD) and surrounding ASCII whitespace (stripped) anywhere; any ASCII whitespace in lists
    (ping, itemtype) and srcset, which it would split; leading and trailing commas in srcset (the candidate
    splitting drops them); quotes in a refresh URL (they end a quoted one and open an unquoted one). An empty
    value fits only where a whole attribute is one URL: elsewhere it is a ValueError."""
    if not value and kind != URL:
        raise ValueError(f"an empty URL cannot be written in a {kind} value: it would vanish or change its neighbours")
    inner = "\0" + (ASCII_WHITESPACE if kind in (TOKENS, SRCSET) else "") + ("'\"" if kind == REFRESH else "")
    edges = ASCII_WHITESPACE + ("," if kind == SRCSET else "")
    core = value.strip(edges)
    head = value[: len(value) - len(value.lstrip(edges))]
    tail = value[len(head) + len(core) :]
    if any(c in inner for c in core):
        core = "".join(percent_encode(c) if c in inner else c for c in core)
    return percent_encode(head) + core + percent_encode(tail)


def _needs_quotes(value: str) -> bool:
    """Whether an unquoted attribute value must be quoted to be read back (13.2.5.38)."""
    return not value or value[0] in "\"'" or any(c in value for c in "\t\n\f\r >")


def _css_escape(value: str, context: str) -> str:
    """*value* written in a CSS string (context is its quote) or an unquoted url() (context ")")."""
    if context == ")":
        unsafe = "\"'()\\"
        return "".join(
            "\\" + c
            if c in unsafe
            else f"\\{ord(c):06x}" if c in ASCII_WHITESPACE or ord(c) < 0x20 or c == "\x7f" else c
            for c in value
        )
    return "".join("\\" + c if c in ("\\", context) else f"\\{ord(c):06x}" if c in "\n\r\f" else c for c in value)


def _css_error(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a character the encoding lacks, written as a CSS escape."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(f"\\{ord(c):06x}" for c in error.object[error.start : error.end]), error.end


codecs.register_error("linkkit.css", _css_error)


def _written(value: str, css: str | None, quote: str | None) -> tuple[str, str]:
    """*value* escaped for its place (minimal escaping, issue 4) and the codec error handler for it."""
    if css is not None:
        value = _css_escape(value, css)
    if quote == "<":
        if "</" in value:  # "</style" would end the element: "<" as a CSS escape
            value = value.replace("<", "\\00003c")
        return value, "linkkit.css"
    value = value.replace("&", "&amp;").replace("\r", "&#13;")  # a literal CR would be read as LF (13.2.3.5)
    if quote == '"':
        value = value.replace('"', "&quot;")
    elif quote == "'":
        value = value.replace("'", "&#39;")
    return value, "xmlcharrefreplace"


def rewrite(
    document: Document,
    repl: Callable[[Link], str],
    *,
    base_url: str | None = None,
    encoding: str | None = None,
) -> Document:
    """*document* with each URL replaced by ``repl(link)``; every other byte is copied as it is.

    A link whose new value equals its ``raw`` is not touched. A new value is written literally in the
    document's encoding, escaped only as its place needs (``&`` and the quote in attributes; CSS escapes in
    CSS; a numeric character reference for a character the encoding lacks; an unquoted value gets quotes only
    when it must). The result has the type of *document*.
    """
    resolved = _resolved(document, base_url, encoding)
    return _rewritten(document, resolved, [repl(link) for link in resolved.links()])


def absolutize(document: Document, base_url: str | None = None, *, encoding: str | None = None) -> Document:
    """*document* with every relative reference replaced by its absolute form (:func:`rewrite` with
    ``lambda link: link.uri``)."""
    resolved = _resolved(document, base_url, encoding)
    return _rewritten(document, resolved, resolved.uris)


def _rewritten(document: Document, resolved: _Resolved, news: list[str]) -> Document:
    """*document* with the URLs *resolved* found replaced by *news*, each escaped for its place."""
    edits: list[tuple[int, int, str, str]] = []  # view start, view end, text, codec error handler
    # Changes in unquoted values, grouped by value: one that must be quoted is quoted as a whole.
    unquoted: dict[tuple[int, int], list[tuple[_Found, str]]] = {}
    for f, new in zip(resolved.found, news):
        if new == f.raw:
            continue
        new = _held(new, f.kind)
        quote = f.quote
        if quote and quote in "\"'<":
            text, errors = _written(new, f.css, quote)
            edits.append((f.span[0], f.span[1], text, errors))
        else:
            unquoted.setdefault((f.start, f.end), []).append((f, new))
    if not edits and not unquoted:
        return document
    prepared = resolved.prepared
    view = prepared.view
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
            edits.append((item.span[0], item.span[1], text, errors))
        if added:  # after the URL edits: an empty value's URL and both quotes share one position
            edits.append((end, end, added, "strict"))
    edits.sort(key=lambda edit: (edit[0], edit[1]))
    return _apply(document, prepared, edits)


def _apply(document: Document, prepared: _Document, edits: list[tuple[int, int, str, str]]) -> Document:
    """*document* with each (start, end) of the view replaced by its text, encoded in the document's encoding."""
    if not prepared.one_to_one:
        where = prepared.offsets({p for start, end, _, _ in edits for p in (start, end)})
        edits = [(where[start], where[end], text, errors) for start, end, text, errors in edits]
    pieces: list[Any] = []
    position = 0
    codec = prepared.codec
    for start, end, text, errors in edits:
        pieces.append(document[position:start])
        pieces.append(text if codec is None else _encoded(text, codec, errors))
        position = end
    pieces.append(document[position:])
    return ("" if isinstance(document, str) else b"").join(pieces)


def _encoded(text: str, codec: str, errors: str) -> bytes:
    """*text* in *codec*, a character it lacks written as the *errors* handler escapes it; character by character
    when the codec refuses the handler (idna and punycode allow only "strict"). Never raises: a character
    neither it nor its escape can be written in is written as its escape in ASCII."""
    try:
        return text.encode(codec, errors)
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
                pieces.append(form.encode(codec))
                break
            except (ValueError, LookupError):
                continue
        else:
            pieces.append(escaped.encode("ascii", "xmlcharrefreplace"))
    return b"".join(pieces)


# ------------------------------------------------------------------------------------- trees others have built
_NAMESPACES = {"http://www.w3.org/1999/xhtml": "html", "http://www.w3.org/2000/svg": "svg",
               "http://www.w3.org/1998/Math/MathML": "math"}
_XLINK = "{http://www.w3.org/1999/xlink}"
# An element of a tree, its lower-case local name, its namespace ("html", "svg", "math"), inside a template?
_Element = tuple[Any, str, str, bool]


def _walk(
    root: Any, children: Callable[[Any], list[Any]], name: Callable[[Any], tuple[str | None, str | None]]
) -> Iterator[_Element]:
    """The elements under *root* in tree order, with the namespace and template context of each."""
    pending: list[tuple[Any, str, bool]] = [(root, "html", False)]
    while pending:
        element, namespace, template = pending.pop()
        uri, local = name(element)
        if local is None:
            continue
        local = local.lower()
        if uri in _NAMESPACES:
            namespace = _NAMESPACES[uri]
        elif namespace == "html" and local in ("svg", "math"):
            namespace = local
        yield element, local, namespace, template
        inner = "html" if namespace != "html" and local in _INTEGRATION_POINTS[namespace] else namespace
        inside = template or (local == "template" and namespace == "html")
        pending.extend((child, inner, inside) for child in reversed(children(element)))


def _replaced(text: str, urls: Iterator[tuple[int, int, str, str | None]], make: Callable[[str, tuple[int, int]], Link],
              repl: Callable[[Link], str]) -> str | None:
    """*text* with the URLs *urls* locates replaced by ``repl``, or None when none changes."""
    pieces, position = [], 0
    for start, end, raw, css in list(urls):
        new = repl(make(raw, (start, end)))
        if new != raw:
            pieces += [text[position:start], new if css is None else _css_escape(new, css)]
            position = end
    return None if not pieces else "".join(pieces) + text[position:]


def _rewrite_elements(elements: list[_Element], attributes: Callable[[Any], dict[str, tuple[str, str]]],
                      set_attribute: Callable[[Any, str, str], None], style: Callable[[Any], str | None],
                      set_style: Callable[[Any, str], None], repl: Callable[[Link], str], base_url: str | None) -> None:
    """The rewriting of :func:`rewrite`, on a tree: the same places, base and resolution."""
    base_href = None
    for element, tag, namespace, template in elements:
        if tag == "base" and namespace == "html" and not template and "href" in attributes(element):
            base_href = attributes(element)["href"][1].strip(ASCII_WHITESPACE)
            break
    base = _base(base_href, base_url)
    parsed_base = None if base is None else parse(base)
    parsed_base_url = None if base_url is None else parse(base_url)

    def maker(tag: str, attr: str | None, is_base: bool) -> Callable[[str, tuple[int, int]], Link]:
        def make(raw: str, span: tuple[int, int]) -> Link:
            if is_base:  # a <base href> is resolved against the retrieval URL (its fallback base)
                return Link(tag, attr, raw, _target(raw, parsed_base_url), span, base_url)
            return Link(tag, attr, raw, _target(raw, parsed_base), span, base)

        return make

    for element, tag, namespace, _ in elements:
        attrs = attributes(element)
        places = FOREIGN_PLACES if namespace != "html" else {**PLACES.get(tag, {}), **GLOBAL_PLACES}
        for name, kind in places.items():
            if name in attrs:
                key, value = attrs[name]
                make = maker(tag, name, tag == "base" and namespace == "html" and name == "href")
                new = _replaced(value, READERS[kind](value), make, repl)
                if new is not None:
                    set_attribute(element, key, new)
        if tag == "meta" and "content" in attrs and attrs.get("http-equiv", ("", ""))[1].lower() == "refresh":
            key, value = attrs["content"]
            new = _replaced(value, read_refresh(value), maker(tag, "content", False), repl)
            if new is not None:
                set_attribute(element, key, new)
        if tag == "style":
            text = style(element)
            if text:
                new = _replaced(text, read_css(text), maker(tag, None, False), repl)
                if new is not None:
                    set_style(element, new)


def rewrite_lxml(tree: Any, repl: Callable[[Link], str], *, base_url: str | None = None) -> Any:
    """The rewriting of :func:`rewrite` on an lxml tree (``lxml.html`` or ``lxml.etree``), in place; returns it.

    The bytes are not preserved: serializing the tree writes it anew. Spans are offsets in the attribute
    value or the <style> text. Values are written unescaped (but CSS escapes); the serializer escapes them.
    """
    root = tree.getroot() if hasattr(tree, "getroot") else tree

    def name(element: Any) -> tuple[str | None, str | None]:
        if not isinstance(element.tag, str):  # comments, processing instructions, entities
            return None, None
        uri, _, local = element.tag[1:].partition("}") if element.tag[:1] == "{" else ("", "", element.tag)
        return uri, local

    def attributes(element: Any) -> dict[str, tuple[str, str]]:
        result: dict[str, tuple[str, str]] = {}
        for key, value in element.attrib.items():
            result.setdefault(("xlink:" + key[len(_XLINK):]) if key.startswith(_XLINK) else key.lower(), (key, value))
        return result

    def set_style(element: Any, text: str) -> None:
        element.text = text

    _rewrite_elements(list(_walk(root, list, name)), attributes, lambda e, k, v: e.set(k, v),
                      lambda e: e.text, set_style, repl, base_url)
    return tree


def rewrite_soup(soup: Any, repl: Callable[[Link], str], *, base_url: str | None = None) -> Any:
    """The rewriting of :func:`rewrite` on a BeautifulSoup tree, in place; returns it.

    The bytes are not preserved: serializing the tree writes it anew. Spans are offsets in the attribute
    value or the <style> text. Values are written unescaped (but CSS escapes); the serializer escapes them.
    """
    from bs4.element import Tag

    def name(element: Any) -> tuple[str | None, str | None]:
        if element.name == "[document]":
            return None, "#document"
        return getattr(element, "namespace", None), element.name

    def attributes(element: Any) -> dict[str, tuple[str, str]]:
        result: dict[str, tuple[str, str]] = {}
        for key, value in element.attrs.items():
            result.setdefault(key.lower(), (key, " ".join(value) if isinstance(value, list) else value))
        return result

    def set_attribute(element: Any, key: str, value: str) -> None:
        element[key] = value

    def style(element: Any) -> str | None:
        text = element.string
        return None if text is None else str(text)

    def set_style(element: Any, text: str) -> None:
        element.string.replace_with(type(element.string)(text))

    def children(element: Any) -> list[Any]:
        return [child for child in element.children if isinstance(child, Tag)]

    _rewrite_elements(list(_walk(soup, children, name)), attributes, set_attribute, style, set_style, repl, base_url)
    return soup
