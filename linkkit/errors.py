"""The one exception hierarchy of linkkit: every error names the input, the position and what was expected."""

from __future__ import annotations


class LinkkitError(Exception):
    """Base class of every error linkkit raises."""


class URIError(LinkkitError, ValueError):
    """A URI reference cannot be used for the requested operation."""


class URISyntaxError(URIError):
    """A string breaks a rule of a URI grammar (RFC 8141, RFC 1738 5): names it, the 0-based position, the rule."""

    def __init__(self, text: str, position: int, rule: str) -> None:
        super().__init__(f"{text!r} at position {position}: expected {rule}")
        self.text = text
        self.position = position
        self.rule = rule


class ResolutionError(URIError):
    """Reference resolution (RFC 3986 section 5) is impossible, e.g. the base URI is not absolute."""


class InputError(LinkkitError):
    """An input (file, document, message) cannot be read; names the input and the position."""

    def __init__(self, source: str, message: str, *, position: int | str | None = None) -> None:
        where = f"{source}" if position is None else f"{source}:{position}"
        super().__init__(f"{where}: {message}")
        self.source = source
        self.position = position
