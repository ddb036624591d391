"""Reading a host as an IPv4 address (linkkit.security.ipv4): the WHATWG URL Standard's IPv4 parser against the
web-platform-tests vectors (vendored in tests/fixtures/security/), inet_aton against a table from POSIX and glibc
and, on glibc, against the C library itself."""

from __future__ import annotations

import platform
import socket
import struct

import pytest
from fixtures_loader import load_json, load_table
from hypothesis import given
from hypothesis import strategies as st

from linkkit.security.ipv4 import dotted, ends_in_number, inet_aton, read_ipv4, whatwg_host, whatwg_ipv4
from linkkit.uri.model import IPV4ADDRESS, parse

WPT = load_json("security/whatwg_urltestdata_ipv4.json")
_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))


def _host(test: dict[str, object]) -> str:
    """The host of a test's input, split as RFC 3986 splits it after the URL parser's first steps (C0 controls
    and spaces stripped, tabs and newlines removed)."""
    text = str(test["input"]).strip(_C0_OR_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    host = parse(text).host
    assert host is not None
    return host


def _wpt_cases(kind: str) -> list[object]:
    cases = []
    for test in WPT["cases"]:
        address = not test.get("failure") and IPV4ADDRESS.fullmatch(test["hostname"])
        fails = bool(test.get("failure"))
        group = "address" if address else "failure" if fails else "domain"
        if group == kind:
            cases.append(pytest.param(test, id=repr(test["input"])))
    return cases


def test_the_vendored_vectors_cover_each_outcome() -> None:
    assert "web-platform-tests" in WPT["source"] and "BSD" in WPT["license"]
    assert [len(_wpt_cases(kind)) for kind in ("address", "failure", "domain")] == [18, 39, 154]


@pytest.mark.parametrize("test", _wpt_cases("address"))
def test_whatwg_ipv4_parser_reads_the_address_wpt_expects(test: dict[str, str]) -> None:
    host = whatwg_host(_host(test))
    assert host is not None and ends_in_number(host)
    address = whatwg_ipv4(host)
    assert address is not None and dotted(address) == test["hostname"]


@pytest.mark.parametrize("test", _wpt_cases("failure"))
def test_whatwg_ipv4_parser_fails_where_wpt_expects_failure(test: dict[str, str]) -> None:
    host = whatwg_host(_host(test))
    assert host is None or whatwg_ipv4(host) is None
    assert read_ipv4(_host(test)) is None or inet_aton(_host(test)) is not None


@pytest.mark.parametrize("test", _wpt_cases("domain"))
def test_a_host_wpt_reads_as_a_domain_does_not_end_in_a_number(test: dict[str, str]) -> None:
    host = whatwg_host(_host(test))
    assert host is None or not ends_in_number(host)


@pytest.mark.parametrize("test", _wpt_cases("address"))
def test_rare_forms_are_read_and_dotted_decimal_is_not(test: dict[str, str]) -> None:
    host = _host(test)
    reading = read_ipv4(host)
    if IPV4ADDRESS.fullmatch(host):
        assert reading is None
    else:
        assert reading is not None and reading.address == test["hostname"] and "WHATWG" in reading.readers


@pytest.mark.parametrize(("host", "expected"), load_table("security/inet_aton.txt"))
def test_inet_aton_table(host: str, expected: str) -> None:
    address = inet_aton(host)
    assert (None if address is None else dotted(address)) == (None if expected == "-" else expected)


_GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
_NUMBERISH = st.text(alphabet="0123456789abcdefxX.", max_size=24)


@pytest.mark.skipif(not _GLIBC, reason="compared with glibc's inet_aton, which socket.inet_aton calls")
@given(_NUMBERISH)
def test_inet_aton_agrees_with_glibc(host: str) -> None:
    try:
        expected: int | None = struct.unpack("!I", socket.inet_aton(host))[0]
    except OSError:
        expected = None
    assert inet_aton(host) == expected


@given(_NUMBERISH)
def test_both_readers_agree_where_both_accept(host: str) -> None:
    aton = inet_aton(host)
    if aton is not None and ends_in_number(host):
        assert whatwg_ipv4(host) == aton


@given(st.text(max_size=40))
def test_reading_never_raises(host: str) -> None:
    reading = read_ipv4(host)
    if reading is not None:
        assert IPV4ADDRESS.fullmatch(reading.address) and not IPV4ADDRESS.fullmatch(host)
