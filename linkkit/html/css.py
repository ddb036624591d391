"""URLs in CSS (CSS Syntax 3): read url() and @import strings, and escape a new value for its place."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .decoding import encoded
from .places import ASCII_WHITESPACE, WS

CSS_WHITESPACE = " \t\n\r\f"  # CSS Syntax 3, 4.2: whitespace (a piece is never empty)

# CSS Syntax 3, section 4: comments and strings are skipped; url(...) (4.3.6, either form) and an @import
# string (after whitespace and comments, which tokenizing drops: 4.3.2) are URLs. An empty url() is not: it is
# "an invalid resource" (CSS Values 4, 4.5). An unquoted url( that the end of the text cuts off is still a url
# token (4.3.6: EOF "returns the <url-token>"), and a string the end of the text leaves open still a string token
# (4.3.5: EOF "returns the <string-token>"), so url('a.png and @import "a.css at the very end are URLs too.
# CSS Syntax 3, 4.3.7 "consume an escaped code point": up to six hex digits and one whitespace after them, or any
# other code point but a newline; in an unquoted url() (4.3.6 "consume a url token") that is the whole escape.
_CSS_ESCAPED_CODE_POINT = r"\\(?:[0-9A-Fa-f]{1,6}+(?:\r\n|[\t\n\f\r ])?+|[^\n\r\f0-9A-Fa-f])"


def _css_string(quote: str, close: str) -> str:
    """A regex for a CSS string in *quote* (4.3.5: escapes inside, no newline) that *close* (a regex) ends."""
    return quote + r"(?:[^" + quote + r"\\\n\r\f]|\\[\s\S])*+" + close


_CSS_STRING_DQ = _css_string('"', '"')
_CSS_STRING_SQ = _css_string("'", "'")
_CSS_STRING = re.compile(f"{_CSS_STRING_DQ}|{_CSS_STRING_SQ}")
# A string that is a URL: closed by its quote, or left open by the end of the text.
_CSS_URL_STRING_DQ = _css_string('"', r'(?:"|\Z)')
_CSS_URL_STRING_SQ = _css_string("'", r"(?:'|\Z)")
_CSS_URL_STRING = f"{_CSS_URL_STRING_DQ}|{_CSS_URL_STRING_SQ}"


def _css_name(name: str) -> str:
    """A regex for the CSS name *name* (letters that are no hex digits) in any ASCII case, each letter also written
    as an escape (CSS Syntax 3, 4.3.7: ``\\75`` or ``\\u`` for "u"), as the tokenizer reads an ident (4.3.11)."""

    def letter(c: str) -> str:
        cases = c.lower() + c.upper()
        codes = "|".join(f"0{{0,4}}{ord(case):02x}" for case in cases)  # up to six hex digits, then no hex digit
        return rf"(?:[{cases}]|\\(?:(?i:{codes})(?:\r\n|[\t\n\f\r ]|(?![0-9A-Fa-f]))|[{cases}]))"

    return "".join(map(letter, name))


# CSS Syntax 3, 4.3.14 "consume the remnants of a bad url": an unquoted url( that is no valid url token (a quote,
# a "(" or inner whitespace in it) runs to its ")" or the end, an escape ("\)") included; what it holds is no token.
_BAD_URL_REMNANTS = r"(?:[^)\\]++|\\[^\n\r\f]?)*+\)?"
# A url( or image-set( name does not start after a name code point (4.2: it would continue that name, "aurl(" or
# "-url(" are other functions), an escape's backslash, or the "#" of a hash token or "@" of an at-keyword, whose name it
# would be (4.3.1: "#url(" and "@url(" are no url tokens); the "-" that ends a "<!--" (a CDO token, 4.3.1) is no name's
# ("\<!--" is an escape, which is). Every non-ASCII code point is a name code point (4.2); they are one look-behind of
# their own, [^\x00-\x7f], which the regex compiler builds without walking them one by one.
_NOT_AFTER_A_NAME = r"(?:(?<![-\w\\#@])|(?<=<!--)(?<!\\<!--))(?<![^\x00-\x7f])"
# The url( and image-set( branches open with a one-character lookahead for their first letters, so that most
# positions fail it before the lookbehind is tried (the reading of style text about 20% faster). A quote after url(
# makes it a function whose string is the URL (4.3.4), whatever follows the string. An image-set( (CSS Images 4, 2.2,
# and its -webkit- alias) is group imageset; the strings it holds are groups dq and sq (empty, after the quote: a
# group entered at every position would cost a third of the scan), like every other closed string (or one left open
# by the end of the text), of which only its options are URLs.
_CSS_TOKENS = re.compile(
    r"/\*(?:[^*]|\*(?!/))*+(?:\*/)?"
    rf"|@{_css_name('import')}(?:{WS}|/\*(?:[^*]|\*(?!/))*+\*/)*+(?P<import>{_CSS_URL_STRING})"
    rf"|(?=[-IUiu\\]){_NOT_AFTER_A_NAME}(?:{_css_name('url')}\({WS}*+(?:(?P<quoted>{_CSS_URL_STRING})"
    rf"|(?P<unquoted>(?:[^\"'()\\\t\n\f\r \x00-\x08\x0b\x0e-\x1f\x7f]|{_CSS_ESCAPED_CODE_POINT})++)"
    rf"{WS}*+(?:\)|\Z)|(?![\"']){_BAD_URL_REMNANTS})"
    rf"|(?ai:(?:-webkit-)?image-set)\((?P<imageset>))"
    rf"|\"(?P<dq>){_CSS_URL_STRING_DQ[1:]}|'(?P<sq>){_CSS_URL_STRING_SQ[1:]}|[\"'][^\n\r\f]*+"
    r"|\\[\s\S]"
)
# The tokens inside an image-set( that tell where its options begin: comments and whitespace (no token), strings
# (whose ")" or "," is no delimiter), escapes, parentheses and commas, and runs of anything else.
_IMAGE_SET_TOKENS = re.compile(
    rf"(?P<none>/\*(?:[^*]|\*(?!/))*+(?:\*/)?|{WS}++)|(?P<string>{_CSS_URL_STRING}|[\"'][^\n\r\f]*+)"
    r"|\\[\s\S]|[(),]|[^()\\,\"'/\t\n\f\r ]++|/"
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


def _image_set_options(value: str, position: int) -> set[int]:
    """Where the string options of the image-set( whose arguments start at *position* begin: CSS Images 4, 2.2,
    ``image-set( [ <image> | <string> ] <resolution>? , ... )``, a <string> being "a URL ... as if it were given in
    a url()" (the string of a nested ``type("image/avif")`` is none)."""
    starts: set[int] = set()
    depth, option_start = 0, True
    for token in _IMAGE_SET_TOKENS.finditer(value, position):
        kind, text = token.lastgroup, token.group()
        if kind == "none":
            continue
        if kind == "string" and depth == 0 and option_start:
            starts.add(token.start())
        elif text == "(":
            depth += 1
        elif text == ")":
            if not depth:
                break
            depth -= 1
        elif text == "," and not depth:
            option_start = True
            continue
        option_start = False
    return starts


_STRINGS = ("dq", "sq")  # the groups of _CSS_TOKENS that mark a string other than url('...') or @import's


def read_css(value: str) -> Iterator[tuple[int, int, str, str | None]]:
    """The URLs of a style sheet or a style attribute: url(), @import strings and image-set() string options, not
    comments or other strings."""
    options: set[int] = set()  # where the string options of the image-set( read so far begin
    for match in _CSS_TOKENS.finditer(value):
        group = match.lastgroup
        if group is None:
            continue
        if group == "imageset":
            options |= _image_set_options(value, match.end())
            continue
        if group in _STRINGS:
            start, end = match.span()
            if start not in options:
                continue
        else:
            start, end = match.span(group)
        if group == "unquoted":
            yield start, end, _css_unescape(value[start:end]), ")"
            continue
        quote = value[start]
        start += 1
        if end < len(value) or _CSS_STRING.fullmatch(value, start - 1, end):  # closed: its quote is no part of it
            end -= 1
        inner = value[start:end]
        start += len(inner) - len(inner.lstrip(ASCII_WHITESPACE))
        end = max(start, start + len(inner.strip(ASCII_WHITESPACE)))
        raw = _css_unescape(value[start:end]).strip(ASCII_WHITESPACE)
        if raw:
            yield start, end, raw, quote


def _css_escape(value: str, context: str) -> str:
    """*value* written in a CSS string (context is its quote) or an unquoted url() (context ")")."""
    if context == ")":
        unsafe = "\"'()\\"
        return _joined(
            "\\" + c
            if c in unsafe
            else _hex_escape(c) if c in ASCII_WHITESPACE or ord(c) < 0x20 or c == "\x7f" else c
            for c in value
        )
    return _joined("\\" + c if c in ("\\", context) else _hex_escape(c) if c in "\n\r\f" else c for c in value)


def css_escape_unencodable(text: str, codec: str) -> str:
    """*text* with each character *codec* cannot write replaced by its CSS escape (CSS Syntax 3, 4.3.7)."""
    if text.isascii():
        return text
    return _joined(c if c.isascii() or _encodable(c, codec) else _hex_escape(c) for c in text)


def css_escape_chars(text: str, chars: str) -> str:
    """*text* (already written for its CSS place) with each of *chars* as a CSS escape: ``<`` where ``</style``
    would end the element."""
    return _joined(_hex_escape(c) if c in chars else c for c in text)


def _hex_escape(c: str) -> str:
    return f"\\{ord(c):06x}"


def _joined(pieces: Iterable[str]) -> str:
    """The written pieces of a CSS value, one per character, with a space after each hex escape that whitespace
    follows: a reader takes one whitespace after a hex escape as its end (CSS Syntax 3, 4.3.7), which would lose
    the value's own space ("\\00003c href" reads "<href")."""
    out: list[str] = []
    escaped = False
    for piece in pieces:
        if escaped and piece[:1] in CSS_WHITESPACE:
            out.append(" ")
        out.append(piece)
        escaped = len(piece) == 7 and piece[0] == "\\"
    return "".join(out)


def _encodable(character: str, codec: str) -> bool:
    try:
        encoded(character, codec)
    except (UnicodeError, ValueError, LookupError):
        return False
    return True
