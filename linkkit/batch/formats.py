"""Output formats, the same for every subcommand and every kind of source: ``plain`` (one URI per line),
``jsonl`` (one :func:`linkkit.link.record` per line), ``tsv`` and ``csv`` (the same fields as columns, a header
line first)."""

from __future__ import annotations

import csv
import io
import json
import re
from operator import attrgetter
from collections.abc import Callable
from typing import Any

from ..io import UNDECODED
from ..link import KEYS, LinkLike, Unit, record
from ..uri.percent import percent_encode

FORMATS = ("plain", "jsonl", "tsv", "csv")
ALIASES = {"text": "plain"}  # the name extract's one-URI-per-line format had first
# The columns of tsv and csv: the record's keys (linkkit.link.KEYS, span split in two), the position of a document
# in its input (a mailbox message, a WARC record), and the error of an error record.
COLUMNS = (
    "input", "line", "column", "offset", "message", "record_id", "target_uri", "start", "end", "unit", "kind",
    "where", "raw", "uri", "base", "error", "flags",
)
# Never URI characters (RFC 3986 2; RFC 3987 2.2 leaves C1 controls and the line and paragraph separators out of
# ucschar): percent-encoded in plain output, so that one reference is always one line.
_LINE_BREAKING = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# One encoder for every line: json.dumps with an option builds a new JSONEncoder on each call.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
# What that encoder escapes in a string (RFC 8259 7: the quotation mark, the reverse solidus, the control
# characters); a string without any is written between quotation marks as it is.
_JSON_ESCAPED = re.compile(r'["\\\x00-\x1f]')
# Linear TSV (the IANA text/tab-separated-values registration forbids a tab in a field): backslash escapes.
_TSV_SPECIAL = re.compile(r"[\\\t\n\r]")
_TSV_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def plain_line(uri: str) -> str:
    """*uri* on one line: the control characters and line separators it may hold (an ``href`` with a newline)
    are never URI characters, so they are percent-encoded (``%0A``), which is how a URI carries them. None of
    them is printable: a printable URI, nearly every one, is its own line without a search."""
    if uri.isprintable():
        return uri
    return _LINE_BREAKING.sub(lambda character: percent_encode(character.group()), uri)


def json_line(record: dict[str, Any]) -> str:
    """*record* as one line of JSON; an undecodable byte stays a ``\\udcXX`` escape, so the line is valid UTF-8."""
    return _undecoded(_ENCODE(record))


def _undecoded(line: str) -> str:
    """*line* with each undecodable byte (a lone surrogate of PEP 383) written as its ``\\udcXX`` escape."""
    if line.isascii():
        return line
    return UNDECODED.sub(lambda bad: "".join(f"\\u{ord(c):04x}" for c in bad.group()), line)


def _json_escaped(text: str) -> bool:
    """Whether JSON (RFC 8259 section 7) writes some character of *text* escaped: a quotation mark, a reverse
    solidus or a control character. Two character searches and the printable test take about two thirds of the
    pattern's time on a crawl's links; only a text with an unprintable character still needs the pattern."""
    return '"' in text or "\\" in text or (not text.isprintable() and _JSON_ESCAPED.search(text) is not None)


LinkLine = Callable[[LinkLike, "int | None", "int | None"], str]  # a link, its line and column -> an output line


def json_lines(input: str, unit: Unit, extra: dict[str, Any], attributes: tuple[str, ...] = ()) -> LinkLine:
    """The :func:`json_line` of ``record(link, input=input, line=..., column=..., unit=unit, **extra, **{name:
    getattr(link, name) for name in attributes})`` for each link of a document, byte for byte, without a dict and
    an encoder call per link (a batch writes one per link): the fields every link shares are encoded once, and so
    are the kind, where, base and *attributes* a document's links repeat (each distinct set checked and written
    once); a link's raw and uri are written between quotation marks as they are when neither needs an escape; a
    link that does goes through the record and the encoder."""
    values_of = attrgetter(*attributes) if attributes else None

    def through_record(link: LinkLike, line: int | None, column: int | None) -> str:
        own = {} if values_of is None else {name: getattr(link, name) for name in attributes}
        return json_line(record(link, input=input, line=line, column=column, unit=unit, **extra, **own))

    own_fields = {*extra, *attributes}
    if len(own_fields) < len(extra) + len(attributes) or not own_fields.isdisjoint(KEYS):
        return through_record  # record() refuses fields that would replace its own, or each other
    head = '{"input": ' + _ENCODE(input) + ', "line": '
    middle = ', "unit": ' + _ENCODE(unit) + ', "kind": "'
    shared_tail = "".join(f", {_ENCODE(name)}: {_ENCODE(value)}" for name, value in extra.items())
    around: dict[tuple[Any, ...], tuple[str, str] | None] = {}

    def written_around(kind: str, where: str, base: str | None, values: Any) -> tuple[str, str] | None:
        """What a line holds before its raw and after its uri, or None when kind, where or base needs an escape."""
        if _json_escaped(f"{kind}{where}{base}"):
            return None
        quoted_base = "null" if base is None else f'"{base}"'
        own = () if values_of is None else (values,) if len(attributes) == 1 else values  # attrgetter's answer
        tail = shared_tail + "".join(
            f", {_ENCODE(name)}: {_ENCODE(value)}" for name, value in zip(attributes, own, strict=True)
        )
        return f'{middle}{kind}", "where": "{where}", "raw": "', f'", "base": {quoted_base}{tail}}}'

    def line_of(link: LinkLike, line: int | None, column: int | None) -> str:
        start, end = link.span()
        shared = (link.kind, link.where, link.base, None if values_of is None else values_of(link))
        written = around.get(shared) or around.setdefault(shared, written_around(*shared))
        raw, uri = link.raw, link.uri
        if written is None or line is None or column is None or _json_escaped(f"{raw}{uri}"):
            return through_record(link, line, column)
        before, after = written
        text = f'{head}{line}, "column": {column}, "span": [{start}, {end}]{before}{raw}", "uri": "{uri}{after}'
        return text if text.isascii() else _undecoded(text)  # nearly every line: no call

    return line_of


def link_lines(format: str, input: str, unit: Unit, extra: dict[str, Any], attributes: tuple[str, ...] = (),
               ) -> LinkLine | None:
    """The lines of *format* written straight from links, for the formats that can be (plain, the URI alone, and
    jsonl); None for the others, whose lines are made from :func:`linkkit.link.record`."""
    if format == "plain":
        return lambda link, line, column: plain_line(link.uri)
    if format == "jsonl":
        return json_lines(input, unit, extra, attributes)
    return None


def flag_names(record: dict[str, Any]) -> str:
    """The names of a record's ``flags`` (``extract --flags``), comma-separated: a cell of tsv, csv and plain."""
    return ",".join(flag["name"] for flag in record.get("flags") or ())


def _cells(record: dict[str, Any]) -> list[str]:
    span = record.get("span") or (None, None)
    values = {**record, "start": span[0], "end": span[1]}
    if "flags" in record:
        values["flags"] = flag_names(record)
    return ["" if (value := values.get(name)) is None else str(value) for name in COLUMNS]


def tsv_line(record: dict[str, Any]) -> str:
    return "\t".join(_TSV_SPECIAL.sub(lambda c: _TSV_ESCAPES[c.group()], cell) for cell in _cells(record))


def csv_line(record: dict[str, Any]) -> str:
    """One RFC 4180 row, ending with the CR of its CRLF (2.1): the caller ends every line with LF. A field holding a
    line break (an ``href`` written over two lines) is quoted (2.6): the writer quotes the characters of its line
    terminator, so it is given CRLF, of which the LF is then taken off."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(_cells(record))
    return out.getvalue()[:-1]


def header(format: str) -> str | None:
    """The line a format starts with, or None; as a row, before the LF the caller ends it with (csv's its CR)."""
    if format == "tsv":
        return "\t".join(COLUMNS)
    if format == "csv":
        return ",".join(COLUMNS) + "\r"
    return None


LINE: dict[str, Callable[[dict[str, Any]], str]] = {
    # with --flags, a second column: the flag names (empty when the link has none)
    "plain": lambda record: plain_line(record["uri"]) + ("\t" + flag_names(record) if "flags" in record else ""),
    "jsonl": json_line,
    "tsv": tsv_line,
    "csv": csv_line,
}
