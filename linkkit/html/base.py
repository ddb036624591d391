"""The document's base URL (HTML standard "document base URL", RFC 3986 5.1.1) and resolution against it."""

from __future__ import annotations

import re

from ..errors import ResolutionError
from ..uri.charset import SCHEME
from ..uri.model import split, split_authority
from ..uri.percent import percent_encode
from ..uri.resolution import Base, resolve
from ..uri.schemes import SPECIAL_SCHEMES
from ..uri.validation import is_valid

# ------------------------------------------------------------------------------------------------ resolution
# A valid scheme and its ":" at the start of a reference (RFC 3986 3.1). Its characters exclude ":/?#", so it
# matches exactly when appendix B splits off a scheme and that scheme is valid: no split is needed to know.
_SCHEME_COLON = re.compile(f"(?:{SCHEME}):")


def _scheme(reference: str) -> str | None:
    """The scheme of *reference* when it has a valid one (RFC 3986 3.1), else None."""
    match = _SCHEME_COLON.match(reference)
    return None if match is None else match.group()[:-1]


_C0_CONTROL_OR_SPACE = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")


def _url_input(raw: str) -> str:
    """*raw* as the URL Standard's basic URL parser reads it (HTML parses every URL attribute with it): leading
    and trailing C0 control or space stripped, every ASCII tab or newline removed (``java&#x09;script:``).

    Most values hold none of these: a printable value (C0 controls, tab and newline are not) with no space at
    either end is returned as it is, without the strip and the substitution."""
    if raw.isprintable() and raw[:1] != " " and raw[-1:] != " ":
        return raw
    return _TAB_OR_NEWLINE.sub("", raw.strip(_C0_CONTROL_OR_SPACE))


def _target(raw: str, base: Base | None) -> str:
    """*raw* resolved against *base* by RFC 3986 5.2.2 (strict); *raw* itself when it stays relative or opaque.

    A reference with a scheme of its own keeps it and is resolved only when it is hierarchical (an authority
    or a path starting with "/"), which removes its dot segments; an opaque one (mailto:, javascript:, data:,
    urn:) stays exactly as written. A first segment with a ":" that is no scheme is a path ("./" of RFC 3986 4.2).
    *raw* is first cleaned as the URL parser of the URL Standard cleans its input (see :func:`_url_input`).
    """
    raw = _url_input(raw)
    if ":" not in raw:  # no scheme (appendix B): relative, and resolve() reads such a string fastest
        return raw if base is None else resolve(base, raw)
    scheme = _SCHEME_COLON.match(raw)
    if scheme is not None:
        # Appendix B: after "scheme:", "//" starts an authority and "/" an absolute path; else it is opaque.
        if raw[scheme.end() : scheme.end() + 1] != "/":
            return raw
        # 5.2.2 with a scheme: the base is not consulted, and only dot segments ("/." in the path) change it.
        return raw if "/." not in raw else resolve(raw, raw)
    if base is None:
        return raw
    return resolve(base, raw if split(raw)[0] is None else "./" + raw)


_IGNORED_BASE_SCHEMES = frozenset({"data", "javascript"})
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_MAX_PORT = 2**16 - 1  # URL Standard 4.4, port state: a greater port is a failure
# The special schemes' hosts are domains or IPv4 addresses (URL Standard 3.5, host parser), and all but file fail to
# parse with an empty host (host state); RFC 9110 4.2.1 too: a recipient "MUST reject" an http URI with an empty host.
_HOST_REQUIRED = SPECIAL_SCHEMES - {"file"}


def _authority_parses(target: str) -> bool:
    """Whether the host and port of the absolute *target* are ones the URL parser accepts: an IP-literal that is
    one, a reg-name of URI characters (RFC 3986 3.2.2; non-ASCII ones as their UTF-8 octets, as an IRI's host,
    RFC 3987 3.1), not empty where the scheme requires a host, a port of digits (3.2.3) no greater than 65535 (URL
    Standard 4.4). ``http://[oops/``, ``http://exa mple.com/``, ``http://`` and ``https:`` fail both specifications;
    a userinfo or path the URL parser percent-encodes never fails.
    """
    scheme, authority = split(target)[:2]
    scheme = (scheme or "").lower()
    if authority is None:  # https: and http:foo have no host at all (RFC 9110 4.2.1: "//" authority is required)
        return scheme not in _HOST_REQUIRED
    _, host, port = split_authority(authority)
    if not host and scheme in _HOST_REQUIRED:
        return False
    uri_host = host if host.isascii() else _NON_ASCII.sub(lambda run: percent_encode(run.group()), host)
    if not is_valid(f"//{uri_host}:{port or ''}", rule="relative-ref"):
        return False
    if scheme in SPECIAL_SCHEMES and not host.startswith("[") and not _domain_parses(host):
        return False
    digits = port.lstrip("0") if port else ""
    return len(digits) <= len(str(_MAX_PORT)) and int(digits or 0) <= _MAX_PORT  # int() refuses 4,300 digits


def _domain_parses(host: str) -> bool:
    """Whether the URL Standard's host parser (3.5) accepts *host*, a special URL's reg-name: percent-decoded and
    mapped (UTS 46), it ends in a number only when it is an IPv4 address (``http://1.2.3.256/`` and
    ``http://example.123/`` fail), read by :mod:`linkkit.security.ipv4` (loaded with the first such host)."""
    from ..security.ipv4 import ends_in_number, whatwg_host, whatwg_ipv4

    domain = whatwg_host(host)
    return domain is not None and (not ends_in_number(domain) or whatwg_ipv4(domain) is not None)


def _base(base_href: str | None, base_url: str | None) -> str | None:
    """The document's base URI: the first <base href> resolved against the retrieval URL (its fallback base URL),
    else that URL."""
    if base_url is not None and _scheme(base_url) is None:
        raise ResolutionError(f"base_url {base_url!r} is not absolute: it has no scheme (RFC 3986 5.1)")
    if base_href is None:
        return base_url
    target = _target(base_href, None if base_url is None else Base(base_url))
    scheme = _scheme(target)
    # HTML "set the frozen base URL": a URL that fails to parse or whose scheme is data or javascript is ignored.
    if scheme is None or scheme.lower() in _IGNORED_BASE_SCHEMES or not _authority_parses(target):
        return base_url
    return target


