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

from typing import TYPE_CHECKING, Any, Literal, Protocol, overload, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable

    from .security.flags import Context, Flag

Unit = Literal["character", "byte"]

# The keys of a record, in their order; a finder may add keys of its own after them (a mail part, a WARC record).
KEYS = ("input", "line", "column", "span", "unit", "kind", "where", "raw", "uri", "base")


@runtime_checkable
class LinkLike(Protocol):
    """What every found link offers: :class:`re.Match`'s span methods, and raw, uri, where, kind and base."""

    def span(self, group: int = 0) -> tuple[int, int]:
        """``(start, end)`` of the link in what it was found in, characters of a str or bytes of a document."""
        ...

    def start(self, group: int = 0) -> int:
        """Where the link starts (``span()[0]``)."""
        ...

    def end(self, group: int = 0) -> int:
        """Where the link ends, just past it (``span()[1]``)."""
        ...

    def group(self, group: int = 0) -> str:
        """The link as written (``raw``): group 0 is its only group."""
        ...

    @property
    def raw(self) -> str:
        """The link as written (an HTML attribute's value with its character references decoded)."""
        ...

    @property
    def uri(self) -> str:
        """The URI the link names: resolved against the base where there is one."""
        ...

    @property
    def where(self) -> str:
        """What kind of place held the link: a text delimiter (``"angle"``, ``"bare"``...) or ``"TAG ATTR"``."""
        ...

    @property
    def kind(self) -> str:
        """What the link is: ``"uri"``, ``"url"``, ``"urn"``, ``"email"`` and the like."""
        ...

    @property
    def base(self) -> str | None:
        """The base the link was resolved against, None when it was not resolved."""
        ...


def only_group_zero(group: object, kind: str) -> None:
    """A found link has only group 0, the whole link (``re.Match.group()`` of a pattern without groups)."""
    if group != 0:
        raise IndexError(f"no such group: {group!r} (a {kind} has only group 0)")


class GroupZero:
    """:class:`re.Match`'s group methods for a found link whose only group is 0, the whole link as written
    (``raw``): what ``re.Match`` gives for a pattern without sub-groups, with its ``span()``. Like a match, a link
    is no sequence:

    >>> import linkkit
    >>> ref = next(linkkit.finditer("see http://a.example/"))
    >>> ref[0], ref.group(0, 0), ref.groups()
    ('http://a.example/', ('http://a.example/', 'http://a.example/'), ())
    >>> list(ref)
    Traceback (most recent call last):
    TypeError: 'Reference' object is not iterable
    """

    __slots__ = ()

    if TYPE_CHECKING:  # each link's own

        @property
        def raw(self) -> str: ...

        def span(self, group: int = 0) -> tuple[int, int]: ...

    @overload
    def group(self, group: int = 0, /) -> str: ...

    @overload
    def group(self, group: int, other: int, /, *groups: int) -> tuple[str, ...]: ...

    def group(self, *groups: int) -> str | tuple[str, ...]:
        """The link as written (``raw``) for group 0 (or none named); a tuple of them for several, as
        ``re.Match.group(0, 0)``; any other group raises IndexError."""
        for group in groups:
            if group != 0:
                only_group_zero(group, type(self).__name__)
        return self.raw if len(groups) < 2 else (self.raw,) * len(groups)

    def __getitem__(self, group: int) -> str:
        return self.group(group)

    # A link is no sequence: indexing reads a group and iterating raises TypeError, as for re.Match (without this,
    # Python's old iteration protocol would iterate it through __getitem__, and "in" would search it)
    __iter__ = None

    def groups(self, default: None = None) -> tuple[()]:
        """``()``, as ``re.Match.groups()`` gives for a pattern without sub-groups."""
        return ()

    def groupdict(self, default: None = None) -> dict[str, str]:
        """``{}``, as ``re.Match.groupdict()`` gives for a pattern without named groups."""
        return {}

    @property
    def lastindex(self) -> None:
        """None: no sub-group matched (``re.Match.lastindex`` of a pattern without sub-groups)."""
        return None

    @property
    def lastgroup(self) -> None:
        """None: no named group matched (``re.Match.lastgroup``)."""
        return None

    @property
    def regs(self) -> tuple[tuple[int, int]]:
        """``(span(),)``: the span of each group, group 0 alone (``re.Match.regs``)."""
        return (self.span(),)


class SpanMatch(GroupZero):
    """:class:`re.Match`'s span and group methods for a found link that holds its ``_span`` and its ``raw`` text
    (group 0, the whole link, is its only group), and its security flags computed on first read and kept in
    ``_flags``."""

    __slots__ = ()
    _span: tuple[int, int]
    _flags: tuple[Flag, ...] | None

    def span(self, group: int = 0) -> tuple[int, int]:
        """``(start, end)`` of the link in the input it was found in (like ``re.Match.span``)."""
        if group != 0:  # no call for group 0, the one a batch asks of every link
            only_group_zero(group, type(self).__name__)
        return self._span

    def start(self, group: int = 0) -> int:
        """Offset of the link's first character (or byte)."""
        if group != 0:
            only_group_zero(group, type(self).__name__)
        return self._span[0]

    def end(self, group: int = 0) -> int:
        """Offset just past the link."""
        if group != 0:
            only_group_zero(group, type(self).__name__)
        return self._span[1]

    def _flags_in(self, uri: str, context: Context) -> tuple[Flag, ...]:
        """:func:`linkkit.security.flags` of *uri* found in *context*, computed on first read and kept."""
        found = self._flags
        if found is None:
            found = (SECURITY or security())[0](uri, context=context)
            object.__setattr__(self, "_flags", found)
        return found


# linkkit.security.flags' flags and is_plain, imported by the first .flags read of any link (a scan never imports
# them), then kept here: an import statement run on each read costs 0.53 us, more than a plain URI's flags.
SECURITY: tuple[Callable[..., tuple[Flag, ...]], Callable[[str], bool]] | None = None


def security() -> tuple[Callable[..., tuple[Flag, ...]], Callable[[str], bool]]:
    """:func:`linkkit.security.flags` and :func:`linkkit.security.flags.is_plain`, imported and kept in SECURITY."""
    global SECURITY
    from .security.flags import flags, is_plain

    SECURITY = (flags, is_plain)
    return SECURITY


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
    try:  # no isinstance() against the Protocol: it costs ~10 us, and this runs once per link of a batch
        start, end = link.span()
        fields: dict[str, Any] = {
            "input": input, "line": line, "column": column, "span": [start, end], "unit": unit, "kind": link.kind,
            "where": link.where, "raw": link.raw, "uri": link.uri, "base": link.base,
        }
    except AttributeError:
        raise TypeError(f"record() takes a found link (linkkit.LinkLike), not {type(link).__name__}") from None
    clash = fields.keys() & extra.keys()
    if clash:
        raise ValueError(f"extra fields may not replace the record's own: {sorted(clash)}")
    fields.update(extra)
    return fields
