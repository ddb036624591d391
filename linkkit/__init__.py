"""linkkit: find URI references in text, HTML and e-mail, resolve them against the right base, rewrite them normalized.

The face of the package: re-exports only.  The rooms follow the data, *find -> resolve -> normalize -> rewrite*:
``linkkit.text`` and ``linkkit.html`` find references, ``linkkit.uri`` models, validates, resolves and normalizes
them (RFC 3986, 8141, 1738), ``linkkit.link`` is the shape every found link shares and its JSONL record,
``linkkit.io`` reads inputs and writes outputs safely, and ``linkkit.cli`` is the command line.
"""

from typing import TYPE_CHECKING

from .errors import InputError, LinkkitError, ResolutionError, URIError, URISyntaxError
from .lazy import names_on_first_use

if TYPE_CHECKING:
    from . import html
    from .link import LinkLike, record
    from .security.defang import defang
    from .security.refang import refang
    from .security.flags import flags
    from .security.redact import redact
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


# The room each re-exported name lives in, loaded on first use: `python -m linkkit` and a batch load only the
# rooms they use (a web archive's run never the text scanner's patterns, a text run never HTML, mail or security).
_HOMES = {
    **dict.fromkeys(("LinkLike", "record"), ".link"),
    **dict.fromkeys(("Reference", "ScanOptions", "findall", "finditer", "finditer_stream", "sub", "subn"), ".text"),
    **dict.fromkeys(("URN", "Base", "HostKind", "URIReference", "Violation", "compose", "equivalent", "is_valid",
                     "normalize", "parse", "parse_urn", "remove_dot_segments", "resolve", "scheme_specific",
                     "validate"), ".uri"),
    **dict.fromkeys(("defang", "flags", "redact", "refang"), ".security"),
}
_ROOMS = frozenset({"batch", "cli", "html", "io", "link", "mail", "security", "sources", "text", "uri"})
__getattr__ = names_on_first_use(__name__, _HOMES, _ROOMS)

# The one place the version is written: pyproject.toml reads it from here (its dynamic version), so `linkkit --version`
# reads no package metadata (importlib.metadata and the e-mail package it imports cost a start-up about 10 ms).
__version__ = "0.1.0"


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
    "URISyntaxError",
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
    "redact",
    "refang",
    "remove_dot_segments",
    "resolve",
    "scheme_specific",
    "sub",
    "subn",
    "validate",
]
