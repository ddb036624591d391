"""Refanging and defanging (linkkit.security.refang, linkkit.security.defang): the real-report spellings of
tests/fixtures/security/refang.txt, each with its URI and the span of what was written; refang(defang(x)) == x
for valid URIs; prose left alone."""

from __future__ import annotations

import pytest
from fixtures_loader import load_table
from hypothesis import assume, example, given
from hypothesis import strategies as st

import linkkit
from linkkit.batch.extract import RefangedStream
from linkkit.security import defang, defang_written, refang, refanged
from linkkit.text.stream import finditer_stream, stream_reach
from linkkit.uri.charset import PCHAR, SUB_DELIMS, UNRESERVED


def marked(line: str) -> tuple[str, list[tuple[int, int]]]:
    """The text of a fixture line with its |markers| taken out, and the spans they marked."""
    pieces = line.split("|")
    text, spans, at = "", [], 0
    for index, piece in enumerate(pieces):
        if index % 2:
            spans.append((at, at + len(piece)))
        text += piece
        at += len(piece)
    return text, spans


def _cases() -> list[object]:
    cases = []
    for row in load_table("security/refang.txt"):
        text, spans = marked(row[0])
        uris = [] if row[1] == "-" else row[1].split(" ")
        cases.append(pytest.param(text, spans, uris, len(row) > 2 and row[2] == "emails", id=row[0]))
    return cases


@pytest.mark.parametrize(("text", "spans", "uris", "emails"), _cases())
def test_refanged_text_is_scanned_and_spans_point_at_what_was_written(
    text: str, spans: list[tuple[int, int]], uris: list[str], emails: bool
) -> None:
    reading = refanged(text)
    found = [(ref.uri, reading.original_span(*ref.span())) for ref in linkkit.finditer(reading.text, emails=emails)]
    assert found == list(zip(uris, spans, strict=True))


@pytest.mark.parametrize(("text", "spans", "uris", "emails"), _cases())
def test_the_scanner_finds_defanged_references_with_refang(
    text: str, spans: list[tuple[int, int]], uris: list[str], emails: bool
) -> None:
    found = list(linkkit.finditer(text, emails=emails, refang=True))
    assert [(ref.uri, ref.span()) for ref in found] == list(zip(uris, spans, strict=True))
    for ref in found:
        assert ref.raw == text[slice(*ref.span())] and ref.string is text
        outer_start, outer_end = ref.outer_span()
        assert outer_start <= ref.start() <= ref.end() <= outer_end
    assert linkkit.findall(text, emails=emails, refang=True) == uris


def test_refang_is_off_by_default_and_sub_replaces_in_place() -> None:
    text = "C2: hxxps://evil[.]example/gate, (www[.]evil[.]example) and http://ok.example/."
    assert linkkit.findall(text) == ["hxxps://evil[.]example/gate", "http://ok.example/"]  # read as written
    assert linkkit.sub(lambda ref: f"<{ref.uri}>", text, refang=True) == (
        "C2: <https://evil.example/gate>, (<http://www.evil.example>) and <http://ok.example/>."
    )
    assert linkkit.subn("X", text, refang=True, count=1) == ("C2: X, (www[.]evil[.]example) and http://ok.example/.", 1)
    assert linkkit.sub(lambda ref: ref.raw, text, refang=True) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hxxp://a", "http://a"),
        ("hXXp://a", "http://a"),
        ("HxXP://a", "HTTP://a"),
        ("h**ps://a", "https://a"),
        ("xhxxp://a", "xhxxp://a"),  # not at a word's start
        ("hxxp is a word", "hxxp is a word"),  # no ":" after it
        ("a [.] b", "a [.] b"),  # not glued to the text before it
        ("re.split('[.]', s)", "re.split('[.]', s)"),  # after a quote
        ("a[.]b", "a.b"),
        ("a[dot]b a[dot] b", "a.b a[dot] b"),  # [dot] between two letters or digits
        ("x/a(.)b", "x/a(.)b"),  # in a path
        ("a(.)b?c(.)d", "a.b?c(.)d"),  # the host, not the query
        ("u(.)v@host", "u(.)v@host"),  # a userinfo, not the host
        ("mailto:a[@]b[.]c", "mailto:a@b.c"),
        ("ftp[://]x", "ftp://x"),
        ("tel[:]+1", "tel:+1"),  # "[:]" after a scheme or host character
        ("a [:] b", "a [:] b"),
        # Seen in the text corpus (bash and coreutils changelogs, a man page): code, not defanged URLs.
        ("a bug with ${parameter[:]?word} -- tilde", "a bug with ${parameter[:]?word} -- tilde"),
        ('od [FILE] [[+]OFFSET[.][b]]" now works', 'od [FILE] [[+]OFFSET[.][b]]" now works'),
        ('kern feature on "kern[:]" 1', 'kern feature on "kern[:]" 1'),
        ("evil[.][.]example", "evil..example"),
        # "[/]" glued to a host or path character, or after ":", "[:]" or "[/]"; in the corpus, code and prose
        ("a[/]b[/]", "a/b/"),
        ("hxxp[:][/][/]a", "http://a"),
        ("${parameter/pattern[/[/]string]}", "${parameter/pattern[/[/]string]}"),
        ("brackets from </> to [/]", "brackets from </> to [/]"),
        ("[][/]", "[][/]"),
        ("a[at]b[.]c a [at] b", "a@b.c a [at] b"),  # "[at]" glued, as "[@]"
        # "(at)" glued, where "(.)" is read: not in a path, nor in a userinfo that an "@" follows
        ("a(at)b(dot)c a (at) b", "a@b.c a (at) b"),
        ("http://h/f(at)x http://u(at)v@h/", "http://h/f(at)x http://u(at)v@h/"),
        ("a(@)b(.)c http://h/f(@)x x (@) y", "a@b.c http://h/f(@)x x (@) y"),
        ("http://h/p(at)x(.)y", "http://h/p(at)x(.)y"),  # an "(at)" left as data ends no userinfo
        ("a{dot}b a{DOT}b a {dot} b", "a.b a.b a {dot} b"),
        # a scheme spelling after a "." or a leading "-" begins the scheme, as the scanner reads one
        ("1.hxxp://a e.g.hxxps://a -hxxp://a x-hxxp://a 1hxxp://a", "1.http://a e.g.https://a -http://a x-hxxp://a 1hxxp://a"),
        # "fxp" is "ftp" only before the "//" of an authority: FTP servers' documentation writes "FXP:" for the
        # server-to-server transfer
        ("FXP: server-to-server transfer", "FXP: server-to-server transfer"),
        ("fxp:x fXp[:][/][/]a fxps:\\/\\/b", "fxp:x ftp://a ftps://b"),
    ],
)
def test_refang_spellings(text: str, expected: str) -> None:
    assert refang(text) == expected


def test_refang_leaves_text_without_a_defanged_spelling_as_it_is() -> None:
    text = "Nothing defanged here: http://example.org/ (and a smiley :-) [x] {y}."
    reading = refanged(text)
    assert reading.text is text and reading.edits == ()
    assert reading.original_span(3, 9) == (3, 9)


def test_original_span_covers_a_replacement_touched_by_the_span() -> None:
    reading = refanged("go hxxp://a[.]b[.]c now")
    assert reading.text == "go http://a.b.c now"
    assert reading.original_span(3, 15) == (3, 19)  # the whole reference
    assert reading.original_span(11, 12) == (11, 14)  # "." is "[.]"
    assert reading.original_span(11, 11) == (11, 11)
    assert reading.original_span(16, 19) == (20, 23)  # "now", shifted by the edits before it


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("http://example.com/a.b", "hxxp://example[.]com/a.b"),
        ("https://user:pw@www.example.com:8443/", "hxxps://user:pw[@]www[.]example[.]com:8443/"),
        ("HTTP://EXAMPLE.COM/", "HTTP[://]EXAMPLE[.]COM/"),
        ("ftp://192.0.2.1/pub", "ftp[://]192[.]0[.]2[.]1/pub"),
        ("http://[2001:db8::1]/", "hxxp://[2001:db8::1]/"),
        ("mailto:a@example.org,b@example.net?subject=x.y", "mailto[:]a[@]example[.]org,b[@]example[.]net?subject=x.y"),
        # RFC 6068 2: the to, cc and bcc header fields hold addresses too, a subject or a body none
        ("mailto:a@b.example?cc=c@d.example&subject=x.y", "mailto[:]a[@]b[.]example?cc=c[@]d[.]example&subject=x.y"),
        ("mailto:?To=a@b.example,c@d.example&body=x", "mailto:?To=a[@]b[.]example,c[@]d[.]example&body=x"),
        ("mailto:a@b.example?body=e@f.example", "mailto[:]a[@]b[.]example?body=e@f.example"),
        ("urn:isbn:0451450523", "urn[:]isbn:0451450523"),
        ("//cdn.example.net/x.js", "//cdn[.]example[.]net/x.js"),
        ("../relative/path.html", "../relative/path.html"),
        # What the scanner reads whole as an abbreviated reference (RFC 3986 draft appendix F), its host defanged as
        # written; "www.example" (two labels) is none, and "host:8080" is no scheme then.
        ("www.example.com/a.php", "www[.]example[.]com/a.php"),
        ("WWW.Example.COM", "WWW[.]Example[.]COM"),
        ("ftp.example.org:2121/pub/", "ftp[.]example[.]org:2121/pub/"),
        ("www.example", "www.example"),
        # A reference the scanner finds in the path, query or fragment (a redirector's target) is defanged too: left
        # live, a reader's tools would find it in the shared text and make it a link.
        ("https://a.example/r?u=https://evil.example/", "hxxps://a[.]example/r?u=hxxps://evil[.]example/"),
        ("http://a.example/#!/ftp://files.example.org/a.b", "hxxp://a[.]example/#!/ftp[://]files[.]example[.]org/a.b"),
        ("https://a.example/?to=mailto:abuse@example.net", "hxxps://a[.]example/?to=mailto[:]abuse[@]example[.]net"),
        # glued after a "." (the scanner reads "e.g.http://" from the "h"): it was left live, refang not reading it back
        ("https://a.example/?u=e.g.http://evil.example/", "hxxps://a[.]example/?u=e.g.hxxp://evil[.]example/"),
        # The host a browser reaches where appendix B reads a path or a userinfo (URL Standard 4.4: after a special
        # scheme "\\" is "/" and any run of slashes opens the authority): it was left live.
        ("http:\\\\evil.example/x", "hxxp:\\\\evil[.]example/x"),
        ("http:///evil.example/", "hxxp:///evil[.]example/"),
        ("https:user:pw@evil.example/", "hxxps:user:pw[@]evil[.]example/"),
        ("/\\evil.example/x.js", "/\\evil[.]example/x.js"),
        ("http://evil.example\\@bank.example/", "hxxp://evil[.]example\\[@]bank[.]example/"),
        ("foo:\\\\a.example/", "foo:\\\\a.example/"),
        # another special scheme's separator is defanged as where both read the same: "ftp:///a" was left as it was
        ("ftp:///A", "ftp[://]/A"), ("ftp:///evil.example/", "ftp[://]/evil[.]example/"), ("ftp:/a", "ftp[:]/a"),
    ],
)
def test_defang(uri: str, expected: str) -> None:
    assert defang(uri) == expected
    assert refang(expected) == uri


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hxxps://evil[.]example/x", "hxxps://evil[.]example/x"),  # it was "hxxps[://]evil[.]example/x"
        ("hXXp://user[@]evil[.]example/", "hXXp://user[@]evil[.]example/"),
        ("HXXPS://EVIL[.]EXAMPLE/", "HXXPS://EVIL[.]EXAMPLE/"),
        ("h**p://1[.]2[.]3[.]4:8080/", "h**p://1[.]2[.]3[.]4:8080/"),
        ("http[://]evil[.]com/a", "hxxp://evil[.]com/a"),  # it was "http[[://]]evil[.]com/a", which reads back wrong
        ("ftp[://]ftp[.]example[.]org/", "ftp[://]ftp[.]example[.]org/"),
        ("https://evil[.]example/a[.]php", "hxxps://evil[.]example/a[.]php"),  # a path is copied as written
        ("http://a.example/?u=hxxp://b[.]example", "hxxp://a[.]example/?u=hxxp://b[.]example"),
        ("mailto[:]abuse[@]example[.]net", "mailto[:]abuse[@]example[.]net"),
        ("www[.]evil[.]example/a", "www[.]evil[.]example/a"),
    ],
)
def test_what_is_already_defanged_stays_so(text: str, expected: str) -> None:
    # A report mixes live and defanged references (rewrite --defang defangs each one found): defanging reads what is
    # already defanged back first, so that it is never defanged twice, and the result reads back as the text does.
    assert defang(text) == expected
    assert defang(expected) == expected
    assert refang(expected) == refang(text)


@pytest.mark.parametrize(
    ("uri", "kind", "expected"),
    [
        ("http://www.example.org/a", "abbreviated", "www[.]example[.]org/a"),
        ("ftp://ftp.example.org/", "abbreviated", "ftp[.]example[.]org/"),
        ("mailto:abuse@example.net", "email", "abuse[@]example[.]net"),
        ("http://www.example.org/a", "uri", "hxxp://www[.]example[.]org/a"),
    ],
)
def test_defang_written_keeps_the_written_shape(uri: str, kind: str, expected: str) -> None:
    assert defang_written(uri, kind) == expected


# RFC 3986 valid URIs: scheme "://" [userinfo "@"] host [":" port] path-abempty ["?" query] ["#" fragment], with
# DNS host names, IPv4 and IPv6 addresses, any reg-name; and scheme ":" path-rootless ones (mailto:, urn:).
_LABEL = st.from_regex(r"[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)
_HOST = st.one_of(
    st.lists(_LABEL, min_size=1, max_size=4).map(".".join),
    st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: ".".join(map(str, t))),
    st.sampled_from(["[::1]", "[2001:db8::7]", "[v1.x]"]),
    st.lists(st.one_of(st.sampled_from(list(UNRESERVED + SUB_DELIMS)), st.just("%41")), max_size=10).map("".join),
)
_PCT = st.sampled_from(["%20", "%2F", "%0A", "%E2%80%8B"])
_SEGMENT_CHAR = st.one_of(st.sampled_from(list(PCHAR)), _PCT)
_SEGMENT = st.lists(_SEGMENT_CHAR, max_size=8).map("".join)
_QUERY = st.lists(st.one_of(_SEGMENT_CHAR, st.sampled_from(["/", "?"])), max_size=12).map("".join)
_USERINFO = st.lists(st.one_of(st.sampled_from(list(UNRESERVED + SUB_DELIMS + ":")), _PCT), max_size=10).map("".join)
_SCHEME = st.sampled_from(["http", "https", "ftp", "HTTP", "Https", "ws", "git+ssh", "x-y.z"])


@st.composite
def valid_uris(draw: st.DrawFn) -> str:
    scheme = draw(_SCHEME)
    if draw(st.booleans()):
        userinfo = draw(st.one_of(st.none(), _USERINFO))
        port = draw(st.one_of(st.none(), st.integers(0, 65535).map(str)))
        authority = ("" if userinfo is None else userinfo + "@") + draw(_HOST) + ("" if port is None else ":" + port)
        path = "".join("/" + s for s in draw(st.lists(_SEGMENT, max_size=4)))
        uri = f"{scheme}://{authority}{path}"
    else:
        scheme = draw(st.sampled_from(["mailto", "urn", "news", "tel"]))
        uri = scheme + ":" + draw(st.lists(_LABEL, min_size=1, max_size=3).map("@".join)) + draw(_SEGMENT)
    if draw(st.booleans()):
        uri += "?" + draw(_QUERY)
    if draw(st.booleans()):
        uri += "#" + draw(_QUERY)
    assert linkkit.is_valid(uri, rule="URI"), uri
    return uri


@given(valid_uris())
def test_refang_of_defang_is_the_identity_on_valid_uris(uri: str) -> None:
    # A valid URI may itself hold a defanged spelling ("http://a/(hxxp:x"): refang reads it, whoever wrote it.
    assume(refang(uri) == uri)
    assert refang(defang(uri)) == uri


@given(valid_uris())
def test_defanging_twice_changes_nothing(uri: str) -> None:
    assume(refang(uri) == uri)
    assert defang(defang(uri)) == defang(uri)


def test_defang_of_thousands_of_nested_references_defangs_the_first_sixteen_and_copies_the_rest() -> None:
    # each nested reference was defanged by a call of its own: 5,000 of them raised RecursionError (and cost time
    # quadratic in the URI's length)
    uri = "http://a.example/?u=" + "http://b.example/?u=" * 5000
    defanged = defang(uri)
    assert refang(defanged) == uri
    assert defanged.startswith("hxxp://a[.]example/?u=" + "hxxp://b[.]example/?u=" * 16 + "http://b.example/?u=")


@given(valid_uris())
def test_a_defanged_uri_is_no_reference_the_scanner_finds_as_it_was(uri: str) -> None:
    defanged = defang(uri)
    assert uri not in linkkit.findall(defanged)


@given(st.text())
def test_refang_never_raises_and_maps_every_span_inside_the_text(text: str) -> None:
    reading = refanged(text)
    start, end = reading.original_span(0, len(reading.text))
    assert (start, end) == (0, len(text))
    for edit in reading.edits:
        assert text[edit.start : edit.end] != edit.text


# Pieces of reports that hold the spellings judged furthest from where they stand: a JSON string's "\/" and
# "\u0026" are read after a "scheme:\/\/" (or "scheme://") up to 400 characters back, "fxp" by the character before
# it; the runs of "a" put an escape far from its scheme, and the example one 5,000 characters after it, past a
# streamed reading's windows.
JSON_PIECES = st.sampled_from([
    '"https:\\/\\/', "\\/", "fxp://", "FXPS[:]//", "evil[.]example", "a" * 150, " ", '"', "\n", "x:\\/\\/", "?:\\/\\/",
    "\\u0026", "https://", "?a=1",
])


@given(st.lists(JSON_PIECES, max_size=60).map("".join), st.integers(1, 300))
@example(text='"https:\\/\\/' + "a" * 5000 + '\\/b" and "https:\\/\\/' + "a" * 390 + '\\/c"', piece=97)
def test_a_streamed_reading_reads_json_slashes_and_fxp_as_the_whole_text_does(text: str, piece: int) -> None:
    # RefangedStream judges each spelling with REFANG_CONTEXT characters on either side: the look-back of a "\/" must
    # stay inside it (extract --refang and rewrite --redact read a large log that way)
    refanging = RefangedStream(stream_reach(64, 2000))
    pieces = iter([text[at : at + piece] for at in range(0, len(text), piece)])
    found = [refanging.as_written(ref) for ref in finditer_stream(refanging.reading(pieces), chunk_size=64)]
    whole = linkkit.finditer(text, refang=True)
    assert [(ref.span(), ref.uri) for ref in found] == [(ref.span(), ref.uri) for ref in whole]
