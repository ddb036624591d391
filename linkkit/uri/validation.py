"""Validation against the full ABNF of RFC 3986 appendix A, reporting each violation with its position and rule.

A compiled regex answers "valid?" (the common case); only on failure is the reference walked component by
component to say where and which rule breaks:

>>> validate("http://[::1]:8o/")
(Violation(position=14, rule='port', message="'o' is not allowed in the port; expected DIGIT (RFC 3986 3.2.3)"),)

The rules are the final RFC 3986's. Its draft-fielding-uri-rfc2396bis-01 (3.2.2) differs: its ``host = IPv6reference
/ IPv4address / hostname`` limits domain labels to 63 alphanumerics and hyphens, names ``h16`` ``h4`` and has no
IPvFuture; RFC 3986 replaced ``hostname`` by ``reg-name`` (any unreserved / pct-encoded / sub-delims) and added
``IP-literal = "[" ( IPv6address / IPvFuture ) "]"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from itertools import islice
from typing import Literal, get_args

from .charset import (
    ALPHA,
    DIGIT,
    FRAGMENT_CHARS,
    HEXDIG,
    IPVFUTURE_CHARS,
    PCHAR,
    QUERY_CHARS,
    REG_NAME_CHARS,
    SCHEME,
    SCHEME_CHARS,
    SEGMENT_NC_CHARS,
    UNRESERVED,
    USERINFO_CHARS,
    char_class,
    complement_class,
    pct_run,
)
from .model import IPV4ADDRESS, HostKind, URIReference, compose, split_authority, split_match

# The rules a text is validated against: RFC 3986 4.1, 3, 4.3, 4.2.
Rule = Literal["URI-reference", "URI", "absolute-URI", "relative-ref"]
RULES: tuple[Rule, ...] = get_args(Rule)
# validate() reports at most this many violations (a run of offending characters counts once), so that a megabyte
# of invalid text costs one linear pass, not a million Violations; the last one reported says so when it cuts.
MAX_VIOLATIONS = 100


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: the 0-based *position* in the text (``len(text)`` when something is missing at the end),
    the ABNF *rule* name as RFC 3986 appendix A spells it, and a *message* saying what was found and expected."""

    position: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"position {self.position}: {self.rule}: {self.message}"


# --- The fast path: appendix A as one regex per rule, every class derived from linkkit.charset. ---------------------

_HEX = char_class(HEXDIG)


def _run1(chars: str) -> str:
    """``1*( chars / pct-encoded )``."""
    return char_class(chars, pct_encoded=True) + pct_run(chars)


# h16 = 1*4HEXDIG ; ls32 = ( h16 ":" h16 ) / IPv4address, IPv4address (with dec-octet) as linkkit.uri defines it
_H16 = f"{_HEX}{{1,4}}"
_LS32 = f"(?:{_H16}:{_H16}|{IPV4ADDRESS.pattern})"
# IPv6address, the nine forms of RFC 3986 3.2.2, in order.
_IPV6ADDRESS = "(?:" + "|".join((
    f"(?:{_H16}:){{6}}{_LS32}",                      # 6( h16 ":" ) ls32
    f"::(?:{_H16}:){{5}}{_LS32}",                    # "::" 5( h16 ":" ) ls32
    f"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",         # [ h16 ] "::" 4( h16 ":" ) ls32
    f"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",  # [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
    f"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",  # [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
    f"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",  # [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
    f"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",       # [ *4( h16 ":" ) h16 ] "::" ls32
    f"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",        # [ *5( h16 ":" ) h16 ] "::" h16
    f"(?:(?:{_H16}:){{0,6}}{_H16})?::",              # [ *6( h16 ":" ) h16 ] "::"
)) + ")"
# RFC 6874 2 (not RFC 3986; only with ipv6_zone_id=True): IPv6addrz = IPv6address "%25" ZoneID,
# ZoneID = 1*( unreserved / pct-encoded )
_IPV6ADDRZ = f"{_IPV6ADDRESS}(?:%25{_run1(UNRESERVED)})?"
# IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ); ABNF strings are case-insensitive (RFC 5234 2.3)
_IPVFUTURE = rf"[vV]{_HEX}+\.{char_class(IPVFUTURE_CHARS)}+"
# port = *DIGIT ; userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
_PORT = f"{char_class(DIGIT)}*+"
_USERINFO = pct_run(USERINFO_CHARS)
# segment = *pchar ; segment-nz = 1*pchar ; segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
_SEGMENT = pct_run(PCHAR)
_SEGMENT_NZ = _run1(PCHAR)
_SEGMENT_NZ_NC = _run1(SEGMENT_NC_CHARS)
# path-abempty = *( "/" segment ) ; path-absolute = "/" [ segment-nz *( "/" segment ) ]
_PATH_ABEMPTY = f"(?:/{_SEGMENT})*+"
_PATH_ABSOLUTE = f"/(?:{_SEGMENT_NZ}{_PATH_ABEMPTY})?"
# path-noscheme = segment-nz-nc *( "/" segment ) ; path-rootless = segment-nz *( "/" segment ) ; path-empty = 0<pchar>
_PATH_NOSCHEME = f"{_SEGMENT_NZ_NC}{_PATH_ABEMPTY}"
_PATH_ROOTLESS = f"{_SEGMENT_NZ}{_PATH_ABEMPTY}"
# query = fragment = *( pchar / "/" / "?" )
_QUERY = rf"(?:\?{pct_run(QUERY_CHARS)})?"
_FRAGMENT = f"(?:#{pct_run(FRAGMENT_CHARS)})?"


@cache  # compiled on first use: importing linkkit costs no regex compilation for a rule never validated
def _compile(rule: Rule, ipv6_zone_id: bool) -> re.Pattern[str]:
    # host = IP-literal / IPv4address / reg-name: every IPv4address is also a reg-name, so validity needs only two.
    ip_literal = rf"\[(?:{_IPV6ADDRZ if ipv6_zone_id else _IPV6ADDRESS}|{_IPVFUTURE})\]"
    authority = f"(?:{_USERINFO}@)?(?:{ip_literal}|{pct_run(REG_NAME_CHARS)})(?::{_PORT})?"
    # hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
    hier_part = f"(?://{authority}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_ROOTLESS}|)"
    # relative-part = "//" authority path-abempty / path-absolute / path-noscheme / path-empty
    relative_part = f"(?://{authority}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_NOSCHEME}|)"
    absolute_uri = f"{SCHEME}:{hier_part}{_QUERY}"  # absolute-URI = scheme ":" hier-part [ "?" query ]
    uri = absolute_uri + _FRAGMENT  # URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
    relative_ref = relative_part + _QUERY + _FRAGMENT  # relative-ref = relative-part [ "?" query ] [ "#" fragment ]
    return re.compile({
        "URI-reference": f"{uri}|{relative_ref}",  # URI-reference = URI / relative-ref
        "URI": uri,
        "absolute-URI": absolute_uri,
        "relative-ref": relative_ref,
    }[rule])


def _pattern(rule: Rule, ipv6_zone_id: bool) -> re.Pattern[str]:
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}; got {rule!r}")
    return _compile(rule, bool(ipv6_zone_id))


def _text_of(reference: object, caller: str) -> str:
    """The string a URIReference stands for (RFC 3986 5.3), as resolve and normalize take one; anything else that is
    no str is a TypeError naming *caller*."""
    if isinstance(reference, URIReference):
        return compose(reference)
    raise TypeError(f"{caller}() takes a str or a URIReference, not {type(reference).__name__}")


def is_valid(text: str | URIReference, *, rule: Rule = "URI-reference", ipv6_zone_id: bool = False) -> bool:
    """True when *text* (a str, or a URIReference as the string it composes) matches *rule* of RFC 3986 appendix A
    (one regex match, no diagnosis).

    >>> is_valid("http://1.2.3.01/"), is_valid("http://[1.2.3.4]/")
    (True, False)
    """
    if not isinstance(text, str):
        text = _text_of(text, "is_valid")
    return _pattern(rule, ipv6_zone_id).fullmatch(text) is not None


def validate(
    text: str | URIReference, *, rule: Rule = "URI-reference", ipv6_zone_id: bool = False
) -> tuple[Violation, ...]:
    """Every violation of *rule* (URI-reference, URI, absolute-URI or relative-ref, RFC 3986 4.1-4.3) in *text*.

    An empty tuple means valid. ``ipv6_zone_id=True`` also accepts RFC 6874 zone identifiers (``[fe80::1%25eth0]``),
    which RFC 3986 itself does not allow. A URIReference is validated as the string it composes. Never raises on
    a string. A run of consecutive characters that break the same rule is one violation, at the run's start, its
    message giving the run's length; at most :data:`MAX_VIOLATIONS` are reported, the last then saying that more
    were left out.
    """
    if not isinstance(text, str):
        text = _text_of(text, "validate")
    if _pattern(rule, ipv6_zone_id).fullmatch(text):
        return ()
    violations = tuple(islice(_diagnose(text, rule, ipv6_zone_id), MAX_VIOLATIONS + 1))
    if len(violations) <= MAX_VIOLATIONS:
        return violations
    last = violations[MAX_VIOLATIONS - 1]
    cut = f"{last.message}; validate() reports at most {MAX_VIOLATIONS} violations, so later ones are left out"
    return (*violations[: MAX_VIOLATIONS - 1], replace(last, message=cut))


# --- The slow path: walk the appendix B components of an invalid reference and name what breaks. -------------------


@dataclass(frozen=True, slots=True)
class _Component:
    """A run of characters checked against one set: the rule it belongs to, and how to say what it accepts."""

    rule: str
    where: str
    pattern: str  # the offenders: compiled on first use (see offenders)
    expected: str

    @property
    def offenders(self) -> re.Pattern[str]:
        """One match per run of offending characters of one kind."""
        return _compiled(self.pattern)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _component(rule: str, where: str, chars: str, *, pct_encoded: bool, expected: str) -> _Component:
    # An offender is a character outside *chars* (and not "%"), or a "%" that does not start a pct-encoded triplet;
    # one match is a whole run of offenders of one kind.
    refused = complement_class(chars + "%") if pct_encoded else complement_class(chars)
    bad_pct = f"(?P<pct>(?:%(?!{_HEX}{{2}}))++)|" if pct_encoded else ""
    return _Component(rule, where, f"{bad_pct}{refused}++", expected)


_SCHEME_REST = _component(
    "scheme", "a scheme", SCHEME_CHARS, pct_encoded=False, expected='ALPHA / DIGIT / "+" / "-" / "." (RFC 3986 3.1)')
_USERINFO_PART = _component(
    "userinfo", "the userinfo", USERINFO_CHARS, pct_encoded=True,
    expected='unreserved / pct-encoded / sub-delims / ":" (RFC 3986 3.2.1)')
_REG_NAME = _component(
    HostKind.REG_NAME.value, "a host name", REG_NAME_CHARS, pct_encoded=True,
    expected="unreserved / pct-encoded / sub-delims (RFC 3986 3.2.2)")
_PORT_PART = _component("port", "the port", DIGIT, pct_encoded=False, expected="DIGIT (RFC 3986 3.2.3)")
_PATH = _component(
    "pchar", "a path", PCHAR + "/", pct_encoded=True,
    expected='unreserved / pct-encoded / sub-delims / ":" / "@" (pchar) or "/" (RFC 3986 3.3)')
_QUERY_PART = _component(
    "query", "the query", QUERY_CHARS, pct_encoded=True, expected='pchar / "/" / "?" (RFC 3986 3.4)')
_FRAGMENT_PART = _component(
    "fragment", "the fragment", FRAGMENT_CHARS, pct_encoded=True, expected='pchar / "/" / "?" (RFC 3986 3.5)')
_IPVFUTURE_PART = _component(
    HostKind.IPVFUTURE.value, "an IPvFuture", IPVFUTURE_CHARS, pct_encoded=False,
    expected='unreserved / sub-delims / ":" after the version (RFC 3986 3.2.2)')
_ZONE_ID = _component(
    "ZoneID", "a zone identifier", UNRESERVED, pct_encoded=True, expected="unreserved / pct-encoded (RFC 6874 2)")
_IPV6_CHARS = _component(
    HostKind.IPV6.value, "an IPv6address", HEXDIG + ":.", pct_encoded=False,
    expected='HEXDIG, ":" or "." of an IPv4address (RFC 3986 3.2.2)')
_HEXDIGITS = frozenset(HEXDIG)


def _describe(char: str) -> str:
    """A character as a message shows it: quoted when printable ASCII, else with its code point."""
    return repr(char) if " " < char < "\x7f" else f"U+{ord(char):04X} {char!r}"


def _found(text: str, position: int) -> str:
    return "the end of the text" if position >= len(text) else _describe(text[position])


def _offence(char: str, part: _Component) -> str:
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF:
        return f"lone surrogate U+{code:04X} is not a character and cannot appear in a URI"
    if code > 0x7F:
        octets = "".join(f"%{b:02X}" for b in char.encode("utf-8"))
        return (f"non-ASCII character {char!r} (U+{code:04X}) is not allowed in a URI (RFC 3986 2); percent-encode "
                f"its UTF-8 octets as {octets}, or treat the text as an IRI (RFC 3987)")
    return f"{_describe(char)} is not allowed in {part.where}; expected {part.expected}"


def _check(text: str, start: int, end: int, part: _Component) -> Iterator[Violation]:
    """A violation for every run of characters of ``text[start:end]`` that *part* does not accept."""
    for match in part.offenders.finditer(text, start, end):
        at = match.start()
        if match.lastgroup == "pct":
            triplet = text[at:min(at + 3, end)]
            message = (f"{triplet!r} is not a percent-encoding; expected '%' HEXDIG HEXDIG (RFC 3986 2.1), or '%25' "
                       f"for a literal '%'")
            yield Violation(at, "pct-encoded", message + _run_length(match))
        else:
            yield Violation(at, part.rule, _offence(text[at], part) + _run_length(match))


def _run_length(match: re.Match[str]) -> str:
    """What a message adds when its violation stands for a run of offending characters, not just one."""
    length = match.end() - match.start()
    return "" if length == 1 else f" (reported once for the run of {length} offending characters starting here)"


def _diagnose(text: str, rule: Rule, ipv6_zone_id: bool) -> Iterator[Violation]:
    """Violations of *rule* component by component, the components split by RFC 3986 appendix B."""
    parts = split_match(text)
    scheme, authority, _, query, fragment = parts.groups()
    if scheme is not None:
        if rule == "relative-ref":  # RFC 3986 4.2: a colon in the first segment would be read as a scheme
            yield Violation(parts.end(1), "path-noscheme", f"':' in the first segment of a relative reference makes "
                            f"{scheme!r} a scheme; write './' before such a path (RFC 3986 4.2)")
        else:
            yield from _check_scheme(text, parts.end(1))
    elif text.startswith(":"):
        yield Violation(0, "scheme" if rule != "relative-ref" else "path-noscheme",
                        "':' with no scheme before it; expected a scheme, or a first path segment without ':' "
                        "(RFC 3986 3.1, 4.2)")
    elif rule in ("URI", "absolute-URI"):
        yield Violation(0, "scheme", f"{rule} begins with a scheme and ':' (RFC 3986 3, 4.3); this text has none")
    if authority is not None:
        yield from _check_authority(text, parts.start(2), authority, ipv6_zone_id)
    yield from _check(text, *parts.span(3), _PATH)
    if query is not None:
        yield from _check(text, *parts.span(4), _QUERY_PART)
    if fragment is not None:
        if rule == "absolute-URI":
            yield Violation(parts.start(5) - 1, "absolute-URI", "a fragment is not allowed in absolute-URI "
                                                                "(RFC 3986 4.3)")
        else:
            yield from _check(text, *parts.span(5), _FRAGMENT_PART)


def _check_scheme(text: str, end: int) -> Iterator[Violation]:
    # scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    if text[0] not in ALPHA:
        yield Violation(0, "scheme", f"a scheme begins with a letter (ALPHA, RFC 3986 3.1), found {_found(text, 0)}")
    yield from _check(text, 1, end, _SCHEME_REST)


def _check_authority(text: str, start: int, authority: str, ipv6_zone_id: bool) -> Iterator[Violation]:
    # authority = [ userinfo "@" ] host [ ":" port ], split as linkkit.uri does (the last "@" ends userinfo).
    userinfo, host, port = split_authority(authority)
    host_start = start
    if userinfo is not None:
        yield from _check(text, start, start + len(userinfo), _USERINFO_PART)
        host_start += len(userinfo) + 1
    host_end = host_start + len(host)
    if host.startswith("["):
        close = host.find("]")
        if close == -1:
            yield Violation(host_start, "IP-literal", "'[' opens an IP-literal that has no closing ']' "
                                                      "(RFC 3986 3.2.2)")
            return
        yield from _check_ip_literal(text, host_start + 1, host_start + close, ipv6_zone_id)
        if close + 1 < len(host):  # text after "]" that is not ":" port
            yield Violation(host_start + close + 1, "authority", f"expected ':' port or the end of the authority "
                            f"after ']', found {_found(text, host_start + close + 1)} (RFC 3986 3.2)")
    else:
        yield from _check(text, host_start, host_end, _REG_NAME)
    if port is not None:
        yield from _check(text, host_end + 1, host_end + 1 + len(port), _PORT_PART)


def _check_ip_literal(text: str, start: int, end: int, ipv6_zone_id: bool) -> Iterator[Violation]:
    # IP-literal = "[" ( IPv6address / IPvFuture ) "]" ; no IPv6address begins with "v", so "v" means IPvFuture.
    if start == end:
        yield Violation(end, "IP-literal", "empty IP-literal '[]'; expected an IPv6address or IPvFuture "
                                           "(RFC 3986 3.2.2)")
    elif text[start] in "vV":
        yield from _check_ipvfuture(text, start, end)
    else:
        zone = text.find("%", start, end)
        if zone == -1:
            yield from _check_ipv6(text, start, end)
        elif not ipv6_zone_id:
            yield from _check_ipv6(text, start, zone)
            yield Violation(zone, HostKind.IPV6.value, "a zone identifier ('%25' ZoneID) is RFC 6874, not RFC 3986; "
                                                       "pass ipv6_zone_id=True to accept it")
        else:
            yield from _check_ipv6(text, start, zone)
            yield from _check_zone_id(text, zone, end)


def _check_zone_id(text: str, start: int, end: int) -> Iterator[Violation]:
    # RFC 6874 2: IPv6addrz = IPv6address "%25" ZoneID ; ZoneID = 1*( unreserved / pct-encoded )
    if text[start:start + 3] != "%25":
        yield Violation(start, "IPv6addrz", f"a zone identifier is introduced by '%25' (RFC 6874 2), found "
                                            f"{text[start:min(start + 3, end)]!r}")
    elif start + 3 == end:
        yield Violation(end, "ZoneID", "empty zone identifier after '%25'; expected 1*( unreserved / pct-encoded ) "
                                       "(RFC 6874 2)")
    else:
        yield from _check(text, start + 3, end, _ZONE_ID)


def _check_ipvfuture(text: str, start: int, end: int) -> Iterator[Violation]:
    # IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    rule = HostKind.IPVFUTURE.value
    at = start + 1
    while at < end and text[at] in _HEXDIGITS:
        at += 1
    if at == start + 1:
        yield Violation(at, rule, f"expected the version (1*HEXDIG) after 'v', found {_found(text, at)} "
                                  f"(RFC 3986 3.2.2)")
    elif at == end or text[at] != ".":
        yield Violation(at, rule, f"expected '.' after the version, found {_found(text, at)} (RFC 3986 3.2.2)")
    elif at + 1 == end:
        yield Violation(end, rule, "expected at least one character after the version's '.' (RFC 3986 3.2.2)")
    else:
        yield from _check(text, at + 1, end, _IPVFUTURE_PART)


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the ":"-separated pieces of ``text[start:end]`` (none when empty)."""
    if start == end:
        return []
    spans, at = [], start
    while (colon := text.find(":", at, end)) != -1:
        spans.append((at, colon))
        at = colon + 1
    spans.append((at, end))
    return spans


def _check_ipv6(text: str, start: int, end: int) -> Iterator[Violation]:
    """The nine forms of IPv6address (RFC 3986 3.2.2): 8 groups of 16 bits, or fewer with one "::" for the rest."""
    rule = HostKind.IPV6.value
    bad_chars = False
    for violation in _check(text, start, end, _IPV6_CHARS):  # lazily: validate() may stop after a few
        bad_chars = True
        yield violation
    if bad_chars:
        return
    elision = text.find("::", start, end)
    if elision == -1:
        spans = _pieces(text, start, end)
    else:
        if (second := text.find("::", elision + 2, end)) != -1:
            yield Violation(second, rule, "'::' may appear only once in an IPv6address (RFC 3986 3.2.2)")
            return
        spans = _pieces(text, start, elision) + _pieces(text, elision + 2, end)
    bad_pieces = False
    for violation in (v for a, b in spans for v in _check_piece(text, a, b, end)):
        bad_pieces = True
        yield violation
    if bad_pieces:
        return
    widths = [2 if "." in text[a:b] else 1 for a, b in spans]  # an ls32 IPv4address is two groups
    groups = sum(widths)
    if elision == -1 and groups < 8:
        yield Violation(end, rule, f"expected 8 groups of 16 bits, or '::' standing for the missing ones, found "
                                   f"{groups} (RFC 3986 3.2.2)")
    elif elision == -1 and groups > 8:
        running = zip(spans, _running(widths), widths, strict=False)
        ninth = next(a for (a, _), before, width in running if before + width > 8)
        yield Violation(ninth, rule, f"an IPv6address has 8 groups of 16 bits, found {groups} (RFC 3986 3.2.2)")
    elif elision != -1 and groups > 7:
        yield Violation(elision, rule, f"'::' must stand for at least one group, but {groups} groups are written "
                                       f"beside it (RFC 3986 3.2.2)")


def _running(widths: list[int]) -> Iterator[int]:
    """How many groups come before each piece."""
    total = 0
    for width in widths:
        yield total
        total += width


def _check_piece(text: str, start: int, end: int, address_end: int) -> Iterator[Violation]:
    """One ":"-separated piece of an IPv6address: an h16, or the IPv4address that ends it (ls32)."""
    if "." in text[start:end]:
        if end == address_end:
            yield from _check_ipv4(text, start, end)
        else:
            yield Violation(start, "ls32", "an IPv4address may only end an IPv6address, as its last 32 bits "
                                           "(ls32, RFC 3986 3.2.2)")
    elif start == end:
        yield Violation(start, "h16", f"expected 1 to 4 hex digits (h16), found {_found(text, start)} "
                                      f"(RFC 3986 3.2.2)")
    elif end - start > 4:
        yield Violation(start + 4, "h16", f"h16 has at most 4 hex digits, found {end - start} (RFC 3986 3.2.2)")


def _check_ipv4(text: str, start: int, end: int) -> Iterator[Violation]:
    """IPv4address (RFC 3986 3.2.2): four dec-octets, 0-255, no leading zero."""
    spans, at = [], start
    while (dot := text.find(".", at, end)) != -1:
        spans.append((at, dot))
        at = dot + 1
    spans.append((at, end))
    if len(spans) != 4:
        yield Violation(start, HostKind.IPV4.value, f"expected 4 dec-octets separated by '.', found {len(spans)} "
                                                    f"(RFC 3986 3.2.2)")
        return
    for a, b in spans:
        octet = text[a:b]
        if not octet or not all(c in DIGIT for c in octet):
            yield Violation(a, "dec-octet", f"expected a decimal number 0-255, found {octet!r} (RFC 3986 3.2.2)")
        elif len(octet) > 1 and octet[0] == "0":
            yield Violation(a, "dec-octet", f"a dec-octet has no leading zero, found {octet!r} (RFC 3986 3.2.2, 7.4)")
        elif int(octet) > 255:
            yield Violation(a, "dec-octet", f"a dec-octet is at most 255, found {octet!r} (RFC 3986 3.2.2)")
