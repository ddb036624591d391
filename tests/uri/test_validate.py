"""Validation against RFC 3986 appendix A: the rule and position of each violation, from tests/fixtures/validate."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from fixtures_loader import FIXTURES, load_json, load_table
from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit import Violation
from linkkit.uri.charset import (
    DIGIT,
    FRAGMENT_CHARS,
    PCHAR,
    QUERY_CHARS,
    REG_NAME_CHARS,
    SCHEME_CHARS,
    URI_CHARS,
    USERINFO_CHARS,
)
from linkkit.uri.validation import MAX_VIOLATIONS, RULES

TABLES = sorted(path.name for path in (FIXTURES / "validate").glob("*.txt"))


def _unescape(text: str) -> str:
    # Fixture inputs write control characters and lone surrogates as \uXXXX; every other character is literal.
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)


def _cases() -> Sequence[object]:
    cases = []
    for table in TABLES:
        for row in load_table(f"validate/{table}"):
            text, rule, expected, *options = row
            cases.append(pytest.param(_unescape(text), rule, expected, options, id=f"{Path(table).stem}:{text}:{rule}"))
    return cases


def _written(violations: tuple[Violation, ...]) -> str:
    return " ".join(f"{v.rule}@{v.position}" for v in violations) or "valid"


@pytest.mark.parametrize(("text", "rule", "expected", "options"), _cases())
def test_validate_names_the_rule_and_position_of_each_violation(
    text: str, rule: str, expected: str, options: list[str]
) -> None:
    zone = "ipv6_zone_id" in options
    violations = linkkit.validate(text, rule=rule, ipv6_zone_id=zone)
    assert _written(violations) == expected
    assert linkkit.is_valid(text, rule=rule, ipv6_zone_id=zone) == (expected == "valid")


def test_every_fixture_table_is_loaded() -> None:
    # One table per area of appendix A; an empty or misnamed table would silently test nothing.
    assert set(TABLES) >= {"authority.txt", "ipv4.txt", "ipv6.txt", "ipvfuture.txt", "non_ascii.txt", "path.txt",
                           "pct_encoded.txt", "query_fragment.txt", "rfc_examples.txt", "rules.txt", "scheme.txt"}


# RFC 3986 5.4 and the public resolution vectors: the inputs marked "rfc" are RFC 3986 URI references, except two
# Windows-path bases of the jena-iri group, which hold a space and backslashes (not allowed by RFC 3986 2).
RESOLVE_CASES = [c for c in load_json("uri/resolve.json")["cases"] if c["rfc"]]
NOT_RFC_3986 = {
    "file:///C:/Documents and Settings/jjchplb/Local Settings/Temp/test-load-with-41.rdf": "pchar@20 pchar@24 pchar@47",
    "file:C:\\DOCUME~1\\jjchplb\\LOCALS~1\\Temp\\hedgehog6739.rdf": "pchar@7 pchar@16 pchar@24 pchar@33 pchar@38",
}


def _resolution_inputs() -> list[tuple[str, str]]:
    inputs = set()
    for case in RESOLVE_CASES:
        inputs.add((case["ref"], "URI-reference"))
        if case["base"] or not linkkit.is_valid(case["ref"], rule="URI"):  # an empty base only beside a URI ref
            inputs.add((case["base"], "URI"))
    return sorted(inputs)


def test_rfc_resolution_inputs_are_valid_uri_references() -> None:
    # python-hyper/rfc3986's cases use RFC 6874 zone identifiers ("[::1%25lo]"), accepted only on request.
    invalid = {text: _written(linkkit.validate(text, rule=rule, ipv6_zone_id=True))
               for text, rule in _resolution_inputs()
               if not linkkit.is_valid(text, rule=rule, ipv6_zone_id=True)}
    assert invalid == NOT_RFC_3986
    assert len(_resolution_inputs()) > 400  # distinct bases and references: the test is not vacuous


def test_zone_identifiers_of_the_resolution_vectors_are_rfc_6874_not_rfc_3986() -> None:
    zoned = [text for text, _ in _resolution_inputs() if "%25lo]" in text]
    assert zoned
    for text in zoned:
        (violation,) = linkkit.validate(text, rule="URI-reference")
        assert (violation.rule, text[violation.position:violation.position + 3]) == ("IPv6address", "%25")


def test_rfc_resolution_results_are_valid_uris() -> None:
    # RFC 3986 5.2 builds its target from valid components, so a valid base and reference give a valid URI.
    results = {c["expected"] for c in RESOLVE_CASES if c["base"] not in NOT_RFC_3986}
    assert [r for r in results if not linkkit.is_valid(r, rule="URI", ipv6_zone_id=True)] == []


def test_violation_is_an_immutable_value_that_reads_as_a_sentence() -> None:
    (violation,) = linkkit.validate("http://h:8o/")
    assert violation == Violation(10, "port", "'o' is not allowed in the port; expected DIGIT (RFC 3986 3.2.3)")
    assert str(violation) == "position 10: port: 'o' is not allowed in the port; expected DIGIT (RFC 3986 3.2.3)"
    with pytest.raises(AttributeError):
        violation.position = 0  # type: ignore[misc]


def test_messages_say_what_was_found_and_what_was_expected() -> None:
    (non_ascii,) = linkkit.validate("http://h/é")
    assert "U+00E9" in non_ascii.message and "%C3%A9" in non_ascii.message and "RFC 3987" in non_ascii.message
    (pct,) = linkkit.validate("/a%2x")
    assert "'%2x'" in pct.message and "HEXDIG HEXDIG" in pct.message
    (octet,) = linkkit.validate("http://[::1.2.3.01]/")
    assert "'01'" in octet.message and "leading zero" in octet.message
    (zone,) = linkkit.validate("http://[fe80::1%25eth0]/")
    assert "RFC 6874" in zone.message and "ipv6_zone_id=True" in zone.message


def test_an_unknown_rule_is_an_error_naming_the_rules() -> None:
    with pytest.raises(ValueError, match="URI-reference, URI, absolute-URI, relative-ref"):
        linkkit.validate("a", rule="hier-part")
    with pytest.raises(ValueError, match="hier-part"):
        linkkit.is_valid("a", rule="hier-part")


def test_a_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="bytes"):
        linkkit.validate(b"http://h/")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^is_valid\(\) takes a str or a URIReference, not NoneType$"):
        linkkit.is_valid(None)  # type: ignore[arg-type]


def test_a_uri_reference_is_validated_as_the_string_it_composes() -> None:
    # as resolve and normalize take one; positions are those of compose(reference), the parsed text itself
    assert linkkit.is_valid(linkkit.parse("http://a/b?"), rule="URI")
    assert linkkit.validate(linkkit.parse("http://a/b c")) == linkkit.validate("http://a/b c")
    assert not linkkit.is_valid(linkkit.parse("//a/b"), rule="absolute-URI")


def test_long_adversarial_references_finish() -> None:
    # No backtracking blow-up on long near-misses: the fast path and the diagnosis each make one pass.
    n = 20_000
    texts = ["http://" + "a:" * n + "[" + "1:" * n + "/" + "%4" * n,
             "http://[" + "1:" * n + "]", "//" + "%41" * n + "%4", "a" * n + " ", "[" * n]
    started = time.perf_counter()
    results = [linkkit.validate(text, rule=rule) for text in texts for rule in RULES]
    assert time.perf_counter() - started < 60  # generous: a few seconds at most here
    assert results[0][0] == Violation(9, "port", results[0][0].message)
    assert all(results)


def test_a_run_of_offending_characters_is_one_violation_that_says_how_long_it_is() -> None:
    (violation,) = linkkit.validate("/a\x00\x00\x00b")
    assert violation.position == 2 and "run of 3 offending characters" in violation.message
    (pct,) = linkkit.validate("/%%%")
    assert pct.rule == "pct-encoded" and "run of 3" in pct.message


def test_a_megabyte_of_invalid_text_reports_at_most_max_violations_and_says_so() -> None:
    # Regression: 1 MB of invalid characters took seconds, one Violation per character.
    assert linkkit.validate("\x00" * 1_000_000) == (Violation(0, "pchar", linkkit.validate("\x00\x00")[0].message
                                                               .replace("run of 2", "run of 1000000")),)
    violations = linkkit.validate("a " * 500_000)
    assert len(violations) == MAX_VIOLATIONS
    assert [v.position for v in violations] == [2 * i + 1 for i in range(MAX_VIOLATIONS)]
    assert "at most 100 violations" in violations[-1].message
    assert "at most" not in violations[-2].message
    exactly = linkkit.validate("a " * MAX_VIOLATIONS)  # no more than the bound: nothing is left out
    assert len(exactly) == MAX_VIOLATIONS and "at most" not in exactly[-1].message


URI_TEXT = st.text(alphabet=st.sampled_from(URI_CHARS + "vV \x00é"), max_size=40)
IP_LITERALS = st.builds(
    lambda head, literal, tail: f"{head}[{literal}]{tail}",
    st.sampled_from(["http://", "//", "//u@", "s:"]),
    st.text(alphabet=st.sampled_from("0123456789abcdefABCDEF:.%25vVx"), max_size=45),
    st.text(alphabet=st.sampled_from(":/0123456789"), max_size=4),
)
ANY_TEXT = st.one_of(st.text(max_size=60), URI_TEXT, IP_LITERALS)


@given(ANY_TEXT, st.sampled_from(RULES), st.booleans())
def test_validate_never_raises_and_every_position_is_within_the_text(text: str, rule: str, zone: bool) -> None:
    for violation in linkkit.validate(text, rule=rule, ipv6_zone_id=zone):
        assert 0 <= violation.position <= len(text)
        assert violation.rule and violation.message


@given(ANY_TEXT, st.sampled_from(RULES), st.booleans())
def test_the_diagnosis_agrees_with_the_fast_path(text: str, rule: str, zone: bool) -> None:
    # validate() reports nothing exactly when the appendix A regex matches: no valid text is blamed, no invalid passes.
    assert (linkkit.validate(text, rule=rule, ipv6_zone_id=zone) == ()) == linkkit.is_valid(
        text, rule=rule, ipv6_zone_id=zone
    )


@given(URI_TEXT)
def test_no_text_is_both_a_uri_and_a_relative_ref(text: str) -> None:
    # RFC 3986 4.1-4.2: a relative reference never starts with what reads as a scheme, so the two forms are disjoint.
    assert not (linkkit.is_valid(text, rule="URI") and linkkit.is_valid(text, rule="relative-ref"))


# The characters each character-set rule accepts (RFC 3986 2, 3), as linkkit.charset defines them.
ACCEPTED = {"scheme": SCHEME_CHARS, "userinfo": USERINFO_CHARS, "reg-name": REG_NAME_CHARS, "port": DIGIT,
            "pchar": PCHAR + "/", "query": QUERY_CHARS, "fragment": FRAGMENT_CHARS}


@given(URI_TEXT)
def test_a_character_set_violation_points_at_a_character_the_rule_refuses(text: str) -> None:
    for violation in linkkit.validate(text):
        first_of_scheme = violation.rule == "scheme" and violation.position == 0  # ALPHA, not any scheme char
        if violation.rule in ACCEPTED and not first_of_scheme:
            assert text[violation.position] not in ACCEPTED[violation.rule]
        if violation.rule == "pct-encoded":
            assert text[violation.position] == "%"
