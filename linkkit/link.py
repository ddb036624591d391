"""The one shape of a found link, whatever found it, and the one JSONL record it becomes.

A text :class:`linkkit.Reference` and an HTML :class:`linkkit.html.Link` are both shaped like :class:`re.Match`
(``.span()``, ``.start()``, ``.end()``, ``.group()``) and carry the same three readings: ``.raw`` (the link as
written, or as the HTML parser yields it), ``.uri`` (its target) and ``.where`` (what kind of place held it):

- text: the delimiter the scanner recognised: ``"angle"`` (``<...>``, RFC 3986 appendix C), ``"url-prefix"``
  (``URL:``), ``"quote"``, ``"bracket"``, ``"markdown"`` or ``"bare"``;
- HTML: ``"TAG ATTR"`` in lower case, the element and the attribute that held the URL (``"a href"``,
  ``"img srcset"``, ``"div style"``, ``"meta content"`` for a refresh URL), and ``"style #text"`` for a URL in the
  text of a ``<style>`` element.

Spans are what each finder's input is made of: characters of a str, bytes of a bytes document.

>>> import linkkit
>>> ref = next(linkkit.finditer("see <http://a.example/x>"))
>>> isinstance(ref, LinkLike), ref.where
(True, 'angle')
>>> record(ref, input="notes.txt", line=1, column=6)
... # doctest: +NORMALIZE_WHITESPACE
{'input': 'notes.txt', 'line': 1, 'column': 6, 'span': [5, 23], 'unit': 'character', 'kind': 'uri',
 'where': 'angle', 'raw': 'http://a.example/x', 'uri': 'http://a.example/x', 'base': None}
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

Unit = Literal["character", "byte"]

# The keys of a record, in their order; a finder may add keys of its own after them (a mail part, a WARC record).
KEYS = ("input", "line", "column", "span", "unit", "kind", "where", "raw", "uri", "base")


@runtime_checkable
class LinkLike(Protocol):
    """What every found link offers: :class:`re.Match`'s span methods, and raw, uri, where, kind and base."""

    def span(self, group: int = 0) -> tuple[int, int]: ...

    def start(self, group: int = 0) -> int: ...

    def end(self, group: int = 0) -> int: ...

    def group(self, group: int = 0) -> str: ...

    @property
    def raw(self) -> str: ...

    @property
    def uri(self) -> str: ...

    @property
    def where(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def base(self) -> str | None: ...


def only_group_zero(group: int, kind: str) -> None:
    """A found link has only group 0, the whole link (``re.Match.group()`` of a pattern without groups)."""
    if group != 0:
        raise IndexError(f"no such group: {group!r} (a {kind} has only group 0)")


def record(
    link: LinkLike,
    *,
    input: str | None = None,
    line: int | None = None,
    column: int | None = None,
    unit: Unit = "character",
    **extra: Any,
) -> dict[str, Any]:
    """The JSON-ready record of *link*: the keys of :data:`KEYS` in that order, then *extra* (a finder's own).

    ``input`` names what was read (a path, ``<stdin>``); ``line`` and ``column`` are 1-based, where the link starts;
    ``span`` is ``[start, end)`` in ``unit``s of the input (``"character"`` for text, ``"byte"`` for a bytes
    document); ``base`` is the base the link was resolved against, None when it was not resolved.
    """
    start, end = link.span()
    fields: dict[str, Any] = {
        "input": input, "line": line, "column": column, "span": [start, end], "unit": unit, "kind": link.kind,
        "where": link.where, "raw": link.raw, "uri": link.uri, "base": link.base,
    }
    clash = fields.keys() & extra.keys()
    if clash:
        raise ValueError(f"extra fields may not replace the record's own: {sorted(clash)}")
    fields.update(extra)
    return fields
