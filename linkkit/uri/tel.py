"""The "tel" URI of RFC 3966: its grammar (section 3) read into the key its comparison rules (section 4) compare.

Two "tel" URIs are equivalent when both are global numbers (``+`` and digits) or both local, their digits are equal
once the visual separators are gone, and their parameters are the same by name, in any order, the comparison being
case-insensitive (section 4): ``tel:+1-201-555-0123;ext=12`` and ``TEL:+1.201.555.0123;EXT=1-2`` are one number.
"""

from __future__ import annotations

import re

from .charset import ALPHA, DIGIT, HEXDIG, char_class
from .percent import normalize_percent_encoding

# RFC 3966 3: visual-separator = "-" / "." / "(" / ")"; phonedigit = DIGIT / [ visual-separator ]
VISUAL_SEPARATORS = "-.()"
_WITHOUT_SEPARATORS = str.maketrans("", "", VISUAL_SEPARATORS)
_PHONEDIGIT = char_class(DIGIT + VISUAL_SEPARATORS)
# global-number-digits = "+" *phonedigit DIGIT *phonedigit
_GLOBAL_NUMBER_DIGITS = re.compile(rf"\+(?={_PHONEDIGIT}*[0-9]){_PHONEDIGIT}+")
# local-number-digits = *phonedigit-hex (HEXDIG / "*" / "#") *phonedigit-hex, phonedigit-hex = HEXDIG / "*" / "#" /
# [ visual-separator ]; a "#" is written "%23" in a URI, where it would start the fragment (RFC 3986 3.5)
_DIGIT_HEX = f"(?:{char_class(HEXDIG + '*')}|%23)"
_SEPARATOR = char_class(VISUAL_SEPARATORS)
_LOCAL_NUMBER_DIGITS = re.compile(rf"(?={_SEPARATOR}*{_DIGIT_HEX})(?:{_DIGIT_HEX}|{_SEPARATOR})+")
# extension = ";ext=" 1*phonedigit
_EXTENSION = re.compile(f"{_PHONEDIGIT}+")
# domainname = *( domainlabel "." ) toplabel [ "." ]; domainlabel = alphanum / alphanum *( alphanum / "-" ) alphanum;
# toplabel = ALPHA / ALPHA *( alphanum / "-" ) alphanum
_ALPHANUM = char_class(ALPHA + DIGIT)
_LABEL_REST = rf"(?:{char_class(ALPHA + DIGIT + '-')}*{_ALPHANUM})?"
_DOMAINNAME = re.compile(rf"(?:{_ALPHANUM}{_LABEL_REST}\.)*{char_class(ALPHA)}{_LABEL_REST}\.?")
# pname = 1*( alphanum / "-" ); pvalue = 1*paramchar; paramchar = param-unreserved / unreserved / pct-encoded, where
# param-unreserved = "[" / "]" / "/" / ":" / "&" / "+" / "$" and unreserved = alphanum / mark, RFC 2396's
# mark = "-" / "_" / "." / "!" / "~" / "*" / "'" / "(" / ")";
# isdn-subaddress = ";isub=" 1*uric takes the reserved characters too, of which a path holds all but ";" and "?".
_MARK = "-_.!~*'()"
_PNAME = re.compile(f"{char_class(ALPHA + DIGIT + '-')}+")
_PVALUE = re.compile(char_class(ALPHA + DIGIT + _MARK + "[]/:&+$", pct_encoded=True) + "+")
_URIC = re.compile(char_class(ALPHA + DIGIT + _MARK + "/:@&=+$,", pct_encoded=True) + "+")

TelKey = tuple[bool, str, tuple[tuple[str, str | None], ...]]


def comparison_key(path: str) -> TelKey | None:
    """The key RFC 3966 4 compares for the telephone-subscriber *path* of a "tel" URI, or None when it is none.

    The key holds whether the number is global, its digits without visual separators and lower-cased, and its
    parameters sorted by name, each name lower-cased and each value as section 4 compares it: an extension or a
    global phone-context without separators, a domain phone-context lower-cased, any other value case-insensitively.
    """
    number, *parameters = path.split(";")
    is_global = number[:1] == "+"
    if not (_GLOBAL_NUMBER_DIGITS if is_global else _LOCAL_NUMBER_DIGITS).fullmatch(number):
        return None
    pars: list[tuple[str, str | None]] = []
    for parameter in parameters:
        name, equals, value = parameter.partition("=")
        if _PNAME.fullmatch(name) is None:
            return None
        name = name.lower()
        compared = _parameter_value(name, value) if equals else None
        if equals and compared is None:
            return None
        pars.append((name, compared))
    # local-number = local-number-digits *par context *par; a global number takes no context (RFC 3966 3)
    if any(name == "phone-context" for name, _ in pars) == is_global:
        return None
    return is_global, number.translate(_WITHOUT_SEPARATORS).lower(), tuple(sorted(pars, key=_by_name))


def _by_name(par: tuple[str, str | None]) -> tuple[str, str]:
    return par[0], par[1] or ""


def _parameter_value(name: str, value: str) -> str | None:
    """*value* of the parameter *name* as RFC 3966 4 compares it, or None when the grammar of section 3 refuses it."""
    if name == "ext":
        return value.translate(_WITHOUT_SEPARATORS) if _EXTENSION.fullmatch(value) else None
    if name == "phone-context":  # descriptor = domainname / global-number-digits
        if _GLOBAL_NUMBER_DIGITS.fullmatch(value):
            return value.translate(_WITHOUT_SEPARATORS)
        return value.lower() if _DOMAINNAME.fullmatch(value) else None
    if (_URIC if name == "isub" else _PVALUE).fullmatch(value) is None:
        return None
    return normalize_percent_encoding(value.lower(), case_insensitive=True)  # "URI comparisons are case-insensitive"
