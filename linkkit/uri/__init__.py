"""URIs by the RFCs: ``charset`` and ``percent`` (RFC 3986 section 2), ``model`` (parse and compose, section 3,
5.3, appendix B), ``validation`` (appendix A), ``resolution`` (5.2), ``normalization`` (section 6), ``urn``
(RFC 8141), ``schemes`` (the scheme table) and ``rfc1738`` (the scheme-specific records of RFC 1738)."""

from .model import HostKind, URIReference, compose, parse
from .normalization import equivalent, normalize
from .resolution import Base, remove_dot_segments, resolve
from .rfc1738 import scheme_specific
from .urn import URN, parse_urn
from .validation import Violation, is_valid, validate

__all__ = [
    "URN",
    "Base",
    "HostKind",
    "URIReference",
    "Violation",
    "compose",
    "equivalent",
    "is_valid",
    "normalize",
    "parse",
    "parse_urn",
    "remove_dot_segments",
    "resolve",
    "scheme_specific",
    "validate",
]
