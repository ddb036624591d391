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

from typing import TYPE_CHECKING, Literal

from .. import link
from ..link import GroupZero, only_group_zero

if TYPE_CHECKING:
    from ..security.flags import Flag

Delimiter = Literal["angle", "url-prefix", "quote", "bracket", "markdown", "bare"]
Kind = Literal["uri", "urn", "abbreviated", "email"]


class Reference(GroupZero):
    """One reference found by :func:`linkkit.finditer`; offsets are absolute in the scanned text.

    ``string`` is the text that was scanned.  For a stream (:func:`linkkit.finditer_stream`) it is only
    the delimited reference itself (``outer_span()`` of the stream), and ``offset`` says where it starts, so that
    a stream never keeps its chunks alive; for a str ``offset`` is 0.  Two references are equal when they say the
    same thing about the same place: ``string`` and ``offset`` are left out of the comparison.

    An immutable value built for the scanner's hot loop: a few slots set once, and ``.uri`` read from the text when
    first asked for if the scanner found it to be the reference's own characters (``.raw``).
    """

    # _flags: .flags once read (unset until then: building a Reference never pays for it)
    __slots__ = ("_fields", "_flags")

    # (string, start, end, outer_start, outer_end, delimiter, kind, uri or None when it is .raw, offset, and None or
    # the rare fields (alternatives, truncated))
    _fields: tuple[str, int, int, int, int, Delimiter, Kind, str | None, int, tuple[tuple[str, ...], bool] | None]

    def __init__(
        self, string: str, offset: int, start: int, end: int, outer_start: int, outer_end: int, uri: str | None,
        delimiter: Delimiter, kind: Kind, alternatives: tuple[str, ...] = (), truncated: bool = False,
    ) -> None:
        rare = None if not alternatives and not truncated else (alternatives, truncated)
        object.__setattr__(
            self, "_fields", (string, start, end, outer_start, outer_end, delimiter, kind, uri, offset, rare)
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Reference is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Reference is immutable: cannot delete {name!r}")

    @property
    def string(self) -> str:
        """The scanned text (a stream's reference: its own delimited text, from ``offset`` on)."""
        return self._fields[0]

    @property
    def outer_start(self) -> int:
        """Offset of the first delimiter, or of the reference when it has none."""
        return self._fields[3]

    @property
    def outer_end(self) -> int:
        """Offset just past the last delimiter, or past the reference when it has none."""
        return self._fields[4]

    @property
    def delimiter(self) -> Delimiter:
        """What delimits the reference: "angle", "url-prefix", "quote", "bracket", "markdown" or "bare"."""
        return self._fields[5]

    @property
    def kind(self) -> Kind:
        """What kind of reference it is: "uri", "urn", "abbreviated" (``www.``, ``ftp.``) or "email"."""
        return self._fields[6]

    @property
    def uri(self) -> str:
        """The reference read as a URI: wrapping whitespace and quote marks left out, ``http://``, ``ftp://`` or
        ``mailto:`` put before an abbreviated reference or an e-mail address."""
        uri = self._fields[7]
        return self.raw if uri is None else uri

    @property
    def flags(self) -> tuple[Flag, ...]:
        """What ``.uri`` does that RFC 3986 section 7 warns about (:func:`linkkit.security.flags`): a tuple of
        :class:`linkkit.security.Flag`, empty for most references; computed when read (a scan never computes
        it), and kept unless the URI has the plain shape that one match clears.

        >>> import linkkit
        >>> [flag.name for flag in next(linkkit.finditer("see http://user:pw@0x7f.1/")).flags]
        ['userinfo', 'password', 'rare-ip-form']
        """
        flags, is_plain = link.SECURITY or link.security()
        uri = self._fields[7] or self.raw  # .uri, one property call fewer
        if is_plain(uri):  # nearly every reference: answered by one match, cheaper than a cache
            return ()
        found: tuple[Flag, ...] | None = getattr(self, "_flags", None)
        if found is None:
            found = flags(uri)
            object.__setattr__(self, "_flags", found)
        return found

    @property
    def offset(self) -> int:
        """Where ``string`` starts in the scanned text (0 for a str; a stream's references hold their own text)."""
        return self._fields[8]

    @property
    def alternatives(self) -> tuple[str, ...]:
        """The other readings of hyphens at line breaks (RFC 2396 appendix E), when they differ from ``.uri``."""
        rare = self._fields[9]
        return () if rare is None else rare[0]

    @property
    def truncated(self) -> bool:
        """The run of URI characters went on past ``max_length`` (linkkit.ScanOptions): the reference was cut
        there, in finditer and finditer_stream alike, and the scan went on after it."""
        rare = self._fields[9]
        return False if rare is None else rare[1]

    def _key(self) -> tuple[object, ...]:
        return (*self._fields[1:7], self.uri, self.alternatives, self.truncated)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Reference)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[type[Reference], tuple[object, ...]]:
        return (Reference, (
            self.string, self.offset, *self._fields[1:5], self.uri,
            self.delimiter, self.kind, self.alternatives, self.truncated,
        ))

    def span(self, group: int = 0) -> tuple[int, int]:
        """``(start, end)`` of the reference's own characters, without its delimiters (like ``re.Match.span``)."""
        if group != 0:
            only_group_zero(group, "Reference")
        return self._fields[1:3]

    def start(self, group: int = 0) -> int:
        """Offset of the reference's first character."""
        if group != 0:
            only_group_zero(group, "Reference")
        return self._fields[1]

    def end(self, group: int = 0) -> int:
        """Offset just past the reference's last character."""
        if group != 0:
            only_group_zero(group, "Reference")
        return self._fields[2]

    def outer_span(self) -> tuple[int, int]:
        """``(start, end)`` including the delimiters: ``<URL:`` ... ``>``, the quotes or brackets around it."""
        return self._fields[3:5]

    @property
    def raw(self) -> str:
        """Exactly the input characters the reference occupies (``text[start:end]``), wrapping whitespace and all."""
        fields = self._fields  # read once, and no tuple sliced: .uri of a plain reference is this (about 0.1 us)
        offset = fields[8]
        return fields[0][fields[1] - offset : fields[2] - offset]

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
    def pos(self) -> int:
        """Where the scan of ``string`` began, as ``re.Match.pos``: ``offset`` (0 for a str)."""
        return self._fields[8]

    @property
    def endpos(self) -> int:
        """Where the scan of ``string`` ended, as ``re.Match.endpos``: just past ``string`` (its length for a
        str, which is scanned whole)."""
        fields = self._fields
        return fields[8] + len(fields[0])

    @property
    def where(self) -> str:
        """The kind of place that held the reference (:class:`linkkit.link.LinkLike`): its ``delimiter``."""
        return self.delimiter

    @property
    def base(self) -> None:
        """None: the scanner finds references, it does not resolve them (:class:`linkkit.link.LinkLike`)."""
        return None

    def __repr__(self) -> str:
        return (
            f"<linkkit.Reference span={self.span()!r}, raw={self.raw!r}, uri={self.uri!r}, "
            f"delimiter={self.delimiter!r}, kind={self.kind!r}>"
        )


# The scanner's hot path builds a Reference from its fields without __init__ (two C calls instead of a Python frame):
# reference = _NEW(Reference); _SET_FIELDS(reference, (string, start, end, outer_start, outer_end, delimiter, kind,
# None, offset, None)) -- the layout of Reference._fields.
_NEW = object.__new__
_SET_FIELDS = Reference._fields.__set__  # type: ignore[attr-defined,misc]  # the slot's member descriptor
