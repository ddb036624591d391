r"""The URI reference model: lenient parsing (RFC 3986 appendix B) and exact recomposition (section 5.3).

    foo://user:pass@example.com:8042/over/there?name=ferret#nose
    \_/   \________________________/\_________/ \_________/ \__/
     |                 |                 |           |        |
  scheme           authority           path        query   fragment

An undefined component is ``None`` and an empty one is ``""``, so ``compose(parse(s)) == s`` for every string.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple, cast

# RFC 3986 appendix B, one fragment per component, the outer groups made non-capturing so that groups() yields
# the five components. Possessive runs: each stops only where its delimiter is, so giving characters back could
# never match otherwise -- the same split, without backtracking state.
APPENDIX_B_SCHEME = r"([^:/?#]++):"
APPENDIX_B_AUTHORITY = r"//([^/?#]*+)"
APPENDIX_B_PATH = r"([^?#]*+)"
# DOTALL: a lenient parse accepts any string, line breaks included.
_APPENDIX_B = re.compile(
    rf"(?:{APPENDIX_B_SCHEME})?(?:{APPENDIX_B_AUTHORITY})?{APPENDIX_B_PATH}(?:\?([^#]*+))?(?:#(.*+))?", re.DOTALL
)
_match_appendix_b = _APPENDIX_B.match

# The five components: scheme, authority, path, query, fragment; None where undefined.
Components = tuple[str | None, str | None, str, str | None, str | None]


def split(text: str) -> Components:
    """The five components of *text* by RFC 3986 appendix B, whose expression matches every string."""
    return cast(Components, split_match(text).groups())


def split_match(text: str) -> re.Match[str]:
    """The RFC 3986 appendix B match of *text*, for callers that need where each component lies (groups 1-5)."""
    return cast(re.Match[str], _match_appendix_b(text))

# RFC 3986 3.2.2: dec-octet / IPv4address, and the shape of the IP-literal forms (validate.py checks them fully).
DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
IPV4ADDRESS = re.compile(rf"{DEC_OCTET}(?:\.{DEC_OCTET}){{3}}")


class HostKind(enum.Enum):
    """The four forms of RFC 3986 3.2.2 host."""

    IPV4 = "IPv4address"
    IPV6 = "IPv6address"
    IPVFUTURE = "IPvFuture"
    REG_NAME = "reg-name"


def split_authority(authority: str) -> tuple[str | None, str, str | None]:
    """Split ``[ userinfo "@" ] host [ ":" port ]`` (RFC 3986 3.2); the host of an IP-literal keeps its brackets."""
    userinfo, at, hostport = authority.rpartition("@")
    if hostport.startswith("["):
        close = hostport.find("]")
        if close != -1:
            host, rest = hostport[: close + 1], hostport[close + 1 :]
            port = rest[1:] if rest.startswith(":") else None
            if rest and port is None:  # text after "]" that is not ":" port: keep it in the host, losing nothing
                host, port = hostport, None
            return (userinfo if at else None), host, port
    host, colon, port = hostport.partition(":")
    return (userinfo if at else None), host, (port if colon else None)


def host_kind(host: str) -> HostKind:
    """Classify a host as RFC 3986 3.2.2 does: IP-literal first, then IPv4address, else reg-name."""
    if host.startswith("[") and host.endswith("]"):
        # RFC 3986 3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]"; only IPvFuture starts with "v"
        return HostKind.IPVFUTURE if host[1:2] in ("v", "V") else HostKind.IPV6
    if IPV4ADDRESS.fullmatch(host):
        return HostKind.IPV4
    return HostKind.REG_NAME


class URIReference(NamedTuple):
    """An immutable URI reference: the five components of RFC 3986 section 3, ``None`` where undefined."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None

    @property
    def userinfo(self) -> str | None:
        """The userinfo subcomponent (RFC 3986 3.2.1), or None."""
        return None if self.authority is None else split_authority(self.authority)[0]

    @property
    def host(self) -> str | None:
        """The host subcomponent (RFC 3986 3.2.2), brackets kept on an IP-literal; None without authority."""
        return None if self.authority is None else split_authority(self.authority)[1]

    @property
    def port(self) -> str | None:
        """The port subcomponent as written (RFC 3986 3.2.3): None when absent, "" when empty."""
        return None if self.authority is None else split_authority(self.authority)[2]

    @property
    def host_kind(self) -> HostKind | None:
        """Which form of RFC 3986 3.2.2 the host takes, or None without authority."""
        host = self.host
        return None if host is None else host_kind(host)

    def is_absolute(self) -> bool:
        """True for an absolute-URI (RFC 3986 4.3): a scheme and no fragment."""
        return self.scheme is not None and self.fragment is None

    def is_relative(self) -> bool:
        """True for a relative reference (RFC 3986 4.2): no scheme."""
        return self.scheme is None

    def __str__(self) -> str:
        return compose(self)


# Each component's own docstring (help() said "Alias for field number 0"): what it holds and when it is None.
for _field, _doc in zip(URIReference._fields, (
    "The scheme (RFC 3986 3.1) as written, without its \":\"; None in a relative reference.",
    "The authority (RFC 3986 3.2) as written, without its \"//\"; None without \"//\", \"\" when empty.",
    "The path (RFC 3986 3.3) as written: always defined, \"\" when empty.",
    "The query (RFC 3986 3.4) as written, without its \"?\"; None without \"?\", \"\" when empty.",
    "The fragment (RFC 3986 3.5) as written, without its \"#\"; None without \"#\", \"\" when empty.",
), strict=True):
    getattr(URIReference, _field).__doc__ = _doc
del _field, _doc


def parse(text: str) -> URIReference:
    """Split *text* into its five components by RFC 3986 appendix B; never raises on a string.

    >>> parse("foo://example.com:8042/over/there?name=ferret#nose").authority
    'example.com:8042'
    """
    if not isinstance(text, str):
        raise TypeError(f"parse() takes a str, not {type(text).__name__}")
    return URIReference._make(split(text))


def recompose(scheme: str | None, authority: str | None, path: str, query: str | None, fragment: str | None) -> str:
    """RFC 3986 5.3: join the components, writing a delimiter exactly where its component is defined."""
    result = path
    if authority is not None:
        result = "//" + authority + result
    if scheme is not None:
        result = scheme + ":" + result
    if query is not None:
        result += "?" + query
    if fragment is not None:
        result += "#" + fragment
    return result


def compose(reference: URIReference) -> str:
    """The string form of *reference* (RFC 3986 5.3): a URIReference, or a tuple of its five components."""
    if not isinstance(reference, tuple) or len(reference) != len(URIReference._fields):  # a str of 5 is no reference
        raise TypeError(f"compose() takes a URIReference, not {type(reference).__name__}: {reference!r}")
    for name, value in zip(URIReference._fields, reference, strict=True):
        if not isinstance(value, str) and (value is not None or name == "path"):  # 3: the path is always defined
            kind = "a str" if name == "path" else "a str or None"
            raise TypeError(f"compose(): the {name} takes {kind}, not {type(value).__name__}: {value!r}")
    return recompose(*reference)
