"""RFC 1738 scheme-specific parts (section 3, BNF of section 5) read as typed records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from fixtures_loader import load_table
from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit.uri import schemes
from linkkit.errors import URIError, URISyntaxError
from linkkit.uri.rfc1738 import FTP, File, News, scheme_specific

CASES = load_table("schemes/rfc1738.txt")
READ = [row for row in CASES if row[1] != "error"]
REJECTED = [row for row in CASES if row[1] == "error"]
RFC1738_SCHEMES = ("ftp", "http", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero")


@pytest.mark.parametrize("row", READ, ids=[row[0] for row in READ])
def test_url_is_read_into_its_record(row: list[str]) -> None:
    uri, kind, fields = row
    record = scheme_specific(uri)
    assert type(record).__name__ == kind
    # JSON has lists where the records have tuples: compare through one JSON round trip.
    assert json.loads(json.dumps(dataclasses.asdict(record))) == json.loads(fields)


@pytest.mark.parametrize("row", REJECTED, ids=[row[0] for row in REJECTED])
def test_malformed_url_is_rejected_at_its_position(row: list[str]) -> None:
    uri, _, position = row
    with pytest.raises(URISyntaxError) as raised:
        scheme_specific(uri)
    assert isinstance(raised.value, URIError)
    assert raised.value.position == int(position)
    assert repr(uri) in str(raised.value)


@pytest.mark.parametrize("scheme", RFC1738_SCHEMES)
def test_every_rfc1738_scheme_is_read_and_its_table_row_cites_rfc1738(scheme: str) -> None:
    assert any(row[0].lower().startswith(scheme + ":") for row in READ)
    assert schemes.lookup(scheme).spec.startswith("RFC 1738")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("uri", "port"),
    [("ftp://h.example/x", 21), ("http://h.example/x", 80), ("gopher://h.example/1x", 70),
     ("nntp://h.example/alt.test", 119), ("telnet://h.example/", 23), ("wais://h.example/db", 210),
     ("prospero://h.example/x", 1525)],
)
def test_effective_port_is_the_rfc1738_default_when_none_is_written(uri: str, port: int) -> None:
    # RFC 1738 3.2-3.11 give each scheme's default port; a written port wins.
    assert scheme_specific(uri).effective_port == port  # type: ignore[union-attr]
    with_port = uri.replace(".example/", ".example:8000/")
    assert scheme_specific(with_port).effective_port == 8000  # type: ignore[union-attr]


def test_ftp_cwd_and_name_split_the_segments() -> None:
    # RFC 1738 3.2.2: each <cwd> is sent as a CWD argument, then <name> is retrieved.
    record = scheme_specific("ftp://myname@host.dom/%2Fetc/motd")
    assert isinstance(record, FTP)
    assert (record.cwd, record.name) == (("/etc",), "motd")
    assert scheme_specific("ftp://host.dom").name == ""  # type: ignore[union-attr]


def test_file_host_localhost_or_empty_is_local() -> None:
    # RFC 1738 3.10: "localhost" or the empty string is the machine interpreting the URL.
    for uri, local in (("file://localhost/x", True), ("file:///x", True), ("file:/x", True), ("file://h/x", False)):
        record = scheme_specific(uri)
        assert isinstance(record, File) and record.is_local is local


def test_news_star_means_all_groups() -> None:
    record = scheme_specific("news:*")
    assert isinstance(record, News) and record.is_all_groups
    assert not scheme_specific("news:comp.lang.c").is_all_groups  # type: ignore[union-attr]


def test_scheme_specific_is_exported() -> None:
    assert linkkit.scheme_specific is scheme_specific


_URL_TAILS = st.text(alphabet=st.sampled_from("ab:/@?#%;=&*.0123456789-AF~ \t"), max_size=30)


@given(st.sampled_from(RFC1738_SCHEMES), st.sampled_from([":", "://"]), _URL_TAILS)
def test_any_input_gives_a_record_or_a_positioned_error(scheme: str, separator: str, tail: str) -> None:
    uri = scheme + separator + tail
    try:
        scheme_specific(uri)
    except URISyntaxError as error:
        assert 0 <= error.position <= len(uri)
