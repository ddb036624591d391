"""Normalization and comparison: the RFC 3986 section 6 ladder (6.2.2 syntax-based, 6.2.3 scheme-based)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Literal

from .model import URIReference, _match_appendix_b, recompose, split_authority
from .percent import normalize_percent_encoding
from .resolution import remove_dot_segments
from .schemes import SCHEMES
from .tel import comparison_key as tel_comparison_key
from .urn import URNError, is_urn, normalize_urn
from .urn import equivalent as urn_equivalent

Level = Literal["syntax", "scheme"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# The schemes of the table that define a default host (RFC 3986 3.2.2), and that host.
_DEFAULT_HOST = {row.name: row.default_host for row in SCHEMES.values() if row.default_host is not None}
# The schemes of the table whose URIs compare character for character (RFC 4151 2.4 for "tag").
_COMPARED_AS_WRITTEN = frozenset(row.name for row in SCHEMES.values() if row.compared_as_written)


def _lower_ascii(text: str) -> str:
    # RFC 3986 6.2.2.1 folds the case of ASCII letters only; IRI characters are left as written.
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def normalize_host(host: str) -> str:
    """RFC 3986 6.2.2.1: lower-case the host (hex of its triplets upper-cased, 6.2.2.2 decoding applied).

    The zone identifier of an IPv6 literal (RFC 6874 2, after ``%25``) is case-sensitive: its letters keep their
    case, while its triplets are normalized as any other (``%2f`` is ``%2F``, ``%41`` is ``A``).
    """
    if host.startswith("[") and "%25" in host:
        address, _, zone = host.partition("%25")
        return _normalize_case_insensitive(address) + "%25" + normalize_percent_encoding(zone)
    return _normalize_case_insensitive(host)


def _normalize_case_insensitive(text: str) -> str:
    # A decoded letter is lower-cased in the same pass ("%41" is "a"), so a second pass changes nothing.
    return normalize_percent_encoding(_lower_ascii(text), case_insensitive=True)


def _normalize_domains(path: str) -> str:
    """A path of comma-separated addresses (RFC 6068 2: ``addr-spec *("," addr-spec)``) with the domain of each, after
    its last "@", case-normalized as a host is (RFC 3986 6.2.3); the local parts keep their case."""
    addresses = path.split(",")
    for index, address in enumerate(addresses):
        local, at, domain = address.rpartition("@")
        if at:
            addresses[index] = local + at + _normalize_case_insensitive(domain)
    return ",".join(addresses)


def _normalize_authority(authority: str, scheme: str, level: Level) -> str:
    if "@" in authority or "[" in authority or "%" in authority:
        userinfo, host, port = split_authority(authority)
        host = normalize_host(host)
    else:  # the common case: a plain reg-name or IPv4 host, maybe a port (kept as written, as on the path above)
        userinfo = None
        host, colon, port = authority.partition(":")
        host = _lower_ascii(host)
        if not colon:
            return host
    if level == "scheme" and port is not None:
        row = SCHEMES.get(scheme)
        # RFC 3986 6.2.3: an empty port, or the scheme's default port, is omitted (3.2.3).
        if port == "" or (row is not None and port.isascii() and port.isdigit() and int(port) == row.default_port):
            port = None
    result = host if port is None else host + ":" + port
    if userinfo is not None:
        result = normalize_percent_encoding(userinfo) + "@" + result
    return result


def _names_default_host(scheme: str, authority: str | None, path: str) -> bool:
    """Whether *authority* (None when absent, then before an absolute path) names the default host of *scheme*, one
    of ``_DEFAULT_HOST`` (RFC 3986 3.2.2: for "file", no authority, the empty host and "localhost" are the end-user's
    machine, RFC 8089 2)."""
    return authority == _DEFAULT_HOST[scheme] if authority is not None else path[:1] == "/"


def normalize(uri: str | URIReference, *, level: Level = "scheme") -> str:
    """Normalize *uri* along the comparison ladder of RFC 3986 section 6.

    ``level="syntax"`` is 6.2.2 alone: scheme and host to lower case, percent-encoding hex to upper case,
    percent-encoded unreserved characters decoded, dot segments removed. ``level="scheme"`` (the default)
    adds 6.2.3: the default and the empty port removed, an empty path becomes "/" where the scheme says so, and
    a scheme's default host (3.2.2), written or implied by an absent authority, becomes the empty host.
    A reserved character is never decoded, and an empty query or fragment is never dropped.

    A valid URN is normalized by RFC 8141 3.1 instead: ``urn`` and the NID lower-cased, hex upper-cased,
    nothing decoded. A tag (RFC 4151 2.4: compared character for character) only has its scheme lower-cased.
    A relative-path reference keeps its dot segments, which only resolution can settle (RFC 3986 6.1).

    >>> normalize("HTTP://www.Example.com:80/a/./b/../%7euser")
    'http://www.example.com/a/~user'
    """
    if level != "scheme" and level != "syntax":
        raise ValueError(f"normalize(): level must be 'syntax' or 'scheme', not {level!r}")
    if isinstance(uri, str):  # split by RFC 3986 appendix B, whose expression matches every string
        scheme, authority, path, query, fragment = _match_appendix_b(uri).groups()  # type: ignore[union-attr]
    elif isinstance(uri, URIReference):
        scheme, authority, path, query, fragment = uri
    else:
        raise TypeError(f"normalize() takes a str or URIReference, not {type(uri).__name__}")

    if scheme is not None:
        scheme = _lower_ascii(scheme)  # RFC 3986 6.2.2.1 (3.1: schemes are case-insensitive)
        if scheme == "urn" and authority is None:
            urn = _normalize_if_urn(uri if isinstance(uri, str) else recompose(*uri))
            if urn is not None:
                return urn
        elif scheme in _COMPARED_AS_WRITTEN:
            return recompose(scheme, authority, path, query, fragment)  # RFC 4151 2.4 (RFC 3986 3.1: the scheme)
    if authority is not None:
        authority = _normalize_authority(authority, scheme or "", level)
    if "%" in path:
        path = normalize_percent_encoding(path)  # RFC 3986 6.2.2.2, before 6.2.2.3 so that "%2E" counts as "."
    if scheme is not None or authority is not None or path[:1] == "/":
        path = remove_dot_segments(path)  # RFC 3986 6.2.2.3
        if scheme in _DEFAULT_HOST and level == "scheme" and _names_default_host(scheme, authority, path):
            # RFC 3986 6.2.3: the default host is elided and the empty authority written, not removed ("file:/x" and
            # "file://localhost/x" are "file:///x"): 6.2.3 removes no delimiter the scheme does not license it to.
            # After 6.2.2.3, whose output says whether an authority-less path is absolute ("file:a/.." is "file:/").
            authority = ""
        elif authority is None and path[:2] == "//":
            # The literal 5.2.4 output would start an authority-less path with "//" and so turn its first
            # segment into an authority (RFC 3986 3.3 forbids that path); "/." keeps the meaning (as WHATWG does).
            path = "/." + path
    if level == "scheme" and path == "" and authority is not None and scheme is not None:
        row = SCHEMES.get(scheme)
        if row is not None and row.empty_path_is_slash:
            path = "/"  # RFC 3986 6.2.3: "http://example.com" is "http://example.com/"
    elif level == "scheme" and authority is None and "@" in path and scheme is not None:
        row = SCHEMES.get(scheme)
        if row is not None and row.path_domains:
            path = _normalize_domains(path)  # RFC 3986 6.2.3: "mailto:Joe@Example.COM" is "mailto:Joe@example.com"
    if query and "%" in query:
        query = normalize_percent_encoding(query)
    if fragment and "%" in fragment:
        fragment = normalize_percent_encoding(fragment)
    result = recompose(scheme, authority, path, query, fragment)
    if scheme == "urn" and authority is None:
        # The generic ladder may have made a URN ("URN:AB:x%" is "urn:AB:x%25"): normalize it as one in this pass.
        return _normalize_if_urn(result) or result
    return result


def _normalize_if_urn(text: str) -> str | None:
    """RFC 8141 3.1 normalization when *text* is a valid URN (percent-encoding never decoded, NID case-folded)."""
    try:
        return normalize_urn(text)
    except URNError:
        return None  # not a valid URN: the generic ladder of RFC 3986 applies


def equivalent(a: str | URIReference, b: str | URIReference) -> bool:
    """Whether *a* and *b* identify the same resource under the ladder of RFC 3986 6.2 (through 6.2.3).

    Two references whose normal forms are valid URNs are compared by the lexical equivalence of RFC 8141 3.1
    instead (components ignored), two valid "tel" URIs by RFC 3966 4 (visual separators and the order and case of
    parameters ignored), two "mailto" URIs by their recipients wherever written (RFC 6068 2), gopher and ftp URIs
    with the defaults and cases RFC 1738 gives (3.4.1, 5). Both are normalized first, so that the relation is
    transitive: "URN:AB:x%", which the ladder makes the URN "urn:ab:x%25", is equivalent to every URN that one is
    equivalent to.
    """
    na, nb = normalize(_text(a)), normalize(_text(b))
    if na[:4] == "urn:" and nb[:4] == "urn:" and is_urn(na) and is_urn(nb):
        return urn_equivalent(na, nb)
    colon = na.find(":")
    comparison_key = _COMPARISON_KEYS.get(na[:colon]) if colon > 0 and nb[: colon + 1] == na[: colon + 1] else None
    if comparison_key is not None:
        ka, kb = comparison_key(na), comparison_key(nb)
        if ka is not None and kb is not None:
            return ka == kb
    return na == nb


def _tel_key(text: str) -> Hashable | None:
    """The RFC 3966 4 comparison key of the "tel" URI *text*, or None when it is none (RFC 3966 3 gives it no
    authority, query or fragment)."""
    _, authority, path, query, fragment = _match_appendix_b(text).groups()  # type: ignore[union-attr]
    if authority is not None or query is not None or fragment is not None:
        return None
    return tel_comparison_key(path)


def _mailto_key(text: str) -> Hashable | None:
    """The recipients and other header fields of the normalized "mailto" URI *text* (RFC 6068 2), or None when it
    has an authority, a fragment, an hfield without "=" or an empty address.

    An address may be written in the path or in a "to" hfield ("mailto:a@x,b@x" is "mailto:?to=a@x,b@x" and
    "mailto:a@x?to=b@x", the section's examples), its domain case-insensitive (RFC 3986 6.2.3), and an hfname is a
    header field name, which RFC 5322 3.6 spells as an ABNF string, case-insensitive (RFC 5234 2.3); the rest is
    compared as written, in order.
    """
    _, authority, path, query, fragment = _match_appendix_b(text).groups()  # type: ignore[union-attr]
    if authority is not None or fragment is not None:
        return None
    recipients = path.split(",") if path else []
    fields = []
    for field in query.split("&") if query else ():
        name, equals, value = field.partition("=")
        if not equals:
            return None
        name = _lower_ascii(name)
        if name == "to":
            recipients += _normalize_domains(value).split(",")
        else:
            fields.append((name, value))
    if "" in recipients:
        return None
    return tuple(recipients), tuple(fields)


def _gopher_key(text: str) -> Hashable:
    """The normalized "gopher" URI *text* with an empty gopher-path read as the type "1" it defaults to (RFC 1738
    3.4.1, RFC 4266 2.1): "gopher://h/" and "gopher://h/1" name the same menu, the empty selector's."""
    scheme, authority, path, query, fragment = _match_appendix_b(text).groups()  # type: ignore[union-attr]
    return recompose(scheme, authority, "/1" if path == "/" and query is None else path, query, fragment)


def _ftp_key(text: str) -> Hashable:
    """The normalized "ftp" URI *text* with its typecode lower-cased: ``ftptype = "A" | "I" | "D" | "a" | "i" | "d"``
    (RFC 1738 5) gives each code in either case the one meaning of 3.2.2. The typecode ends the url-path, whose
    fsegments may hold "?" (RFC 1738 5): after a query there is none."""
    scheme, authority, path, query, fragment = _match_appendix_b(text).groups()  # type: ignore[union-attr]
    head, semicolon, typecode = path.rpartition(";type=")
    if semicolon and query is None and typecode in ("A", "I", "D"):
        path = head + semicolon + typecode.lower()
    return recompose(scheme, authority, path, query, fragment)


# The schemes whose own specification compares their URIs by more than the ladder's normal form: the key each compares
# (None for a URI its grammar refuses, which the ladder compares as any other).
_COMPARISON_KEYS: dict[str, Callable[[str], Hashable | None]] = {
    "tel": _tel_key, "mailto": _mailto_key, "gopher": _gopher_key, "ftp": _ftp_key,
}


def _text(uri: str | URIReference) -> str:
    """*uri* as a string; any other type is an error (``str(None)`` would compare "None" as a reference)."""
    if isinstance(uri, str):
        return uri
    if isinstance(uri, URIReference):
        return recompose(*uri)
    raise TypeError(f"equivalent() takes a str or URIReference, not {type(uri).__name__}")
