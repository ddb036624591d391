"""A URI reference found in text: an immutable value shaped like :class:`re.Match`, plus what the scanner learnt.

    Yes, Jim, I found it under "http://www.w3.org/Addressing/".
                                 \\__________________________/
                                  span(): the reference's own characters
                                \\______________________________/
                                  outer_span(): with its delimiters

``span()`` never covers a delimiter (quotes, brackets, ``<``/``>``, the ``URL:`` prefix): rewriting a reference
(:func:`linkkit.sub`) replaces exactly ``span()`` and leaves the delimiters in place.  Inside ``<...>`` the span runs
from the first to the last character of the reference, so it includes any whitespace or line break that wraps it;
``.uri`` is the cleaned reading without them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..link import only_group_zero

Delimiter = Literal["angle", "url-prefix", "quote", "bracket", "markdown", "bare"]
Kind = Literal["uri", "urn", "abbreviated", "email"]


@dataclass(frozen=True, slots=True)
class Reference:
    """One reference found by :func:`linkkit.finditer`; offsets are absolute in the scanned text.

    ``string`` is the text that was scanned.  For a stream (:func:`linkkit.scanner.finditer_stream`) it is only
    the delimited reference itself (``outer_span()`` of the stream), and ``offset`` says where it starts, so that
    a stream never keeps its chunks alive; for a str ``offset`` is 0.  Two references are equal when they say the
    same thing about the same place: ``string`` and ``offset`` are left out of the comparison.
    """

    string: str = field(compare=False)
    offset: int = field(compare=False)
    _start: int
    _end: int
    outer_start: int
    outer_end: int
    uri: str
    delimiter: Delimiter
    kind: Kind
    alternatives: tuple[str, ...] = ()
    # The run of URI characters went on past ``max_length`` (linkkit.ScanOptions): the reference was cut there,
    # in finditer and finditer_stream alike, and the scan went on after it.
    truncated: bool = False

    def span(self, group: int = 0) -> tuple[int, int]:
        """``(start, end)`` of the reference's own characters, without its delimiters (like ``re.Match.span``)."""
        only_group_zero(group, "Reference")
        return (self._start, self._end)

    def start(self, group: int = 0) -> int:
        """Offset of the reference's first character."""
        only_group_zero(group, "Reference")
        return self._start

    def end(self, group: int = 0) -> int:
        """Offset just past the reference's last character."""
        only_group_zero(group, "Reference")
        return self._end

    def outer_span(self) -> tuple[int, int]:
        """``(start, end)`` including the delimiters: ``<URL:`` ... ``>``, the quotes or brackets around it."""
        return (self.outer_start, self.outer_end)

    @property
    def raw(self) -> str:
        """Exactly the input characters the reference occupies (``text[start:end]``), wrapping whitespace and all."""
        return self.string[self._start - self.offset : self._end - self.offset]

    @property
    def unwrapped(self) -> str:
        """The reference as written, on one line: ``.uri`` without the ``http://``, ``ftp://`` or ``mailto:`` that
        completed an abbreviated reference or an e-mail address (``.raw`` less wrapping whitespace and quote marks).

        >>> import linkkit
        >>> [ref.unwrapped for ref in linkkit.finditer("<www.example.\\n org/a> or <ftp://a.example/x-\\n y>")]
        ['www.example.org/a', 'ftp://a.example/x-y']
        """
        if self.kind == "abbreviated":
            return self.uri.partition("//")[2]
        if self.kind == "email":
            return self.uri.partition(":")[2]
        return self.uri

    @property
    def where(self) -> str:
        """The kind of place that held the reference (:class:`linkkit.link.LinkLike`): its ``delimiter``."""
        return self.delimiter

    @property
    def base(self) -> None:
        """None: the scanner finds references, it does not resolve them (:class:`linkkit.link.LinkLike`)."""
        return None

    def group(self, group: int = 0) -> str:
        """The raw text of the reference, as ``re.Match.group()`` (there are no sub-groups)."""
        only_group_zero(group, "Reference")
        return self.raw

    def __getitem__(self, group: int) -> str:
        return self.group(group)

    def __repr__(self) -> str:
        return (
            f"<linkkit.Reference span={self.span()!r}, raw={self.raw!r}, uri={self.uri!r}, "
            f"delimiter={self.delimiter!r}, kind={self.kind!r}>"
        )

