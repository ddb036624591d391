"""URNs: RFC 8141 2 syntax and 3.1 URN-equivalence, RFC 2141 grammar, the query steps of
draft-ietf-urnbis-rfc2141bis-urn-03."""

from __future__ import annotations

import re

import pytest
from fixtures_loader import load_json, load_table
from hypothesis import given
from hypothesis import strategies as st

import linkkit
from linkkit.uri.charset import PCHAR, URI_CHARS
from linkkit.errors import URIError
from linkkit.uri import urn as urn_module
from linkkit.uri.percent import percent_encode
from linkkit.uri.urn import URN, NamestringTails, URNError, equivalent, is_urn, normalize_urn, parse_urn

URN_DATA = load_json("urn/urn.json")
PAIRS = URN_DATA["equivalence"]
PARSE_CASES = URN_DATA["parse"]
VALID = [c for c in PARSE_CASES if c["valid"]]
INVALID = [c for c in PARSE_CASES if not c["valid"]]
DRAFT_QUERY = load_table("urn/draft_query.txt")
ERRORS = load_table("urn/errors.txt")
COMPONENTS = ("nid", "nss", "r_component", "q_component", "f_component")


def _pair_id(case: dict) -> str:
    return f"{case['source']}:{case['a']}|{case['b']}"


def _parse_id(case: dict) -> str:
    return f"{case['mode']}:{case['input'] or '<empty>'}"


def _pairs(source: str) -> list[dict]:
    return [c for c in PAIRS if c["source"] == source]


@pytest.mark.parametrize("case", _pairs("rfc8141-3.2"), ids=_pair_id)
def test_rfc8141_3_2_examples_hold(case: dict) -> None:
    assert equivalent(case["a"], case["b"]) is case["equivalent"]


@pytest.mark.parametrize("case", _pairs("rfc2141-5"), ids=_pair_id)
def test_rfc2141_5_examples_hold_in_both_grammars(case: dict) -> None:
    assert equivalent(case["a"], case["b"]) is case["equivalent"]
    assert equivalent(case["a"], case["b"], grammar="rfc2141") is case["equivalent"]


@pytest.mark.parametrize("case", _pairs("draft-rfc2141bis-03-5.1"), ids=_pair_id)
def test_draft_5_1_examples_hold_under_step_5a(case: dict) -> None:
    # The draft's 5.1 states its verdicts with step 5a ("URN 7 is also lexically equivalent ... if step 5a").
    assert equivalent(case["a"], case["b"], draft_step="5a") is case["equivalent"]


@pytest.mark.parametrize("case", _pairs("go-urn"), ids=_pair_id)
def test_go_urn_equivalence_pairs_hold(case: dict) -> None:
    assert equivalent(case["a"], case["b"]) is case["equivalent"]


def test_all_150_equivalence_pairs_pass() -> None:
    assert len(PAIRS) == 150
    step = {"draft-rfc2141bis-03-5.1": "5a"}
    failures = [_pair_id(c) for c in PAIRS
                if equivalent(c["a"], c["b"], draft_step=step.get(c["source"])) is not c["equivalent"]]
    assert failures == []


@pytest.mark.parametrize("row", DRAFT_QUERY, ids=[f"{r[0]}|{r[1]}" for r in DRAFT_QUERY])
def test_draft_query_counts_only_when_a_draft_step_is_asked_for(row: list[str]) -> None:
    a, b, rfc8141, step_5a, step_5b = row
    assert equivalent(a, b) is (rfc8141 == "true")
    assert equivalent(a, b, draft_step="5a") is (step_5a == "true")
    assert equivalent(a, b, draft_step="5b") is (step_5b == "true")
    assert equivalent(b, a, draft_step="5b") is (step_5b == "true")


@pytest.mark.parametrize("case", VALID, ids=_parse_id)
def test_valid_urns_parse_into_their_parts(case: dict) -> None:
    urn = parse_urn(case["input"], grammar=case["mode"])
    assert [getattr(urn, name) for name in COMPONENTS] == [case.get(name) for name in COMPONENTS]
    assert str(urn) == case["input"]
    assert is_urn(case["input"], grammar=case["mode"])


@pytest.mark.parametrize("case", VALID, ids=_parse_id)
def test_peer_normalized_form_is_equivalent_not_equal(case: dict) -> None:
    # go-urn lower-cases the hex of percent-encoding; RFC 8141 3.1 makes the case of that hex irrelevant.
    assert equivalent(case["input"], case["peer_normalized"], grammar=case["mode"])


@pytest.mark.parametrize("case", INVALID, ids=_parse_id)
def test_invalid_urns_raise_an_error_with_a_position(case: dict) -> None:
    with pytest.raises(URNError) as raised:
        parse_urn(case["input"], grammar=case["mode"])
    assert isinstance(raised.value, URIError)
    assert 0 <= raised.value.position <= len(case["input"])
    assert repr(case["input"]) in str(raised.value)
    assert not is_urn(case["input"], grammar=case["mode"])


def test_all_174_parse_verdicts_pass() -> None:
    assert len(PARSE_CASES) == 174
    assert [c["input"] for c in PARSE_CASES if is_urn(c["input"], grammar=c["mode"]) is not c["valid"]] == []


@pytest.mark.parametrize("row", ERRORS, ids=[f"{r[1]}:{r[0]}" for r in ERRORS])
def test_error_names_position_and_rule(row: list[str]) -> None:
    text, grammar, position, rule = row
    with pytest.raises(URNError) as raised:
        parse_urn(text, grammar=grammar)  # type: ignore[arg-type]
    assert raised.value.position == int(position)
    assert rule in raised.value.rule


def test_rfc2141_grammar_rejects_what_rfc8141_added() -> None:
    # RFC 8141 2 admits "/", "&", "~" in the NSS and the r-, q- and f-components; RFC 2141 2.2 did not.
    for text in ("urn:nid:a/b", "urn:nid:a&b", "urn:nid:a~b", "urn:nid:a?+r", "urn:nid:a?=q", "urn:nid:a#f"):
        assert is_urn(text)
        assert not is_urn(text, grammar="rfc2141")


def test_rfc2141_grammar_accepts_its_shorter_and_hyphen_ended_nids() -> None:
    assert parse_urn("urn:a:b", grammar="rfc2141").nid == "a"
    assert parse_urn("URN:abcd-:x", grammar="rfc2141").nid == "abcd-"
    assert not is_urn("urn:a:b") and not is_urn("URN:abcd-:x")


def test_informal_nid_is_urn_dash_number() -> None:
    # RFC 8141 5.2: informal namespaces are "urn-" followed by a number (no leading zero).
    assert parse_urn("urn:urn-7:informal").is_informal
    assert not parse_urn("urn:example:x").is_informal
    assert not is_urn("urn:urn-07:x")


def test_draft_query_directives_are_kept_available() -> None:
    urn = parse_urn("urn:isbn:0451450523?s=I2L&c=ToC#toc", draft_query=True)
    assert urn.query == "s=I2L&c=ToC"
    assert urn.directives == (("s", "I2L"), ("c", "ToC"))
    assert urn.f_component == "toc"
    assert str(urn) == "urn:isbn:0451450523?s=I2L&c=ToC#toc"
    assert parse_urn("urn:isbn:0451450523").directives == ()


def test_draft_query_must_be_keyword_equals_value() -> None:
    # Draft 2.3: keywd = ALPHA *( ["-"] (ALPHA / DIGIT) ); RFC 8141 2: a bare "?" is a syntax error.
    with pytest.raises(URNError) as raised:
        parse_urn("urn:isbn:0451450523?1=y", draft_query=True)
    assert raised.value.position == 20
    with pytest.raises(URNError) as raised:
        parse_urn("urn:isbn:0451450523?s=I2L")
    assert raised.value.position == 19
    assert not equivalent("urn:isbn:0451450523?1=y", "urn:isbn:0451450523", draft_step="5a")


def test_percent_encoding_is_never_decoded() -> None:
    # RFC 8141 3.1: "%41" is not "A", even though A is unreserved (RFC 3986 6.2.2.2 does not apply).
    assert not equivalent("urn:example:%41", "urn:example:A")
    assert normalize_urn("urn:example:%41%2f") == "urn:example:%41%2F"


def test_normalize_urn_lowercases_scheme_and_nid_and_uppercases_hex() -> None:
    assert normalize_urn("URN:FOO:a123%2c456") == "urn:foo:a123%2C456"
    assert normalize_urn("URN:EXAMPLE:A%2cb?+r%2f?=q%2f#f%2f") == "urn:example:A%2Cb?+r%2F?=q%2F#f%2F"


def test_normalize_urn_drops_components_only_when_asked() -> None:
    text = "urn:example:a123,z456?+abc?=xyz#789"
    assert normalize_urn(text, components=False) == "urn:example:a123,z456"
    assert normalize_urn(text) == text


def test_normalize_urn_rejects_a_non_urn() -> None:
    with pytest.raises(URNError):
        normalize_urn("urn:x:y")


def test_a_non_urn_is_equivalent_to_nothing() -> None:
    assert not equivalent("urn:x:y", "urn:x:y")  # NID of one character: not a URN by RFC 8141 2
    assert not equivalent("http://example.com/", "http://example.com/")
    assert equivalent("urn:x:y", "URN:X:y", grammar="rfc2141")


def test_linkkit_equivalent_uses_urn_equivalence_for_urns() -> None:
    assert linkkit.equivalent("URN:EXAMPLE:a123%2cz456#789", "urn:example:a123%2Cz456")
    assert not linkkit.equivalent("urn:example:a123%2Cz456", "urn:example:a123,z456")


def test_urn_and_parse_urn_are_exported() -> None:
    assert linkkit.parse_urn is parse_urn and linkkit.URN is URN


def test_parse_urn_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        parse_urn(b"urn:example:x")  # type: ignore[arg-type]


# Valid RFC 8141 URNs: an NID of 2-32 letters, digits and inner hyphens (not "urn", not "urn-..."), an NSS of
# pchar and "/", optional r-, q- and f-components; letters of either case to exercise case folding.
_NID = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]", fullmatch=True).filter(
    lambda nid: nid.lower() != "urn" and not nid.lower().startswith("urn-")
)
_PCT = st.from_regex(r"%[0-9A-Fa-f]{2}", fullmatch=True)
_PCHAR = st.one_of(st.sampled_from(PCHAR), _PCT)
_RUN = st.lists(st.one_of(_PCHAR, st.just("/")), max_size=8).map("".join)
_NSS = st.builds(lambda first, rest: first + rest, _PCHAR, _RUN)
_COMPONENT = st.builds(lambda first, rest: first + rest, _PCHAR, _RUN)
_URNS = st.builds(
    lambda scheme, nid, nss, r, q, f: f"{scheme}:{nid}:{nss}"
    + (f"?+{r}" if r is not None else "")
    + (f"?={q}" if q is not None else "")
    + (f"#{f}" if f is not None else ""),
    st.sampled_from(["urn", "URN", "Urn"]),
    _NID,
    _NSS,
    st.none() | _COMPONENT,
    st.none() | _COMPONENT,
    st.none() | _RUN,
)


@given(_URNS)
def test_generated_urns_parse_and_recompose(text: str) -> None:
    assert str(parse_urn(text)) == text


@given(_URNS)
def test_equivalence_is_reflexive(text: str) -> None:
    assert equivalent(text, text)


@given(_URNS, _URNS)
def test_equivalence_is_symmetric(a: str, b: str) -> None:
    assert equivalent(a, b) is equivalent(b, a)


@given(_URNS, st.none() | _COMPONENT)
def test_case_variants_and_other_components_are_equivalent(text: str, component: str | None) -> None:
    urn = parse_urn(text)
    nss = re.sub(r"%[0-9A-Fa-f]{2}", lambda m: m.group().swapcase(), urn.nss)
    variant = f"uRn:{urn.nid.swapcase()}:{nss}" + (f"?={component}" if component is not None else "")
    assert equivalent(text, variant) and equivalent(variant, text)


@given(_URNS, st.none() | _COMPONENT, st.none() | _COMPONENT, st.none() | _RUN)
def test_the_r_q_and_f_components_are_ignored(text: str, r: str | None, q: str | None, f: str | None) -> None:
    # RFC 8141 3.1: "the r-component, q-component, and f-component ... are not taken into account".
    urn = parse_urn(text)
    other = f"urn:{urn.nid}:{urn.nss}" + (f"?+{r}" if r else "") + (f"?={q}" if q else "") + (f"#{f}" if f else "")
    assert equivalent(text, other) and equivalent(other, text)
    assert linkkit.equivalent(text, other)


@given(_URNS, _URNS)
def test_equivalence_is_the_equality_of_one_key_so_an_equivalence_relation(a: str, b: str) -> None:
    # Reflexive, symmetric and transitive: two URNs are equivalent exactly when their RFC 8141 3.1 keys are equal.
    assert equivalent(a, b) is (normalize_urn(a, components=False) == normalize_urn(b, components=False))
    assert linkkit.equivalent(a, b) is equivalent(a, b)


@given(_URNS)
def test_a_urn_is_equivalent_to_its_normal_form(text: str) -> None:
    normal = normalize_urn(text)
    assert equivalent(text, normal)
    assert normalize_urn(normal) == normal


@given(st.text(max_size=40))
def test_parse_urn_raises_only_urn_errors(text: str) -> None:
    try:
        urn = parse_urn(text)
    except URNError as error:
        assert 0 <= error.position <= len(text)
    else:
        assert str(urn) == text


# The ABNF of RFC 8141 2 (and RFC 2141 2.2, draft 2.3) transcribed as plain regexes: the unrolled, possessive forms
# linkkit.urn compiles (linear past 200 K characters) must accept exactly the same strings.
_P = f"(?:[{re.escape(PCHAR)}]|%[0-9A-Fa-f]{{2}})"
_TRANSCRIBED = {
    "nss": rf"{_P}(?:{_P}|/)*",
    "nss_2141": rf"(?:[{re.escape(PCHAR.replace('&', '').replace('~', ''))}]|%[0-9A-Fa-f]{{2}})+",
    "component": rf"{_P}(?:{_P}|/|\?(?![+=]))*",
    "fragment": rf"(?:{_P}|[/?])*",
    "draft_query": r"[A-Za-z](?:-?[A-Za-z0-9])*=(?:[A-Za-z0-9\-._~!$'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*"
                   r"(?:&[A-Za-z](?:-?[A-Za-z0-9])*=(?:[A-Za-z0-9\-._~!$'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)*",
}
_COMPILED = {"nss": urn_module._NSS["rfc8141"], "nss_2141": urn_module._NSS["rfc2141"],
             "component": urn_module._COMPONENT, "fragment": urn_module._FRAGMENT,
             "draft_query": urn_module._DRAFT_QUERY}


@given(st.sampled_from(sorted(_TRANSCRIBED)), st.text(alphabet="aZ09-%2fF/?+=&~#: é", max_size=24))
def test_the_linear_urn_regexes_match_what_the_abnf_matches(rule: str, text: str) -> None:
    for start in range(min(len(text), 3) + 1):
        ours = _COMPILED[rule].match(text, start)
        abnf = re.compile(_TRANSCRIBED[rule]).match(text, start)
        assert (ours and ours.end()) == (abnf and abnf.end())


# A scanner judges every "urn:" inside a long run by one pass over it (NamestringTails); each suffix must get the
# answer is_urn gives, with IRI characters percent-encoded as the scanner does (RFC 3987 3.1).
@given(st.text(alphabet="ab1/?#+=%4F[]:é@ .", max_size=30))
def test_every_suffix_is_judged_as_is_urn_judges_it(text: str) -> None:
    tails = NamestringTails(text, 0, len(text))
    for at in range(len(text) + 1):
        assert tails.valid(at) == is_urn("urn:ab:" + percent_encode(text[at:], URI_CHARS)), (text, at)
