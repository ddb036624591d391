"""Properties of parsing, resolution and normalization over URI references generated from the ABNF of RFC 3986
appendix A (every form of host, port, path and query), biased to what the algorithms act on: dot segments, percent-
encoded unreserved and reserved octets, letters of either case, default ports."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import linkkit
from linkkit.uri.charset import HEXDIG, RESERVED, SUB_DELIMS, UNRESERVED
from linkkit.uri.model import split_authority
from linkkit.uri.percent import normalize_percent_encoding
from linkkit.uri.schemes import SCHEMES

_ANY_HEX = st.sampled_from(HEXDIG)
_UNRESERVED = st.sampled_from("aAzZgG09-._~")
# pct-encoded (2.1): any triplet, and the ones that matter most: unreserved octets (decoded by 6.2.2.2, "%2E" among
# them) and reserved ones (never decoded), in either case.
_PCT = st.builds(lambda high, low: "%" + high + low, _ANY_HEX, _ANY_HEX) | st.sampled_from(
    ["%2E", "%2e", "%41", "%61", "%7E", "%7e", "%5F", "%2D", "%2F", "%2f", "%3A", "%3F", "%23", "%40", "%5B", "%25",
     "%2B", "%20", "%C3%A9"]
)
_SUB_DELIM = st.sampled_from(SUB_DELIMS)


def _run(*alternatives: st.SearchStrategy[str], min_size: int = 0, max_size: int = 5) -> st.SearchStrategy[str]:
    """``*( alternatives )`` of the ABNF, between *min_size* and *max_size* repetitions."""
    return st.lists(st.one_of(*alternatives), min_size=min_size, max_size=max_size).map("".join)


# 3.3: pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
_PCHAR = st.one_of(_UNRESERVED, _PCT, _SUB_DELIM, st.sampled_from(":@"))
# 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), and the schemes with rules of their own (6.2.3, RFC 8141)
_SCHEME = st.builds(str.__add__, st.sampled_from("hHsSfFuU"), _run(st.sampled_from("tTpP+-.0a"))) | st.sampled_from(
    ["http", "HTTP", "https", "ftp", "file", "FILE", "mailto", "urn", "URN", "foo", "ws", "gopher"]
)
# 3.2.1: userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
_USERINFO = _run(_UNRESERVED, _PCT, _SUB_DELIM, st.just(":"))
# 3.2.2: dec-octet, IPv4address, h16, ls32, the nine forms of IPv6address, IPvFuture, reg-name
_DEC_OCTET = st.integers(0, 255).map(str)
_IPV4 = st.lists(_DEC_OCTET, min_size=4, max_size=4).map(".".join)
_H16 = st.text(alphabet=HEXDIG, min_size=1, max_size=4)
_LS32 = st.builds(lambda a, b: a + ":" + b, _H16, _H16) | _IPV4


@st.composite
def _ipv6(draw: st.DrawFn) -> str:
    """One of the nine IPv6address forms of 3.2.2: n pieces before "::" (or none and no "::"), the rest after."""
    form = draw(st.integers(0, 8))
    if form == 0:  # 6( h16 ":" ) ls32
        return "".join(piece + ":" for piece in draw(st.lists(_H16, min_size=6, max_size=6))) + draw(_LS32)
    head = ":".join(draw(st.lists(_H16, max_size=form - 1 if form > 1 else 0))) + "::"
    after = 6 - form  # h16 ":" pieces after "::" before ls32; form 7 ends in one h16, form 8 in nothing
    if after >= 0:
        return head + "".join(piece + ":" for piece in draw(st.lists(_H16, min_size=after, max_size=after))) + draw(
            _LS32
        )
    return head + draw(_H16) if form == 7 else head


_IPVFUTURE = st.builds(
    lambda v, version, rest: v + version + "." + rest,
    st.sampled_from("vV"),
    st.text(alphabet=HEXDIG, min_size=1, max_size=3),
    _run(_UNRESERVED, _SUB_DELIM, st.just(":"), min_size=1),
)
_REG_NAME = _run(_UNRESERVED, _PCT, _SUB_DELIM) | st.sampled_from(
    ["example.com", "Example.COM", "localhost", "LOCALHOST", "a", "www.Example.org"]
)
_HOST = st.one_of((_ipv6() | _IPVFUTURE).map(lambda literal: "[" + literal + "]"), _IPV4, _REG_NAME)
# 3.2.3: port = *DIGIT, with the default ports of the scheme table and their leading-zero spellings
_PORT = st.text(alphabet="0123456789", max_size=5) | st.sampled_from(["80", "080", "443", "21", "70", ""])


def _optional(before: str, part: str | None, after: str = "") -> str:
    """An optional part of the ABNF (``[ ... ]``) with its delimiter, or nothing when *part* is None."""
    return "" if part is None else before + part + after


_AUTHORITY = st.builds(
    lambda userinfo, host, port: _optional("", userinfo, "@") + host + _optional(":", port),
    st.none() | _USERINFO,
    _HOST,
    st.none() | _PORT,
)
# 3.3: segment, segment-nz, segment-nz-nc (no ":"), and the path forms built from them; dot segments written both
# literally and percent-encoded
_DOTS = st.sampled_from([".", "..", "%2E", "%2e%2E", ".a", "a."])
_SEGMENT = _run(_PCHAR, max_size=4) | _DOTS
_SEGMENT_NZ_NC = _run(_UNRESERVED, _PCT, _SUB_DELIM, st.just("@"), min_size=1, max_size=4) | _DOTS
_PATH_ABEMPTY = st.lists(_SEGMENT, max_size=5).map(lambda segments: "".join("/" + s for s in segments))
_PATH_ABSOLUTE = st.builds(lambda first, rest: "/" + first + rest, _SEGMENT.filter(bool), _PATH_ABEMPTY) | st.just("/")
_PATH_ROOTLESS = st.builds(str.__add__, _SEGMENT.filter(bool), _PATH_ABEMPTY)
_PATH_NOSCHEME = st.builds(str.__add__, _SEGMENT_NZ_NC, _PATH_ABEMPTY)
# 3.4, 3.5: query = fragment = *( pchar / "/" / "?" )
_QUERY = _run(_PCHAR, st.sampled_from("/?."), max_size=6)


def _reference(
    scheme: st.SearchStrategy[str | None], paths: st.SearchStrategy[str], fragment: bool
) -> st.SearchStrategy[str]:
    """``[scheme ":"] ( "//" authority path-abempty / paths ) [ "?" query ] [ "#" fragment ]``."""
    hier = st.builds(lambda authority, path: "//" + authority + path, _AUTHORITY, _PATH_ABEMPTY) | paths
    return st.builds(
        lambda s, h, q, f: _optional("", s, ":") + h + _optional("?", q) + _optional("#", f),
        scheme,
        hier,
        st.none() | _QUERY,
        (st.none() | _QUERY) if fragment else st.none(),
    )


# 3: URI; 4.3: absolute-URI (no fragment); 4.2: relative-ref; 4.1: URI-reference
_URI = _reference(_SCHEME, _PATH_ABSOLUTE | _PATH_ROOTLESS | st.just(""), fragment=True)
_ABSOLUTE_URI = _reference(_SCHEME, _PATH_ABSOLUTE | _PATH_ROOTLESS | st.just(""), fragment=False)
_RELATIVE_REF = _reference(st.none(), _PATH_ABSOLUTE | _PATH_NOSCHEME | st.just(""), fragment=True)
_URI_REFERENCE = _URI | _RELATIVE_REF
_LEVEL = st.sampled_from(["syntax", "scheme"])


def _has_dot_segment(path: str) -> bool:
    return any(segment in (".", "..") for segment in path.split("/"))


_BY_RULE = st.sampled_from([(_URI, "URI"), (_ABSOLUTE_URI, "absolute-URI"), (_RELATIVE_REF, "relative-ref")]).flatmap(
    lambda pair: pair[0].map(lambda text: (text, pair[1]))
)


@given(_BY_RULE)
def test_the_generated_references_are_valid_by_their_rule_alone(text_and_rule: tuple[str, str]) -> None:
    # Appendix A: a URI (3) and a relative-ref (4.2) never overlap; both are URI-references (4.1).
    text, rule = text_and_rule
    other = "URI" if rule == "relative-ref" else "relative-ref"
    assert linkkit.validate(text, rule=rule) == () == linkkit.validate(text)  # type: ignore[arg-type]
    assert not linkkit.is_valid(text, rule=other)  # type: ignore[arg-type]


@given(_URI_REFERENCE)
def test_parse_then_recompose_gives_the_input_back(text: str) -> None:
    # RFC 3986 5.3: "the result ... is the same as the original reference" for a parse by appendix B.
    assert linkkit.compose(linkkit.parse(text)) == text


@given(_URI_REFERENCE, _LEVEL)
@example("http://a/%2e%2E/b", "syntax")
@example("URN:AB:x%25?+r", "scheme")
def test_normalize_is_idempotent_and_keeps_a_reference_valid(text: str, level: str) -> None:
    once = linkkit.normalize(text, level=level)  # type: ignore[arg-type]
    assert linkkit.normalize(once, level=level) == once  # type: ignore[arg-type]
    assert linkkit.is_valid(once), (once, linkkit.validate(once))


@given(_URI_REFERENCE, _LEVEL)
def test_a_reference_is_equivalent_to_its_normal_form(text: str, level: str) -> None:
    normal = linkkit.normalize(text, level=level)  # type: ignore[arg-type]
    assert linkkit.equivalent(text, normal) and linkkit.equivalent(normal, text)


def _respell(data: st.DataObject, text: str, *, encode: bool = True) -> str:
    """*text* spelled another way RFC 3986 6.2.2 makes equivalent: the hex of a triplet in another case and (when
    *encode*) unreserved characters percent-encoded, in either case."""
    out = []
    for piece in re.findall("%[0-9A-Fa-f]{2}|.", text, re.DOTALL):
        if len(piece) == 3:
            out.append(piece.swapcase() if data.draw(st.booleans()) else piece)
        elif encode and piece in UNRESERVED and data.draw(st.integers(0, 3)) == 0:
            out.append(f"%{ord(piece):02x}" if data.draw(st.booleans()) else f"%{ord(piece):02X}")
        else:
            out.append(piece)
    return "".join(out)


def _respell_authority(data: st.DataObject, scheme: str, userinfo: str | None, host: str, port: str | None) -> str:
    """An authority spelled another way: the host's letters in another case (6.2.2.1; an IP-literal is never
    percent-encoded), the scheme's default port written where none is (6.2.3)."""
    if data.draw(st.booleans()):
        host = host.swapcase()
    host = _respell(data, host, encode=not host.startswith("["))
    row = SCHEMES.get(scheme)
    if port is None and row is not None and row.default_port is not None and data.draw(st.booleans()):
        port = str(row.default_port)
    return ("" if userinfo is None else _respell(data, userinfo) + "@") + host + ("" if port is None else ":" + port)


@given(st.data(), _URI)
def test_a_respelled_uri_is_equivalent(data: st.DataObject, text: str) -> None:
    # RFC 3986 6.2.2.1 (case of scheme, host and hex), 6.2.2.2 (unreserved characters, encoded or not), 6.2.3 (the
    # default port written or not): every spelling is equivalent. A URN's percent-encoding is never decoded (RFC 8141
    # 3.1): its triplets are respelled by case only.
    scheme, authority, path, query, fragment = linkkit.parse(text)
    assert scheme is not None
    urn = scheme.lower() == "urn"
    if authority is not None:
        userinfo, host, port = split_authority(authority)
        authority = _respell_authority(data, scheme.lower(), userinfo, host, port)
    respelled = linkkit.URIReference(
        scheme.swapcase() if data.draw(st.booleans()) else scheme,
        authority,
        _respell(data, path, encode=not urn),
        None if query is None else _respell(data, query, encode=not urn),
        None if fragment is None else _respell(data, fragment, encode=not urn),
    )
    assert linkkit.equivalent(text, respelled), (text, str(respelled))


_TRIPLET = re.compile("%[0-9A-Fa-f]{2}")


def _encoded_reserved(text: str) -> list[str]:
    return sorted(t.upper() for t in _TRIPLET.findall(text) if chr(int(t[1:], 16)) in RESERVED)


@given(_URI_REFERENCE, _LEVEL)
@example("http://a/b%2fc%3a%41?%3d#%23", "syntax")
@example("http://a/%2F/%2e%2E", "syntax")
def test_normalization_never_decodes_a_reserved_character(text: str, level: str) -> None:
    # RFC 3986 6.2.2.2: only unreserved characters are decoded; a reserved one, encoded, keeps its meaning. (Dot
    # segments are left out here: removing one removes what it holds.)
    if _has_dot_segment(normalize_percent_encoding(linkkit.parse(text).path)):
        return
    assert _encoded_reserved(linkkit.normalize(text, level=level)) == _encoded_reserved(text)  # type: ignore[arg-type]


def _path_became_authority(base: str, reference: str, target: str, *, strict: bool = True) -> bool:
    """Whether the literal 5.2.4 output started an authority-less path with "//", which 5.3 then writes as an
    authority (``resolve("s:/a", ".//x")`` is ``s://x``, ``resolve("h://a", "f:/..//x")`` is ``f://x``): resolve
    keeps that output, normalize writes ``/.//x``. T.authority is the reference's when 5.2.2 takes its scheme."""
    ref, b = linkkit.parse(reference), linkkit.parse(base)
    own_scheme = ref.scheme is not None and (strict or ref.scheme.lower() != (b.scheme or "").lower())
    authority = ref.authority if own_scheme or ref.authority is not None else b.authority
    return linkkit.parse(target).authority is not None and authority is None


@given(_ABSOLUTE_URI, _URI_REFERENCE, st.booleans())
@example("ht://www.Example.org?", "f:/./..//:a", True)  # "f://:a": the reference's own path turned into an authority
def test_resolution_gives_an_absolute_uri_without_dot_segments(base: str, reference: str, strict: bool) -> None:
    # RFC 3986 5.2.2: every branch but one passes the path through remove_dot_segments; the one that copies the base
    # path (an empty reference path, 5.2.2 "T.path = Base.path") copies it as it is (5.2.1 leaves it unnormalized).
    target = linkkit.resolve(base, reference, strict=strict)
    parsed = linkkit.parse(target)
    assert parsed.scheme is not None
    ref, b = linkkit.parse(reference), linkkit.parse(base)
    same_scheme = ref.scheme is not None and ref.scheme.lower() == b.scheme.lower()  # type: ignore[union-attr]
    copies_base_path = ref.authority is None and ref.path == "" and (ref.scheme is None or (not strict and same_scheme))
    if not copies_base_path or not _has_dot_segment(b.path):
        assert not _has_dot_segment(parsed.path), target
    if not _path_became_authority(base, reference, target, strict=strict):
        assert linkkit.is_valid(target, rule="URI"), linkkit.validate(target, rule="URI")


@given(_ABSOLUTE_URI, _URI_REFERENCE, _LEVEL)
@example("HTTP:", "file:/.//", "scheme")  # "file://" by the literal 5.2.4, whose path turned into an authority
def test_resolving_normal_forms_gives_the_normal_form_of_the_target(base: str, reference: str, level: str) -> None:
    # RFC 3986 5.2.1 makes normalizing the base optional, 6.1 compares references once resolved: with a base free of
    # dot segments and no "%2E" (5.2.4 removes only literal dots), normalizing before or after resolving agrees.
    if "%2e" in (base + reference).lower() or _has_dot_segment(linkkit.parse(base).path):
        return
    target = linkkit.resolve(base, reference)
    if _path_became_authority(base, reference, target) and linkkit.parse(base).authority is None:
        return  # where a reference's own path did so against a base with an authority, both orders still agree
    after = linkkit.normalize(target, level=level)  # type: ignore[arg-type]
    normal_base = linkkit.normalize(base, level=level)  # type: ignore[arg-type]
    normal_reference = linkkit.normalize(reference, level=level)  # type: ignore[arg-type]
    before = linkkit.resolve(normal_base, normal_reference)
    assert linkkit.normalize(before, level=level) == after  # type: ignore[arg-type]


@given(_ABSOLUTE_URI, _URI_REFERENCE)
def test_strict_and_non_strict_differ_only_on_a_repeated_scheme(base: str, reference: str) -> None:
    # RFC 3986 5.2.2: a non-strict parser ignores a scheme in the reference only if it is the base URI's scheme.
    strict, loose = linkkit.resolve(base, reference), linkkit.resolve(base, reference, strict=False)
    if strict != loose:
        scheme = linkkit.parse(reference).scheme
        assert scheme is not None and scheme.lower() == linkkit.parse(base).scheme.lower()  # type: ignore[union-attr]


# References that the ladder makes equal, and near misses, URNs among them: equivalence must be reflexive,
# symmetric and transitive on every triple of them.
_RELATED = [
    "http://example.com", "HTTP://EXAMPLE.COM:80/", "http://example.com/", "http://example.com:/", "http://%65xample.com",
    "http://example.com/?", "http://example.com/#", "http://example.com/%7e", "http://example.com/~",
    "http://example.com/a/../~", "https://example.com/",
    "urn:ab:x%25", "URN:AB:x%", "urn:ab:x%25?+r", "URN:Ab:x%25#f", "urn:ab:X%25", "urn:ab:x%", "urn:ab:x%25?",
    "urn:x:y", "URN:x:y", "urn:ab:%7e", "urn:ab:~", "urn:ab:%7E?=q",
    "file:/x", "file:///x", "file://localhost/x", "FILE://LOCALHOST/x", "file://host/x",
    "mailto:Joe@Example.COM", "mailto:Joe@example.com", "mailto:joe@example.com", "mailto:?to=Joe@Example.COM",
    "mailto:?TO=Joe@example.com&to=", "mailto:Joe@example.com?to=a@x,b@x", "mailto:Joe@example.com,a@x?To=b@X",
    "mailto:Joe@example.com,a@x,b@x#f", "mailto:Joe@example.com,a@x,b@x",
    "tel:+1-201-555-0123", "TEL:+1.201.555.0123", "tel:+1-201-555-012%33", "tel:+12015550123;ext=1",
    "tel:+12015550123;EXT=1", "tel:+12015550123#f", "tel:7042;phone-context=example.com",
    "tel:70-42;phone-context=EXAMPLE.com", "tel:7042", "tel:70-42",
    "tag:example.com,2005:%7E", "TAG:example.com,2005:%7E", "tag:example.com,2005:~", "tag:example.com,2005:%7e",
    "gopher://h/", "gopher://h/1", "GOPHER://h:70", "gopher://h/0", "gopher://h/?1",
    "ftp://h/a;type=A", "ftp://h/a;type=a", "FTP://h:21/a;type=%41", "ftp://h/a", "ftp://h/a;type=A?",
]


@pytest.mark.parametrize("a", _RELATED)
def test_equivalence_is_an_equivalence_relation(a: str) -> None:
    assert linkkit.equivalent(a, a)
    for b, c in itertools.product(_RELATED, repeat=2):
        ab = linkkit.equivalent(a, b)
        assert ab is linkkit.equivalent(b, a), (a, b)
        if ab and linkkit.equivalent(b, c):
            assert linkkit.equivalent(a, c), (a, b, c)


# RFC 3966 3: global-number-digits and parameters; 4: visual separators, the order of parameters and case are not
# significant, so any respelling of a "tel" URI is equivalent to it, and changing a digit makes another number.
_TEL_PARAMETERS = st.lists(
    st.sampled_from([("ext", "1234"), ("isub", "a%2Fb"), ("x-line", "Two"), ("flag", None)]),
    unique_by=lambda par: par[0], max_size=3,
)


def _tel(number: str, parameters: list[tuple[str, str | None]]) -> str:
    return number + "".join(";" + name + ("" if value is None else "=" + value) for name, value in parameters)


@given(st.data(), st.text(alphabet="0123456789", min_size=1, max_size=10), _TEL_PARAMETERS)
def test_a_respelled_tel_uri_is_equivalent(data: st.DataObject, digits: str, parameters: list) -> None:
    original = "tel:+" + _tel(digits, parameters)
    spelled = "".join(data.draw(st.sampled_from(["", "", "-", ".", "(", ")"])) + digit for digit in digits)
    order = data.draw(st.permutations(parameters))
    respelled = data.draw(st.sampled_from(["tel:", "TEL:", "Tel:"])) + "+" + _tel(spelled, order).swapcase()
    assert linkkit.equivalent(original, respelled), respelled
    other = str((int(digits[-1]) + 1) % 10)
    assert not linkkit.equivalent(original, "tel:+" + _tel(digits[:-1] + other, parameters))
