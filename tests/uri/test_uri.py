"""The URI model: appendix B parsing, 5.3 recomposition, authority parts and host kinds (RFC 3986)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections.abc import Callable

import pytest
from fixtures_loader import ROOT, load_table
from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit import HostKind, URIReference

PARSE_CASES = load_table("uri/parse.txt")


def _value(field: str) -> str | None:
    return None if field == "-" else field


@pytest.mark.parametrize("row", PARSE_CASES, ids=[row[0] or "<empty>" for row in PARSE_CASES])
def test_parse_splits_the_five_components_and_the_authority(row: list[str]) -> None:
    text, *fields = row
    ref = linkkit.parse(text)
    expected = [_value(f) for f in fields[:5]]
    assert list(ref) == expected
    assert (ref.userinfo, ref.host, ref.port) == tuple(_value(f) for f in fields[5:8])
    kind = _value(fields[8])
    assert (ref.host_kind.value if ref.host_kind else None) == kind


@pytest.mark.parametrize("row", PARSE_CASES, ids=[row[0] or "<empty>" for row in PARSE_CASES])
def test_compose_gives_back_the_input(row: list[str]) -> None:
    assert linkkit.compose(linkkit.parse(row[0])) == row[0]


@given(st.text())
def test_recomposition_is_the_identity_on_any_string(text: str) -> None:
    # RFC 3986 5.3 with appendix B: None and "" are kept apart, so nothing is lost or invented.
    assert linkkit.compose(linkkit.parse(text)) == text
    assert str(linkkit.parse(text)) == text


def test_undefined_and_empty_components_differ() -> None:
    assert linkkit.parse("http://a/b").query is None
    assert linkkit.parse("http://a/b?").query == ""
    assert linkkit.parse("http://a/b#").fragment == ""


def test_reference_is_immutable() -> None:
    ref = linkkit.parse("http://a/b")
    with pytest.raises(AttributeError):
        ref.path = "/c"  # type: ignore[misc]
    assert ref._replace(path="/c") == URIReference("http", "a", "/c", None, None)


def test_absolute_and_relative_forms() -> None:
    # RFC 3986 4.2 relative-ref, 4.3 absolute-URI (no fragment)
    assert linkkit.parse("http://a/b?q").is_absolute()
    assert not linkkit.parse("http://a/b#f").is_absolute()
    assert linkkit.parse("//a/b").is_relative()
    assert not linkkit.parse("g:h").is_relative()


def test_parse_rejects_non_strings_with_a_clear_error() -> None:
    with pytest.raises(TypeError, match="takes a str"):
        linkkit.parse(b"http://a/")  # type: ignore[arg-type]


@pytest.mark.parametrize(("call", "message"), [
    # Each names itself and its argument's type: remove_dot_segments said "argument of type 'NoneType' is not
    # iterable" (for bytes, "a bytes-like object is required, not 'str'"), scheme_specific "parse() takes a str" (and
    # a URIReference, which validate and normalize take, was refused: it is read as the string it composes).
    (lambda: linkkit.remove_dot_segments(None), "remove_dot_segments() takes a str, not NoneType"),
    (lambda: linkkit.remove_dot_segments(b"/a/../b"), "remove_dot_segments() takes a str, not bytes"),
    (lambda: linkkit.scheme_specific(b"ftp://h/a"), "scheme_specific() takes a str or URIReference, not bytes"),
    (lambda: linkkit.scheme_specific(None), "scheme_specific() takes a str or URIReference, not NoneType"),
])
def test_an_entry_point_names_itself_in_a_type_error(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == message
    assert linkkit.scheme_specific(linkkit.parse("ftp://h/a;type=i")) == linkkit.scheme_specific("ftp://h/a;type=i")


def test_compose_takes_a_reference_or_its_five_components() -> None:
    assert linkkit.compose(("http", "a", "", "", None)) == "http://a?"  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^compose\(\) takes a URIReference, not str"):
        linkkit.compose("a:b/c")  # type: ignore[arg-type]  # five characters, once read as five components
    with pytest.raises(TypeError, match=r"^compose\(\): the path takes a str, not NoneType"):
        linkkit.compose(URIReference("http", "a", None, None, None))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^compose\(\): the query takes a str or None, not bytes"):
        linkkit.compose(URIReference("http", "a", "/", b"q", None))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("[::1]", HostKind.IPV6),
        ("[V1a.x:y]", HostKind.IPVFUTURE),
        ("0.0.0.0", HostKind.IPV4),
        ("255.255.255.255", HostKind.IPV4),
        ("256.0.0.0", HostKind.REG_NAME),  # dec-octet stops at 255 (RFC 3986 3.2.2)
        ("1.2.3", HostKind.REG_NAME),  # three parts are a reg-name, not IPv4address (7.4 rare IP forms)
        ("example.com", HostKind.REG_NAME),
        ("", HostKind.REG_NAME),
    ],
)
def test_host_kind_follows_the_first_match_rule_of_3_2_2(host: str, kind: HostKind) -> None:
    assert linkkit.parse(f"http://{host}/").host_kind is kind


# Linear time: every URI entry point on half a megabyte of each hostile shape and a megabyte of invalid characters, and
# resolution on three megabytes of "../" "./" (its fast path once sliced the reference per segment: quadratic).
_HOSTILE = textwrap.dedent(
    """
    from linkkit import equivalent, is_valid, normalize, parse, parse_urn, remove_dot_segments, resolve, validate
    from linkkit.errors import URIError

    def repeat(unit, prefix=""):
        return prefix + unit * (500_000 // len(unit))

    shapes = [repeat(unit) for unit in ("%", "%2", "%%30", "[", "/..", "/./", "../", "a:", "?", "urn:a:", "a ")]
    shapes += [repeat("a", "urn:x-"), repeat("a/", "urn:ab:"), repeat("a?", "urn:ab:c?+"), repeat("%", "URN:AB:"),
               repeat("@", "http://"), repeat("%41", "http://"), repeat(":", "http://["),
               repeat("1:", "http://[") + "]", repeat("1.1", "http://[::") + "]", "\\x00" * 1_000_000,
               repeat("a-", "tel:1;phone-context="), repeat("%2", "tel:+1;x="), repeat(";a", "tel:+1"),
               repeat("a@b,", "mailto:"), repeat("&to=a", "mailto:?")]
    for text in shapes:
        parse(text)
        validate(text)
        is_valid(text)
        resolve("http://a/b/c/d;p?q", text)
        normalize(text)
        equivalent(text, text)
        remove_dot_segments(text)
        try:
            parse_urn(text)
        except URIError:
            pass
    resolve("http://a/b/c/d;p?q", ".././" * 600_000)
    print("done")
    """
)


def test_every_uri_entry_point_is_linear_on_hostile_input() -> None:
    """parse, validate, is_valid, resolve, normalize, equivalent, remove_dot_segments and parse_urn finish on
    megabytes of hostile shapes well within a generous bound (a few seconds here; quadratic would be minutes)."""
    result = subprocess.run(
        [sys.executable, "-c", _HOSTILE], capture_output=True, text=True, timeout=60,
        cwd=ROOT,
    )
    assert result.stdout.strip() == "done", result.stderr


# RFC 3986 appendix B, word for word (its groups 2, 4, 5, 7 and 9 are the components); the model's possessive form
# must split every string the same way.
_RFC_APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


@given(st.text(alphabet="ab:/?#%.@[]\n1é", max_size=24))
def test_the_split_is_the_one_appendix_b_gives(text: str) -> None:
    expected = _RFC_APPENDIX_B.match(text)
    assert expected is not None
    assert tuple(linkkit.parse(text))[:5] == expected.group(2, 4, 5, 7, 9)
