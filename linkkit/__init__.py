"""linkkit: find URI references in text, HTML and e-mail, resolve them against the right base, rewrite them normalized.

The face of the package: re-exports only.  The rooms follow the data, *find -> resolve -> normalize -> rewrite*:
``linkkit.text`` and ``linkkit.html`` find references, ``linkkit.uri`` models, validates, resolves and normalizes
them (RFC 3986, 8141, 1738), ``linkkit.link`` is the shape every found link shares and its JSONL record,
``linkkit.io`` reads inputs and writes outputs safely, and ``linkkit.cli`` is the command line.
"""

from typing import TYPE_CHECKING, Any

from .errors import InputError, LinkkitError, ResolutionError, URIError
from .link import LinkLike, record
from .text import Reference, ScanOptions, findall, finditer, finditer_stream, sub, subn
from .uri import (
    URN,
    Base,
    HostKind,
    URIReference,
    Violation,
    compose,
    equivalent,
    is_valid,
    normalize,
    parse,
    parse_urn,
    remove_dot_segments,
    resolve,
    scheme_specific,
    validate,
)

if TYPE_CHECKING:
    from . import html
    from .security.defang import defang, refang
    from .security.flags import flags

# linkkit.security's functions, loaded on first use like linkkit.html (idna and the confusables table cost an import).
_SECURITY = frozenset({"defang", "flags", "refang"})


def __getattr__(name: str) -> Any:
    """``linkkit.html`` and ``__version__``, loaded on first use (PEP 562): importing the face and scanning a text
    pays for neither the HTML tokenizer's patterns nor the package metadata."""
    if name == "html":
        import importlib

        return importlib.import_module(".html", __name__)
    if name in _SECURITY:
        from . import security

        return getattr(security, name)
    if name == "__version__":
        from importlib.metadata import version

        return version("linkkit")  # single source: the version in pyproject.toml
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "URN",
    "Base",
    "HostKind",
    "InputError",
    "LinkLike",
    "LinkkitError",
    "Reference",
    "ResolutionError",
    "ScanOptions",
    "URIError",
    "URIReference",
    "Violation",
    "__version__",
    "compose",
    "defang",
    "equivalent",
    "findall",
    "finditer",
    "finditer_stream",
    "flags",
    "html",
    "is_valid",
    "normalize",
    "parse",
    "parse_urn",
    "record",
    "refang",
    "remove_dot_segments",
    "resolve",
    "scheme_specific",
    "sub",
    "subn",
    "validate",
]
