"""linkkit: find URI references in text, HTML and e-mail, resolve them against the right base, rewrite them normalized.

The face of the package: re-exports only.  The rooms follow the data, *find -> resolve -> normalize -> rewrite*:
``linkkit.text`` and ``linkkit.html`` find references, ``linkkit.uri`` models, validates, resolves and normalizes
them (RFC 3986, 8141, 1738), ``linkkit.link`` is the shape every found link shares and its JSONL record,
``linkkit.io`` reads inputs and writes outputs safely, and ``linkkit.cli`` is the command line.
"""

from importlib.metadata import version as _version

from . import html
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

__version__ = _version("linkkit")  # single source: the version in pyproject.toml

__all__ = [
    "__version__",
    "Base",
    "HostKind",
    "InputError",
    "LinkLike",
    "LinkkitError",
    "ResolutionError",
    "URIError",
    "URIReference",
    "compose",
    "equivalent",
    "normalize",
    "parse",
    "record",
    "remove_dot_segments",
    "resolve",
    "Reference",
    "ScanOptions",
    "findall",
    "finditer",
    "finditer_stream",
    "sub",
    "subn",
    "URN",
    "parse_urn",
    "scheme_specific",
    "Violation",
    "is_valid",
    "validate",
    "html",
]
