"""linkkit: find URI references in text, HTML and e-mail, resolve them against the right base, rewrite them normalized.

The modules follow the data: ``charset`` and ``uri`` (the RFC 3986 model), ``resolve``, ``normalize``, ``urn``,
``schemes``; then the finders (``scanner`` for plain text, ``html``) and the ``cli``.
"""

from importlib.metadata import version as _version

from .errors import InputError, LinkkitError, ResolutionError, URIError
from .normalize import equivalent, normalize
from .resolve import remove_dot_segments, resolve
from .reference import Reference
from .scanner import ScanOptions, findall, finditer, sub, subn
from .uri import HostKind, URIReference, compose, parse
from .urn import URN, parse_urn
from .scheme_specific import scheme_specific
from .validate import Violation, is_valid, validate
from . import html

__version__ = _version("linkkit")  # single source: the version in pyproject.toml

__all__ = [
    "__version__",
    "HostKind",
    "InputError",
    "LinkkitError",
    "ResolutionError",
    "URIError",
    "URIReference",
    "compose",
    "equivalent",
    "normalize",
    "parse",
    "remove_dot_segments",
    "resolve",
    "Reference",
    "ScanOptions",
    "findall",
    "finditer",
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
