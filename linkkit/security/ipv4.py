"""How clients read a host as an IPv4 address when it is not a dotted-decimal ``IPv4address`` (RFC 3986 7.4).

RFC 3986 3.2.2 accepts only ``dec-octet "." dec-octet "." dec-octet "." dec-octet``; anything else is a reg-name.
But two readers that clients use accept more, and a host such as ``0x7f.1`` or ``2130706433`` reaches 127.0.0.1:

- ``inet_aton`` (POSIX, 4.2BSD; glibc ``resolv/inet_addr.c``): one to four parts ``a``, ``a.b``, ``a.b.c``,
  ``a.b.c.d``, each a C integer constant (``0x`` hex, leading ``0`` octal, else decimal); the last part fills the
  remaining bytes (24, 16 or 8 bits). Every part must start with a digit; nothing may follow the last one.
- the WHATWG URL Standard's *IPv4 parser* (section 3.5), run on a special URL's host that *ends in a number*: the
  same number forms, a trailing ``.`` allowed, an empty ``0x`` read as 0, run after percent-decoding and UTS 46
  mapping of the host (fullwidth digits and ideographic full stops count).

Both are transcribed here step by step; :func:`read_ipv4` answers what address a written host means.
"""

from __future__ import annotations

import re
import urllib.parse
from typing import NamedTuple

import idna

from ..uri.model import IPV4ADDRESS

# inet_aton: the largest value of the last part when it is part 1, 2, 3 or 4 (glibc's ``max`` table).
_INET_ATON_LAST = (0xFFFFFFFF, 0xFFFFFF, 0xFFFF, 0xFF)
_DIGITS = {8: frozenset("01234567"), 10: frozenset("0123456789"), 16: frozenset("0123456789abcdefABCDEF")}
# The most significant digits a number of at most 32 bits has in each base; a longer one (leading zeros aside)
# overflows whatever its digits, and is not handed to int(), which refuses strings of over 4,300 digits.
_WIDTH = {8: 11, 10: 10, 16: 8}
_OVERFLOW = 1 << 32  # what a number too wide for 32 bits is read as, in the WHATWG reading (it then fails)
# A host that no reading below can take as an address: anything but hex digits, "x" and ".". Non-ASCII hosts are
# mapped (UTS 46) before the WHATWG reading, so the quick rejection applies to ASCII hosts only.
_NOT_NUMERIC = re.compile(r"[^0-9a-fA-FxX.]")


def _c_integer(part: str) -> tuple[int, int] | None:
    """``strtoul(part, &end, 0)`` for a *part* that starts with a digit: (value, characters read), None on overflow.

    C 7.22.1.4 / 6.4.4.1: ``0x`` or ``0X`` then hex digits is hexadecimal (``0x`` with no hex digit after it reads
    only the ``0``), a leading ``0`` is octal, anything else decimal; the longest run of digits of that base is read.
    """
    if part[:2] in ("0x", "0X") and part[2:3] and part[2] in _DIGITS[16]:
        base, at = 16, 2
    elif part[:1] == "0":
        base, at = 8, 1
    else:
        base, at = 10, 0
    digits = _DIGITS[base]
    end = at
    while end < len(part) and part[end] in digits:
        end += 1
    if len(part[at:end].lstrip("0")) > _WIDTH[base]:
        return None
    value = int(part[at:end], base) if end > at else 0
    return (value, end) if value <= 0xFFFFFFFF else None


def inet_aton(host: str) -> int | None:
    """The 32-bit address ``inet_aton`` reads *host* as, or None when it does not accept it (no trailing text).

    >>> [inet_aton(h) for h in ("0x7f.1", "2130706433", "017700000001", "127.1", "1.2.3.4.", "08")]
    [2130706433, 2130706433, 2130706433, 2130706433, None, None]
    """
    parts: list[int] = []
    position = 0
    while True:
        # glibc: "if (!isdigit (c)) goto ret_0" -- every part starts with a digit (no sign, no space, no empty part)
        if position >= len(host) or not ("0" <= host[position] <= "9"):
            return None
        read = _c_integer(host[position:])
        if read is None:
            return None
        value, length = read
        position += length
        if position < len(host) and host[position] == ".":
            # "a.b.c.d": at most three parts before the last, each one byte
            if len(parts) > 2 or value > 0xFF:
                return None
            parts.append(value)
            position += 1
            continue
        break
    if position != len(host):  # glibc accepts trailing whitespace and what follows it; a host holds none
        return None
    if value > _INET_ATON_LAST[len(parts)]:
        return None
    address = value
    for index, part in enumerate(parts):
        address |= part << (24 - 8 * index)
    return address


def _whatwg_number(part: str) -> tuple[int, bool] | None:
    """URL Standard 3.5, *IPv4 number parser*: (number, validation error), or None for failure."""
    if not part:  # 1.
        return None
    radix, error = 10, False  # 2.
    if len(part) >= 2 and part[:2] in ("0x", "0X"):  # 3.
        part, radix, error = part[2:], 16, True
    elif len(part) >= 2 and part[0] == "0":  # 4.
        part, radix, error = part[1:], 8, True
    if not part:  # 5.
        return 0, True
    if any(c not in _DIGITS[radix] for c in part):  # 6.
        return None
    if len(part.lstrip("0")) > _WIDTH[radix]:
        return _OVERFLOW, error  # 7., too wide for any address: step 8 or 6 fails on it
    return int(part, radix), error  # 7.


def ends_in_number(host: str) -> bool:
    """URL Standard 3.5, *ends in a number checker*: whether a special URL's host goes to the IPv4 parser."""
    parts = host.split(".")  # 1. strictly split on "."
    if parts[-1] == "":  # 2.
        if len(parts) == 1:
            return False
        parts.pop()
    last = parts[-1]  # 3.
    if last and all("0" <= c <= "9" for c in last):  # 4.
        return True
    return _whatwg_number(last) is not None  # 5., 6.


def whatwg_ipv4(host: str) -> int | None:
    """URL Standard 3.5, *IPv4 parser*: the address of *host*, or None for failure (the URL then fails to parse)."""
    parts = host.split(".")  # 1.
    if parts[-1] == "" and len(parts) > 1:  # 2. (validation error)
        parts.pop()
    if len(parts) > 4:  # 3.
        return None
    numbers = []  # 4.
    for part in parts:  # 5.
        result = _whatwg_number(part)
        if result is None:
            return None
        numbers.append(result[0])
    if any(n > 255 for n in numbers[:-1]):  # 6. (validation error), 7.
        return None
    if numbers[-1] >= 256 ** (5 - len(numbers)):  # 8.
        return None
    address = numbers.pop()  # 9.
    for counter, n in enumerate(numbers):
        address += n * 256 ** (3 - counter)
    return address  # 10.


def dotted(address: int) -> str:
    """The dotted-decimal IPv4address of a 32-bit *address* (RFC 3986 3.2.2)."""
    return ".".join(str(address >> shift & 0xFF) for shift in (24, 16, 8, 0))


def whatwg_host(host: str) -> str | None:
    """The host a browser reads before its IPv4 check (URL Standard 3.5 *host parser*, steps 4-7 for a special
    URL): percent-decoded as UTF-8 and mapped by UTS 46 (*domain to ASCII*'s mapping step); None when either fails,
    so that the host is no address either way."""
    try:
        decoded = urllib.parse.unquote(host, errors="strict") if "%" in host else host
    except UnicodeDecodeError:
        return None  # U+FFFD after "UTF-8 decode without BOM", which domain to ASCII then rejects
    if decoded.isascii():
        return decoded.lower()
    try:
        return idna.uts46_remap(decoded, std3_rules=False, transitional=False)
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


class Reading(NamedTuple):
    """What address a written host means, and who reads it so."""

    address: str  # dotted decimal
    readers: tuple[str, ...]  # "inet_aton", "WHATWG"


def read_ipv4(host: str, *, special: bool = True) -> Reading | None:
    """The address a client reads *host* (as written in a URI) as, when that is no dotted-decimal IPv4address
    (RFC 3986 7.4, "rare IP address formats"); None for a dotted-decimal address or a host that is no address.
    *special* says whether the URL's scheme is special (URL Standard 3.1: the host of any other scheme is an opaque
    host, never percent-decoded, mapped nor handed to the IPv4 parser, so only ``inet_aton`` reads it).

    >>> read_ipv4("0x7f.1")
    Reading(address='127.0.0.1', readers=('inet_aton', 'WHATWG'))
    >>> read_ipv4("1.2.3.4") is None, read_ipv4("example.com") is None
    (True, True)
    """
    if IPV4ADDRESS.fullmatch(host):
        return None
    readings: dict[int, list[str]] = {}
    if host.isascii() and _NOT_NUMERIC.search(host) is None:
        aton = inet_aton(host)
        if aton is not None:
            readings.setdefault(aton, []).append("inet_aton")
    elif host.isascii() and "%" not in host:
        return None  # letters other than hex digits and "x": no reading takes it
    mapped = whatwg_host(host) if special else None
    if mapped and ends_in_number(mapped):
        address = whatwg_ipv4(mapped)
        if address is not None:
            readings.setdefault(address, []).append("WHATWG")
    if not readings:
        return None
    # Both readers agree whenever both accept (the same number forms); a percent-encoded or mapped host is read by
    # the WHATWG parser alone.
    address, readers = next(iter(readings.items()))
    return Reading(dotted(address), tuple(readers))
