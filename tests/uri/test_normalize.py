"""Normalization and comparison, RFC 3986 section 6: the RFC's examples and the public vectors."""

from __future__ import annotations

import pytest
from fixtures_loader import load_json, load_table
from hypothesis import example, given
from hypothesis import strategies as st

import linkkit

CASES = load_json("uri/normalize.json")["cases"]
RFC_CASES = [c for c in CASES if c["level"] in ("syntax", "scheme")]


def _id(case: dict) -> str:
    return f"{case['source']}:{case['level']}:{case['input']}"


@pytest.mark.parametrize("case", [c for c in CASES if c["source"] == "rfc3986-6"], ids=_id)
def test_rfc3986_6_2_2_and_6_2_3_examples(case: dict) -> None:
    assert linkkit.normalize(case["input"], level=case["level"]) == case["expected"]


@pytest.mark.parametrize("case", [c for c in CASES if c["source"] == "rfc1738-3"], ids=_id)
def test_rfc1738_default_ports_are_removed_at_scheme_level(case: dict) -> None:
    assert linkkit.normalize(case["input"], level=case["level"]) == case["expected"]


def test_all_184_syntax_and_scheme_vectors_pass() -> None:
    assert len(RFC_CASES) == 184
    failures = [(_id(c), c["expected"], linkkit.normalize(c["input"], level=c["level"])) for c in RFC_CASES
                if linkkit.normalize(c["input"], level=c["level"]) != c["expected"]]
    assert failures == []


@pytest.mark.parametrize(("uri", "level", "expected"), load_table("uri/normalize_cases.txt"))
def test_normalization_cases_written_for_linkkit(uri: str, level: str, expected: str) -> None:
    # RFC 3986 6.2.2 and 6.2.3, the latter with the facts of linkkit.uri.schemes (RFC 1738 3: the "/" that may be
    # omitted, the default ports).
    assert linkkit.normalize(uri, level=level) == expected  # type: ignore[arg-type]
    assert linkkit.normalize(expected, level=level) == expected  # type: ignore[arg-type]
    assert linkkit.equivalent(uri, expected)


@pytest.mark.parametrize("case", [c for c in RFC_CASES if "syntax_expected" in c], ids=_id)
def test_syntax_level_is_6_2_2_alone(case: dict) -> None:
    assert linkkit.normalize(case["input"], level="syntax") == case["syntax_expected"]


@pytest.mark.parametrize("case", [c for c in RFC_CASES if "scheme_expected" in c], ids=_id)
def test_scheme_level_adds_6_2_3(case: dict) -> None:
    assert linkkit.normalize(case["input"], level="scheme") == case["scheme_expected"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["level"] == "extra" and "rfc_expected" in c], ids=_id
)
def test_peer_extras_are_not_the_default(case: dict) -> None:
    # Query sorting, fragment dropping, IDNA and the like are beyond RFC 3986 6: the RFC value is given.
    assert linkkit.normalize(case["input"]) == case["rfc_expected"]


@pytest.mark.parametrize("case", [c for c in CASES if "source_expected" in c], ids=_id)
def test_where_a_source_asserts_otherwise_the_rfc_answer_holds(case: dict) -> None:
    # "%4C" is an unreserved "L", decoded (6.2.2.2; rfc3986 keeps it); the letters of a host are lower-cased around
    # its triplets (6.2.2.1; iri-string keeps "Alpha").
    assert linkkit.normalize(case["input"], level=case["level"]) == case["expected"] != case["source_expected"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["level"] == "extra" and c["source"] == "lo48576/iri-string"], ids=_id
)
def test_an_authority_less_path_is_written_as_iri_string_writes_it(case: dict) -> None:
    # Where the literal 5.2.4 output would begin an authority-less path with "//", "/." is written before it.
    assert linkkit.normalize(case["input"]) == case.get("rfc_expected", case["expected"])


def test_reserved_characters_are_never_decoded() -> None:
    # RFC 3986 6.2.2.2: only unreserved characters may be decoded; %2F and %3A keep their meaning.
    assert linkkit.normalize("http://a/b%2fc%3a%41") == "http://a/b%2Fc%3AA"


def test_empty_query_and_fragment_are_kept() -> None:
    assert linkkit.normalize("http://a/?#") == "http://a/?#"


def test_an_ipv6_zone_id_keeps_its_case() -> None:
    assert linkkit.normalize("http://[FE80::A%25En1]/") == "http://[fe80::a%25En1]/"


def test_an_authority_less_path_never_turns_into_an_authority() -> None:
    # The literal 5.2.4 result "scheme://x" would read "x" as a host; "/." keeps it a path.
    assert linkkit.normalize("scheme:/.//x") == "scheme:/.//x"


def test_relative_path_references_keep_their_dot_segments() -> None:
    # RFC 3986 6.1: a relative reference is compared after resolution; "../g" depends on its base.
    assert linkkit.normalize("../a/./b") == "../a/./b"
    assert linkkit.normalize("/a/./b/../c") == "/a/c"


@pytest.mark.parametrize("other", [None, b"http://a/", 42])
def test_equivalent_takes_only_references(other: object) -> None:
    # equivalent(None, None) compared the text "None" with itself and said True.
    with pytest.raises(TypeError, match="str or URIReference"):
        linkkit.equivalent(other, other)  # type: ignore[arg-type]
    assert linkkit.equivalent(linkkit.parse("HTTP://A:80"), "http://a/")


def test_an_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="level"):
        linkkit.normalize("http://a/", level="full")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("http://example.com", "HTTP://EXAMPLE.COM:80/", True),  # RFC 3986 6.2.3
        ("http://example.com/%7Esmith", "http://example.com/~smith", True),  # 6.2.2.2
        ("http://example.com/a/../b", "http://example.com/b", True),  # 6.2.2.3
        ("http://example.com/A", "http://example.com/a", False),  # paths are case-sensitive
        ("https://example.com:443/", "https://example.com", True),
        ("http://example.com:8080/", "http://example.com/", False),
        ("urn:example:a123,z456", "URN:EXAMPLE:a123,z456", True),  # RFC 8141 3.2
        ("urn:example:a123,z456", "urn:example:A123,z456", False),
        ("file://localhost/x", "file:///x", True),  # RFC 3986 3.2.2, RFC 8089 2: the end-user's machine
        ("file://LOCALHOST/x", "file:/x", True),
        ("file://host.example/x", "file:///x", False),
        ("http://localhost/x", "http:///x", False),  # 3.2.2: only the scheme defines a default host
        # RFC 3986 2.4 writes the stray "%" as "%25", which makes a URN; RFC 8141 3.1 then ignores its r-component
        ("URN:AB:x%", "urn:ab:x%25?+r", True),
        # no IDNA, no IRI-to-URI mapping (RFC 3986 3.2.2: IDNA is for the DNS lookup): three spellings, three hosts
        ("http://bücher.example/", "http://xn--bcher-kva.example/", False),
        ("http://bücher.example/", "http://b%C3%BCcher.example/", False),
        # RFC 4151 2.4: tags are equal only character for character (the scheme's case aside, RFC 3986 3.1)
        ("tag:example.com,2005:%7Emain", "tag:example.com,2005:~main", False),
        ("tag:example.com,2005:a%2fb", "tag:example.com,2005:a%2Fb", False),
        ("tag:Example.com,2005:main", "tag:example.com,2005:main", False),
        ("TAG:example.com,2005:main", "tag:example.com,2005:main", True),
    ],
)
def test_equivalent_compares_along_the_ladder(a: str, b: str, same: bool) -> None:
    assert linkkit.equivalent(a, b) is same
    assert linkkit.equivalent(b, a) is same


@pytest.mark.parametrize(
    ("a", "b", "same"),
    load_table("uri/tel_equivalence.txt") + load_table("uri/mailto_equivalence.txt")
    + load_table("uri/rfc1738_equivalence.txt"),
)
def test_tel_mailto_gopher_and_ftp_uris_compare_by_their_own_rfcs(a: str, b: str, same: str) -> None:
    # RFC 3966 4 for "tel", RFC 6068 2 for "mailto", RFC 1738 3.4.1 and 5 for "gopher" and "ftp"
    assert linkkit.equivalent(a, b) is (same == "same")
    assert linkkit.equivalent(b, a) is (same == "same")
    assert linkkit.normalize(a) == linkkit.normalize(linkkit.normalize(a))  # the normal form is still the ladder's


# Biased to what percent-encoding and dot-segment normalization act on: "%", hex digits (both cases), "." and "/".
_PCT_DOT_TEXT = st.lists(
    st.sampled_from(["%", "%", "2", "e", "E", "4", "1", "0", "3", "f", "F", "a", ".", ".", "/", "/", "%2e", "%2E",
                     "%25", "%41", "%7e", "%30", ":", "@", "[", "]", "?", "#"]),
    max_size=16,
).map("".join)
_URI_TEXT = (
    st.text(alphabet="hHtTpP:/?#.%2eEfF7~aA[]@", max_size=30)
    | st.builds(str.__add__, st.sampled_from(["http://", "HTTP://%41", "s:", "s:/", "/", "", "//", "urn:", "URN:AB:",
                                              "http://[", "http://u%@", "file:", "FILE://LocalHost"]), _PCT_DOT_TEXT)
    | st.text(max_size=20)
)


@given(_URI_TEXT, st.sampled_from(["syntax", "scheme"]))
# A decoded host letter is lower-cased in the same pass; a stray "%" never starts a new triplet with a
# decoded hex digit, so "%2%46" is not "%2F" and "%2%65%2%65" is no ".." segment that a second pass would remove.
@example("http://%41/", "syntax")
@example("http://%41%42.com/", "scheme")
@example("http://a/%2%46", "syntax")
@example("http://a/%%30%30", "syntax")
@example("http://a/%0%41", "syntax")
@example("http://a/a/%2%65%2%65/x", "syntax")
@example("/a/%2%65%2%65/x", "syntax")
@example("%2%46", "scheme")
@example("URN:AB:x%", "scheme")  # the generic ladder makes it a valid URN ("%25"), normalized as one (RFC 8141 3.1)
@example("urn:A%62:x", "scheme")
@example("HTTP://%41:F", "syntax")  # found at 20000 examples: the port is kept as written on every path
@example("http://[%e2%", "syntax")  # found at 20000 examples: an IP-literal's address is normalized as a host
@example("file:a/..", "scheme")  # 6.2.2.3 makes the path absolute ("/"), then the default host is written: "file:///"
def test_normalize_is_idempotent(text: str, level: str) -> None:
    once = linkkit.normalize(text, level=level)  # type: ignore[arg-type]
    assert linkkit.normalize(once, level=level) == once  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://a/%2%46", "http://a/%252F"),  # RFC 3986 2.4: the stray "%" is data, "%25"; "%46" is "F"
        ("http://a/%%30%30", "http://a/%2500"),
        ("http://a/%0%41", "http://a/%250A"),
        ("http://a/a/%2%65%2%65/x", "http://a/a/%252e%252e/x"),  # no segment ".." appears, none is removed
        ("http://a/100%", "http://a/100%25"),
        ("http://a/?q=%zz#%", "http://a/?q=%25zz#%25"),
    ],
)
def test_a_stray_percent_is_encoded_as_data_and_never_starts_a_triplet(text: str, expected: str) -> None:
    assert linkkit.normalize(text) == expected


def test_a_decoded_host_letter_is_lower_cased_in_the_same_pass() -> None:
    # RFC 3986 6.2.2.1 (the host is case-insensitive) applied to what 6.2.2.2 decodes: "%41" is "a".
    assert linkkit.normalize("http://%41/") == "http://a/"
    assert linkkit.equivalent("http://%41%42.com/", "http://ab.com/")


def test_decoding_a_dot_happens_before_dot_segments_are_removed() -> None:
    # RFC 3986 6.2.2.2 then 6.2.2.3: "%2E%2E" is "..", removed in the same pass.
    assert linkkit.normalize("http://a/b/%2E%2e/c") == "http://a/c"


def test_a_urn_is_normalized_without_decoding() -> None:
    # RFC 8141 3.1: "percent-encoded characters ... are never decoded"; the NID is case-insensitive.
    assert linkkit.normalize("URN:FOO:%41%2c") == "urn:foo:%41%2C"


def test_an_invalid_urn_falls_back_to_the_generic_ladder() -> None:
    assert linkkit.normalize("URN:x:%7e") == "urn:x:~"  # a one-letter NID is no URN (RFC 8141 2)
    assert linkkit.equivalent("urn:x:y", "urn:x:y")
