"""The plain-text scanner: find the URI references a careful reader would, as RFC 3986 appendix C (draft appendix E),
RFC 2396 appendix E and the RFC 1738 appendix tell a reader to delimit them, in one linear pass.

After robinst/linkify: compiled patterns find *triggers* (a ``:`` after a scheme character, ``www.`` and
``ftp.``, ``@`` when e-mails are wanted); from each trigger the scanner walks back to the reference's start, looks
at what delimits it (``<...>``, ``URL:``, quotes, brackets, Markdown), and walks forward to its end.  Text without a
trigger costs a regex search per kind of trigger and no Python work per character; every walk is bounded or
consumes what it walks over, so the scan is linear in the length of the text.

>>> [ref.uri for ref in finditer('Yes, Jim, I found it under "http://www.w3.org/Addressing/".')]
['http://www.w3.org/Addressing/']
>>> findall("see <URL:ftp://ds.internic.\\n  net/rfc/> or www.example.org.")
['ftp://ds.internic.net/rfc/', 'http://www.example.org']
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from functools import lru_cache, partial
from re import Match
from re import compile as _compile_plain
from re import escape as _escape
from typing import TYPE_CHECKING, Any, NamedTuple
from unicodedata import category

from ..uri.charset import ALPHA, DIGIT, SCHEME_CHARS, URI_CHARS, char_class
from ..uri.percent import percent_encode
from ..uri.schemes import KNOWN_SCHEMES, SCHEMES
from .reference import _NEW, _SET_FIELDS, Delimiter, Kind, Reference
from .rules import (
    ANGLE_IRI_CHARACTERS,
    BIDI_CONTROLS,
    CJK_LETTERS,
    CLOSING,
    EMOJI_CHARACTER,
    ENCLOSERS,
    END_TAG_OPENER,
    HYPHEN_READINGS,
    INVISIBLE,
    IRI_CHARACTERS,
    LINE_BREAK_ITEMS,
    LIST_SEPARATORS,
    MAX_BIDI_CONTROLS,
    MAX_LOCAL_PART,
    MAX_SCHEME,
    MAX_WRAP,
    PROSE_PUNCTUATION,
    QUOTE_MARK,
    TRAILING_EMOJI,
    WHITE_SPACE_ITEMS,
    WORD_INNER,
    WRAP,
)

if TYPE_CHECKING:
    import regex

__all__ = ["Reference", "ScanOptions", "findall", "finditer", "sub", "subn"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ScanOptions:
    """What the scanner looks for; passed to :func:`finditer` and its kin as keyword arguments.

    - ``abbreviated``: complete ``www.`` hosts with ``http://`` and ``ftp.`` hosts with ``ftp://`` (RFC 3986
      draft appendix F, "Abbreviated URIs"); ``.raw`` keeps what was written.
    - ``emails``: find bare e-mail addresses (``user@example.org``) as ``mailto:`` references.
    - ``max_length``: the longest reference, in characters, counted from its first character; a longer run of URI
      characters is cut there (and the scan goes on after it).  It bounds the memory of :func:`finditer_stream`.
    """

    abbreviated: bool = True
    emails: bool = False
    max_length: int = 1 << 20

    def __post_init__(self) -> None:
        for name, kind in (("abbreviated", bool), ("emails", bool), ("max_length", int)):
            value = getattr(self, name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"option {name} takes a {kind.__name__}, not {type(value).__name__}: {value!r}")
        if self.max_length < 1:
            raise ValueError(f"max_length must be at least 1, not {self.max_length!r}")


class _Pattern:
    """A pattern of the ``regex`` package, compiled -- and the package imported -- when it is first used: a text whose
    references all take the hot path needs neither, and a run compiles only the patterns its texts call for (the
    package and all of them cost a start-up about 12 ms).  Its first call puts the compiled pattern in its place
    among this module's names, so that the scan calls the pattern itself from then on, as fast as ever."""

    __slots__ = ("_source", "findall", "fullmatch", "match", "search", "sub")
    findall: Callable[..., list[Any]]
    fullmatch: Callable[..., Any]
    match: Callable[..., Any]
    search: Callable[..., Any]
    sub: Callable[..., str]

    def __init__(self, source: str) -> None:
        """*source* carries its flags inline, ``(?r)`` for ``regex.REVERSE``, ``(?i)`` for ``regex.IGNORECASE``."""
        self._source = source
        for method in self.__slots__[1:]:
            setattr(self, method, partial(self._first_call, method))

    def _first_call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """The first call of any method: compile, put the compiled pattern in this one's place, call *method*."""
        import regex

        compiled = regex.compile(self._source)
        for name in self.__slots__[1:]:
            setattr(self, name, getattr(compiled, name))  # for a caller that kept this object
        names = globals()
        for name, value in list(names.items()):
            if value is self:
                names[name] = compiled
        return getattr(compiled, method)(*args, **kwargs)


# The typesetters' hyphens are no URI characters: they join a reference only right before a line break.
_TYPESET_HYPHENS = "".join(hyphen for hyphen in HYPHEN_READINGS if hyphen not in URI_CHARS)
_BEFORE_LINE_BREAK = rf"(?=[^\S{LINE_BREAK_ITEMS}]*[{LINE_BREAK_ITEMS}])"


def _class(chars: str, *, plus: str = "", minus: str = "") -> str:
    """The character class of *chars* less *minus* (:func:`linkkit.uri.charset.char_class`), plus the raw class items
    *plus*."""
    return char_class("".join(c for c in chars if c not in minus), extra=plus)


# A "," or ";" right before another "scheme://" separates two references of a list ("http://a.example/,http://
# b.example/"); inside a query a second URI follows "=" instead ("?url=http://b.example/").
_LIST_SEPARATOR = (
    rf"[{LIST_SEPARATORS}](?!{_class(ALPHA)}{_class(SCHEME_CHARS)}{{0,{MAX_SCHEME - 1}}}://)"
)
_LIST_SEPARATOR_REACH = MAX_SCHEME + 4  # how far past a "," the run may look
# A run is matched this many items at a time: one match of an unbounded repetition of an alternation costs the
# regex engine more per item the longer the run ("http://a" + ",x:" * n took 34x the time for 10x the text).
_RUN_ITEMS = 1024
# Inside a bare reference: every URI character (RFC 3986 2.2, 2.3, and "%" of 2.1) and IRI characters, but the
# closing brackets, which the walk forward weighs one at a time, list separators and an end tag's "[/".
_NOT_END_TAG = _escape(END_TAG_OPENER[0]) + f"(?!{_escape(END_TAG_OPENER[1:])})"
_BARE_RUN_OTHERS = "|" + _LIST_SEPARATOR + "|" + _NOT_END_TAG + "|" + IRI_CHARACTERS + f"){{0,{_RUN_ITEMS}}}+"
_BARE_RUN = _Pattern(
    "(?:" + _class(URI_CHARS, minus="".join(CLOSING) + LIST_SEPARATORS + END_TAG_OPENER[0]) + "++" + _BARE_RUN_OTHERS
)
# The same in a quotation that a "'" opens (QUOTE_MARK): a "'" only before a letter or a digit.
_QUOTED_RUN = _Pattern(
    "(?:" + _class(URI_CHARS, minus="".join(CLOSING) + LIST_SEPARATORS + END_TAG_OPENER[0] + QUOTE_MARK) + "++|"
    + _escape(QUOTE_MARK) + r"(?=[\p{L}\p{N}])" + _BARE_RUN_OTHERS
)
# Inside <...>: the same, closing brackets too, and whitespace, which is ignored (RFC 2396 appendix E), and a
# typesetter's hyphen at a line break (RFC 2396 appendix E: a line break after a hyphen).
_ANGLE_RUN = _Pattern(
    "(?:" + _class(URI_CHARS, plus=r"\s") + "++|" + f"[{INVISIBLE}]|" + ANGLE_IRI_CHARACTERS + "|"
    + _class(_TYPESET_HYPHENS)
    + _BEFORE_LINE_BREAK + f"){{0,{_RUN_ITEMS}}}+"
)
# The trailing run that ends no bare reference: prose punctuation and emoji (RFC 3986 appendix C; rules.TRAILING_EMOJI).
# Punctuation alone is one class; with emoji, whose characters carry their context (which the regex package cannot
# fold into a class: it holds memory for each repetition), at most _EMOJI_RUN characters a match, so that a run of
# millions costs no more than that (a run of 65 million full stops raised MemoryError).
_PUNCTUATION_RUN_BACK = _Pattern("(?r)" + _class("".join(PROSE_PUNCTUATION)) + "+")
_EMOJI_RUN = 1024
_PROSE_RUN_BACK = _Pattern(
    "(?r)(?:" + _class("".join(PROSE_PUNCTUATION)) + "|" + TRAILING_EMOJI + f"){{1,{_EMOJI_RUN}}}"
)
# A character of those emoji, for the walks from a reference to its closer past what was trimmed (_closer_after,
# _to_closer).
_EMOJI_CHAR = _Pattern(EMOJI_CHARACTER)

# --- walking back ----------------------------------------------------------------------------------------------

# RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ); walked back from the ":" trigger.
_SCHEME_RUN_BACK = _Pattern("(?r)" + _class(SCHEME_CHARS) + "+")
_ALPHA_SET = frozenset(ALPHA)
_DIGIT_SET = frozenset(DIGIT)
_SCHEME_SET = frozenset(SCHEME_CHARS)
# In quoted mail the next line starts with the quote marker again (RFC 3676 4.5), at most this deep.
_MAX_QUOTE_DEPTH = 16
# RFC 1738 appendix / RFC 2396 appendix E: "<", optional "URL:" (any case), whitespace in between is ignored.
_ANGLE_GAP = rf"[\s{INVISIBLE}]{{0,{MAX_WRAP}}}"
# What the end of a reference inside <...> leaves out before its ">": the whitespace and invisible characters there.
_ANGLE_TAIL_BACK = _Pattern(rf"(?r)[\s{INVISIBLE}]*")
_ANGLE_OPEN_BACK = _Pattern(rf"(?r)<{_ANGLE_GAP}(?:(?i:URL):{_ANGLE_GAP})?")
# The quote markers of quoted mail, which start each line again ("> ", "> > ", ">> "; RFC 3676 4.5).
_QUOTE_MARKERS = rf"(?:>[ \t]{{0,{MAX_WRAP}}}){{1,{_MAX_QUOTE_DEPTH}}}"
# In quoted mail a line break there is followed by the next line's quote marker ("> <URL:\n> http://...>").
_QUOTED_ANGLE_GAP = rf"{_ANGLE_GAP}(?:(?<=[\r\n])[ \t]{{0,{MAX_WRAP}}}{_QUOTE_MARKERS})?"
_QUOTED_ANGLE_OPEN_BACK = _Pattern(rf"(?r)<{_QUOTED_ANGLE_GAP}(?:(?i:URL):{_QUOTED_ANGLE_GAP})?")
# RFC 2396 appendix E: the prefix "URL:" "(with or without a trailing space)" before a bare reference.
_URL_PREFIX_BACK = _Pattern(r"(?r)(?i:URL): ?")
_URL_PREFIX = "url"  # the prefix's word, lower-cased: no scheme, the start of a reference's delimiter
_ASCII_ALNUM = frozenset(ALPHA + DIGIT)
# The dot-atom characters of an e-mail local-part that prose does not also use (RFC 5322 3.2.3, less the atext
# symbols "!#$&'*/=?^`{|}~", which glue addresses to the words around them), with IRI letters (RFC 6531 3.3); and
# the atext apostrophe between two letters or digits, as names write it ("o'brien@example.com"), where it glues no
# word of prose: an apostrophe that opens or closes a quotation stands before or after one.
_LOCAL_PART_CHARS = r"\p{L}\p{N}._%+\-"
_LOCAL_PART_ITEM = rf"(?:[{_LOCAL_PART_CHARS}]|(?<=[\p{{L}}\p{{N}}])'(?=[\p{{L}}\p{{N}}]))"
_LOCAL_PART_BACK = _Pattern(f"(?r){_LOCAL_PART_ITEM}{{1,{MAX_LOCAL_PART}}}")
_LOCAL_PART_CHAR = _Pattern(_LOCAL_PART_ITEM)
# A local part broken across lines after a hyphen (RFC 2396 appendix E), read back from the start of its second line:
# its first line's part, the hyphen and the whitespace around the line break (one, outside quoted mail).
_WRAPPED_LOCAL_PART_BACK = _Pattern(
    rf"(?r)[{_LOCAL_PART_CHARS}]{{1,{MAX_LOCAL_PART}}}{_class(''.join(HYPHEN_READINGS))}"
    + WRAP
)
_WRAPPED_LOCAL_REACH = MAX_LOCAL_PART + 1 + 2 * MAX_WRAP + 2
_WRAP_WHITESPACE = frozenset(" \t\r\n")  # what may wrap a scheme's name or its ":" inside <...> (rule 3)
# A ":" glued to what follows it, right after an address's domain: the host of an scp-like address
# ("git@github.com:user/repo.git", git's "[user@]host.xz:path/to/repo.git/"; "user@host.example:/tmp/"), or a
# port ("user@host.example:2222"), not a mailbox (RFC 5322 3.4.1 ends an addr-spec with its domain).
_HOST_PATH = _compile_plain(r":[^\s]")
# Before "www." or "ftp.": a character that would make it the middle of a word, a host, a path or a query.
_ABBREVIATED_NOT_AFTER = frozenset(ALPHA + DIGIT + "_.@/%~+=&?#-")
# ECMA-48 5.4: a control sequence -- CSI (ESC "["), parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, a final
# byte 0x40-0x7E -- as a terminal's colours and underlines in captured output and CI logs ("\x1b[4mhttps://...",
# "\x1b[1;36mwww.example.com"): the word after it starts after its final byte, a letter that is no part of a scheme
# or host.  And IRC's colour code (mIRC's: U+0003, a foreground of one or two digits, perhaps "," and a background of
# one or two), as raw IRC logs keep it ("\x0304http://..."): the word starts after its digits.  Read back from where
# either would end; the run of scheme characters that its digits (and final byte) begin has a parameter byte, the
# "[", the U+0003 or the "," before it.
_CONTROL_SEQUENCE_BACK = _Pattern(r"(?r)\x1b\[[0-?]{0,32}[ -/]{0,8}[@-~]|\x03[0-9]{1,2}(?:,[0-9]{1,2})?")
_CONTROL_SEQUENCE_REACH = 2 + 32 + 8 + 1
# Before the run: the "[", the parameter separators ";" and ":", U+0003 and the "," of a colour code (the private
# parameter bytes "<=>?" open no colour, and "<" stands before many an address).
_CONTROL_PARAMETER_END = frozenset("[:;\x03,")

# --- walking forward -------------------------------------------------------------------------------------------

# RFC 2396 appendix E: "a line break immediately after a hyphen" -- "ignore all unescaped whitespace around the
# line break".  One line break only: a blank line ends a paragraph, and a reference with it.
_HYPHEN_WRAP = _Pattern(WRAP)
# In quoted mail the next line starts with the quote marker again.
_QUOTED_HYPHEN_WRAP = _Pattern(
    WRAP + _QUOTE_MARKERS
)
# How far past a run the decision may look: a typesetter's hyphen, the wrap, then a scheme and "//" at the start
# of the next line.
_HYPHEN_WRAP_REACH = 1 + (2 + _MAX_QUOTE_DEPTH) * (MAX_WRAP + 1) + 2 + MAX_SCHEME + 3
# A wrapped line continues with a letter, a digit or a character that carries a URI on ("/", "?", "#", "%", "&",
# "=", "_", "~", "."); a next line that opens with a bracket, a quote or a list's "-" or "*" is prose.
_CONTINUATION_START = _Pattern(r"[\p{L}\p{N}/?#%&=_~.]")
# A hyphen-wrapped line does not continue into a line that starts a reference of its own (or its "URL:" prefix).
_SCHEME_AHEAD = _Pattern(_class(ALPHA) + _class(SCHEME_CHARS) + f"{{0,{MAX_SCHEME - 1}}}:")
_ABBREVIATED_AHEAD = _Pattern(r"(?i:www|ftp)\.")
# A mail quote marker at the start of a line ("> ", "> > "; RFC 3676 4.5 calls it the quote indicator). A quoted
# <...> reference carries it on each line it is wrapped over.
_QUOTE_MARKER = _Pattern(r"[ \t]*(?:>[ \t]*)+")
_QUOTE_MARKER_AFTER_BREAK = _Pattern(rf"(?<=[{LINE_BREAK_ITEMS}])[ \t]*(?:>[ \t]*)+")
_MAX_QUOTED_LINE = 256  # how far back the start of a quoted line is looked for
# A page break of a plain-text RFC or Internet-Draft (RFC 2223 3a, 4b, 4c): the running footer that ends a page
# ("Author  Category  [Page N]") and the running header that starts the next ("RFC 3986  URI Generic Syntax  January
# 2005"), each from the start of its line, a form feed between them. A <...> reference wrapped over a page break
# runs through both (rule 3), and neither is part of it.
_PAGE_BREAK = _Pattern(r"(?<=[\r\n])\S[^\r\n]*\[Page [0-9]+\][ \t]*(?:\r\n|\r|\n)\f?(?:\r\n|\r|\n)?\S[^\r\n]*")
# A hyphen at a line break, read one way in .uri and the other way in .alternatives (HYPHEN_READINGS).
_HYPHEN_AT_BREAK = _Pattern(_class("".join(HYPHEN_READINGS)) + _BEFORE_LINE_BREAK)

# RFC 1034 3.5 / RFC 1123 2.1: a label is letters, digits and inner hyphens, at most 63 characters; IDN labels
# (RFC 5890) in their Unicode form are letters too, with the punctuation that IDNA lets stand between them
# (WORD_INNER; RFC 5892 appendix A: "col·legi").
_MAX_LABEL = 63
_LABEL = rf"[\p{{L}}\p{{N}}](?:(?:[\p{{L}}\p{{N}}\-]|{WORD_INNER}){{0,{_MAX_LABEL - 2}}}[\p{{L}}\p{{N}}])?"
# RFC 3986 draft appendix F: "www.w3.org/Addressing/" -- a host of three labels or more, then the end or the
# authority's next delimiter (RFC 3986 3.2: port, path, query, fragment); an absolute domain name may end with the
# root's "." (RFC 1034 3.1), which a bare reference trims as prose but "<www.example.org.>" keeps (rule 3).
_HOST_END_SOURCE = r"\.?(?:[:/?#]|\Z)"
# The labels are possessive: a label given back leaves a "." next, which neither ends a host nor the text, so
# backtracking could only fail again -- in quadratic time on "www.a-www.a-...".
_ABBREVIATED = _Pattern(rf"(?i)(?:www|ftp)\.{_LABEL}(?:\.{_LABEL})++{_HOST_END_SOURCE}")
# The same host read in pieces, for a whole candidate of any length: one match of an unbounded repetition of labels
# holds memory per label ("www" + ".a" * 4_000_000 raised MemoryError), so they are matched _RUN_ITEMS at a time.
_ABBREVIATED_FIRST = _Pattern(rf"(?i)(?:www|ftp)\.{_LABEL}")
_FIRST_LABEL = _Pattern(_LABEL)
_MORE_LABELS = _Pattern(rf"(?:\.{_LABEL}){{1,{_RUN_ITEMS}}}+")
_HOST_END = _Pattern(_HOST_END_SOURCE)
# What may stand right after a host and go on into a word or another reference, though no host holds it: prose
# punctuation (RFC 1034 3.5: a host name is letters, digits, hyphens and dots; ".", ":" and "?" may go on into a port,
# a path or a query) and "[", which only opens an IP-literal, a whole host (RFC 3986 3.2.2).  It ends the reference at
# its host: "www.example.com's", "https://github.com's", "www.a.example,www.b.example", AsciiDoc's
# "https://example.org[label]", a footnote's "www.example.org[1]".
_AFTER_HOST = frozenset(PROSE_PUNCTUATION).difference(".:?") | {"["}
# After a "[...]" glued to a host: what goes on with a host, a port or a path (letters and digits aside), so that the
# bracket is inside the reference (_inside_host).
_HOST_GOES_ON = frozenset("-_~%/")
# A host name (RFC 1034 3.1: at most 127 labels in 255 octets) and a port (RFC 3986 3.2.3).
_HOST_NAME = rf"{_LABEL}(?:\.{_LABEL}){{0,126}}+"
_PORT = r"(?::[0-9]{1,5}+)"
# An authority whose host is a host name (RFC 3986 3.2: "//", a user and "@", the host, a port), bounded: a userinfo
# of at most MAX_LOCAL_PART characters (RFC 3986 3.2.1), a host of at most 127 labels (RFC 1034 3.1: 255 octets).
_HOST_AUTHORITY = _Pattern(
    rf"//(?:{_class(URI_CHARS, minus='/?#[]@')}{{0,{MAX_LOCAL_PART}}}+@)?{_HOST_NAME}{_PORT}?"
)
# More hosts of a multi-host authority after a ",": a reg-name may hold a "," (RFC 3986 3.2.2), and MongoDB's and
# libpq's connection URIs list hosts so ("mongodb://h1:27017,h2:27017/db", "postgresql://db1.example:5432,db2.example
# /app"). Each host has a port or two labels or more, so that a word of prose is none ("1,https://example.com,N/A",
# "...,1/2/2024"), and the list runs to the path, query or fragment that ends the authority (a "//" there starts
# another reference) or, every host with its port, to the end of the run ("mongodb://h1:27017,h2:27017").
_RUN_ENDS_AFTER_PROSE = _class("".join(PROSE_PUNCTUATION)) + r"""*+(?:[\s"<>)\]]|\Z)"""
_MORE_HOSTS = _Pattern(
    rf"(?:,(?:{_HOST_NAME}{_PORT}|{_LABEL}(?:\.{_LABEL}){{1,126}}+)){{1,64}}+(?=[/?#](?!/))"
    rf"|(?<=:[0-9]{{1,5}})(?:,{_HOST_NAME}{_PORT}){{1,64}}+(?={_RUN_ENDS_AFTER_PROSE})"
)
_LABEL_CHAR = _Pattern(r"[\p{L}\p{N}\-@]")
# A domain's characters, labels and dots (RFC 1034 3.5), read up to a hyphen that may break its line.
_DOMAIN_RUN = _Pattern(rf"[\p{{L}}\p{{N}}.\-]{{0,{_RUN_ITEMS}}}+")

# --- triggers --------------------------------------------------------------------------------------------------

# Each kind of trigger has its own pattern: three simple searches run several times faster than one alternation.
# The two that every scan runs are written for the standard library's engine, which finds them in half the time and
# at a third of the cost per search (its look-behinds have a fixed width, hence the alternatives).
# A ":" after a scheme's last character (RFC 3986 3.1) -- a letter, or at most four digits after a letter or a
# separator ("irc6", "z39.50") -- so that times ("10:30") do not stop the search -- and before something that is
# neither whitespace ("http: " in prose names no reference) nor a second ":" ("File::Spec", "std::vector": namespaces of
# code) -- or before whitespace that <...> ignores (RFC 2396 appendix E; bare, it ends the candidate, refused): a
# "<http:\n  //...>" wrapped right after its ":", or a "<mailto: a@example.org>", "<urn:\n isbn:0451450523>" whose
# next word runs to a ">".  Whitespace is WHITE_SPACE_ITEMS, as one class: a little faster than "\s" less the
# separators U+001C-U+001F, which pays for the wrap.
_SCHEME_LAST = _class(SCHEME_CHARS, minus=DIGIT)
# That word: printable ASCII but "<" and ">", and the characters of the Basic Multilingual Plane past ASCII (IRIs,
# RFC 3987 2.2), at most _SPACED_WORD of them.  Each prose ": " reads its next word ("Note: see <http://...>" is no
# trigger, its word ending at a space): about 4% of a scan of prose, which the hot path's quick refusal of prose's
# "Note:x" (_no_scheme_at) pays back.
_SPACED_WORD_CHAR = r"[!-;=?-~\x80-\uffff]"
_SPACED_WORD = 256
_SCHEME_COLON = (
    rf":(?=[^{WHITE_SPACE_ITEMS}:]|[\t\n\r ]{{1,{MAX_WRAP}}}+(?://|{_SPACED_WORD_CHAR}{{0,{_SPACED_WORD}}}+>))(?:"
    + "|".join(f"(?<={_SCHEME_LAST}{_class(DIGIT)}{{{digits}}}:)" for digits in range(5))
    # or whitespace before it, which <...> ignores too ("<http\n://example.com/>"), when a "/" or the word that
    # runs to the ">" follows: prose's " :x" is no trigger
    + rf"|(?<=[\t\n\r ]:)(?=[\t\n\r ]{{0,{MAX_WRAP}}}+(?:/|{_SPACED_WORD_CHAR}{{0,{_SPACED_WORD}}}+>))"
    + ")"
)  # compiled with the hot path's run after it (_SCHEME_TRIGGER)
# RFC 3986 draft appendix F; found at its ".", spelt out rather than case-folded (look-behinds of one width).
_ABBREVIATED_PREFIXES = ("www", "WWW", "Www", "ftp", "FTP", "Ftp")
_ABBREVIATED_TRIGGER = _compile_plain(r"\.(?<=" + "|".join(p + r"\." for p in _ABBREVIATED_PREFIXES) + ")")
_ABBREVIATED_DOT = 3  # the trigger is found at the "." and starts at the "www" or "ftp" before it
_EMAIL_TRIGGER = _Pattern(r"(?<=[\p{L}\p{N}_%+\-])@(?=[\p{L}\p{N}])")
# Streams: a trigger this close to the end of the text read so far waits for more text (the ":" trigger looks ahead
# over wrapping whitespace to a "//" or a word and its ">").
_MARGIN = MAX_WRAP + _SPACED_WORD + 3
# Streams keep this much text before the resume point: every walk back above stays within it.
_LOOKBEHIND = 4 * MAX_WRAP + MAX_SCHEME + MAX_LOCAL_PART + _MAX_QUOTED_LINE + 64
# How far past the end of its walk a bare reference's decision may look: a "," before "scheme://", a hyphen's
# wrapped next line.
_BARE_REACH = max(_LIST_SEPARATOR_REACH, _HYPHEN_WRAP_REACH)
# Linear time: a candidate whose run goes on longer than this is first judged by this much of it.
_WINDOW = 256
_WHITESPACE = _Pattern(r"\s")
# parse_urn reads left to right and decides at a position from at most this many characters after it (the two
# hex digits of a pct-encoded triplet, RFC 3986 2.1; "+" or "=" after "?", RFC 8141 2).
_URN_LOOKAHEAD = 2


class _Extent(NamedTuple):
    """Where a candidate reference lies once delimited: its own span, its delimited span, and what delimits it."""

    start: int
    end: int
    outer_start: int
    outer_end: int
    delimiter: Delimiter
    horizon: int  # one past the last character the decision looked at (streams must have read that far)
    truncated: bool = False  # cut at max_length, the run going on


def _extent(text: str, start: int, floor: int, max_length: int) -> _Extent:
    """Delimit the reference that starts at *start* (RFC 3986 appendix C, RFC 2396 appendix E, RFC 1738 appendix)."""
    limit = min(len(text), start + max_length)
    low = max(floor, start - 3 * MAX_WRAP)
    angle = _angle_open(text, low, start) if text.rfind("<", low, start) >= 0 else None
    looked = start
    if angle is not None:
        # RFC 2396 appendix E: inside <...> whitespace (line breaks too) is ignored up to the ">".
        stop = _angle_end(text, start, limit, _quoted_line(text, angle.start()))
        if text.startswith(">", stop):
            end = start + len(text[start:stop].rstrip())
            if text[end - 1] in INVISIBLE:
                end = _ANGLE_TAIL_BACK.match(text, start, end).start()
            delimiter: Delimiter = "url-prefix" if ":" in angle.group() else "angle"
            return _Extent(start, end, angle.start(), stop + 1, delimiter, stop + 1)
        looked = stop + 1  # no ">": the reference is bare, a decision that looked this far
    end, horizon = _bare_end(text, start, limit)
    truncated = _cut(text, start, horizon - _BARE_REACH, limit)
    return _delimited(text, start, end, max(horizon, looked), floor, truncated)


def _delimited(text: str, start: int, end: int, horizon: int, floor: int, truncated: bool) -> _Extent:
    """What delimits the bare reference from *start* to *end*: a "URL:" prefix, an opener and its closer, or none."""
    before = text[start - 2 : start]
    low = max(floor, start - 5)
    prefix = _URL_PREFIX_BACK.match(text, low, start) if ":" in before else None
    if prefix is not None and (prefix.start() == 0 or text[prefix.start() - 1] not in _ASCII_ALNUM):
        # RFC 1738 appendix, RFC 2396 appendix E: a bare "URL:" prefix is a delimiter, not part of the reference.
        return _Extent(start, end, prefix.start(), end, "url-prefix", max(horizon, end + 1), truncated)
    return _enclosed(text, start, end, horizon)._replace(truncated=truncated)


def _cut(text: str, start: int, walked: int, limit: int) -> bool:
    """Whether a bare walk from *start* that got to *walked* stopped at *limit* (``max_length``) with the run going
    on."""
    if walked < limit:
        return False
    return _run_end(_run_of(text, start), text, limit, min(len(text), limit + _BARE_REACH)) > limit


def _run_of(text: str, start: int) -> _Pattern:
    """The run a bare reference from *start* walks: in a quotation that a "'" opens, one that its "'" ends."""
    return _QUOTED_RUN if _in_quotation(text, start) else _BARE_RUN


def _in_quotation(text: str, start: int) -> bool:
    """Whether a "'" opens the reference that starts at *start*, so that a "'" may close it (QUOTE_MARK)."""
    return start > 0 and text[start - 1] == QUOTE_MARK


def _angle_end(text: str, start: int, limit: int, quoted: bool) -> int:
    """Where the run inside <...> stops, at its ">" -- in quoted mail, not at the quote marker that starts each
    line the reference is wrapped over."""
    stop = _run_end(_ANGLE_RUN, text, start, limit)
    while quoted and text.startswith(">", stop):
        line_start = text.rfind("\n", start, stop) + 1
        if line_start == 0 or text[line_start:stop].strip():
            break  # a ">" after the reference's own characters on its line closes it
        marker = _QUOTE_MARKER.match(text, stop, limit)
        stop = _run_end(_ANGLE_RUN, text, limit if marker is None else marker.end(), limit)
    return stop


def _angle_open(text: str, low: int, at: int) -> regex.Match[str] | None:
    """The "<" or "<URL:" that opens right before *at* (RFC 2396 appendix E), read back no further than *low*."""
    return _ANGLE_OPEN_BACK.match(text, low, at) or _quoted_angle_open(text, low, at)


def _quoted_angle_open(text: str, low: int, at: int) -> regex.Match[str] | None:
    """The "<" or "<URL:" that opens before *at* in quoted mail, a line break and the next line's quote marker after
    it (RFC 3676 4.5), where the line of the "<" is quoted too; asked when no "<" opens right before *at*."""
    opener = text.rfind("<", low, at)
    line = text.rfind("\n", opener, at) + 1 if opener >= 0 else 0
    if line == 0 or not text[line:at].lstrip(" \t").startswith(">"):
        return None  # no quoted line between the last "<" and *at*
    angle = _QUOTED_ANGLE_OPEN_BACK.match(text, low, at)
    return angle if angle is not None and _quoted_line(text, angle.start()) else None


def _quoted_line(text: str, at: int) -> bool:
    """Whether the line that holds *at* starts with a mail quote marker ("> ", RFC 3676 4.5)."""
    low = max(0, at - _MAX_QUOTED_LINE)
    line_start = text.rfind("\n", low, at) + 1
    if line_start == 0 and low > 0:
        return False  # a line this long is no quoted mail
    return _QUOTE_MARKER.match(text, line_start, at) is not None


_NOT_ENCLOSED: tuple[str, Delimiter] = ("", "bare")  # no opener: no closers


def _enclosed(text: str, start: int, end: int, horizon: int) -> _Extent:
    """Name the delimiter of a bare reference: the opener just before it and its closer just after it."""
    if start > 1 and text.startswith("](", start - 2):
        # [text](url) or [text](url "title"): CommonMark 6.3's inline link destination, its ")" past the prose
        # punctuation trimmed from a reference that is not all of it (rule 1: the delimiters still delimit it).
        at = end if text.startswith(")", end) else _closer_after(text, end, ")")
        return _Extent(start, end, start - 1, end if at < 0 else at + 1, "markdown", max(horizon, end + 1, at + 1))
    if start > 0 and end < len(text):
        opener = start - 1 if text[start - 1] not in BIDI_CONTROLS else _opener_before_bidi(text, start)
        closers, delimiter = ENCLOSERS.get(text[opener], _NOT_ENCLOSED)
        at = -1 if not closers else end if text[end] in closers else _closer_after(text, end, closers)
        if at >= 0:
            return _Extent(start, end, opener, at + 1, delimiter, max(horizon, at + 1))
    return _Extent(start, end, start, end, "bare", max(horizon, end + 1))


def _opener_before_bidi(text: str, start: int) -> int:
    """Where the opener of the reference at *start* may stand past the bidirectional controls before it (RFC 3987
    4.1: right-to-left text wraps a URL in them): a LEFT-TO-RIGHT MARK between "(" and "http://" leaves it bracketed."""
    at = start - 1
    while at > 0 and text[at] in BIDI_CONTROLS and start - at <= MAX_BIDI_CONTROLS:
        at -= 1
    return at


def _closer_after(text: str, end: int, closers: str) -> int:
    """Where one of *closers* follows the reference that ends at *end* past the prose punctuation trimmed from it
    (rule 5): '"http://example.org/a."' is quoted, "(http://example.org/a?)" bracketed (RFC 3986 appendix C); -1 if
    none does."""
    at = end
    while at < len(text) and text[at] not in closers and _trimmed_mark(text[at]):
        at += 1
    return at if at < len(text) and text[at] in closers else -1


def _to_closer(text: str, extent: _Extent) -> _Extent:
    """A reference that quotation marks or a Markdown link delimit runs to their closer: the prose punctuation that
    rule 5 trims from a *bare* reference stays when only it stands before that closer (rule 1: what the delimiters
    hold belongs to the reference; RFC 3986 appendix C names double quotes a URI's delimiters, and 5.4.2 quotes
    '"g." = "http://a/b/c/g."'; CommonMark 6.3: a link's destination is all up to its ")":
    "[D.C.](https://en.wikipedia.org/wiki/Washington,_D.C.)"). Brackets hold a parenthesis of prose, whose last
    mark is the sentence's: "(http://example.org/a?)" is trimmed."""
    if extent.delimiter not in _TO_CLOSER or extent.truncated:
        return extent
    # the closer: a quotation's is known (_enclosed); a Markdown destination's ")" may not be yet
    stop = len(text) if extent.delimiter == "markdown" else extent.outer_end - 1
    end = extent.end
    while end < stop and _trailing_char(text[end]):
        end += 1  # the walk's own run, which ended there: linear
    if end == extent.end or not text.startswith(")" if extent.delimiter == "markdown" else text[stop], end):
        return extent
    return extent._replace(end=end, outer_end=end + 1, horizon=max(extent.horizon, end + 1))


_TO_CLOSER = frozenset({"quote", "markdown"})


def _trimmed_mark(char: str) -> bool:
    """Whether *char* is punctuation that ends a bare reference before its closer: rule 5's prose punctuation, or
    any non-ASCII punctuation (rule 10, RFC 3987 2.2), as CJK prose writes "「http://example.org/a。」", an emoji, or a
    bidirectional control (RFC 3987 4.1: LEFT-TO-RIGHT MARK around "http://example.org/a" in parentheses)."""
    return _trailing_char(char) or (char > "\x7f" and (category(char)[0] == "P" or char in BIDI_CONTROLS))


def _trailing_char(char: str) -> bool:
    """Whether *char* is of the run that rule 5 trims from a bare reference: prose punctuation or an emoji's."""
    return char in PROSE_PUNCTUATION or (char > "\x7f" and _EMOJI_CHAR.match(char) is not None)


def _bare_end(text: str, start: int, limit: int) -> tuple[int, int]:
    """The end of a bare reference and the horizon of that decision: runs of URI characters, balanced closing
    brackets, hyphen-wrapped lines (RFC 2396 appendix E), less the punctuation that ends prose (RFC 3986 appendix C)."""
    pos = start
    rounds = squares = 0  # "(" and "[" still open
    unmatched = -1  # the "[" that opened the brackets still open, when some are
    wraps: list[tuple[int, int]] = []  # (end of the run before the wrap, start of the continuation)
    run = _run_of(text, start)
    while True:
        end = _run_end(run, text, pos, limit)
        rounds += text.count("(", pos, end)
        opened = text.count("[", pos, end)
        if opened and not squares:
            unmatched = text.find("[", pos, end)  # a run holds no "]": its first "[" opens at depth 0
        squares += opened
        if end >= limit:
            break
        closer = text[end]  # a closing bracket with no opening partner inside the reference ends it
        if closer == ")" and rounds:
            rounds -= 1
            pos = end + 1
            continue
        if closer == "]" and squares:
            squares -= 1
            pos = end + 1
            continue
        hyphen_end = _hyphen_end(text, start, end)
        if hyphen_end is not None:
            resume = _continuation(text, hyphen_end, limit, _quoted_line(text, start))
            if resume is not None:
                wraps.append((end, resume))
                pos = resume
                continue
        break
    # The last run looked at most this far: a "," before "scheme://", a hyphen's wrapped next line.
    horizon = end + _BARE_REACH
    if squares and (end < limit or limit == len(text)) and _no_trigger_in(text, unmatched, end):
        # that "[" ends the reference, and the lines wrapped after it
        return _trimmed_end(text, start, unmatched, [wrap for wrap in wraps if wrap[0] < unmatched]), horizon
    return _trimmed_end(text, start, end, wraps), horizon


def _trimmed_end(text: str, start: int, end: int, wraps: list[tuple[int, int]]) -> int:
    """The end of the bare reference from *start* whose walk ended at *end* over the hyphen *wraps*, less the
    punctuation that ends prose (RFC 3986 appendix C): a wrap whose continuation is punctuation only joins nothing."""
    last = text[end - 1]
    trailing = last in PROSE_PUNCTUATION or (last > "\x7f" and not last.isalnum())  # an emoji is neither
    run_start = _trailing_start(text, start, end) if trailing else None
    while run_start is not None:
        end = run_start
        if not wraps or end > wraps[-1][1]:
            break
        end = wraps.pop()[0]  # the continuation was punctuation only: the hyphen ends the reference
        run_start = _trailing_start(text, start, end)
    return end


def _trailing_start(text: str, start: int, end: int) -> int | None:
    """Where the run of prose punctuation and emoji that ends ``text[start:end]`` starts (rule 5), None without one.
    A run longer than _EMOJI_RUN that holds emoji is read a piece at a time; a piece ends where a character needs
    the one after it to be an emoji's (a pictograph before its U+FE0F), which may end the run there."""
    run = _PUNCTUATION_RUN_BACK.match(text, start, end)
    at = end if run is None else run.start()
    if at == start or text[at - 1] < "\x80" or _EMOJI_CHAR.match(text, at - 1) is None:  # no emoji: the common case
        return None if run is None else at
    at = end
    while (run := _PROSE_RUN_BACK.match(text, start, at)) is not None:
        at = run.start()
        if run.end() - at < _EMOJI_RUN:
            break
    return None if at == end else at


def _no_trigger_in(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]``, the part of a bare reference from a "[" that no "]" of it closes, holds no trigger
    (":", "@", "www." or "ftp."): that "[" then ends the reference (rule 5 keeps balanced brackets; outside an
    IP-literal "[" is no URI character, RFC 3986 3.2.2 and 3.3), as AsciiDoc's "https://example.org/a.html[Page
    title]" is read.  A part that holds one stays in the reference, as before: the triggers in it would walk the
    same run again, each (linear time)."""
    return text.find(":", start, end) < 0 and text.find("@", start, end) < 0 and (
        _ABBREVIATED_TRIGGER.search(text, start, end) is None
    )


def _run_end(pattern: _Pattern, text: str, pos: int, limit: int) -> int:
    """Where a possessive run of *pattern* that starts at *pos* ends (it may be empty), read ``_RUN_ITEMS`` items
    at a time; every item is decided by its own characters, so the pieces join into the run one match would give."""
    while True:
        run = pattern.match(text, pos, limit)
        end = pos if run is None else int(run.end())
        if end - pos < _RUN_ITEMS:  # each item takes a character at least: fewer characters, the run has ended
            return end
        pos = end


def _hyphen_end(text: str, start: int, end: int) -> int | None:
    """Where the hyphen that ends the run from *start* to *end* ends (RFC 2396 appendix E: a line break after a
    hyphen): the run's own last "-", or a typesetter's hyphen right after it, which is no URI character; None when
    there is neither."""
    if end == start:
        return None
    if text[end - 1] == "-":
        return end
    return end + 1 if text[end] in _TYPESET_HYPHENS else None


def _continuation(text: str, hyphen_end: int, limit: int, quoted: bool) -> int | None:
    """Where the next line continues a reference broken after a hyphen (RFC 2396 appendix E), or None."""
    wrap = (_QUOTED_HYPHEN_WRAP if quoted else _HYPHEN_WRAP).match(text, hyphen_end, limit)
    if wrap is None:
        return None
    resume = wrap.end()
    if resume >= limit or _CONTINUATION_START.match(text, resume) is None:
        return None
    if _ABBREVIATED_AHEAD.match(text, resume) is not None:
        return None
    scheme = _SCHEME_AHEAD.match(text, resume)
    if scheme is not None:
        name = scheme.group()[:-1].lower()
        if name in KNOWN_SCHEMES or name == _URL_PREFIX or text.startswith("//", scheme.end()):
            return None
    return int(resume)


def _cleaned(raw: str) -> str:
    """The reference without the whitespace that wraps it (RFC 2396 appendix E: "should be ignored"), without
    the quote markers of the quoted mail lines it runs over, the running footer and header of the RFC page breaks
    it runs over, and the typesetters' hyphens at its breaks."""
    if ">" in raw:
        raw = _QUOTE_MARKER_AFTER_BREAK.sub("", raw)
    if "[Page " in raw:
        raw = _PAGE_BREAK.sub("", raw)
    cleaned = "".join(_read_hyphens(raw, 0).split())
    return cleaned if cleaned.isascii() or _INVISIBLE_IN(cleaned) is None else _INVISIBLE_GONE("", cleaned)


_INVISIBLE = _compile_plain(f"[{INVISIBLE}]")  # rule 3: ignored inside <...>, the only place a reference holds them
_INVISIBLE_IN = _INVISIBLE.search
_INVISIBLE_GONE = _INVISIBLE.sub


_LINE_BREAK_IN = _compile_plain(f"[{LINE_BREAK_ITEMS}]").search


def _alternatives(raw: str, uri: str, prefix: str = "") -> tuple[str, ...]:
    """The other reading of the hyphens at line breaks, if it differs (RFC 2396 appendix E)."""
    if "\n" not in raw and "\r" not in raw and ((raw.isascii() and "\x0b" not in raw) or _LINE_BREAK_IN(raw) is None):
        return ()  # no line break: an ASCII reference is asked for the ASCII ones of LINE_BREAK_ITEMS only
    other = prefix + _cleaned(_read_hyphens(raw, 1))
    return (other,) if other != uri else ()


def _read_hyphens(raw: str, reading: int) -> str:
    """*raw* with each hyphen at a line break read as in ``.uri`` (0) or as in the other reading (1)."""
    return str(_HYPHEN_AT_BREAK.sub(lambda hyphen: HYPHEN_READINGS[hyphen.group()][reading], raw))


# The hot path: most references are "scheme:" and a run of ASCII URI characters that ends at a character no rule
# weighs (whitespace, a quote, "<", ">", a closing bracket that nothing in the run opened, the end of the text),
# perhaps with trailing prose punctuation, shorter than the window, not after "<" or "URL:".  Two matches of the
# standard library's engine decide such a reference exactly as the walk and the judges below would, at a fraction of
# the cost (for a class without Unicode properties its match costs a fifth of the regex package's); anything else
# -- a bracket opened in the run, a list separator, a hyphen at the end, a non-ASCII character -- makes the match
# fail and takes the general path.  A "www." or "ftp." reference with such a run takes it too (its host matched by one
# more pattern): a text of such references never needs the regex package.
_ASCII_SCHEME = _class(SCHEME_CHARS)
# The scheme that ends at the ":" (RFC 3986 3.1): the last run of scheme characters, found from at most MAX_SCHEME
# characters before it by a greedy ".*" that gives back one character at a time.
_PLAIN_SCHEME = _compile_plain(rf"(?s:.*)(?<!{_ASCII_SCHEME})({_ASCII_SCHEME}*)")
_PLAIN_PUNCTUATION = "".join(PROSE_PUNCTUATION)
# Inside the run: no bracket, list separator, "'", which may close a quotation (QUOTE_MARK, _run_of), nor other
# punctuation that may end a host (_AFTER_HOST) -- only as the prose punctuation that ends the run.
_PLAIN_CHAR = _class(URI_CHARS, minus="".join(CLOSING) + "".join(CLOSING.values()) + LIST_SEPARATORS + QUOTE_MARK
                     + "".join(_AFTER_HOST))
_PLAIN_LAST = _class(URI_CHARS, minus="".join(CLOSING) + "".join(CLOSING.values()) + LIST_SEPARATORS
                     + _PLAIN_PUNCTUATION + "-")
# What ends a run, whatever follows (no URI character, RFC 3986 2; no IRI character, RFC 3987 2.2; ASCII), and the
# closing brackets, which end it when the run opened none (RFC 3986 appendix C).
_PLAIN_STOP = r"[\x00-\x20\x7f" + "".join(
    "\\" + c for c in sorted(set(map(chr, range(0x21, 0x7f))) - set(URI_CHARS))
) + _escape("".join(CLOSING)) + "]"
_PLAIN_REACH = _WINDOW - _LIST_SEPARATOR_REACH  # a run this long or longer is left to the windowed judgement
# A plain run: group 1 ends where the reference ends (after the prose punctuation is trimmed), the match where the run
# ends; no match when the run goes on with a character some rule weighs or is longer than the window (its pieces are
# bounded, so a match costs a window at most).
_PLAIN_RUN_SOURCE = (
    rf"((?:{_PLAIN_CHAR}{{0,{_PLAIN_REACH}}}{_PLAIN_LAST})?){_class(_PLAIN_PUNCTUATION)}{{0,{_PLAIN_REACH}}}"
    rf"(?={_PLAIN_STOP}|\Z)"
)
# The ":" trigger and, when it can be read, the plain run after it, in one search (group 1 unset: no plain run).
_SCHEME_TRIGGER = _compile_plain(_SCHEME_COLON + f"(?:{_PLAIN_RUN_SOURCE})?")
# The plain run of a "www." or "ftp." reference, from its first character.
_PLAIN_RUN = _compile_plain(_PLAIN_RUN_SOURCE)
# Its host as _ABBREVIATED_FIRST and _MORE_LABELS read it (RFC 1034 3.5): in a plain run, which is ASCII, a label's
# letters and digits (\p{L}, \p{N}) are A-Z, a-z and 0-9; the first label as long as it goes, like their first match.
_PLAIN_ALNUM = _class(ALPHA + DIGIT)
_PLAIN_LABEL = rf"{_PLAIN_ALNUM}(?:{_class(ALPHA + DIGIT + '-')}{{0,{_MAX_LABEL - 2}}}{_PLAIN_ALNUM})?"
_PLAIN_HOST = _compile_plain(rf"(?i:www|ftp)\.(?>{_PLAIN_LABEL})(?:\.{_PLAIN_LABEL})++{_HOST_END_SOURCE}")
_EMPTY_AUTHORITY = frozenset("/?#")
# The "//" and what follows it up to a character that ends an authority (RFC 3986 3.2: "/", "?", "#"), whitespace or
# a character of _AFTER_HOST, as far as a host name with a user and a port may go: a test in the standard library's
# engine, at a third of the cost of _HOST_AUTHORITY's, that spares most "//" candidates that match.
_AUTHORITY_RUN = _compile_plain(
    rf"//[^/?#{WHITE_SPACE_ITEMS}{_escape(''.join(sorted(_AFTER_HOST)))}]{{0,{MAX_LOCAL_PART + 1 + 255 + 6}}}+"
)


# The openers as the hot path reads them: ENCLOSERS, and a bidirectional control, which sends the reference to
# _enclosed (an opener may stand before it).
_ACROSS_BIDI = BIDI_CONTROLS
_PLAIN_OPENERS: dict[str, tuple[str, Delimiter]] = {
    **ENCLOSERS, **dict.fromkeys(BIDI_CONTROLS, (_ACROSS_BIDI, "bare"))
}


def _plain_uri(
    text: str, trigger: Match[str], floor: int, max_length: int, base: int | None
) -> _Candidate | None:
    """The candidate at the ":" *trigger* (:data:`_SCHEME_TRIGGER`), exactly as :func:`_scheme_start`,
    :func:`_extent` and :func:`_usable` decide it, when it is of the common kind described above; None when another
    rule may apply.  With a stream's *base* the reference holds its own text at absolute offsets, as
    :func:`_reference` builds it: built once, never rebuilt."""
    end = trigger.end(1)
    if end < 0:
        return None  # no plain run
    colon = trigger.start()
    low = colon - MAX_SCHEME
    scheme = _PLAIN_SCHEME.match(text, low if low > floor else floor, colon)
    if scheme is None:
        return None  # a scheme run cut at the floor, or longer than any scheme
    start = scheme.start(1)
    name = text[start:colon].lower()
    if name not in _PLAIN_SCHEMES:
        if name and _no_scheme_at(text, start, colon, name, floor):
            return None, colon + _SLASHES_REACH  # as _scheme_candidate decides it
        return None  # a dotted scheme, one followed by "//" or perhaps wrapped, "urn:", whitespace before the ":"
    size = len(text)
    run_end = trigger.end()
    # _plain_whole, inlined: the hot path
    limit = start + (max_length if max_length < _PLAIN_REACH else _PLAIN_REACH)
    if run_end > limit or run_end == limit < size:
        return None  # a long run: the window judges it (_beginning), max_length may cut it
    low = start - 3 * MAX_WRAP
    if text.rfind("<", low if low > floor else floor, start) >= 0:
        return None  # perhaps <...> or <URL:...> (_extent)
    if ":" in text[start - 2 if start > 1 else 0 : start]:
        return None  # perhaps URL:... (_delimited)
    horizon = run_end + _BARE_REACH
    # _usable, its common case first: "//" and an authority that begins with a character of its own
    if not (
        name in _SLASHES_ENOUGH and end > colon + 3 and text.startswith("//", colon + 1)
        and text[colon + 3] not in _EMPTY_AUTHORITY
    ) and not _usable(name, text[colon + 1 : end], text[start - 1 : start]):
        return None, horizon
    # _enclosed
    outer_start, outer_end = start, end
    delimiter: Delimiter = "bare"
    if start > 1 and text.startswith("](", start - 2):
        outer_start, delimiter = start - 1, "markdown"
        if run_end > end and text.startswith(")", run_end):
            end = run_end  # _to_closer: only the trimmed punctuation stands before the link's ")"
        if text.startswith(")", end):
            outer_end = end + 1
    elif start > 0 and end < size:
        closers, enclosed = _PLAIN_OPENERS.get(text[start - 1], _NOT_ENCLOSED)
        if closers:
            if closers is _ACROSS_BIDI:
                return None  # an opener perhaps stands before the bidirectional controls (_enclosed)
            at = end if text[end] in closers else _closer_after(text, end, closers)
            if at >= 0:
                outer_start, outer_end, delimiter = start - 1, at + 1, enclosed
                if at <= run_end and enclosed == "quote":
                    end = at  # _to_closer: only the run's trimmed punctuation stands before the closing mark
    reference = _NEW(Reference)
    if base is None:
        _SET_FIELDS(reference, (text, start, end, outer_start, outer_end, delimiter, "uri", None, 0, None))
    else:
        outer = base + outer_start
        _SET_FIELDS(reference, (
            text[outer_start:outer_end], base + start, base + end, outer, base + outer_end, delimiter, "uri", None,
            outer, None,
        ))
    return reference, horizon


def _no_scheme_at(text: str, start: int, colon: int, name: str, floor: int) -> bool:
    """Whether :func:`_scheme_start` finds no scheme in *name*, the whole run of scheme characters from *start* to the
    ":" at *colon*: a word that is no known scheme, begins with a letter (RFC 3986 3.1), has no "//" after it, and is
    no tail of a scheme wrapped inside <...>.  Prose ("Note:x", "Re:x", "proxy.example:3128") is refused by these
    tests, without walking back to the scheme again."""
    return (
        name not in KNOWN_SCHEMES and name[0] in _ALPHA_SET
        and not _slashes_after(text, colon)
        and (
            start == floor or text[start - 1] not in _WRAP_WHITESPACE
            or text.rfind("<", max(floor, start - _WRAPPED_SCHEME_REACH), start) < 0
        )
    )


def _plain_whole(text: str, start: int, run_end: int, floor: int, max_length: int) -> bool:
    """Whether the walk from *start* would end with the plain run that ends at *run_end*, bare: shorter than the
    window and than *max_length*, not after "<" (_extent) nor after "URL:" (_delimited)."""
    limit = start + (max_length if max_length < _PLAIN_REACH else _PLAIN_REACH)
    if run_end > limit or run_end == limit < len(text):
        return False
    low = start - 3 * MAX_WRAP
    return text.rfind("<", low if low > floor else floor, start) < 0 and ":" not in text[max(start - 2, 0) : start]


def _plain_abbreviated(text: str, at: int, floor: int, max_length: int, base: int | None) -> _Candidate | None:
    """The candidate at a "www." or "ftp." trigger, exactly as :func:`_abbreviated_candidate` decides it past its
    first test, when its run is plain (as :func:`_plain_uri` takes them); None when another rule may apply."""
    run = _PLAIN_RUN.match(text, at)
    if run is None or not _plain_whole(text, at, run.end(), floor, max_length):
        return None
    end = run.end(1)
    extent = _enclosed(text, at, end, run.end() + _BARE_REACH)
    if _PLAIN_HOST.match(text, at, end) is None:
        return None, extent.horizon  # not a host (a plain run holds nothing that _host_before_prose weighs)
    written = text[at:end]
    return _reference(text, extent, _abbreviated_prefix(written) + written, "abbreviated", (), base), extent.horizon


# --- the three kinds of trigger --------------------------------------------------------------------------------

_Candidate = tuple[Reference | None, int]  # the reference (None: not one) and the horizon of that decision
# (text, trigger, floor, options, what the scan's judges share): the decision
_Judge = Callable[[str, int, int, ScanOptions, "_ScanState"], _Candidate]


# How far before a scheme's tail the "<" of a scheme wrapped inside <...> may stand (_wrapped_scheme): the wrapping
# whitespace, the head, and "<", "URL:" and the whitespace around them.
_WRAPPED_SCHEME_REACH = 3 * MAX_WRAP + MAX_SCHEME + 4


def _slashes_after(text: str, colon: int) -> bool:
    """Whether "//" follows the ":" at *colon* (RFC 3986 3.2: an authority), or would once the whitespace that
    ``<...>`` ignores around the slashes is left out (rule 3: "<foo: //a.example/>"; bare, the reading decides)."""
    return text.startswith("//", colon + 1) or (
        text[colon + 1] in _SPACE_OR_SLASH and _SPACED_SLASHES.match(text, colon + 1) is not None
    )


_SPACE_OR_SLASH = frozenset(" \t\r\n/")
_SPACED_SLASHES = _compile_plain(rf"[\t\n\r ]{{0,{MAX_WRAP}}}/[\t\n\r ]{{0,{MAX_WRAP}}}/")
_SLASHES_REACH = 2 * MAX_WRAP + 3  # how far past the ":" the look for its "//" reads


def _angle_opens_at(text: str, at: int, floor: int) -> bool:
    """Whether a "<" (or "<URL:"), with whitespace after it, opens right before *at* (RFC 2396 appendix E)."""
    return _angle_open(text, max(floor, at - 2 * MAX_WRAP - 4), at) is not None


def _scheme_before_space(text: str, colon: int, floor: int) -> tuple[int, str] | None:
    """The scheme that whitespace parts from its ":" inside ``<...>`` (rule 3: all whitespace there is ignored,
    "<http\n  ://example.com/>"): its start and name, when a "<" (or "<URL:") opens right before it and it is a
    known scheme or "//" follows (rule 6); else None."""
    end = colon
    low = max(floor, colon - MAX_WRAP)
    while end > low and text[end - 1] in _WRAP_WHITESPACE:
        end -= 1  # the wrapping whitespace, at most MAX_WRAP characters
    head = _SCHEME_RUN_BACK.match(text, max(floor, end - MAX_SCHEME), end)
    if head is None or text[head.start()] not in _ALPHA_SET or not _angle_opens_at(text, head.start(), floor):
        return None
    name = head.group().lower()
    return (head.start(), name) if name in KNOWN_SCHEMES or _slashes_after(text, colon) else None


def _wrapped_scheme(text: str, start: int, colon: int, floor: int) -> tuple[int, str] | None:
    """The scheme whose tail starts at *start* after whitespace inside ``<...>`` (rule 3: all whitespace there is
    ignored, "<ht\n  tp://example.com/>", "<ht tp://example.com/>"): where its head starts and the whole name, when
    head and tail make a known scheme and a "<" (or "<URL:") opens before the head; else None."""
    if text.rfind("<", max(floor, start - _WRAPPED_SCHEME_REACH), start) < 0:
        return None  # no "<" before: a space before the scheme, as in prose, the common case
    low = max(floor, start - MAX_WRAP)
    end = start
    while end > low and text[end - 1] in _WRAP_WHITESPACE:
        end -= 1  # the wrapping whitespace, at most MAX_WRAP characters
    head = _SCHEME_RUN_BACK.match(text, max(floor, end - MAX_SCHEME), end)
    if head is None or text[head.start()] not in _ALPHA_SET:
        return None
    name = (head.group() + text[start:colon]).lower()
    if name not in KNOWN_SCHEMES or not _angle_opens_at(text, head.start(), floor):
        return None
    return head.start(), name


def _after_control(text: str, at: int, floor: int) -> bool:
    """Whether a terminal's control sequence or an IRC colour code (:data:`_CONTROL_SEQUENCE_BACK`) ends right before
    *at*."""
    low = max(floor, at - _CONTROL_SEQUENCE_REACH)
    if text.rfind("\x1b", low, at) < 0 and text.rfind("\x03", low, at) < 0:
        return False
    return _CONTROL_SEQUENCE_BACK.match(text, low, at) is not None


def _after_control_in(text: str, start: int, stop: int, floor: int) -> int:
    """Where the word in the run of letters and digits from *start* to *stop* begins: after the final byte of a
    terminal's control sequence ("\x1b[1;36m" before "36mhttp") or the digits of an IRC colour code ("\x0304" before
    "04http") that begins before the run and ends inside it; at *start* when none does.  Asked only where one of
    :data:`_CONTROL_PARAMETER_END` stands before *start*."""
    digits = start
    while digits < stop and text[digits] in _DIGIT_SET:
        digits += 1
    if digits < stop and _after_control(text, digits + 1, floor):
        return digits + 1
    return digits if digits > start and _after_control(text, digits, floor) else start


def _scheme_start(text: str, colon: int, floor: int) -> tuple[int, str] | None:
    """Walk back from a ":" to the scheme that ends there (RFC 3986 3.1): its start and name."""
    low = max(floor, colon - MAX_SCHEME)
    run = _SCHEME_RUN_BACK.match(text, low, colon)
    if run is None:
        return _scheme_before_space(text, colon, floor)  # the trigger: whitespace before the ":"
    start = run.start()
    if start == low and low > floor and text[low - 1] in _SCHEME_SET:
        return None  # longer than any scheme: an identifier of code, not a scheme
    # RFC 3986 3.1: a scheme begins with a letter. Separators before it are glue ("1.http://" begins at "h"); a
    # digit right before it makes a word that is no scheme ("1abc://", as robinst/linkify reads both).
    if start > floor and text[start - 1] in _CONTROL_PARAMETER_END:
        start = _after_control_in(text, start, colon, floor)  # "\x1b[4mhttps://": after the final byte "m"
    word = start
    while start < colon and text[start] not in _ALPHA_SET:
        start += 1
    glued_to_number = start > word and text[start - 1] in _DIGIT_SET
    name = text[start:colon].lower()
    if start > floor and text[start - 1] in "\n\t\r " and (wrapped := _wrapped_scheme(text, start, colon, floor)):
        return wrapped
    if name in KNOWN_SCHEMES and not glued_to_number:
        return start, name
    if not _slashes_after(text, colon):
        # Without an authority, a dotted word before a known scheme is a host name and its port or path
        # ("proxy.example:3128", "host.example:repo.git"; RFC 3986 3.2.3), not prose glued to a reference.
        return None
    # "e.g.http://..." -- a sentence glued to a known scheme by a full stop ("git+ssh" and "coap-x" stay whole).
    for index, char in enumerate(name):
        if char == "." and name[index + 1 :] in KNOWN_SCHEMES:
            return start + index + 1, name[index + 1 :]
    if name and name != _URL_PREFIX and not glued_to_number:
        return start, name  # any valid scheme followed by "//" (RFC 3986 3.2: an authority follows)
    return None


# Evidence that "scheme:" starts a reference: what the scheme-specific part must start with for "scheme:" in prose to be
# a reference, by scheme (the scheme table's prose_start: "//" for ftp, "/" for file...); the other schemes need
# nothing.
_PROSE_START = {name: _compile_plain(row.prose_start) for name, row in SCHEMES.items() if row.prose_start}
# A scheme outside the registry starts a reference only before "//" (rule 6; RFC 3986 3.2), in what is read: in <...>
# the slashes may lie across whitespace ("<foo: //a.example/>"), which a bare reference ends at.
_AUTHORITY = _compile_plain("//")
# The schemes for which "//" and a character that is none of "/?#" make "scheme:" usable (_usable's common case).
_SLASHES_ENOUGH = frozenset(
    name for name in KNOWN_SCHEMES if name not in _PROSE_START or _PROSE_START[name].match("//") is not None
)
# The schemes the hot path takes: known (RFC 8141 2: "urn:" references are judged whole) and written as a scheme
# starts, with a letter (RFC 3986 3.1).
_PLAIN_SCHEMES = frozenset(name for name in KNOWN_SCHEMES if name != "urn" and name[:1].isalpha())
_CJK_LETTER = _Pattern(f"[{CJK_LETTERS}]")
_CJK_LETTER_BACK = _Pattern(f"(?r)[{CJK_LETTERS}]")
# How much of what follows "scheme:" is weighed for that: less than a window, so that the beginning of a long run
# decides, the same whether the run is judged whole or by its beginning.
_CJK_SAMPLE = 128
# Another URI with an authority written right after "scheme:" ("Example:http://a.example/", "News:https://..."): the
# first word is a label of prose, and the reference is the URI after it (RFC 3986 3.1: that scheme's own syntax
# holds no "scheme://" there), unless the scheme wraps a URL (feed:, view-source:, jar:, blob:, filesystem:, mvn:).
_LABELLED_URI = _Pattern(r"[A-Za-z][A-Za-z0-9+.\-]*://")
_WRAPPING_SCHEMES = frozenset({"blob", "feed", "filesystem", "jar", "mvn", "view-source"})


def _usable(scheme: str, rest: str, before: str) -> bool:
    """Whether what follows "scheme:" names something (not "the http:// prefix", "http://#",
    "svn:ignore", "FILE:LINE", nor the label of "Example:http://..."); *before* is the character before the scheme.

    After "//" the authority or the path (RFC 3986 3.2, 3.3) must hold more than slashes; only "file" may leave
    its authority empty (RFC 8089 2: "file:///" is the root directory).
    """
    evidence = _PROSE_START.get(scheme) if scheme in KNOWN_SCHEMES else _AUTHORITY
    if evidence is not None and evidence.match(rest) is None:
        return False
    if not rest.startswith("//"):
        if scheme not in _WRAPPING_SCHEMES and _LABELLED_URI.match(rest) is not None:
            return False
        return bool(rest) and not _in_cjk_prose(before, rest[:_CJK_SAMPLE])
    hierarchy = rest[2:].partition("?")[0].partition("#")[0]
    return bool(hierarchy.strip("/")) or (scheme == "file" and bool(hierarchy))


def _in_cjk_prose(before: str, rest: str) -> bool:
    """Whether "scheme:" glued to a CJK letter, *rest* after it more than half CJK letters, is a word of CJK prose
    ("注意nntp:URL指定了…", "的news:形式成为…"), not a reference."""
    return _CJK_LETTER.fullmatch(before) is not None and 2 * len(_CJK_LETTER.findall(rest)) > len(rest)


def _scheme_candidate(text: str, colon: int, floor: int, options: ScanOptions, scan: _ScanState) -> _Candidate:
    """The candidate at a ":" trigger (the hot loop tries :func:`_plain_uri` first)."""
    found = _scheme_start(text, colon, floor)
    if found is None or _is_urn_namespace(text, found[0], colon):
        return None, colon + _SLASHES_REACH  # it looked at most for the "//" after the ":"
    start, name = found
    extent = _authority_before_prose(text, start, colon, floor, options.max_length) if name != "urn" else None
    if extent is None:
        beginning = _beginning(text, start, floor, options.max_length)
        if beginning is not None and _scheme_rejected_early(name, beginning[0], text[start - 1 : start]):
            return None, beginning[1]
        long_urn = name == "urn" and beginning is not None
        if long_urn and scan.last is not None and scan.last.holds(start):
            return scan.last.judge(text, start, floor, scan.base)
        extent = _extent(text, start, floor, options.max_length)
        if long_urn and _URNRun.fits(text, extent):
            scan.last = _URNRun(text, extent)
            return scan.last.judge(text, start, floor, scan.base)
    raw = text[extent.start : extent.end]
    uri = _cleaned(raw)
    if not _usable(name, uri[len(name) + 1 :], text[start - 1 : start]):
        return None, extent.horizon  # judged without the punctuation: "[docs](https://...)" names nothing
    destination = _to_closer(text, extent) if name != "urn" else extent  # a URN: as its kept run
    if destination is not extent:
        extent, raw = destination, text[destination.start : destination.end]
        uri = _cleaned(raw)
    kind: Kind = "uri"
    if name == "urn":
        from ..uri.urn import is_urn  # RFC 8141's parser, loaded by the first "urn:" candidate

        # RFC 8141 2: a "urn:" reference must be a URN; IRI letters are checked as their
        # percent-encoded octets (RFC 3987 3.1).
        if not is_urn(percent_encode(uri, URI_CHARS)):
            end = _longest_urn(text, extent) if raw == uri and raw.isascii() else None
            if end is None:
                return None, extent.horizon
            extent = _Extent(extent.start, end, extent.start, end, "bare", extent.horizon)
            raw = uri = text[extent.start : end]
        kind = "urn"
    return _reference(text, extent, uri, kind, _alternatives(raw, uri), scan.base), extent.horizon


def _longest_urn(text: str, extent: _Extent) -> int | None:
    """The end of the longest URN that a "urn:" run which is none begins with, up to the character that cannot go
    on one (RFC 8141 2), less the prose punctuation before it (rule 5): "urn:isbn:0451450523[1]" (a footnote: "["
    is no pchar) holds "urn:isbn:0451450523", "urn:foo:a123,456?x=y" ("?" only as "?+" or "?=") holds
    "urn:foo:a123,456". None when none does, or when the run is delimited as a whole (``<...>``, ``URL:``)."""
    from ..uri.urn import URNError, is_urn, parse_urn

    if extent.delimiter in ("angle", "url-prefix"):
        return None
    run = text[extent.start : extent.end]
    try:
        parse_urn(run)
    except URNError as error:
        stop = error.position
    else:
        return extent.end
    for cut in range(stop, max(stop - _URN_LOOKAHEAD, 0) - 1, -1):  # the error may be found past what caused it
        end = cut
        while end > 0 and run[end - 1] in PROSE_PUNCTUATION:
            end -= 1
        if is_urn(run[:end]):
            return extent.start + end
    return None


def _is_urn_namespace(text: str, start: int, colon: int) -> bool:
    """Whether the word from *start* to the ":" at *colon* follows "urn:", which makes it a URN's NID (RFC 8141 2:
    "urn" ":" NID ":" NSS), never a scheme of its own: "urn:example:/a" is no URN, and no "example:/a" either.  A
    "//" after it starts no NSS (RFC 8141 2: an NSS begins with a pchar): "urn:" is then a label of prose, as in
    "Example:http://a.example/", and the URI after it is the reference.  Nor is "urn" an NID (RFC 2141 2 reserves
    it): "urn:urn:isbn:0451450523" holds the URN that the second "urn:" starts."""
    return (
        start >= 4 and text[start - 4 : start].lower() == "urn:" and not text.startswith("//", colon + 1)
        and text[start:colon].lower() != "urn"
    )


class _URNRun:
    """A long "urn:" candidate's run, kept while the "urn:" triggers inside it are judged (linear time).

    Those triggers ("urn:a:b/urn:c:d/...[") start candidates that end where this one ends, unless a closing
    bracket it matched is left unmatched from their start: each is judged by the window it begins with and by
    one pass over the run (:class:`NamestringTails`), never by walking the rest of the run again.
    """

    def __init__(self, text: str, extent: _Extent) -> None:
        from ..uri.urn import NamestringTails

        self.start, self.end, self.horizon = extent.start, extent.end, extent.horizon
        self.tails = NamestringTails(text, extent.start, extent.end)
        # Per kind of bracket: its openers and closers in the run (the walk matched every closer it crossed), and
        # the least nesting depth before a closer, from each closer on.
        self.brackets: list[tuple[list[int], list[int], list[int]]] = []
        for closer, opener in CLOSING.items():
            opens = _positions(text, opener, self.start, self.end)
            closes = _positions(text, closer, self.start, self.end)
            lowest = [bisect_left(opens, at) - index for index, at in enumerate(closes)]
            for index in range(len(lowest) - 2, -1, -1):
                lowest[index] = min(lowest[index], lowest[index + 1])
            self.brackets.append((opens, closes, lowest))

    @staticmethod
    def fits(text: str, extent: _Extent) -> bool:
        """Whether a candidate's run can serve the triggers inside it: not cut at ``max_length``, without
        whitespace (no hyphen-wrapped line), so that its ``.uri`` is the text itself and its line is theirs, and not
        in a "'" quotation, whose "'" ends it but not theirs (_run_of)."""
        return (
            not extent.truncated and _WHITESPACE.search(text, extent.start, extent.end) is None
            and not _in_quotation(text, extent.start)
        )

    def holds(self, start: int) -> bool:
        """Whether the walk from *start* ends where this run's did: each closer it meets still closes a bracket
        opened after *start* (RFC 3986 appendix C: balanced brackets stay inside a reference)."""
        if not self.start < start < self.end:
            return False
        for opens, closes, lowest in self.brackets:
            first = bisect_left(closes, start)
            if first < len(closes) and lowest[first] <= bisect_left(opens, start) - first:
                return False
        return True

    def judge(self, text: str, start: int, floor: int, base: int | None) -> _Candidate:
        """The candidate from *start*, whose window began with a valid "urn" ":" NID ":" (RFC 8141 2)."""
        extent = _delimited(text, start, self.end, self.horizon, floor, truncated=False)
        nss = text.index(":", start + 4) + 1  # the window's parse found the NID and the ":" after it
        if not self.tails.valid(nss):
            return None, extent.horizon
        return _reference(text, extent, text[start : self.end], "urn", (), base), extent.horizon


def _positions(text: str, char: str, start: int, end: int) -> list[int]:
    """The positions of *char* in ``text[start:end]``."""
    found, at = [], text.find(char, start, end)
    while at >= 0:
        found.append(at)
        at = text.find(char, at + 1, end)
    return found


@dataclass(slots=True)
class _ScanState:
    """What the judges of one scan share: where its text starts in a stream (None: a whole text, which its references
    hold; :func:`_reference`) and its last long "urn:" run. Nothing is kept from one scan to the next."""

    base: int | None
    last: _URNRun | None = None


def _abbreviated_candidate(text: str, at: int, floor: int, options: ScanOptions, scan: _ScanState) -> _Candidate:
    if at > 0 and text[at - 1] in _ABBREVIATED_NOT_AFTER and not _after_control(text, at, floor):
        return None, at + 5
    plain = _plain_abbreviated(text, at, floor, options.max_length, scan.base)
    if plain is not None:
        return plain
    host_only = _host_before_prose(text, at, floor, options.max_length)
    if host_only is not None:
        written = text[host_only.start : host_only.end]
        uri = _abbreviated_prefix(written) + written
        return _reference(text, host_only, uri, "abbreviated", (), scan.base), host_only.horizon
    beginning = _beginning(text, at, floor, options.max_length)
    if beginning is not None and _ABBREVIATED.match(beginning[0], partial=True) is None:
        return None, beginning[1]  # no continuation of the beginning makes a host of three labels
    extent = _extent(text, at, floor, options.max_length)
    raw = text[extent.start : extent.end]
    written = _cleaned(raw)
    host = _labels_after(written, _ABBREVIATED_FIRST.match(written))
    if host is None or _HOST_END.match(written, host) is None:
        return None, extent.horizon
    prefix = _abbreviated_prefix(written)
    uri = prefix + written
    reference = _reference(text, extent, uri, "abbreviated", _alternatives(raw, uri, prefix), scan.base)
    return reference, extent.horizon


def _host_before_prose(text: str, at: int, floor: int, max_length: int) -> _Extent | None:
    """The extent of the "www." or "ftp." host at *at* when a character of :data:`_AFTER_HOST` follows it right away
    ("www.example.com's", "www.a.example,www.b.example"); None elsewhere."""
    limit = min(len(text), at + max_length)
    return _ended_at_host(text, at, _labels_after(text, _ABBREVIATED_FIRST.match(text, at, limit), limit), limit, floor)


def _authority_before_prose(text: str, start: int, colon: int, floor: int, max_length: int) -> _Extent | None:
    """The extent of the reference from *start* whose "scheme:" ends at *colon* when its authority (RFC 3986 3.2) is
    a host name, perhaps with a user and a port, that a character of :data:`_AFTER_HOST` follows right away
    ("https://github.com's", "1,https://example.com,Example"); None elsewhere, and where more hosts and a path follow
    the "," (:data:`_MORE_HOSTS`).  Read before the walk, in a bounded
    match: the triggers inside a long run after such a host cost that match each, not the run each."""
    limit = min(len(text), start + max_length)
    run = _AUTHORITY_RUN.match(text, colon + 1, limit)
    if run is None or run.end() == limit or text[run.end()] not in _AFTER_HOST:
        return None  # most: no "//", or an authority that "/", "?", "#", whitespace or the end ends
    authority = _HOST_AUTHORITY.match(text, colon + 1, limit)
    if authority is None:
        return None
    host = int(authority.end())
    if text.startswith(",", host) and _MORE_HOSTS.match(text, host, limit) is not None:
        return None  # a multi-host authority: the walk reads it whole
    return _ended_at_host(text, start, host, limit, floor)


def _ended_at_host(text: str, start: int, host: int | None, limit: int, floor: int) -> _Extent | None:
    """The extent of the reference from *start* that ends with its host, which ends at *host*, when a character of
    :data:`_AFTER_HOST` follows it (RFC 1034 3.5: no host holds it; RFC 3986 3.2: it starts no port, path, query or
    fragment).  None when none does, and inside <...>, where all up to the ">" is the reference (RFC 2396
    appendix E)."""
    if host is None or host == limit or text[host] not in _AFTER_HOST or _inside_host(text, host, limit):
        return None
    if _angle_open(text, max(floor, start - 3 * MAX_WRAP), start) is not None:
        return None
    return _delimited(text, start, host, host + _BARE_REACH, floor, truncated=False)  # as far as a bare walk's decision


def _inside_host(text: str, at: int, limit: int) -> bool:
    """Whether the "[" at *at* after a host's label goes on into the host or what follows it: its "]" is followed by
    a letter, a digit or a character that goes on with a host, a port or a path, as in the defanged spellings of
    threat reports (``hxxp://203.0.113[.]7/``, ``evil[dot]example``, ``host[:]8080``; linkkit.security.refang reads
    them back), not by prose as a footnote's ``[1].`` or AsciiDoc's ``[label]`` are.  Other characters: False."""
    if text[at] != "[":
        return False
    close = text.find("]", at, min(limit, at + _WINDOW))
    after = close + 1
    return 0 < after < limit and (text[after].isalnum() or text[after] in _HOST_GOES_ON)


def _abbreviated_prefix(written: str) -> str:
    """The scheme put before an abbreviated reference: RFC 3986 draft appendix F, "most hostnames beginning with
    "www" are likely to have a URI prefix of "http://""; "ftp." hosts serve FTP (RFC 1738 3.2)."""
    return "http://" if written[:1] in "wW" else "ftp://"


def _labels_after(text: str, first: regex.Match[str] | None, limit: int | None = None) -> int | None:
    """Where the labels that follow the label *first* ends (RFC 1034 3.5) end, read up to *limit* (None: the end),
    or None when no ".label" follows."""
    if first is None:
        return None
    end = int(first.end())
    while (more := _MORE_LABELS.match(text, end, limit)) is not None:
        end = int(more.end())
    return end if end > first.end() else None


def _beginning(text: str, start: int, floor: int, max_length: int) -> tuple[str, int] | None:
    """The first characters of a long bare candidate and the horizon of reading them: a prefix of its ``.uri``
    whatever follows, judged before the rest of its run is walked (None: a short candidate, or one in <...>).

    Linear time: a candidate rejected by its beginning never walks the run, so the triggers inside
    the run ("urn:a:urn:a:...", "http://?http://?...") cost a window each, not the rest of the run each.
    """
    limit = start + _WINDOW
    if limit >= len(text) or max_length <= _WINDOW:
        return None  # the whole candidate is within the window: judging it whole costs no more
    if text.rfind("<", max(floor, start - 3 * MAX_WRAP), start) >= 0:
        return None  # <...> ignores whitespace (RFC 2396 appendix E): judged whole
    end, horizon = _bare_end(text, start, limit)
    if horizon - _BARE_REACH < limit or _WHITESPACE.search(text, start, limit) is not None:
        return None  # the walk stopped inside the window, or a hyphen-wrap changes what .uri reads
    # Up to its last character that prose punctuation cannot trim, and short of a hyphen that a line break
    # right after the window could join (a hyphen at a line break, trailing prose punctuation), the window is exactly
    # what .uri begins with.
    return text[start : min(end, limit - 1)], horizon


def _scheme_rejected_early(name: str, beginning: str, before: str) -> bool:
    """Whether the beginning of a "scheme:" candidate rejects it whatever follows: its hierarchical part
    (RFC 3986 3) already ended by "?" or "#" and unusable, or, for "urn:", an RFC 8141 2 syntax error that the
    parser met before the last characters it may look ahead to."""
    rest = beginning[len(name) + 1 :]
    if rest.startswith("//") and (rest.find("?", 2) >= 0 or rest.find("#", 2) >= 0):
        return not _usable(name, rest, before)
    if not rest.startswith("//") and _in_cjk_prose(before, rest[:_CJK_SAMPLE]):
        return True
    if name != "urn":
        return False
    from ..uri.urn import URNError, parse_urn

    encoded = beginning if beginning.isascii() else percent_encode(beginning, URI_CHARS)  # RFC 3987 3.1
    try:
        parse_urn(encoded)
    except URNError as error:
        return error.position <= len(encoded) - 1 - _URN_LOOKAHEAD
    return False


def _email_candidate(text: str, at: int, floor: int, options: ScanOptions, scan: _ScanState) -> _Candidate:
    low = max(floor, at - MAX_LOCAL_PART)
    local = _LOCAL_PART_BACK.match(text, low, at)
    first = _FIRST_LABEL.match(text, at + 1)
    domain = _labels_after(text, first)  # a domain of two labels or more
    # A domain that fails may have been read up to a label's 63 characters and the dot after it.
    horizon = at + _MAX_LABEL + 3 if domain is None else domain + 2
    read = domain if domain is not None else at + 1 if first is None else int(first.end())
    wrapped = read < len(text) and text[read] in HYPHEN_READINGS
    if wrapped:
        domain, horizon = _wrapped_domain(text, at, _quoted_line(text, at))
    if local is None or domain is None:
        return None, horizon
    start = local.start()
    if start == low and low > floor and _LOCAL_PART_CHAR.match(text, low - 1) is not None:
        return None, horizon  # a local-part longer than RFC 5321 allows
    if start > floor and text[start - 1] in _CONTROL_PARAMETER_END:
        start = _after_control_in(text, start, at, floor)  # "\x1b[4mjohn@example.com"
    if not text[start:at].isascii():
        start = _after_cjk_prose(text, start, at)
    if start > low and text[start - 1].isspace():
        first_line = _wrapped_local_part(text, start, floor, at)
        if first_line is not None:
            start, wrapped = first_line, True
    while start < at and text[start] in ".'":
        # RFC 5322 3.2.3: a dot-atom neither begins nor ends with "."; an apostrophe is read inside a word only, and
        # the word before it may be a reference of its own (the scan's floor)
        start += 1
    end = domain
    if start == at or text[at - 1] == "." or _LABEL_CHAR.match(text, end) is not None:
        return None, horizon
    if text.startswith(":", end) and _HOST_PATH.match(text, end):
        return None, horizon
    raw = text[start:end]
    uri = "mailto:" + (_cleaned(raw) if wrapped else raw)
    if ".." in uri:
        return None, horizon  # RFC 5322 3.2.3: nor has two dots in a row -- "a..b@" is no address, not "b@" either
    alternatives = _alternatives(raw, uri, "mailto:") if wrapped else ()
    extent = _enclosed(text, start, end, horizon)
    return _reference(text, extent, uri, "email", alternatives, scan.base), extent.horizon


def _after_cjk_prose(text: str, start: int, at: int) -> int:
    """Where the local part read back from the "@" at *at* to *start* begins when a CJK word is glued to it, as
    CJK prose writes words without spaces ("请联系john@example.com"): after that word's last letter, as a scheme
    glued to a CJK word starts at its own first letter (rule 6); a local part that ends with CJK letters is kept
    whole (RFC 6531 3.3 allows them)."""
    glued = _CJK_LETTER_BACK.search(text, start, at)
    return start if glued is None or glued.end() == at else int(glued.end())


def _wrapped_local_part(text: str, start: int, floor: int, at: int) -> int | None:
    """Where the local part that starts a line at *start* begins when the line before ends with its first part and a
    hyphen (RFC 2396 appendix E; man pages print "<net-\\n       dev@vger.kernel.org>"), or None."""
    wrap = _WRAPPED_LOCAL_PART_BACK.match(text, max(floor, start - _WRAPPED_LOCAL_REACH), start)
    if wrap is None or len(_cleaned(text[wrap.start() : at])) > MAX_LOCAL_PART:
        return None
    return int(wrap.start())


def _wrapped_domain(text: str, at: int, quoted: bool) -> tuple[int | None, int]:
    """Where the domain after the "@" at *at* ends when its line breaks after a hyphen inside it (RFC 2396 appendix E;
    man pages print "<rotty@de-\\n       bian.org>"), read as ``.uri`` reads it (RFC 1034 3.5: two labels or more),
    or None; and the horizon of that decision."""
    pieces: list[tuple[int, int]] = []  # the domain's characters on each line, less a typesetter's hyphen
    pos = at + 1
    while True:
        end = _run_end(_DOMAIN_RUN, text, pos, len(text))
        hyphen_end = _hyphen_end(text, pos, end) if end < len(text) else None
        resume = None if hyphen_end is None else _continuation(text, hyphen_end, len(text), quoted)
        pieces.append((pos, end))
        if resume is None or _FIRST_LABEL.match(text, resume) is None:
            break
        pos = resume
    horizon = end + _HYPHEN_WRAP_REACH + 1
    read = "".join(text[start:stop] for start, stop in pieces)
    domain = _labels_after(read, _FIRST_LABEL.match(read))
    if domain is None:
        return None, horizon
    for start, stop in pieces[:-1]:  # the line that holds the domain's end
        if domain <= stop - start:
            return start + domain, horizon
        domain -= stop - start
    return pieces[-1][0] + domain, horizon


def _reference(
    text: str, extent: _Extent, uri: str, kind: Kind, alternatives: tuple[str, ...], base: int | None
) -> Reference:
    """The reference at *extent*: holding *text* (a whole text), or, for a stream whose *text* starts at *base*, its
    own delimited text with absolute offsets -- built once, so that a stream never keeps its pieces alive."""
    shift = 0 if base is None else base
    string = text if base is None else text[extent.outer_start : extent.outer_end]
    return Reference(
        string, 0 if base is None else base + extent.outer_start, shift + extent.start, shift + extent.end,
        shift + extent.outer_start, shift + extent.outer_end, uri, extent.delimiter, kind, alternatives,
        extent.truncated,
    )


# --- the hot loop ----------------------------------------------------------------------------------------------


def _scan(
    text: str, pos: int, floor: int, options: ScanOptions, *, final: bool, base: int | None = None
) -> Generator[Reference, None, tuple[int, int]]:
    """Yield the references of *text* from *pos* on; no reference starts before *floor*.

    With ``final=False`` (a stream that has more to come) the scan stops before the first trigger whose decision
    would look past the text read so far, and returns where to resume: ``(pos, floor)``.  With a *base* (a stream's
    offset of *text*) each reference is built holding its own text at absolute offsets (:func:`_reference`), so that
    a stream delegates to the scan with ``yield from`` and builds each reference once.
    """
    size = len(text)
    stop = size if final else size - _MARGIN
    scan = _ScanState(base)
    max_length = options.max_length
    # The other kinds of trigger ("www."/"ftp.", "@"), each with its search and its judge.
    followings: list[Callable[[str, int], int]] = []
    judges: list[_Judge] = []
    if options.abbreviated:
        followings.append(_next_abbreviated_trigger)
        judges.append(_abbreviated_candidate)
    if options.emails:
        followings.append(_next_email_trigger)
        judges.append(_email_candidate)
    kinds = range(len(judges))
    search_scheme = _SCHEME_TRIGGER.search
    # The next ":" trigger and the next trigger of each other kind, and the first of those (kinds never share a
    # position: ":", "w"/"f", "@"); past the end when none.
    trigger = search_scheme(text, pos)
    colon = size + 1 if trigger is None else trigger.start()
    upcoming = [following(text, pos) for following in followings]
    other = min(upcoming, default=size + 1)
    while True:
        at = colon if colon < other else other
        if at >= stop:
            # Resume at the margin, not at the trigger found in it: the searches read a cut look-ahead there and may
            # have passed over an earlier trigger ("<drm:\tamd:amdgpu>" read up to "amd:" finds only that ":").
            return max(pos, stop), floor
        if at == colon:  # a ":": the hot path first
            assert trigger is not None
            plain = _plain_uri(text, trigger, floor, max_length, base)
            found, horizon = _scheme_candidate(text, at, floor, options, scan) if plain is None else plain
        else:
            found, horizon = judges[upcoming.index(at)](text, at, floor, options, scan)
        if horizon >= size and not final:
            return at, floor
        if found is None:
            pos = at + 1
        else:
            end = found._fields[2]  # a stream's reference has its absolute offsets
            pos = floor = end if base is None else end - base
            yield found
        if colon < pos:
            trigger = search_scheme(text, pos)
            colon = size + 1 if trigger is None else trigger.start()
        if other < pos:
            for index in kinds:
                if upcoming[index] < pos:
                    upcoming[index] = followings[index](text, pos)
            other = min(upcoming)


def _next_abbreviated_trigger(text: str, pos: int) -> int:
    """Where the next "www." or "ftp." trigger starting at or after *pos* is, or past the end of *text*."""
    trigger = _ABBREVIATED_TRIGGER.search(text, pos + _ABBREVIATED_DOT)
    return len(text) + 1 if trigger is None else trigger.start() - _ABBREVIATED_DOT


def _next_email_trigger(text: str, pos: int) -> int:
    """Where the next "@" trigger at or after *pos* is, or past the end of *text* when there is none."""
    trigger = _EMAIL_TRIGGER.search(text, pos)
    return len(text) + 1 if trigger is None else int(trigger.start())


# --- the public API, shaped like the re module -----------------------------------------------------------------


_DEFAULT = ScanOptions()


def finditer(
    text: str, *, abbreviated: bool = _DEFAULT.abbreviated, emails: bool = _DEFAULT.emails,
    max_length: int = _DEFAULT.max_length, refang: bool = False,
) -> Iterator[Reference]:
    """Iterate over the references in *text*, in text order (the options: :class:`ScanOptions`).

    With *refang*, the defanged spellings of threat reports are read too (``hxxps://evil[.]example/``, the table
    of :mod:`linkkit.security.refang`): ``.uri`` is the refanged URI, while ``.raw``, ``.span()`` and
    ``.outer_span()`` point at what was written, so :func:`sub` replaces a defanged reference in place.

    Large inputs belong to :func:`linkkit.finditer_stream`, which holds a bounded piece of the text at a time: a
    whole str costs 1, 2 or 4 bytes a character for all of it, as its widest character needs (one emoji or other
    astral character in a 1 GB text makes it a 4 GB string).
    """
    if not isinstance(text, str):
        raise _not_text(text, "finditer")
    try:
        options = _options(abbreviated, emails, max_length)
    except TypeError:  # a wrong or unhashable value: ScanOptions names it
        options = ScanOptions(abbreviated=abbreviated, emails=emails, max_length=max_length)
    if refang:
        return _refanged(text, options)
    return _scan(text, 0, 0, options, final=True)


def _not_text(text: object, function: str) -> TypeError:
    """The error of a *text* that is no str, naming the *function* the caller called, as ``re`` names its own."""
    return TypeError(f"{function}() takes a str, not {type(text).__name__}")


@lru_cache(maxsize=64, typed=True)  # typed: 1 is no bool, and must still be refused
def _options(abbreviated: bool, emails: bool, max_length: int) -> ScanOptions:
    """The checked :class:`ScanOptions` of these values, made once: a batch of small texts scans each with the same
    options, and making them took about 0.9 us, a tenth of a two-reference text's scan."""
    return ScanOptions(abbreviated=abbreviated, emails=emails, max_length=max_length)


def _refanged(text: str, options: ScanOptions) -> Iterator[Reference]:
    """The references of *text* with its defanged spellings read back: the refanged text is scanned and each
    reference's spans mapped back to what was written (the hot loop itself knows nothing of defanging)."""
    from ..security.refang import refanged  # loaded when refanging is asked for

    reading = refanged(text)
    if not reading.edits:
        yield from _scan(text, 0, 0, options, final=True)
        return
    for ref in _scan(reading.text, 0, 0, options, final=True):
        start, end = reading.original_span(*ref.span())
        outer_start, outer_end = reading.original_span(*ref.outer_span())
        yield Reference(text, 0, start, end, outer_start, outer_end, ref.uri, ref.delimiter, ref.kind,
                        ref.alternatives, ref.truncated)


def findall(
    text: str, *, abbreviated: bool = _DEFAULT.abbreviated, emails: bool = _DEFAULT.emails,
    max_length: int = _DEFAULT.max_length, refang: bool = False,
) -> list[str]:
    """The cleaned URIs (``Reference.uri``) of the references in *text*, in text order.

    For large inputs use :func:`linkkit.finditer_stream` (bounded memory; see :func:`finditer`).
    """
    if not isinstance(text, str):
        raise _not_text(text, "findall")
    found = finditer(text, abbreviated=abbreviated, emails=emails, max_length=max_length, refang=refang)
    return [reference.uri for reference in found]


def subn(
    repl: str | Callable[[Reference], str], text: str, *, count: int = 0, abbreviated: bool = _DEFAULT.abbreviated,
    emails: bool = _DEFAULT.emails, max_length: int = _DEFAULT.max_length, refang: bool = False,
) -> tuple[str, int]:
    """Like :func:`sub`, and also say how many references were replaced."""
    if not isinstance(text, str):
        raise _not_text(text, "subn")
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"count takes an int, not {type(count).__name__}: {count!r}")
    if count < 0:
        raise ValueError(f"count must be at least 0 (0: every reference), not {count!r}")
    replace = _replacer(repl)
    pieces: list[str] = []
    copied = replaced = 0
    found = finditer(text, abbreviated=abbreviated, emails=emails, max_length=max_length, refang=refang)
    for reference in found:
        start, end = reference.span()
        pieces.append(text[copied:start])
        new = replace(reference)
        if not isinstance(new, str):  # named here: the join below would say only "sequence item N"
            raise TypeError(f"repl returned {type(new).__name__} for the reference at {start}, not a str: {new!r}")
        pieces.append(new)
        copied = end
        replaced += 1
        if replaced == count:
            break  # the rest of the text is not scanned
    pieces.append(text[copied:])
    return "".join(pieces), replaced


def _replacer(repl: str | Callable[[Reference], str]) -> Callable[[Reference], str]:
    """*repl* as a function of the Reference: a str is written literally; anything else is refused before the scan,
    so a text without references does not hide the mistake."""
    if callable(repl):
        return repl
    if not isinstance(repl, str):
        raise TypeError(f"repl takes a str or a function of the Reference, not {type(repl).__name__}: {repl!r}")
    return lambda _reference: repl


def sub(
    repl: str | Callable[[Reference], str], text: str, *, count: int = 0, abbreviated: bool = _DEFAULT.abbreviated,
    emails: bool = _DEFAULT.emails, max_length: int = _DEFAULT.max_length, refang: bool = False,
) -> str:
    """Replace each reference's span (not its delimiters) by *repl*: a string, or a function of the Reference.

    >>> sub(lambda ref: ref.uri.upper(), "see <http://example.org/a>.")
    'see <HTTP://EXAMPLE.ORG/A>.'
    """
    if not isinstance(text, str):
        raise _not_text(text, "sub")
    return subn(repl, text, count=count, abbreviated=abbreviated, emails=emails, max_length=max_length,
                refang=refang)[0]
