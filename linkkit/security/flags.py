"""Flags: what a URI does that RFC 3986 section 7 (and its kin) warns about, each with where and why.

    >>> for flag in flags("http://www.example.com@0x7f.1/%0d%0a"):
    ...     print(flag.name, flag.span, flag.detail)
    userinfo (7, 22) None
    deceptive-userinfo (7, 22) www.example.com
    rare-ip-form (23, 29) 127.0.0.1
    encoded-control (30, 36) %0d%0a

Each :class:`Flag` names one concern, the span of the URI it concerns (``uri[start:end]``) and a one-line reason
citing its section; ``flags()`` returns them in URI order, an empty tuple for most URIs. It never raises on a
string: whatever the scanner, the HTML reader or a mail part hands it is judged, not validated.

=====================  ======================================================================================
``userinfo``           RFC 3986 3.2.1, 7.5: the authority has a userinfo (``user@host``)
``password``           RFC 3986 3.2.1: the userinfo is ``user:password`` (deprecated, sent in clear text)
``deceptive-userinfo`` RFC 3986 7.6: the userinfo looks like a host name or a URL (``www.example.com@evil``)
``rare-ip-form``       RFC 3986 7.4: inet_aton or the WHATWG IPv4 parser reads the host as an address though it is
                       no dotted-decimal IPv4address (``0x7f.1``, ``2130706433``, ``127.1``); ``detail`` is it
``mixed-script``       UTS #39 5.1, 5.2: a host label mixes scripts beyond what the Highly Restrictive level allows
                       (``pаypal`` with a Cyrillic ``а``; not Latin with Han, kana or Hangul)
``confusable``         UTS #39 4: a host label's skeleton equals that of an ASCII label, ``detail``
``invisible``          UTS #39 / UAX #9: a default-ignorable or bidirectional control character anywhere
``encoded-control``    RFC 3986 7.2, 7.3: ``%00``-``%1F`` or ``%7F`` (``%0d%0a`` splits a header when decoded)
``active-scheme``      HTML / mail links only: ``javascript:``, ``vbscript:``, ``data:`` as the HTML URL parser
                       reads them (leading controls and spaces stripped, tabs and newlines removed, any case)
=====================  ======================================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

import regex

from ..uri.model import IPV4ADDRESS, HostKind, host_kind, split_match
from ..uri.percent import percent_decode
from ..uri.validation import is_valid
from ..uri.schemes import SPECIAL_SCHEMES
from .authority import browser_authority
from .confusables import ALL, LABEL_SEPARATORS, ascii_lookalike, augmented_scripts, highly_restrictive, labels
from .ipv4 import inet_aton, read_ipv4

FlagName = Literal[
    "userinfo",
    "password",
    "deceptive-userinfo",
    "rare-ip-form",
    "mixed-script",
    "confusable",
    "invisible",
    "encoded-control",
    "active-scheme",
]
FLAG_NAMES: tuple[FlagName, ...] = get_args(FlagName)
Context = Literal["text", "html", "mail"]
_CONTEXTS: tuple[Context, ...] = get_args(Context)
_ORDER = {name: index for index, name in enumerate(FLAG_NAMES)}


@dataclass(frozen=True, slots=True)
class Flag:
    """One concern about a URI: its ``name``, the ``span`` of the URI it concerns, a ``reason`` citing its section,
    and a ``detail`` where there is one to give (the address a rare IP form means, the ASCII label a confusable
    one imitates, the scripts a label mixes, the encoded controls, the active scheme). No field repeats a password.
    """

    name: FlagName
    span: tuple[int, int]
    reason: str
    detail: str | None = None

    def __str__(self) -> str:
        return f"{self.name} {self.span[0]}-{self.span[1]}: {self.reason}"


# RFC 3986 7.2 (CR and LF "not unescaped before transmission"), 7.3 ("%00" may require special handling):
# percent-encoded C0 controls and DEL, a run of them one flag.
_ENCODED_CONTROLS = regex.compile(r"(?:%(?:[01][0-9A-Fa-f]|7[Ff]))+")
# UTS #39 3.1 (Default_Ignorable_Code_Point is "restricted") and UAX #9 2 (the explicit directional formatting
# characters, Bidi_Control): characters that change or hide what is shown; a run of them one flag.
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]+")
# What a host name is made of (RFC 1034 3.5, with the Unicode letters of IDNs): letters, digits, "-" and ".".
_NOT_HOST_NAME = regex.compile(r"[^\p{L}\p{N}.\-]")
# A top-level label: letters (``com``, ``рф``), or an IDNA A-label (RFC 5890 2.3.2.1: ``xn--p1ai`` is ``рф``).
_TOP_LABEL = regex.compile(r"\p{L}{2,63}|[xX][nN]--[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
# A URL written as a userinfo: a scheme, ":" and two slashes or backslashes (``http://bank.example/login@evil``).
_URL_START = regex.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[/\\]{2}")
# WHATWG URL Standard, basic URL parser: "remove any leading and trailing C0 control or space", "remove all ASCII
# tab or newline"; then the scheme state reads ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" (RFC 3986 3.1).
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = regex.compile(r"[\t\n\r]")
_SCHEME = regex.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
ACTIVE_SCHEMES = frozenset({"javascript", "vbscript", "data"})
_AUGMENTED_ONLY = frozenset({"Hanb", "Jpan", "Kore"})
# The shape of nearly every URI, which no flag concerns (with an ASCII URI without "%" and without "xn--"):
# "scheme://" and a host of ASCII letters, digits, "." and "-" with a letter that is no hex digit and no "x" (so no
# number form, 7.4; the possessive run of the others stops at the first), a port or nothing, then the path, query or
# fragment. One match of the standard library's engine, which runs it in a third of a microsecond.
_PLAIN = re.compile(
    r"[A-Za-z][A-Za-z0-9+.\-]*+://[0-9a-fA-FxX.\-]*+[g-wyzG-WYZ][A-Za-z0-9.\-]*+(?::[0-9]*+)?(?:[/?#]|\Z)"
)


def flags(uri: str, *, context: Context = "text") -> tuple[Flag, ...]:
    """The :class:`Flag` values of *uri*, in URI order; *context* is where the link was found: ``"text"``,
    ``"html"`` or ``"mail"`` (``active-scheme`` is judged for HTML and mail links only)."""
    if not isinstance(uri, str):
        raise TypeError(f"flags() takes a str, not {type(uri).__name__}")
    if context not in _CONTEXTS:
        raise ValueError(f"context must be one of {', '.join(_CONTEXTS)}, not {context!r}")
    if is_plain(uri) and (context == "text" or uri[: uri.index(":")].lower() not in ACTIVE_SCHEMES):
        return ()
    return _flags(uri, context)


def is_plain(uri: str) -> bool:
    """Whether *uri* has the plain shape that no flag concerns outside HTML and mail (``flags(uri) == ()``), decided
    by one match: an ASCII URI without "%" and "xn--", "scheme://" and a host that can be no number form."""
    return uri.isascii() and "%" not in uri and "n--" not in uri and "N--" not in uri and _PLAIN.match(uri) is not None


def _flags(uri: str, context: Context) -> tuple[Flag, ...]:
    """Every flag of *uri*, judged one by one (:func:`flags` first answers the plain shape with one match)."""
    found: list[Flag] = []
    if context != "text":
        found.extend(_active_scheme(uri))
    parts = split_match(uri)
    scheme = parts.group(1)
    special = scheme is None or scheme.lower() in SPECIAL_SCHEMES
    authority = parts.span(2)
    if authority[0] < authority[1]:
        found.extend(_authority_flags(uri, *authority, special=special))
    browser = browser_authority(uri)
    if browser is not None and browser != authority:
        # a browser reads another authority than RFC 3986 appendix B: the host it connects to is judged too
        start, end = browser
        judged = _authority_flags(uri, start, end) if authority[0] == authority[1] else _host_flags(uri, start, end)
        found.extend(flag for flag in judged if flag not in found)
    if "%" in uri:
        found.extend(
            Flag("encoded-control", match.span(), "RFC 3986 7.2, 7.3: a percent-encoded control character (C0 or "
                 "DEL) that a component decoded too early turns into a line break (CR LF: an extra protocol line, "
                 "a header), a NUL", match.group())
            for match in _ENCODED_CONTROLS.finditer(uri)
        )
    if not uri.isascii():
        found.extend(
            Flag("invisible", match.span(), "UTS #39 3.1, UAX #9: an invisible (default-ignorable) or bidirectional "
                 "control character changes what the URI shows without showing itself",
                 " ".join(f"U+{ord(c):04X}" for c in match.group()))
            for match in _INVISIBLE.finditer(uri)
        )
    if len(found) > 1:
        found.sort(key=lambda flag: (flag.span[0], _ORDER[flag.name]))
    return tuple(found)


def _authority_flags(uri: str, start: int, end: int, *, special: bool = True) -> list[Flag]:
    """userinfo, password, deceptive-userinfo and the host's flags, for the authority ``uri[start:end]`` of a URI
    whose scheme is *special* or not (URL Standard 3.1)."""
    authority = uri[start:end]
    found: list[Flag] = []
    at = authority.rfind("@")  # RFC 3986 3.2: the userinfo ends at the last "@" (as linkkit.parse splits it)
    host_start = start
    if at >= 0:
        userinfo_span = (start, start + at)
        userinfo = authority[:at]
        found.append(Flag("userinfo", userinfo_span, "RFC 3986 3.2.1, 7.5: the authority carries userinfo, which "
                          "logs, referrers and history keep and which a reader may take for the host"))
        colon = userinfo.find(":")
        if 0 <= colon < len(userinfo) - 1:
            found.append(Flag("password", (start + colon + 1, start + at), 'RFC 3986 3.2.1: "user:password" in '
                              "userinfo is deprecated: the password travels and is stored in clear text"))
        lookalike = _host_or_url_like(userinfo)
        if lookalike is not None:
            found.append(Flag("deceptive-userinfo", userinfo_span, _DIFFERENT_HOSTS if special and "\\" in userinfo
                              else _DECEPTIVE, lookalike))
        host_start = start + at + 1
    found.extend(_host_flags(uri, host_start, end, special=special))
    return found


def _host_flags(uri: str, start: int, end: int, *, special: bool = True) -> list[Flag]:
    """rare-ip-form, mixed-script and confusable for the host of the authority ``uri[start:end]`` (after its last
    "@"), of a URI whose scheme is *special* or not (URL Standard 3.1)."""
    host_start = uri.rfind("@", start, end) + 1 or start
    hostport = uri[host_start:end]
    found: list[Flag] = []
    if hostport.startswith("["):
        return found  # an IP-literal (RFC 3986 3.2.2): no label, no number form
    colon = hostport.find(":")
    host = hostport if colon < 0 else hostport[:colon]
    if not host:
        return found
    reading = read_ipv4(host, special=special)
    if reading is not None:
        readers = " and ".join(reading.readers)
        found.append(Flag("rare-ip-form", (host_start, host_start + len(host)), f"RFC 3986 7.4: {readers} read this "
                          f"host as the IPv4 address {reading.address}, which it does not spell in dotted decimal",
                          reading.address))
    if not host.isascii() or "xn--" in host.lower() or "%" in host:
        found.extend(_label_flags(host, host_start))
    return found


_DECEPTIVE = 'RFC 3986 7.6: the userinfo looks like a host name or URL, but the host is what follows the "@"'
# URL Standard 4.4: after a special scheme "\\" ends the authority as "/" does, so that the two readers part ways.
_DIFFERENT_HOSTS = ('RFC 3986 7.6, URL Standard 4.4: the userinfo looks like a host name or URL; a browser reads its '
                    '"\\" as "/" and connects to the host before it, an RFC 3986 parser to the host after the "@"')


def _host_or_url_like(userinfo: str) -> str | None:
    """What makes a userinfo look like a host or a URL (RFC 3986 7.6), or None: percent-decoded, its full stops
    read as ".", it is a URL (``http://bank.example/login``), or a user part (before any ":", which a password
    follows) holds a "/" (a path: ``a.example/``), is a host name (``www.example.com``) or a dotted IPv4 form. A
    userinfo that holds an "@" is read as an authority itself, the user part after that "@" judged too
    (``user:pw@www.bank.example@evil``). A password is never judged nor returned: its "/" or dots are no disguise
    (``user:a/b.c@``)."""
    # the ideographic and fullwidth full stops separate labels as "." does (RFC 3490 3.1): www。example。com
    decoded: str = LABEL_SEPARATORS.sub(".", percent_decode(userinfo, errors="replace"))
    url = _URL_START.match(decoded)
    if url is not None:
        # up to a ":" after its "//", which a reader takes for a port's and which starts what the parser sends as a
        # password (``http:%2F%2Fbank.example:secret@``)
        shown = decoded.partition("@")[0]
        colon = shown.find(":", url.end())
        return shown if colon < 0 else shown[:colon]
    literal = _ip_literal_start(decoded)
    if literal is not None:
        return literal
    users = [decoded.partition(":")[0]]
    if "@" in decoded:
        users.append(decoded.rpartition("@")[2].partition(":")[0])
    for user in users:
        if "/" in user or "\\" in user:
            return user.partition("@")[0]
        name = _host_name_start(user)
        if name is not None:
            return name
        if "." in user and (IPV4ADDRESS.fullmatch(user) or inet_aton(user) is not None):
            return user
    return None


def _ip_literal_start(text: str) -> str | None:
    """The IP-literal (RFC 3986 3.2.2: ``[::1]``, ``[v1.x]``) *text* is, alone or before a ":" as a port's, or
    None."""
    literal = text[: text.find("]") + 1]
    if not literal or text[len(literal) : len(literal) + 1] not in ("", ":"):
        return None
    is_literal = host_kind(literal) in (HostKind.IPV6, HostKind.IPVFUTURE)
    return literal if is_literal and is_valid("//" + literal, rule="relative-ref") else None


def _host_name_start(text: str) -> str | None:
    """The host name *text* starts with (RFC 1034 3.5 labels, at least two, the last one of letters or an A-label as
    a TLD is, a trailing "." allowed), running up to a character no host name holds or to a "-" that follows such a
    last label (``paypal.com-login`` starts with ``paypal.com``); None when it starts with none."""
    stop = _NOT_HOST_NAME.search(text)
    name = text if stop is None else text[: stop.start()]
    labels = name[:-1].split(".") if name.endswith(".") else name.split(".")
    if len(labels) >= 2 and _TOP_LABEL.fullmatch(labels[-1]) is None:
        top, hyphen, _ = labels[-1].partition("-")
        if hyphen and _TOP_LABEL.fullmatch(top) is not None:
            labels[-1] = top
            name = ".".join(labels)
    if len(labels) < 2 or _TOP_LABEL.fullmatch(labels[-1]) is None:
        return None
    if any(not label or label[0] == "-" or label[-1] == "-" for label in labels):
        return None
    return name


def _label_flags(host: str, host_start: int) -> list[Flag]:
    """mixed-script and confusable for each label of a reg-name *host*; a percent-encoded host is read decoded
    (as the WHATWG host parser reads it), its flags then spanning the whole host."""
    found: list[Flag] = []
    whole: tuple[int, int] | None = None
    if "%" in host:
        try:
            decoded = percent_decode(host, errors="strict")
        except UnicodeDecodeError:
            return found  # not UTF-8 once decoded: no label to read (the WHATWG host parser fails on it too)
        host, whole = decoded, (host_start, host_start + len(host))
    for label in labels(host):
        span = whole or (host_start + label.start, host_start + label.end)
        if not highly_restrictive(label.unicode):
            scripts: set[str] = set()
            for character in label.unicode:
                sets = augmented_scripts(character)
                if sets is not ALL:
                    scripts.update(sets - _AUGMENTED_ONLY)
            found.append(Flag("mixed-script", span, f"UTS #39 5.1, 5.2: the host label {label.unicode!r} mixes "
                              "scripts beyond the Highly Restrictive level (Latin with Japanese, Chinese or Korean), "
                              "as a homograph does", " ".join(sorted(scripts))))
        lookalike = ascii_lookalike(label.unicode)
        if lookalike is not None:
            found.append(Flag("confusable", span, f"UTS #39 4: the host label {label.unicode!r} has the skeleton of "
                              f"the ASCII label {lookalike!r}", lookalike))
    return found


def _active_scheme(uri: str) -> list[Flag]:
    """active-scheme: the scheme the HTML URL parser reads (WHATWG URL, basic URL parser, its first steps)."""
    start = len(uri) - len(uri.lstrip(_C0_OR_SPACE))
    end = uri.find(":", start) + 1
    if end == 0 or end - start > 64:  # no scheme, or none of the three (with tabs and newlines in it)
        return []
    scheme = _SCHEME.fullmatch(_TAB_OR_NEWLINE.sub("", uri[start:end]))
    if scheme is None or scheme.group()[:-1].lower() not in ACTIVE_SCHEMES:
        return []
    name = scheme.group()[:-1].lower()
    return [Flag("active-scheme", (start, end), f"WHATWG URL basic URL parser, HTML: a {name}: URL runs script or "
                 "inline content where it is followed (leading controls and spaces, tabs and newlines ignored)", name)]
