"""The tsv and csv rows read back as the record's cells, whatever the strings hold: a line break inside a field
(an ``href`` written over two lines) is quoted in csv (RFC 4180 2.6) and escaped in tsv, so one row stays one
record."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linkkit import cli
from linkkit.batch.formats import COLUMNS, LINE, header
from linkkit.html import Link
from linkkit.link import record

ODD = '"\\,;\t\n\r\x00\x1f\x7f\u2028\u00e9 '
odd_text = st.text(alphabet="a/:." + ODD, max_size=12)


def _record(raw: str, uri: str, base: str | None) -> dict[str, Any]:
    return record(Link("a", "href", raw, uri, (3, 9), base), input="in.html", line=1, column=4, unit="byte")


def _tsv_cell(cell: str) -> str:
    """A cell of linear TSV with its backslash escapes undone."""
    escapes = {"\\\\": "\\", "\\t": "\t", "\\n": "\n", "\\r": "\r"}
    out, at = [], 0
    while at < len(cell):
        pair = cell[at : at + 2]
        if pair in escapes:
            out.append(escapes[pair])
            at += 2
        else:
            out.append(cell[at])
            at += 1
    return "".join(out)


def _expected_cells(values: dict[str, Any]) -> list[str]:
    cells = {**values, "start": values["span"][0], "end": values["span"][1]}
    return ["" if cells.get(name) is None else str(cells[name]) for name in COLUMNS]


@given(odd_text, odd_text, st.one_of(st.none(), odd_text))
def test_a_csv_row_reads_back_as_one_row_of_the_records_cells(raw: str, uri: str, base: str | None) -> None:
    values = _record(raw, uri, base)
    line = LINE["csv"](values)
    rows = list(csv.reader(io.StringIO(line + "\n", newline="")))
    assert rows == [_expected_cells(values)]


@given(odd_text, odd_text, st.one_of(st.none(), odd_text))
def test_a_tsv_row_is_one_line_whose_cells_unescape_to_the_records(raw: str, uri: str, base: str | None) -> None:
    values = _record(raw, uri, base)
    line = LINE["tsv"](values)
    assert "\n" not in line and "\r" not in line
    assert [_tsv_cell(cell) for cell in line.split("\t")] == _expected_cells(values)


@pytest.mark.parametrize("format", ["csv", "tsv"])
def test_extract_writes_one_row_per_link_when_an_href_spans_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], format: str
) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b'<a href="a\nb">x</a> <a href="c,\r\nd">y</a> <a href="e">z</a>')
    assert cli.main(["extract", "-q", "-j", "1", "--format", format, "--base", "http://site.example/",
                     str(page)]) == 0
    out = capsys.readouterr().out
    if format == "csv":
        rows = list(csv.reader(io.StringIO(out, newline="")))
    else:
        rows = [[_tsv_cell(cell) for cell in line.split("\t")] for line in out.splitlines()]
    assert rows[0] == (header(format) or "").rstrip("\r").split("," if format == "csv" else "\t")
    found = [dict(zip(COLUMNS, row, strict=True)) for row in rows[1:]]
    # (the HTML standard's input stream preprocessing makes CR LF one LF: 13.2.3.5)
    assert [(r["raw"], r["uri"]) for r in found] == [
        ("a\nb", "http://site.example/ab"), ("c,\nd", "http://site.example/c,d"), ("e", "http://site.example/e")]


def test_every_csv_record_ends_with_crlf_and_a_line_break_in_a_field_stays_inside_its_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RFC 4180 2.1: "Each record is located on a separate line, delimited by a line break (CRLF)", the header too
    (2.3); 2.6: a field holding a line break is quoted, the break kept as it is."""
    page = tmp_path / "p.html"
    page.write_bytes(b'<a href="a\nb">x</a> <a href="e">z</a>')
    assert cli.main(["extract", "-q", "-j", "1", "--format", "csv", "--base", "http://site.example/", str(page)]) == 0
    out = capsys.readouterr().out
    records = out.split("\r\n")
    assert records[-1] == "" and len(records) == 4  # the header, two records, nothing after the last CRLF
    assert records[0] == ",".join(COLUMNS)
    assert '"a\nb"' in records[1] and "\n" not in records[2]
