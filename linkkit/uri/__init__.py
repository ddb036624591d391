"""URIs by the RFCs: ``charset`` and ``percent`` (RFC 3986 section 2), ``model`` (parse and compose, section 3,
5.3, appendix B), ``validation`` (appendix A), ``resolution`` (5.2), ``normalization`` (section 6), ``urn``
(RFC 8141), ``tel`` (RFC 3966's comparison), ``schemes`` (the scheme table) and ``rfc1738`` (the scheme-specific
records of RFC 1738).

Each name below is loaded with its module on first use (PEP 562): the text scanner, which needs the character
classes, the scheme table and URNs, and a batch, which resolves, load neither validation nor RFC 1738's records.
"""

from typing import TYPE_CHECKING

from ..lazy import names_on_first_use

if TYPE_CHECKING:
    from .model import HostKind, URIReference, compose, parse
    from .normalization import equivalent, normalize
    from .resolution import Base, remove_dot_segments, resolve
    from .rfc1738 import scheme_specific
    from .urn import URN, parse_urn
    from .validation import Violation, is_valid, validate

__getattr__ = names_on_first_use(
    __name__,
    {
        **dict.fromkeys(("HostKind", "URIReference", "compose", "parse"), ".model"),
        **dict.fromkeys(("equivalent", "normalize"), ".normalization"),
        **dict.fromkeys(("Base", "remove_dot_segments", "resolve"), ".resolution"),
        "scheme_specific": ".rfc1738",
        **dict.fromkeys(("URN", "parse_urn"), ".urn"),
        **dict.fromkeys(("Violation", "is_valid", "validate"), ".validation"),
    },
    frozenset({"charset", "model", "normalization", "percent", "resolution", "rfc1738", "schemes", "tel", "urn",
               "validation"}),
)

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
