"""Reference resolution, RFC 3986 section 5.2, against the RFC's tables and the public vectors."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable

import pytest
from fixtures_loader import load_json, load_table
from hypothesis import example, given
from hypothesis import strategies as st

import linkkit
from linkkit import ResolutionError, remove_dot_segments

CASES = load_json("uri/resolve.json")["cases"]
RFC_CASES = [c for c in CASES if c["rfc"]]


def _id(case: dict) -> str:
    return f"{case['group']}:{case['base']}+{case['ref']}:{case['mode']}"


def _resolve(case: dict) -> str:
    return linkkit.resolve(case["base"], case["ref"], strict=case["mode"] == "strict")


@pytest.mark.parametrize("case", [c for c in CASES if c["group"] == "rfc3986-5.4.1"], ids=_id)
def test_rfc3986_5_4_1_normal_examples(case: dict) -> None:
    assert _resolve(case) == case["expected"]


@pytest.mark.parametrize("case", [c for c in CASES if c["group"] == "rfc3986-5.4.2"], ids=_id)
def test_rfc3986_5_4_2_abnormal_examples_strict_and_non_strict(case: dict) -> None:
    assert _resolve(case) == case["expected"]


@pytest.mark.parametrize("case", [c for c in CASES if c["group"] == "rfc3986-5.2.4"], ids=_id)
def test_rfc3986_5_2_4_worked_examples(case: dict) -> None:
    assert _resolve(case) == case["expected"]


def test_all_rfc_defined_vectors_pass() -> None:
    # 748 distinct (base, ref, mode) triples whose answer RFC 3986 5.2 defines.
    assert len({(c["base"], c["ref"], c["mode"]) for c in RFC_CASES}) == 748
    failures = [(_id(c), c["expected"], _resolve(c)) for c in RFC_CASES if _resolve(c) != c["expected"]]
    assert failures == []


@pytest.mark.parametrize(("base", "reference", "mode", "expected"), load_table("uri/resolve_cases.txt"))
def test_resolution_at_the_edges_of_5_2(base: str, reference: str, mode: str, expected: str) -> None:
    # RFC 3986 5.2.2 (empty, query- and fragment-only references; non-strict), 5.2.3 (merge without a base path),
    # 5.2.4 (at the root and beyond it): the same target from a str, a held Base and parsed components.
    strict = mode == "strict"
    assert linkkit.resolve(base, reference, strict=strict) == expected
    assert linkkit.Base(base).resolve(reference, strict=strict) == expected
    assert linkkit.resolve(linkkit.parse(base), linkkit.parse(reference), strict=strict) == expected


@pytest.mark.parametrize("case", [c for c in CASES if not c["rfc"] and c["base"].partition(":")[1] == ""], ids=_id)
def test_a_relative_base_is_an_error_that_says_so(case: dict) -> None:
    # RFC 3986 5.1: a base URI must be absolute; outside the RFC, peers disagree on what to do (see README).
    if linkkit.parse(case["ref"]).scheme is not None:
        assert _resolve(case) is not None
    else:
        with pytest.raises(ResolutionError, match="not absolute"):
            _resolve(case)


@pytest.mark.parametrize("case", [c for c in CASES if "source_expected" in c], ids=_id)
def test_where_a_source_asserts_otherwise_the_rfc_answer_holds(case: dict) -> None:
    # A base used as written (5.2.1: normalizing it is optional; oxiri normalizes it), "%2E" no dot segment (5.2.4
    # removes "." and ".." only; iri-string decodes first), no base fragment kept (5.2.2; urljoin's RFC 1808 test).
    assert _resolve(case) == case["expected"] != case["source_expected"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if not c["rfc"] and linkkit.parse(c["base"]).scheme is not None], ids=_id
)
def test_characters_outside_rfc_3986_are_kept_as_written(case: dict) -> None:
    # jena-iri's IRIs, spaces, control characters and backslashes against an absolute base: resolution copies what it
    # does not interpret, as the source expects (an IRI stays an IRI, RFC 3987 6.5).
    assert _resolve(case) == case["expected"]


WHATWG = load_json("uri/whatwg_non_special.json")["cases"]
WHATWG_DEVIATIONS = {(row[0], row[1]): (row[2], row[3]) for row in load_table("uri/whatwg_deviations.txt")}


@pytest.mark.parametrize("case", WHATWG, ids=[f"{c['input']}@{c.get('base')}" for c in WHATWG])
def test_whatwg_results_for_non_special_schemes_are_rfc_3986_resolution(case: dict) -> None:
    # The URL Standard resolves a non-special URL by RFC 3986 5.2 in all but the serializations listed (with why) in
    # whatwg_deviations.txt; a case without a base is its input resolved on its own (5.2.2: its dot segments removed).
    base = case.get("base")
    target = linkkit.resolve(base or "", case["input"])
    deviation = WHATWG_DEVIATIONS.get((case["input"], base or "-"))
    if deviation is None:
        assert target == case["href"]
    else:
        assert target == deviation[0] != case["href"]


def test_every_listed_whatwg_deviation_is_a_case() -> None:
    assert set(WHATWG_DEVIATIONS) <= {(c["input"], c.get("base") or "-") for c in WHATWG}


def test_a_reference_with_a_scheme_needs_no_base() -> None:
    # RFC 3986 5.2.2: the base is not consulted when the reference has its own scheme.
    assert linkkit.resolve("", "http://a/./g") == "http://a/g"


def test_non_strict_compares_the_scheme_case_insensitively() -> None:
    # RFC 3986 5.4.2 / 5.2.2 backward-compatible reading; schemes are case-insensitive (3.1).
    assert linkkit.resolve("http://a/b/c/d;p?q", "HTTP:g", strict=False) == "http://a/b/c/g"
    assert linkkit.resolve("http://a/b/c/d;p?q", "HTTP:g") == "HTTP:g"


def test_the_base_is_never_normalized() -> None:
    assert linkkit.resolve("HTTP://A/b/./c/%7e?q", "") == "HTTP://A/b/./c/%7e?q"
    assert linkkit.resolve("HTTP://A/B/c", "d") == "HTTP://A/B/d"


def test_non_ascii_stays_as_written() -> None:
    assert linkkit.resolve("http://例え.jp/α/β", "../γ?δ#ε") == "http://例え.jp/γ?δ#ε"


def test_uri_reference_objects_are_accepted() -> None:
    base = linkkit.parse("http://a/b/c/d;p?q")
    assert linkkit.resolve(base, linkkit.parse("../g")) == "http://a/b/g"


def test_other_types_are_a_clear_error() -> None:
    with pytest.raises(TypeError, match="str or URIReference"):
        linkkit.resolve("http://a/", 42)  # type: ignore[arg-type]


def test_a_base_is_an_immutable_value() -> None:
    # Its attributes could be set, and resolution went on against the split it was made with (base.uri = ... and
    # base.components = ... changed its repr, not its answers); two Bases of one URI were unequal, also after pickling.
    base = linkkit.Base("http://a/b/c/d;p?q")
    for same in (linkkit.Base(linkkit.parse("http://a/b/c/d;p?q")), pickle.loads(pickle.dumps(base))):
        assert same == base and hash(same) == hash(base)
    assert base != linkkit.Base("http://a/b/c/d;p?r") and base != "http://a/b/c/d;p?q"
    for name in ("uri", "components", "_absolute", "other"):
        with pytest.raises(AttributeError, match=r"^Base is immutable"):
            setattr(base, name, linkkit.parse("http://evil.example/"))
        with pytest.raises(AttributeError, match=r"^Base is immutable"):
            delattr(base, name)
    assert (base.resolve("g"), str(base)) == ("http://a/b/c/g", "http://a/b/c/d;p?q")


@pytest.mark.parametrize(("call", "message"), [
    # The error names the function and the argument, and what that argument takes: it said only "expected a str or
    # URIReference, not bytes", whether the base or the reference was wrong, and left Base out.
    (lambda: linkkit.resolve(b"http://a/", "g"), "resolve(): the base takes a str, URIReference or Base, not bytes"),
    (lambda: linkkit.resolve(None, "../g"), "resolve(): the base takes a str, URIReference or Base, not NoneType"),
    (lambda: linkkit.resolve("http://a/", b"g"), "resolve(): the reference takes a str or URIReference, not bytes"),
    (lambda: linkkit.Base("http://a/").resolve(42), "resolve(): the reference takes a str or URIReference, not int"),
    (lambda: linkkit.Base(b"http://a/"), "Base() takes a str or URIReference, not bytes"),
])
def test_a_type_error_names_the_argument(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == message


def literal_remove_dot_segments(path: str) -> str:
    """RFC 3986 5.2.4, the buffer algorithm word for word: the oracle for the library's segment form."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):  # A
            inp = inp[3:]
        elif inp.startswith("./") or inp.startswith("/./"):  # A
            inp = inp[2:]
        elif inp == "/.":  # B
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":  # C
            inp = "/" + inp[4:]
            out = out[: max(out.rfind("/"), 0)]
        elif inp in (".", ".."):  # D
            inp = ""
        else:  # E
            end = inp.find("/", 1)
            end = len(inp) if end == -1 else end
            out, inp = out + inp[:end], inp[end:]
    return out


@pytest.mark.parametrize(("path", "expected"), [(r[0], r[1]) for r in load_table("uri/remove_dot_segments.txt")])
def test_remove_dot_segments_table(path: str, expected: str) -> None:
    assert remove_dot_segments(path) == expected
    assert literal_remove_dot_segments(path) == expected


def test_remove_dot_segments_equals_the_literal_algorithm_on_every_short_path() -> None:
    for length in range(9):
        for chars in itertools.product("./a", repeat=length):
            path = "".join(chars)
            assert remove_dot_segments(path) == literal_remove_dot_segments(path), path


@given(st.text(alphabet="./ab%:", max_size=30))
def test_remove_dot_segments_equals_the_literal_algorithm(path: str) -> None:
    assert remove_dot_segments(path) == literal_remove_dot_segments(path)


# Bases without dot segments: 5.2.2 copies an unmodified base path as is.
_BASES = st.sampled_from(["http://a/b/c/d;p?q", "foo:bar", "file:///x/y", "http://a", "s://h/a/b/", "t:"])


def _has_dot_segment(path: str) -> bool:
    return any(segment in (".", "..") for segment in path.split("/"))


@given(_BASES, st.text(alphabet="abc./?#:;=@%", max_size=20))
def test_resolution_against_an_absolute_base_is_absolute_without_dot_segments(base: str, ref: str) -> None:
    target = linkkit.parse(linkkit.resolve(base, ref))
    assert target.scheme is not None
    assert not _has_dot_segment(target.path)


@pytest.mark.parametrize("directory", ["/", "/a/", "/a/b/", "/a//", "//", "/a/./", "/.a/", "a/", ""])
def test_climbing_the_base_directory_equals_removing_dot_segments(directory: str) -> None:
    # The fast path for "../g" and "./g" after a 5.2.3 merge must agree with 5.2.4 on the merged path.
    from linkkit.uri.resolution import _remove_leading_dots

    for length in range(1, 8):
        for chars in itertools.product("./a", repeat=length):
            reference = "".join(chars)
            if reference[0] == ".":
                merged = directory + reference
                assert _remove_leading_dots(merged, len(directory)) == remove_dot_segments(merged), merged


def literal_resolve(base: str, reference: str, strict: bool) -> str:
    """RFC 3986 5.2.2 with 5.2.3 and 5.3, the pseudo-code word for word (schemes compared case-insensitively, 3.1):
    the oracle for every shortcut :func:`linkkit.resolve` takes."""
    b, r = linkkit.parse(base), linkkit.parse(reference)
    r_scheme = r.scheme
    if not strict and r_scheme is not None and b.scheme is not None and r_scheme.lower() == b.scheme.lower():
        r_scheme = None
    if r_scheme is not None:
        scheme, authority, path, query = r_scheme, r.authority, literal_remove_dot_segments(r.path), r.query
    elif b.scheme is None:
        raise ResolutionError("not absolute")
    elif r.authority is not None:
        scheme, authority, path, query = b.scheme, r.authority, literal_remove_dot_segments(r.path), r.query
    elif r.path == "":
        scheme, authority, path, query = b.scheme, b.authority, b.path, (b.query if r.query is None else r.query)
    elif r.path.startswith("/"):
        scheme, authority, path, query = b.scheme, b.authority, literal_remove_dot_segments(r.path), r.query
    else:
        # 5.2.3
        merged = "/" + r.path if b.authority is not None and b.path == "" else b.path[: b.path.rfind("/") + 1] + r.path
        scheme, authority, path, query = b.scheme, b.authority, literal_remove_dot_segments(merged), r.query
    target = scheme + ":"  # 5.3
    if authority is not None:
        target += "//" + authority
    target += path
    if query is not None:
        target += "?" + query
    if r.fragment is not None:
        target += "#" + r.fragment
    return target


_SEGMENTS = st.lists(st.sampled_from(["", ".", "..", "a", ".a", "a.", "..a", "g;x"]), max_size=6).map("/".join)
_TAILS = st.sampled_from(["", "?", "?q/./x", "#", "#f/../x", "?q#f"])
_ANY_BASE = st.one_of(
    st.builds(
        lambda scheme, authority, path, tail: scheme + ("" if authority is None else "//" + authority) + path + tail,
        st.sampled_from(["http:", "A+b:", "x:", "", ":"]),
        st.none() | st.sampled_from(["", "h", "u@h:1"]),
        st.sampled_from(["", "/"]).flatmap(lambda root: _SEGMENTS.map(lambda path: root + path)),
        _TAILS,
    ),
    st.text(alphabet="a:/?#.", max_size=16),
)
_ANY_REFERENCE = st.one_of(
    st.builds(
        lambda head, path, tail: head + path + tail,
        st.sampled_from(["", "/", "//h", "//h/", "http:", "x:", "HTTP:/"]),
        _SEGMENTS,
        _TAILS,
    ),
    st.text(alphabet="a:/?#.;", max_size=16),
)


@given(_ANY_BASE, _ANY_REFERENCE, st.booleans())
@example("x:./a/b", "g", True)  # a rootless base directory that starts with a dot segment
@example("x:a/b", "../g", True)  # ".." in a rootless path (5.2.4 C leaves "/g")
@example("http://h", "../g", True)  # an empty path under an authority merges as "/"
@example("http:/a", "../../g", True)  # ".." above the root
@example("http:/a/b", "./g/../h", True)  # a dot segment after the leading ones
@example("http:/a/b", "..?x", True)  # the path ends before the query
@example("http://h/a", "//g/./h", True)  # a network-path with dot segments
def test_resolution_equals_the_literal_algorithm(base: str, reference: str, strict: bool) -> None:
    # Every way of passing the base and the reference takes its own shortcuts; all must agree with 5.2.2 as written.
    try:
        expected: str | type[ResolutionError] = literal_resolve(base, reference, strict)
    except ResolutionError:
        expected = ResolutionError
    calls = [
        lambda: linkkit.resolve(base, reference, strict=strict),
        lambda: linkkit.Base(base).resolve(reference, strict=strict),
        lambda: linkkit.resolve(linkkit.parse(base), linkkit.parse(reference), strict=strict),
        lambda: linkkit.resolve(linkkit.Base(linkkit.parse(base)), linkkit.parse(reference), strict=strict),
    ]
    for call in calls:
        if expected is ResolutionError:
            with pytest.raises(ResolutionError, match="not absolute"):
                call()
        else:
            assert call() == expected


@pytest.mark.parametrize(
    "components",
    [("http", "a", "b?c", None, None), ("http", "a", "/b", "q#r", None), ("http", None, "//b", None, None)],
)
def test_a_base_built_by_hand_resolves_from_its_components(components: tuple) -> None:
    # Its string would split differently (a "?" in the path, a "#" in the query): the components decide.
    reference = linkkit.URIReference(*components)
    for ref in ["", "g", "../g", "?y", "#s", "/g", "//g"]:
        assert linkkit.Base(reference).resolve(ref) == linkkit.resolve(reference, ref)


def test_a_base_pickles() -> None:
    base = linkkit.Base(linkkit.URIReference("http", "a", "b?c", None, None))
    copy = pickle.loads(pickle.dumps(base))
    assert (copy.components, copy.uri, copy.resolve("g")) == (base.components, base.uri, base.resolve("g"))
