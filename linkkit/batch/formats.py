"""Output formats, the same for every subcommand and every kind of source: ``plain`` (one URI per line),
``jsonl`` (one :func:`linkkit.link.record` per line), ``tsv`` and ``csv`` (the same fields as columns, a header
line first)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from typing import Any

from ..io import UNDECODED
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
# Linear TSV (the IANA text/tab-separated-values registration forbids a tab in a field): backslash escapes.
_TSV_SPECIAL = re.compile(r"[\\\t\n\r]")
_TSV_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def plain_line(uri: str) -> str:
    """*uri* on one line: the control characters and line separators it may hold (an ``href`` with a newline)
    are never URI characters, so they are percent-encoded (``%0A``), which is how a URI carries them."""
    return _LINE_BREAKING.sub(lambda character: percent_encode(character.group()), uri)


def json_line(record: dict[str, Any]) -> str:
    """*record* as one line of JSON; an undecodable byte stays a ``\\udcXX`` escape, so the line is valid UTF-8."""
    line = _ENCODE(record)
    if line.isascii():
        return line
    return UNDECODED.sub(lambda bad: "".join(f"\\u{ord(c):04x}" for c in bad.group()), line)


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
    """One RFC 4180 row (without its line break: the caller ends every line with LF)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(_cells(record))
    return out.getvalue()


def header(format: str) -> str | None:
    """The line a format starts with, or None."""
    if format == "tsv":
        return "\t".join(COLUMNS)
    if format == "csv":
        return ",".join(COLUMNS)
    return None


LINE: dict[str, Callable[[dict[str, Any]], str]] = {
    # with --flags, a second column: the flag names (empty when the link has none)
    "plain": lambda record: plain_line(record["uri"]) + ("\t" + flag_names(record) if "flags" in record else ""),
    "jsonl": json_line,
    "tsv": tsv_line,
    "csv": csv_line,
}
