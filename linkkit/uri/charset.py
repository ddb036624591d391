"""RFC 3986 section 2 character classes, each defined once; every other set and regex fragment derives from them."""

from __future__ import annotations

import re
from typing import cast

# RFC 2234 core rules used by RFC 3986: ALPHA = %x41-5A / %x61-7A, DIGIT = %x30-39
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
# HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F" (RFC 3986 2.1: either case is accepted)
HEXDIG = DIGIT + "ABCDEFabcdef"

# RFC 3986 2.2: gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
GEN_DELIMS = ":/?#[]@"
# RFC 3986 2.2: sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
SUB_DELIMS = "!$&'()*+,;="
# RFC 3986 2.2: reserved = gen-delims / sub-delims
RESERVED = GEN_DELIMS + SUB_DELIMS
# RFC 3986 2.3: unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
UNRESERVED = ALPHA + DIGIT + "-._~"

# RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME_CHARS = ALPHA + DIGIT + "+-."
# RFC 3986 3.2.1: userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
USERINFO_CHARS = UNRESERVED + SUB_DELIMS + ":"
# RFC 3986 3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims )
REG_NAME_CHARS = UNRESERVED + SUB_DELIMS
# RFC 3986 3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
PCHAR = UNRESERVED + SUB_DELIMS + ":@"
# RFC 3986 3.3: segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
SEGMENT_NC_CHARS = UNRESERVED + SUB_DELIMS + "@"
# RFC 3986 3.4 / 3.5: query = fragment = *( pchar / "/" / "?" )
QUERY_CHARS = PCHAR + "/?"
FRAGMENT_CHARS = QUERY_CHARS
# RFC 3986 3.2.2: IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPVFUTURE_CHARS = UNRESERVED + SUB_DELIMS + ":"
# Every character that may appear literally in some URI component (plus "%" of pct-encoded).
URI_CHARS = RESERVED + UNRESERVED + "%"


# The runs a class writes as ranges: the regex engines parse a class item by item, and the scanner's run of URI
# characters compiles in half the time as 26 items instead of 85 (the same set, in either case).
_RANGES = (("0-9", DIGIT), ("A-Z", ALPHA[:26]), ("a-z", ALPHA[26:]))


def _class_items(chars: str) -> str:
    """The items of a regex character class of *chars*: each whole run of DIGIT or of either case of ALPHA as one
    range, every other character escaped."""
    ranges = [spelled for spelled, run in _RANGES if all(c in chars for c in run)]
    covered = "".join(run for spelled, run in _RANGES if spelled in ranges)
    return "".join(ranges) + "".join(re.escape(c) for c in chars if c not in covered)


def char_class(chars: str, *, pct_encoded: bool = False, extra: str = "") -> str:
    """A regex character class matching one of *chars* (or a pct-encoded triplet when *pct_encoded*); *extra* is
    added inside the brackets as written (a class escape such as ``\\s``)."""
    cls = "[" + _class_items(chars) + extra + "]"
    return f"(?:{cls}|{PCT_ENCODED})" if pct_encoded else cls


def always_match(pattern: re.Pattern[str], text: str, pos: int = 0) -> re.Match[str]:
    """``pattern.match(text, pos)`` for a *pattern* that matches the empty string, so always matches (a ``*`` run)."""
    return cast(re.Match[str], pattern.match(text, pos))


def complement_class(chars: str) -> str:
    """A regex character class matching any one character (line breaks too) that is not one of *chars*."""
    return "[^" + _class_items(chars) + "]"


# RFC 3986 2.1: pct-encoded = "%" HEXDIG HEXDIG
PCT_ENCODED = "%" + char_class(HEXDIG) + "{2}"


def pct_run(chars: str, *, between: str = "") -> str:
    """A regex for ``*( chars / pct-encoded )`` (plus the *between* alternative), unrolled and possessive: linear.

    The plain ``(?:[chars]|%HH)*`` makes the re engine keep one backtracking entry per repetition, and its cost per
    character climbs several-fold past about 200 K characters; a possessive class run between triplets keeps none.
    """
    cls = char_class(chars)
    separator = f"(?:{PCT_ENCODED}|{between})" if between else PCT_ENCODED
    return f"{cls}*+(?:{separator}{cls}*+)*+"


# RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
SCHEME = char_class(ALPHA) + char_class(SCHEME_CHARS) + "*+"
