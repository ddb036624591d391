"""linkkit: find URI references in text, HTML and e-mail, resolve them against the right base, rewrite them normalized.

The face of the package: re-exports only.  The rooms follow the data, *find -> resolve -> normalize -> rewrite*:
``linkkit.text`` and ``linkkit.html`` find references, ``linkkit.uri`` models, validates, resolves and normalizes
them (RFC 3986, 8141, 1738), ``linkkit.link`` is the shape every found link shares and its JSONL record,
``linkkit.io`` reads inputs and writes outputs safely, and ``linkkit.cli`` is the command line.
"""

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import InputError, LinkkitError, ResolutionError, URIError

if TYPE_CHECKING:
    from . import html
    from .link import LinkLike, record
    from .security.defang import defang, refang
    from .security.flags import flags
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


# The names each package gives on first use (_names_on_first_use), by package.
_GIVEN: dict[str, Mapping[str, str]] = {}


class _Package(types.ModuleType):
    """A package that gives its names on first use, each staying the object it names: the import system binds a
    submodule to its package's attribute of the same name when it first loads it (``linkkit.mail.links``,
    ``linkkit.security.flags``; customizing module attribute access, Python data model 3.3.2.1)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _GIVEN.get(self.__name__, ()):
            return
        super().__setattr__(name, value)


def _names_on_first_use(
    package: str, homes: Mapping[str, str], rooms: frozenset[str] = frozenset()
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of *package* (PEP 562): each name of *homes* taken from the module it names and kept
    in the package from then on, each of *rooms* (its subpackages and modules) imported; all on first use, so that
    importing the package pays for none of them."""
    module = sys.modules[package]
    module.__class__ = _Package
    _GIVEN[package] = homes
    namespace = module.__dict__

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is not None:
            value = getattr(importlib.import_module(home, package), name)
            namespace[name] = value  # found directly from now on
            return value
        if name in rooms:
            return importlib.import_module(f".{name}", package)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


# The room each re-exported name lives in, loaded on first use: `python -m linkkit` and a batch load only the
# rooms they use (a web archive's run never the text scanner's patterns, a text run never HTML, mail or security).
_HOMES = {
    **dict.fromkeys(("LinkLike", "record"), ".link"),
    **dict.fromkeys(("Reference", "ScanOptions", "findall", "finditer", "finditer_stream", "sub", "subn"), ".text"),
    **dict.fromkeys(("URN", "Base", "HostKind", "URIReference", "Violation", "compose", "equivalent", "is_valid",
                     "normalize", "parse", "parse_urn", "remove_dot_segments", "resolve", "scheme_specific",
                     "validate"), ".uri"),
    **dict.fromkeys(("defang", "flags", "refang"), ".security"),
}
_ROOMS = frozenset({"batch", "cli", "html", "io", "link", "mail", "security", "sources", "text", "uri"})
__getattr__ = _names_on_first_use(__name__, _HOMES, _ROOMS)

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
