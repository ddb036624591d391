"""The HTML tokenizer, the hot loop: locate tags, attributes, comments and raw text as the HTML standard's
tokenization (13.2.5) does, and record where each value holding URLs lies in the input."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from html.entities import html5 as NAMED_CHARACTER_REFERENCES
from sys import intern
from typing import NamedTuple, cast

from .css import read_css
from .decoding import WINDOWS_1252, _decoded
from .places import (
    CSS,
    FOREIGN_PLACES,
    GLOBAL_PLACES,
    PLACES,
    REFRESH,
    SRCSET,
    TOKENS,
    URL,
    WS,
    Reader,
    read_refresh,
    read_srcset,
    read_tokens,
    read_url,
)

# How the scan reads the value of each kind of place.
READERS: dict[str, Reader] = {
    URL: read_url, TOKENS: read_tokens, SRCSET: read_srcset, CSS: read_css, REFRESH: read_refresh
}

# ---------------------------------------------------------------------------------------------------- tokenizer
# 13.2.5.32-40: an attribute name runs to whitespace, "/", ">" or "=" (a leading "=" belongs to the name); a value
# is double-quoted, single-quoted, or unquoted (to whitespace or ">"); "a= >" has an empty value. Once "=" is
# seen a value must follow, so a quote left open at end of file makes the whole tag fail to match: the tag is
# cut off and dropped (13.2.5.x "eof-in-tag"). Every loop is possessive, so matching is linear.
_ATTRIBUTE = (
    r"[^\t\n\f\r />][^\t\n\f\r />=]*+"
    rf"(?:{WS}*+={WS}*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\f\r >\"'][^\t\n\f\r >]*+|(?=>))"
    rf"|(?!{WS}*+=))"
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
# 13.2.5.6 tag open state: where a "<" in text opens markup (a tag, a comment, a bogus comment); any other "<" is text.
_MARKUP_OPEN = re.compile(r"<[A-Za-z!/?]")
# 13.2.5.2-3, 13.2.5.4: raw text and RCDATA end at "</name" followed by whitespace, "/" or ">", the name compared
# ASCII case-insensitively (13.2.5.11 "appropriate end tag token"; 13.2.5.8 lowers ASCII upper alpha alone): re.ASCII,
# for Unicode case folding would take "</\u017ftyle>" (LATIN SMALL LETTER LONG S) for "</style>".
_RAW_TEXT_END = {
    name: re.compile(rf"</{name}(?=[\t\n\f\r />])", re.ASCII | re.IGNORECASE)
    for name in ("style", "xmp", "iframe", "noembed", "noframes", "title", "textarea")
}
# 13.2.5.4-31 script data: inside "<!--", a "<script" makes the next "</script>" not end the element (the name
# compared ASCII case-insensitively, as above).
_SCRIPT_TOKENS = re.compile(r"<!--|-->|<(/?)script(?=[\t\n\f\r />])", re.ASCII | re.IGNORECASE)
_DASHES_GT = re.compile(r"-*>")
# The markup that cannot hold a link or change the state of the scan, skipped inside the regex engine (in HTML
# content): text, comments, bogus comments, end tags but </template>, and start tags that change no state and
# have no attribute of a name that holds URLs somewhere (but a style that holds no URL, see _skipped_attributes).
# Names compare in ASCII case only (see _caseless).
# The branches begin differently (but the comment before the bogus comment), so their order changes nothing but
# speed: the commonest first. In a tag, ">" right after the name is tried before the attributes: most tags have
# none, and the branch that ends there is cheaper than an empty run of attributes (the step 8% faster).
_SKIPPED_PATTERN = (
    r"(?:[^<]++"
    rf"|</(?!{{template}}[\t\n\f\r />])[A-Za-z][^\t\n\f\r />]*+(?:>|{_TAG_REST}[\t\n\f\r /]*+>)"
    r"|<(?!{names}[\t\n\f\r />])[A-Za-z][^\t\n\f\r />]*+(?:>|{unread}[\t\n\f\r /]*+>)"
    r"|<!--(?:-?>|[^-]*+(?:-(?!-!?>)[^-]*+)*+--!?>|[\s\S]*+)"
    r"|<[!?][^>]*+>?"
    r"|</(?![A-Za-z])[^>]*+>?"
    r"|<(?![A-Za-z!?/])"
    r")*+"
)
# The tag that most often holds a link, taken in the same match as the markup skipped before it: a start tag that
# changes no state, is not <base>, and has exactly one attribute of a name that holds URLs (<a href="...">), but
# for styles that hold none.
_LINK_TAG_PATTERN = (
    r"(?P<link><(?P<tag>(?!{plain}[\t\n\f\r />])[A-Za-z][^\t\n\f\r />]*+){unread}{read}"
    r"(?:>|{unread}[\t\n\f\r /]*+>))?"
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
# 13.2.6 "HTML integration point" and "MathML text integration point": their content is HTML again (and a MathML
# annotation-xml whose encoding is HTML's, see _is_html_annotation).
_INTEGRATION_POINTS = {
    "svg": frozenset({"foreignobject", "desc", "title"}),
    "math": frozenset({"mi", "mo", "mn", "ms", "mtext"}),
}
# 13.2.6.5 "in foreign content", any other start tag: an SVG element's name is given the case of this table (the
# tokenizer lowered it), so a Link's tag is the element's name in the DOM: <linearGradient xlink:href="#g">.
_SVG_TAG_NAMES = {name.lower(): name for name in (
    "altGlyph altGlyphDef altGlyphItem animateColor animateMotion animateTransform clipPath feBlend feColorMatrix "
    "feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight "
    "feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology "
    "feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence foreignObject glyphRef linearGradient "
    "radialGradient textPath"
).split()}
# 13.2.6 "tree construction dispatcher": right inside a MathML text integration point, these start tags are still
# MathML elements (so their href is a link).
_MATHML_GLYPHS = frozenset({"mglyph", "malignmark"})
# 13.1.2 void elements: a start tag of one opens nothing that an end tag would close.
_VOID = frozenset("area base br col embed hr img image input link meta source track wbr".split())


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


def _caseless(words: list[str]) -> str:
    """A regex matching *words* in any ASCII case: the tokenizer lowers "ASCII upper alpha" alone (13.2.5.8,
    13.2.5.33). The first letter is written as two literals, which the regex engine rejects without entering the
    branch, the rest as (?ai:...): the step runs about 14% faster than with one (?i:...) around the whole trie.
    A lookahead for the classes of the first two letters comes first: most names that are not *words* (class,
    id, span, code) fail it by two set tests, without the alternation (the step about 15% faster again)."""
    branches: dict[str, list[str]] = {}
    for word in words:
        branches.setdefault(word[:1], []).append(word[1:])
    alternatives = [
        re.escape(letter) + (f"(?ai:{rest})" if (rest := _trie(tails)) else "")
        for first, tails in sorted(branches.items())
        for letter in sorted({first.lower(), first.upper()})
    ]
    guarded = min(2, *map(len, words))  # how many first letters every word has
    classes = (
        "[" + re.escape("".join(sorted({c for word in words for c in (word[i].lower(), word[i].upper())}))) + "]"
        for i in range(guarded)
    )
    return "(?=" + "".join(classes) + ")(?:" + "|".join(alternatives) + ")"


# The "quote" of CSS in the text of a <style>: raw text (13.2.5.3), which only its end tag ends; the text of an SVG
# <style>, where "<" starts a tag and "&" a character reference (13.2.6.5: no raw text in foreign content); a CDATA
# section in it, which only "]]>" ends (13.2.5.69). A MathML <style> is no style sheet (MathML has no such element).
RAW_TEXT, FOREIGN_TEXT, CDATA_TEXT = "<", "&", "]"
STYLE_TEXTS = RAW_TEXT + FOREIGN_TEXT + CDATA_TEXT


class _Found(NamedTuple):
    """A URL as the scan finds it (view offsets), with what rewriting needs to know of its place.

    start and end delimit the enclosing value; quote is '"', "'", "" (unquoted), None (an attribute without a
    value) or one of STYLE_TEXTS (the text of a <style>); css is None outside CSS, else the quote of the CSS
    string holding the URL or ")" inside an unquoted url().
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


# --------------------------------------------------------------------------------------- character references
# 13.2.5.72-80 character reference state; numeric references to C1 controls mean windows-1252 (13.2.5.80).
_CHARACTER_REFERENCE = re.compile(r"&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*;?))")
_C1_REPLACEMENTS = {n: c for n in range(0x80, 0xA0) if (c := WINDOWS_1252[n]) != chr(n)}


def _character_reference(match: re.Match[str], follower: str, in_text: bool) -> tuple[str, int] | None:
    """The text a character reference stands for and where it ends, or None when it is literal text.

    13.2.5.73: in an attribute, a named reference without ";" followed by "=" or an alphanumeric stays as
    written (``?a=1&copy=2`` keeps ``&copy``); the regex takes the whole alphanumeric run, so only "=" is left.
    In text (*in_text*) the longest name of the table that begins the run is the reference, with or without its
    ";" (``&copyx`` is ``©x``, ``&notin`` is ``¬in``), and whatever follows it.
    """
    hexadecimal, decimal, name = match.groups()
    if name is not None:
        if name in NAMED_CHARACTER_REFERENCES and (in_text or name[-1] == ";" or follower != "="):
            return NAMED_CHARACTER_REFERENCES[name], match.end()
        if not in_text:
            return None
        # the names without ";" in the table are the legacy ones, at most 6 letters long
        for length in range(min(len(name), 7) - 1, 1, -1):
            if name[:length] in NAMED_CHARACTER_REFERENCES:
                return NAMED_CHARACTER_REFERENCES[name[:length]], match.start() + 1 + length
        return None
    number = int(hexadecimal, 16) if hexadecimal is not None else int(decimal)
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd", match.end()
    return _C1_REPLACEMENTS.get(number) or chr(number), match.end()


# Lone surrogates a codec may yield (``\\udc80`` in raw_unicode_escape): not text, read as U+FFFD.
_SURROGATES = re.compile("[\ud800-\udfff]")


def _decode(
    view: str, start: int, end: int, codec: str | None, references: bool, *, in_text: bool = False
) -> tuple[str, list[int] | None]:
    """The text of ``view[start:end]`` as the parser yields it, with the input offset of each character.

    *codec* is the document's encoding when *view* holds bytes (one character per byte); undecodable bytes
    become U+FFFD. Character references are decoded with *references*, as in an attribute value, or as in text
    with *in_text* too (see :func:`_character_reference`). The offsets are None when they are ``start + i``, else
    a list one longer than the text.
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
        if transcode and codec is not None and not text.isascii():
            text, relative = _decoded(text.encode("latin-1"), codec)
            starts = [position + at for at in relative[:-1]]
        else:
            starts = list(range(position, stop))
        if "\r" in text:  # 13.2.3.5 preprocessing: CR LF and a lone CR are LF (CR LF at the CR's offset)
            kept: list[int] = []  # the offsets but each CR LF's LF, taken a slice at a time
            cut, index = 0, text.find("\r\n")
            while index != -1:
                kept += starts[cut : index + 1]
                cut, index = index + 2, text.find("\r\n", index + 2)
            starts = kept + starts[cut:]
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts.append(text)
        offsets.extend(starts)

    if references:
        for match in _CHARACTER_REFERENCE.finditer(view, start, end):
            follower = view[match.end() : match.end() + 1] if match.end() < end else ""
            reference = _character_reference(match, follower, in_text)
            if reference is None:
                continue
            literal(match.start())
            text, position = reference
            parts.append(text)
            offsets.extend([match.start()] * len(text))
    literal(end)
    offsets.append(end)
    text = "".join(parts).replace("\0", "\ufffd")
    if transcode:
        text = _SURROGATES.sub("\ufffd", text)
    return text, offsets


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


# A double-quoted value that is its own URL as written: printable ASCII but '"' and "&" (no character reference),
# no space at either end (HTML strips ASCII whitespace around a URL). A narrower rule than the plain value
# collect() takes as it is (non-ASCII printable text of a str is plain there too), tested against it by the
# differential test of the skipping step.
_PLAIN_VALUE = r"(?:[!#-%'-~]++(?: ++[!#-%'-~]++)*+)?"


def _read_attribute(names: str) -> str:
    """A regex for one attribute whose name *names* (a regex) matches in any ASCII case, with groups name, dq, sq
    and uq (the value double-quoted, single-quoted, unquoted), and plain (the double-quoted value, when it is a
    :data:`_PLAIN_VALUE`); as in _ATTRIBUTE, a value must follow "="."""
    return (
        rf"[\t\n\f\r /]*+(?P<name>{names})(?=[\t\n\f\r />=])"
        rf"(?:{WS}*+={WS}*+"
        rf"(?:\"(?P<dq>(?P<plain>{_PLAIN_VALUE})(?=\")|[^\"]*+)\"|'(?P<sq>[^']*+)'"
        rf"|(?P<uq>[^\t\n\f\r >\"'][^\t\n\f\r >]*+|(?=>)))"
        rf"|(?!{WS}*+=))"
    )


def _unread_attributes(names: str) -> str:
    """A regex for the attributes whose names *names* does not match, skipped inside the regex engine."""
    return rf"(?:[\t\n\f\r /]*+(?!{names}[\t\n\f\r />=]){_ATTRIBUTE})*+"


# A style attribute whose value holds no "(" or "@" holds no CSS URL: a url( or image-set( needs its "(", an @import
# its "@" (CSS Syntax 3, 4.3.4 and 4.3.1: an escaped one is a name's); nor may a character reference write one
# (&lpar;, &commat; and the numeric ones; &quot;, which browsers write in a font-family, may stand). Outlook, Word
# and the mail editors put such a style on nearly every element: the step skips it as it skips a class. This is the
# value of a style attribute that may hold a URL (the step reads it).


def _style_with_url(ends: str) -> str:
    """A regex for a style value up to its first "(", "@" or character reference that may write one; *ends* (a
    class's characters) end the value first."""
    return rf"(?:[^{ends}(@&]++|&(?!#|lpar;|commat;))*+(?:[(@]|&)"


_STYLE_VALUE_WITH_URL = (
    rf"{WS}*+={WS}*+(?:\"" + _style_with_url('"') + "|'" + _style_with_url("'")
    + r"|(?=[^\t\n\f\r >\"'])" + _style_with_url(r"\t\n\f\r >") + ")"
)
_STYLE = re.compile("style", re.ASCII | re.IGNORECASE)  # where a skipped style may lie before the step's own


def _skipped_attributes(names: str) -> str:
    """A regex for the attributes the step skips: those whose names *names* does not match, and a style attribute
    that holds no URL (so the style the step takes may be a second one, which HTML ignores: see _scan). Only a name
    of *names* pays for the style test: after it, a look-behind tells style (no other name ends so)."""
    style = "[Ss][Tt][Yy][Ll][Ee]"
    return (
        rf"(?:[\t\n\f\r /]*+(?!{names}(?:(?<!{style})[\t\n\f\r />=]"
        rf"|(?<={style})(?=[\t\n\f\r />=]){_STYLE_VALUE_WITH_URL})){_ATTRIBUTE})*+"
    )


# The names of the attributes that hold URLs, on some HTML element or on every one.
_URL_ATTRIBUTES = _caseless(sorted({name for places in PLACES.values() for name in places} | {*GLOBAL_PLACES}))
# One step of the scan in HTML content: the markup skipped, then <a href="..."> and its like when it comes next
# (group "link"); else the next markup starts where the match ends.
_STEP = re.compile(
    _SKIPPED_PATTERN.replace("{names}", _caseless(sorted(_STATE_TAGS)))
    .replace("{template}", _caseless(["template"]))
    .replace("{unread}", _skipped_attributes(_URL_ATTRIBUTES))
    + _LINK_TAG_PATTERN.replace("{plain}", _caseless(sorted(_STATE_TAGS | {"base"})))
    .replace("{unread}", _skipped_attributes(_URL_ATTRIBUTES))
    .replace("{read}", _read_attribute(_URL_ATTRIBUTES))
)

# PLACES by (element, attribute), for the tags the step takes.
_LINK_PLACES = {(tag, name): kind for tag, places in PLACES.items() for name, kind in places.items()}

# The attributes the scan reads: those that hold URLs, <meta>'s charset, http-equiv and content, and the names
# that make a <font> leave SVG.
_READ_ATTRIBUTES = _caseless(
    sorted(
        {name for places in PLACES.values() for name in places}
        | {*FOREIGN_PLACES}
        | {"charset", "http-equiv", "content"}
        | _FONT_BREAKOUT
    )
)
# One read attribute, after the attributes before it that are not read.
_READ_ATTRIBUTE = re.compile(_unread_attributes(_READ_ATTRIBUTES) + _read_attribute(_READ_ATTRIBUTES))


def _value(match: re.Match[str]) -> tuple[int, int, str | None]:
    """(start, end, quote) of the value of the attribute *match* read with :func:`_read_attribute`'s groups; an
    attribute without a value has an empty one where its name ends, quote None."""
    if (start := match.start("dq")) >= 0:
        return start, match.end("dq"), '"'
    if (start := match.start("sq")) >= 0:
        return start, match.end("sq"), "'"
    if (start := match.start("uq")) >= 0:
        return start, match.end("uq"), ""
    end = match.end("name")
    return end, end, None


# 13.2.6 "HTML integration point": a MathML annotation-xml element whose start tag has an encoding attribute that
# is one of these, in ASCII case.
_HTML_ANNOTATION_ENCODINGS = frozenset({"text/html", "application/xhtml+xml"})
_ENCODING_ATTRIBUTE = re.compile(_unread_attributes(_caseless(["encoding"])) + _read_attribute(_caseless(["encoding"])))


def _is_html_annotation(view: str, start: int, end: int, codec: str | None) -> bool:
    """Whether a MathML annotation-xml tag whose attributes run from *start* to its ">" at *end* is an HTML
    integration point (13.2.6): its content is HTML again."""
    match = _ENCODING_ATTRIBUTE.match(view, start, end)
    if match is None:
        return False
    value_start, value_end, _ = _value(match)
    value = _decode(view, value_start, value_end, codec, True)[0]
    return value.isascii() and value.lower() in _HTML_ANNOTATION_ENCODINGS


def _attributes(view: str, start: int, end: int) -> dict[str, tuple[int, int, str | None]]:
    """The read attributes of a tag, from *start* to its ">" at *end*: lower-case name -> (value start, value end,
    quote); the first of a name wins."""
    attributes: dict[str, tuple[int, int, str | None]] = {}
    match = _READ_ATTRIBUTE.match(view, start, end)
    while match is not None:
        name = intern(match.group("name").lower())  # one string per name, not one per link
        if name not in attributes:  # 13.2.5.33: a duplicate attribute is dropped
            attributes[name] = _value(match)
        match = _READ_ATTRIBUTE.match(view, match.end(), end)
    return attributes


# 13.2.5.8 tag name state: an ASCII upper alpha is lowered, U+0000 becomes U+FFFD, every other character is kept.
_TAG_NAME = str.maketrans({**{c: c.lower() for c in string.ascii_uppercase}, "\0": "\ufffd"})


def tag_name(written: str) -> str:
    """A tag's name as the tokenizer yields it (13.2.5.8): str.lower() folds more than ASCII (KELVIN SIGN is "k", so
    ``<lin\u212a href=x>`` would be a <link>); the common ASCII name without NUL takes the faster str.lower()."""
    if written.isascii() and "\0" not in written:
        return written.lower()
    return written.translate(_TAG_NAME)


def _link_place(tag: str, name: str) -> tuple[str, str, str | None]:
    """The tag and attribute names of a tag the step took, as written, lowered (13.2.5.8, 13.2.5.33) and interned
    (one string per name, not one per link), with the kind of place they make (None: it holds no URL). The step
    matched the attribute's name ASCII-caselessly among the URL attributes: str.lower() is exact there."""
    tag, name = intern(tag_name(tag)), intern(name.lower())
    return tag, name, _LINK_PLACES.get((tag, name)) or GLOBAL_PLACES.get(name)


class _Scan(NamedTuple):
    found: list[_Found]
    base: _Found | None  # the first <base href> outside templates
    base_hrefs: set[int]  # the indices in found of every HTML <base href>
    declared: str | None  # the encoding the first <meta> declaring a known one declares, when asked (_scan)
    cdata: dict[int, int]  # where each CDATA section (SVG, MathML) starts, its "<": where its text ends


def _scan(view: str, codec: str | None, declares: Callable[[dict[str, str]], str | None] | None = None) -> _Scan:
    """Tokenize *view* once, collecting the URLs in document order and the document's <base href>."""
    found: list[_Found] = []
    base: _Found | None = None
    base_hrefs: set[int] = set()
    declared: str | None = None
    cdata: dict[int, int] = {}
    templates: list[int] = []  # the depth of stack at each open HTML <template>
    stack: list[tuple[str, str]] = []  # (tag, namespace) of open svg/math roots and HTML integration points
    # For an integration point at stack depth d (len(stack)), how many HTML elements are open inside it: at 0 the
    # integration point itself is the current node (a CDATA section and <mglyph> are then foreign, 13.2.5.42, 13.2.6).
    opened: dict[int, int] = {}
    position = 0
    search, match_markup = _MARKUP.search, _MARKUP.match
    # A step always matches (every branch of the skipped markup may repeat zero times): typed so. Read from _STEP
    # at each scan, so that the differential test's substitute step takes effect.
    step = cast("Callable[[str, int], re.Match[str]]", _STEP.match)  # a string: no type built per scan
    values: dict[str, str] = {}
    link_places: dict[tuple[str, ...], tuple[str, str, str | None]] = {}  # _link_place of each name as written
    new_found = tuple.__new__  # a NamedTuple's own __new__ is a Python function: this is the same, in C
    append = found.append

    def collect(tag: str, name: str, kind: str, start: int, end: int, quote: str | None) -> None:
        text = view[start:end]
        text = values.setdefault(text, text)  # and one per value: a page repeats its links
        # The common case, inlined: a plain value without references, NUL or whitespace but inner spaces.
        if (
            kind == URL and "&" not in text and text.isprintable() and (codec is None or text.isascii())
            and (not text or (text[0] != " " and text[-1] != " "))
        ):
            found.append(new_found(_Found, (tag, name, text, (start, end), start, end, quote, None, kind)))
            return
        text, offsets = _decode(view, start, end, codec, True)
        for a, b, raw, css in READERS[kind](text):
            span = (start + a, start + b) if offsets is None else (offsets[a], offsets[b])
            found.append(_Found(tag, name, raw, span, start, end, quote, css, kind))

    def collect_style_text(tag: str, start: int, end: int, quote: str = RAW_TEXT) -> None:
        in_text = quote == FOREIGN_TEXT
        text, offsets = _decode(view, start, end, codec, in_text, in_text=in_text)
        for a, b, raw, css in read_css(text):
            span = (start + a, start + b) if offsets is None else (offsets[a], offsets[b])
            found.append(_Found(tag, None, raw, span, start, end, quote, css, CSS))

    def collect_foreign_style_text(tag: str, position: int) -> int:
        """The CSS of an SVG <style> from *position*: its text and CDATA sections up to its first tag, the comments
        and bogus comments between them passed over (13.2.6.5: markup in foreign content); where that tag starts.
        A "<" that opens no markup is text (13.2.5.6: "<" then no letter, "!", "/" or "?")."""
        while True:
            markup = _MARKUP_OPEN.search(view, position)
            text_end = len(view) if markup is None else markup.start()
            collect_style_text(tag, position, text_end, FOREIGN_TEXT)
            if markup is None:
                return text_end
            match = cast(re.Match[str], match_markup(view, text_end))  # "<" and one of "!/?" or a letter matches
            if match.lastgroup == "cdata":
                cdata_end = view.find("]]>", text_end)
                collect_style_text(tag, text_end + 9, len(view) if cdata_end == -1 else cdata_end, CDATA_TEXT)
                position = len(view) if cdata_end == -1 else cdata_end + 3
            elif match.lastgroup is None:  # a comment, a bogus comment, "</>": no element, no text
                position = match.end()
            else:
                return text_end

    while True:
        # In HTML content, only the markup that matters reaches Python (a step always matches).
        if stack:
            match = search(view, position)
        else:
            skipped = step(view, position)
            if skipped.lastgroup != "link":
                match = match_markup(view, skipped.end())
            else:  # <a href="...">: its one URL, and nothing else to do
                written = skipped.group("tag", "name")
                tag, name, kind = link_places.get(written) or link_places.setdefault(written, _link_place(*written))
                span = skipped.span("plain")
                start, end = span
                if start >= 0 and kind == URL:  # most links: the value is the URL, taken without a call
                    text = view[start:end]
                    append(new_found(_Found, (tag, name, values.setdefault(text, text), span, start, end, '"', None,
                                              URL)))
                    position = skipped.end()
                    continue
                if kind != CSS or not _STYLE.search(view, skipped.start("link"), skipped.start("name")):
                    if kind is not None:
                        collect(tag, name, kind, *_value(skipped))
                    position = skipped.end()
                    continue
                # the step skipped a style before this one, and the first wins (13.2.5.33): the full tokenizer reads
                match = match_markup(view, skipped.start("link"))
        if match is None:
            break
        position = match.end()
        kind = match.lastgroup
        if kind is None:
            continue
        namespace = stack[-1][1] if stack else "html"
        if kind == "close":
            tag = intern(tag_name(match.group("start")))
            attributes_start, attributes_end = match.span("attrs")
            if namespace == "html" and (tag == "svg" or tag == "math"):  # the root is an SVG/MathML element
                namespace = tag
            if namespace != "html" and (tag in _BREAKOUT or (
                tag == "font" and not _attributes(view, attributes_start, position).keys().isdisjoint(_FONT_BREAKOUT)
            )):
                while stack and stack[-1][1] != "html":
                    stack.pop()
                namespace = stack[-1][1] if stack else "html"
            if stack and namespace == "html":  # inside an integration point
                depth = len(stack)
                if not opened[depth] and tag in _MATHML_GLYPHS and stack[-1][0] in _INTEGRATION_POINTS["math"]:
                    namespace = "math"
                elif tag not in _VOID:
                    opened[depth] += 1
            if namespace != "html":
                self_closing = match.group("close").endswith("/>")
                if _FOREIGN_HINT.search(view, attributes_start, attributes_end):
                    count = len(found)
                    attributes = _attributes(view, attributes_start, position)
                    element = _SVG_TAG_NAMES.get(tag, tag) if namespace == "svg" else tag
                    for name, place in FOREIGN_PLACES.items():
                        if name in attributes:
                            collect(element, name, place, *attributes[name])
                    if len(found) - count > 1:
                        found[count:] = sorted(found[count:], key=lambda f: f.span)
                if not self_closing:
                    if tag in _INTEGRATION_POINTS[namespace] or (
                        tag == "annotation-xml" and namespace == "math"
                        and _is_html_annotation(view, attributes_start, position, codec)
                    ):
                        stack.append((tag, "html"))
                        opened[len(stack)] = 0
                    elif tag == namespace:
                        stack.append((tag, namespace))
                    elif tag == "style" and namespace == "svg":  # no raw text, but its text (or CDATA) is CSS
                        position = collect_foreign_style_text(tag, position)
                continue
            if tag == "image":  # 13.2.6.4.7: "Change the token's tag name to img"
                tag = "img"
            places = PLACES.get(tag)
            count = len(found)
            if places is not None or tag == "meta" or _HTML_HINT.search(view, attributes_start, attributes_end):
                attributes = _attributes(view, attributes_start, position)
                for name, place in (places or {}).items():
                    if name in attributes:
                        collect(tag, name, place, *attributes[name])
                        if tag == "base":
                            base_hrefs.add(len(found) - 1)
                            if base is None and not templates:
                                base = found[-1]
                for name, place in GLOBAL_PLACES.items():
                    if name in attributes:
                        collect(tag, name, place, *attributes[name])
                if (declares is not None and declared is None and tag == "meta"
                        and ("charset" in attributes or "content" in attributes)):
                    declared = declares({name: _decode(view, *attributes[name][:2], codec, True)[0]
                                         for name in ("charset", "http-equiv", "content") if name in attributes})
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
                templates.append(len(stack))
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
            tag = tag_name(match.group("end"))
            if stack and stack[-1][0] == tag:
                stack.pop()
            elif tag == "template" and templates:
                # 13.2.6.4.4 "in head": the innermost template closes, and all that opened inside it; from SVG or
                # MathML too, whose "any other end tag" (13.2.6.5) hands the token to these rules at an HTML node
                del stack[templates.pop() :]
                if stack and opened[len(stack)]:
                    opened[len(stack)] -= 1
            elif namespace != "html" and tag in ("p", "br"):
                while stack and stack[-1][1] != "html":
                    stack.pop()
            elif stack and namespace == "html" and opened[len(stack)]:
                opened[len(stack)] -= 1
        elif kind == "cdata":
            # 13.2.5.42: a CDATA section where the current node is SVG or MathML (an integration point itself too),
            # a bogus comment up to ">" elsewhere
            section = namespace != "html" or (stack and not opened[len(stack)])
            close = view.find("]]>" if section else ">", position)
            if section:
                cdata[match.start()] = len(view) if close == -1 else close
            position = len(view) if close == -1 else close + (3 if section else 1)
        else:  # "cut": a tag the end of the file cuts off is dropped (13.2.5.x eof-in-tag)
            break
    return _Scan(found, base, base_hrefs, declared, cdata)


