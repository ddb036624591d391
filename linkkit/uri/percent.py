"""Percent-encoding (RFC 3986 2.1, 2.4) and its normalization (6.2.2.1, 6.2.2.2)."""

from __future__ import annotations

import re
from functools import lru_cache

from .charset import PCT_ENCODED, UNRESERVED

_PCT_TRIPLET = re.compile(PCT_ENCODED)
# A triplet, or a "%" that starts none (a stray "%"): the two things percent-encoding normalization rewrites.
_PCT_OR_STRAY = re.compile(f"{PCT_ENCODED}|%")
_UNRESERVED_OCTETS = frozenset(UNRESERVED.encode("ascii"))


def _normalize_pct(match: re.Match[str]) -> str:
    # RFC 3986 6.2.2.2: decode percent-encoded unreserved characters; 6.2.2.1: upper-case the hex of the rest.
    # RFC 3986 2.4: a stray "%" is data, so it is written "%25", never left to start a triplet with what follows.
    triplet = match.group()
    if len(triplet) == 1:
        return "%25"
    octet = int(triplet[1:], 16)
    if octet in _UNRESERVED_OCTETS:
        return chr(octet)
    return triplet.upper()


def _normalize_pct_case_insensitive(match: re.Match[str]) -> str:
    # RFC 3986 6.2.2.1: in a case-insensitive component (the host) a decoded letter is lower-cased too.
    normalized = _normalize_pct(match)
    return normalized.lower() if len(normalized) == 1 else normalized


def normalize_percent_encoding(text: str, *, case_insensitive: bool = False) -> str:
    """Upper-case every triplet's hex and decode the unreserved ones; reserved characters stay encoded.

    A "%" that starts no triplet becomes "%25" (RFC 3986 2.4: "%" as data is encoded), so the result holds no stray
    "%" that a decoded hex digit could complete into a new triplet: one pass reaches the fixed point.
    *case_insensitive* (for the host, RFC 3986 6.2.2.1) lower-cases the decoded letters, in the same pass.
    """
    if "%" not in text:
        return text
    return _PCT_OR_STRAY.sub(_normalize_pct_case_insensitive if case_insensitive else _normalize_pct, text)


def upper_percent_hex(text: str) -> str:
    """Upper-case the hex digits of every triplet, decoding nothing (RFC 3986 6.2.2.1, RFC 8141 3.1)."""
    if "%" not in text:
        return text
    return _PCT_TRIPLET.sub(lambda match: match.group().upper(), text)


@lru_cache(maxsize=64)
def _safe_octets(safe: str) -> frozenset[int]:
    return frozenset((UNRESERVED + safe).encode("ascii"))


def percent_encode(text: str, safe: str = "", *, encoding: str = "utf-8") -> str:
    """Encode every octet of *text* outside unreserved and *safe* as ``%XX`` (RFC 3986 2.1, 2.5: UTF-8 first)."""
    keep = _safe_octets(safe)
    return "".join(chr(b) if b in keep else f"%{b:02X}" for b in _octets(text, encoding))


def percent_decode(text: str, *, encoding: str = "utf-8", errors: str = "surrogateescape") -> str:
    """Decode every ``%XX`` triplet; octets that are not valid *encoding* survive as surrogates, losing nothing."""
    if "%" not in text:
        return text
    parts = text.split("%")
    out = bytearray(_octets(parts[0], encoding))
    for part in parts[1:]:
        if len(part) >= 2 and all(c in "0123456789ABCDEFabcdef" for c in part[:2]):
            out.append(int(part[:2], 16))
            out += _octets(part[2:], encoding)
        else:  # a "%" that starts no triplet is kept as it is (RFC 3986 2.4: never decode twice, never invent)
            out += b"%" + _octets(part, encoding)
    return out.decode(encoding, errors)


def _octets(text: str, encoding: str) -> bytes:
    """*text* as octets: undecodable bytes (PEP 383 surrogates U+DC80-U+DCFF) as themselves, and any other lone
    surrogate, which no octet stands for, as the three octets UTF-8 would give it (invalid UTF-8: a strict decode
    refuses them, a replacing one writes U+FFFD), so that no str makes a UTF-8 encoding or decoding raise. A
    character that another *encoding* lacks is a UnicodeEncodeError naming it: writing its UTF-8 octets instead
    would mix two encodings in one URI (RFC 3986 2.5)."""
    try:
        return text.encode(encoding, "surrogateescape")
    except UnicodeEncodeError:
        return b"".join(
            c.encode("utf-8", "surrogatepass") if "\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff"
            else c.encode(encoding, "surrogateescape")
            for c in text
        )
