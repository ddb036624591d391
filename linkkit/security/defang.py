"""Defanging what a corpus must not make clickable, as threat reports write it (``hxxps://evil[.]example/x``), by the
rules :mod:`linkkit.security.refang` reads those spellings back with: ``refang(defang(uri)) == uri``."""

from __future__ import annotations

import re

from ..uri.model import split_match
from .authority import browser_authority
from .refang import COLON_FOLLOWERS, DOT_FOLLOWERS, NOT_GLUED, refang, refanged


def _dots(host: str) -> str:
    """*host* with its dots written "[.]", each where :func:`refang` reads it back: glued to what precedes it, and
    before a host character, another "[.]" or the host's end (a reg-name may hold sub-delims, RFC 3986 3.2.2,
    and a dot before one of them stays a dot). Decided from the end, since a dot's follower may be a "[.]"."""
    if "." not in host:
        return host
    pieces = list(host)
    defanged_after = True  # what follows the host ends it ("/", ":", "?", "#", ",", the end): always a follower
    for index in range(len(host) - 1, -1, -1):
        if host[index] != ".":
            continue
        after = host[index + 1] if index + 1 < len(host) else ""
        follows = not after or after.isalnum() or after in DOT_FOLLOWERS or (after == "." and defanged_after)
        glued = index == 0 or host[index - 1] not in NOT_GLUED
        defanged_after = follows and glued
        if defanged_after:
            pieces[index] = "[.]"
    return "".join(pieces)


def _at(before: str, host: str) -> str:
    """The "@" between a userinfo or local-part ending in *before* and *host*, written "[@]" where
    :func:`refang` reads it back: glued to what precedes it, before a host's first character."""
    first = host[:1]
    glued = not before or before not in NOT_GLUED
    return "[@]" if glued and first and (first.isalnum() or first in "[%_~") else "@"


def _defang_authority(authority: str) -> str:
    userinfo, at, hostport = authority.rpartition("@")
    host = hostport if hostport.startswith("[") else _dots(hostport)  # an IP-literal keeps its dots and colons
    return (userinfo + _at(userinfo[-1:], hostport) if at else "") + host


def _defang_mailto(path: str) -> str:
    """RFC 6068 2: ``addr-spec *("," addr-spec)``: each address's "@" and its domain's dots defanged."""
    addresses = []
    for address in path.split(","):
        local, at, domain = address.rpartition("@")
        addresses.append(local + _at(local[-1:], domain) + _dots(domain) if at else address)
    return ",".join(addresses)


# RFC 6068 2: the header fields of a mailto: URI whose values are addresses, as its path's are.
_ADDRESS_HFIELDS = frozenset({"to", "cc", "bcc"})


def _defang_hfields(query: str) -> str:
    """RFC 6068 2: ``hfield *( "&" hfield )``, the addresses of its ``to``, ``cc`` and ``bcc`` fields defanged
    (``?cc=abuse[@]example[.]net``); the other fields (a subject, a body) are copied."""
    fields = query.split("&")
    for index, field in enumerate(fields):
        name, equals, value = field.partition("=")
        if equals and name.lower() in _ADDRESS_HFIELDS:
            fields[index] = name + "=" + _defang_mailto(value)
    return "&".join(fields)


def defang(uri: str) -> str:
    """*uri* made unclickable and unresolvable for sharing, as threat reports write it: ``http`` and ``https``
    become ``hxxp`` and ``hxxps``, another scheme's ``://`` is ``[://]`` (``[:]`` without an authority), the host's
    dots ``[.]`` (not an IP-literal's), the userinfo's ``@`` ``[@]``, a ``mailto:`` address's ``@`` and dots alike
    (those of its ``to``, ``cc`` and ``bcc`` fields too).
    A relative reference names nothing on its own and is returned as it is (a network-path one has its host
    defanged), unless the scanner reads all of it as an abbreviated ``www.`` or ``ftp.`` reference, whose host is
    then defanged as written (``www[.]example[.]com/a``). A reference the scanner finds in the path, query or
    fragment is defanged too (``?u=hxxps://evil[.]example/``), where :func:`refang` reads it back; the rest is
    copied as written. :func:`refang` reads the result back. What is already defanged stays so, a scheme written
    ``hxxps`` as it is: defanging twice changes nothing.

    >>> defang("https://user@www.example.com:8443/a.php?q=1")
    'hxxps://user[@]www[.]example[.]com:8443/a.php?q=1'
    >>> defang("mailto:abuse@example.net"), defang("ftp://192.0.2.1/")
    ('mailto[:]abuse[@]example[.]net', 'ftp[://]192[.]0[.]2[.]1/')
    >>> defang("hXXps://evil[.]example/a"), defang("http[://]evil[.]example/a")
    ('hXXps://evil[.]example/a', 'hxxp://evil[.]example/a')
    """
    if not isinstance(uri, str):
        raise TypeError(f"defang() takes a str, not {type(uri).__name__}")
    parts = _defanged_parts(uri)
    if parts is None:
        return uri
    head, rest = parts
    embedded = _embedded_defanged(rest)
    if embedded != rest and refang(head + embedded) == refang(head + rest):
        rest = embedded
    return head + rest


def _defanged_parts(uri: str) -> tuple[str, str] | None:
    """The part of *uri* defang rewrites (scheme and authority, or a mailto: address list), read with its defanged
    spellings read back and defanged, and the rest as written; None for a relative reference."""
    reading = refanged(uri)
    first = reading.edits[0] if reading.edits else None
    scheme_written = uri[: first.end] if first is not None and first.start == 0 and first.text.isalpha() else None
    head, end = _defanged_head(reading.text, scheme_written)
    if not end:
        return None
    return head, uri[reading.original_span(0, end)[1] :]


def _defanged_head(uri: str, scheme_written: str | None) -> tuple[str, int]:
    """The scheme and authority (or mailto: address list) of *uri*, a URI without defanged spellings, defanged, and
    where they end in *uri*; ``("", 0)`` for a relative reference. *scheme_written* is the scheme as the caller's
    text spells it when that is already a defanged spelling (``hXXps``), which is kept."""
    abbreviated = _abbreviated_head(uri)
    if abbreviated is not None:
        return abbreviated
    match = split_match(uri)
    scheme, authority = match.group(1), match.group(2)
    browser = _browser_head(uri, match, scheme_written)
    if browser is not None:
        return browser
    if scheme is None:
        return ("", 0) if authority is None else ("//" + _defang_authority(authority), match.end(2))
    if authority is not None:
        if scheme_written is not None:
            head = scheme_written + "://"
        else:
            head = scheme.replace("tt", "xx") + "://" if scheme in ("http", "https") else scheme + "[://]"
        return head + _defang_authority(authority), match.end(2)
    if scheme.lower() == "mailto":
        path, end = _defang_mailto(match.group(3)), match.end(3)
        if match.start(4) >= 0:
            path, end = path + "?" + _defang_hfields(match.group(4)), match.end(4)
        return scheme + _colon(path) + path, end
    return (scheme_written or scheme) + _colon(uri[match.start(3) :]), match.start(3)


def _browser_head(uri: str, match: re.Match[str], scheme_written: str | None) -> tuple[str, int] | None:
    """The scheme and authority defanged where a browser reads another authority than appendix B's (URL Standard
    4.4: ``http:\\\\evil.example/``, ``http:///evil.example/`` and ``/\\evil.example/`` reach ``evil.example``;
    ``http://evil.example\\@bank.example/`` too, whose userinfo before the "\\" has its dots defanged as well),
    and where they end; None where both read the same, or where :func:`refang` would not read it back."""
    span = browser_authority(uri)
    if span is None or span[0] == span[1] or span == match.span(2):
        return None
    scheme = match.group(1)
    if match.start(2) < match.end(2):  # "http://evil.example\\@bank.example/": appendix B's authority holds a "\\"
        start, end = match.span(2)
        cut = uri.index("\\", start, end)
        authority = _defang_authority(uri[start:cut]) + _defang_authority(uri[cut:end])
    else:
        start, end = span
        authority = _defang_authority(uri[start:end])
    if scheme is None:
        head = uri[:start] + authority
    elif scheme_written is not None or scheme in _HXXP:
        head = (scheme_written or _HXXP[scheme]) + uri[match.end(1) : start] + authority
    else:  # another scheme's "://" is "[://]", its ":" "[:]", as where both read the same (ftp:///evil stayed live)
        slashes = uri[match.end(1) + 1 : start]
        colon = "[://]" if slashes.startswith("//") else _colon(slashes + authority)
        head = scheme + colon + slashes[2 if colon == "[://]" else 0 :] + authority
    return (head, end) if refang(head + uri[end:]) == uri else None


_HXXP = {"http": "hxxp", "https": "hxxps"}


# References defanged inside one URI, nested or side by side: each costs a scan of the text after it, so a URI of
# thousands of nested ones would cost time quadratic in its length (it raised RecursionError); the rest is copied.
_MAX_EMBEDDED = 16


def _embedded_defanged(rest: str) -> str:
    """*rest*, the path, query and fragment of a URI, with the references the scanner finds in it defanged as
    written (a redirector's ``?u=https://evil.example/``, which a reader's tools would find and make live), the
    references inside those too, the first :data:`_MAX_EMBEDDED` of them."""
    lowered = rest.lower()
    if ":" not in rest and "www." not in lowered and "ftp." not in lowered:
        return rest  # every reference the scanner finds has a scheme's ":" or starts with "www." or "ftp."
    from ..text import finditer

    pieces: list[str] = []
    for _ in range(_MAX_EMBEDDED):
        reference = next(finditer(rest), None)
        if reference is None:
            break
        start, end = reference.span()
        parts = _defanged_parts(rest[start:end])
        if parts is None:
            pieces.append(rest[:end])
            rest = rest[end:]
            continue
        head, inner = parts  # what follows its head is read on, for the references inside it and after it
        pieces += (rest[:start], head)
        rest = inner + rest[end:]
    return "".join(pieces) + rest


def _abbreviated_head(text: str) -> tuple[str, int] | None:
    """The host of *text* defanged in the shape it was written in, and where it ends, when the scanner reads the
    whole of *text* as an abbreviated reference (``www.example.com:8080/a``: RFC 3986 draft appendix F; appendix B
    would take ``www.example.com`` for a scheme there), else None."""
    if text[:4].lower() not in ("www.", "ftp."):
        return None
    from ..text import finditer

    found = list(finditer(text))
    if len(found) != 1 or found[0].kind != "abbreviated" or found[0].span() != (0, len(text)):
        return None
    uri = found[0].uri
    added = len(uri) - len(text)  # the scheme the scanner put before what was written
    if uri[added:] != text:
        return None
    end = split_match(uri).end(2)
    return defang_written(uri[:end], "abbreviated"), end - added


def _colon(rest: str) -> str:
    """The ":" after a scheme without an authority, written "[:]" where :func:`refang` reads it back."""
    after = rest[:1]
    return "[:]" if after and (after.isalnum() or after in COLON_FOLLOWERS) else ":"


# What the scanner adds to what was written, by kind: taken off again so that a defanged reference keeps the shape
# it was written in (``www[.]example[.]org``, ``abuse[@]example[.]net``).
_ADDED = {"abbreviated": {"http://": "hxxp://", "ftp://": "ftp[://]"}, "email": {"mailto:": "mailto[:]"}}


def defang_written(uri: str, kind: str) -> str:
    """The defanged spelling of a found reference written as *kind* (the scanner's ``Reference.kind``): an
    abbreviated ``www.`` host and a bare e-mail address are defanged without the scheme the scanner completed.

    >>> defang_written("ftp://ftp.example.org/", "abbreviated"), defang_written("mailto:a@example.net", "email")
    ('ftp[.]example[.]org/', 'a[@]example[.]net')
    """
    for prefix, defanged_prefix in _ADDED.get(kind, {}).items():
        if uri.startswith(prefix):
            return defang(uri)[len(defanged_prefix) :]
    return defang(uri)


def written_kind(raw: str, uri: str) -> str:
    """The scanner's kind of a reference from what was written and what it was read as (for links that do not
    carry it, such as the visible text of HTML): ``email`` when ``mailto:`` was added, ``abbreviated`` when a
    scheme was, else ``uri``."""
    if uri.startswith("mailto:") and raw[:7].lower() != "mailto:":
        return "email"
    if uri.startswith(("http://", "ftp://")) and split_match(raw).group(1) is None:
        return "abbreviated"
    return "uri"
