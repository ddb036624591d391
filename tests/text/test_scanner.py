"""The plain-text scanner: each delimiting rule from its fixture file, the re-like API, streams, linear time."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import linkkit
from linkkit.text.scan import ScanOptions
from linkkit.text.stream import finditer_stream

from fixtures_loader import FIXTURES, ROOT

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "|": "\x00", "\\": "\\"}  # "\x00" stands in for a literal "|"


def _unescape(text: str) -> str:
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if char != "\\":
            out.append(char)
            index += 1
        elif text[index + 1] == "u":
            out.append(chr(int(text[index + 2 : index + 6], 16)))
            index += 6
        else:
            out.append(_ESCAPES[text[index + 1]])
            index += 2
    return "".join(out)


@dataclass(frozen=True)
class Expected:
    """One expected reference: its span in the unmarked input and what the fixture says about it."""

    span: tuple[int, int]
    uri: str
    kind: str = "uri"
    delimiter: str | None = None
    alternatives: tuple[str, ...] = ()
    outer: tuple[int, ...] | None = None  # .outer_span(), checked only when given


@dataclass(frozen=True)
class Case:
    text: str
    expected: tuple[Expected, ...]
    options: dict[str, bool] = field(default_factory=dict)
    line: str = ""


def _case(line: str, options: dict[str, bool]) -> Case:
    marked, *groups = line.split("\t")
    pieces = _unescape(marked).split("|")
    assert len(pieces) % 2 == 1, f"unbalanced marks in {line!r}"
    text, spans = "", []
    for index, piece in enumerate(pieces):
        if index % 2:
            spans.append((len(text), len(text) + len(piece)))
        text += piece.replace("\x00", "|")
    expected = []
    for index, span in enumerate(spans):
        values: dict[str, object] = {"uri": "".join(text[span[0] : span[1]].split())}
        alternatives: list[str] = []
        for pair in groups[index].split(" ") if index < len(groups) and groups[index] != "." else ():
            key, _, value = pair.partition("=")
            if key == "alt":
                alternatives.append(_unescape(value))
            elif key == "outer":
                values["outer"] = tuple(int(offset) for offset in value.split(","))
            else:
                values[key] = _unescape(value)
        expected.append(Expected(span, alternatives=tuple(alternatives), **values))  # type: ignore[arg-type]
    return Case(text, tuple(expected), dict(options), line)


def load_cases(name: str) -> list[Case]:
    """The cases of tests/fixtures/scanner/NAME (format: tests/fixtures/scanner/README.md)."""
    cases, options = [], {}
    for line in (FIXTURES / "scanner" / name).read_text(encoding="utf-8").split("\n"):
        if line.startswith("# ") or line == "":
            continue
        if line.startswith("@options"):
            options = {k: v == "True" for k, _, v in (p.partition("=") for p in line.split()[1:])}
            continue
        cases.append(_case(line, options))
    return cases


def check(case: Case) -> None:
    found = list(linkkit.finditer(case.text, **case.options))
    assert [ref.span() for ref in found] == [e.span for e in case.expected], case.line
    for ref, expected in zip(found, case.expected, strict=False):
        assert ref.uri == expected.uri, case.line
        assert ref.kind == expected.kind, case.line
        assert ref.alternatives == expected.alternatives, case.line
        if expected.delimiter is not None:
            assert ref.delimiter == expected.delimiter, case.line
        if expected.outer is not None:
            assert ref.outer_span() == expected.outer, case.line
        assert case.text[ref.start() : ref.end()] == ref.raw


def _params(name: str) -> list[object]:
    return [pytest.param(case, id=case.line[:60]) for case in load_cases(name)]


@pytest.mark.parametrize("case", _params("rule01_delimiters.txt"))
def test_rule_1_delimiters_are_not_part_of_the_reference(case: Case) -> None:
    """RFC 3986 appendix C, RFC 2396 appendix E: quotes, <...>, brackets (and their CJK forms) wrap a reference."""
    check(case)


@pytest.mark.parametrize("case", _params("rule02_url_prefix.txt"))
def test_rule_2_url_prefix_is_stripped(case: Case) -> None:
    """RFC 1738 appendix, RFC 2396 appendix E: "URL:" with or without a space, in <...> and bare."""
    check(case)


@pytest.mark.parametrize("case", _params("rule03_angle_whitespace.txt"))
def test_rule_3_whitespace_inside_angle_brackets_is_ignored(case: Case) -> None:
    """RFC 2396 appendix E: whitespace that breaks a long URL across lines is ignored up to its ">"."""
    check(case)


@pytest.mark.parametrize("case", _params("rule04_hyphen_line_break.txt"))
def test_rule_4_line_break_after_hyphen_is_joined(case: Case) -> None:
    """RFC 2396 appendix E: a line break after a hyphen continues the reference; the hyphen-less reading is an
    alternative."""
    check(case)


@pytest.mark.parametrize("case", _params("rule05_trailing_punctuation.txt"))
def test_rule_5_prose_punctuation_and_unmatched_brackets_end_a_reference(case: Case) -> None:
    """RFC 3986 appendix C: punctuation that might be mistaken for part of the URI is not part of it."""
    check(case)


@pytest.mark.parametrize("case", _params("rule06_schemes.txt"))
def test_rule_6_a_reference_starts_at_a_known_scheme_or_a_scheme_with_slashes(case: Case) -> None:
    """RFC 3986 3.1 and the IANA URI scheme registry."""
    check(case)


@pytest.mark.parametrize("case", _params("rule07_urns.txt"))
def test_rule_7_urns_are_found_in_free_text(case: Case) -> None:
    """RFC 8141 2: urn:NID:NSS, any case."""
    check(case)


@pytest.mark.parametrize("case", _params("rule08_abbreviated.txt"))
def test_rule_8_abbreviated_references_are_completed(case: Case) -> None:
    """RFC 3986 draft appendix F: www. hosts take http://, ftp. hosts ftp://; an option turns it off."""
    check(case)


@pytest.mark.parametrize("case", _params("rule09_emails.txt"))
def test_rule_9_bare_email_addresses_only_on_request(case: Case) -> None:
    """RFC 5322 3.4.1 addr-spec found as RFC 6068 mailto: URIs when emails=True."""
    check(case)


@pytest.mark.parametrize("case", _params("rule10_iris.txt"))
def test_rule_10_iri_letters_are_kept_and_unicode_punctuation_ends_a_reference(case: Case) -> None:
    """RFC 3987 2.2: ucschar letters and digits belong to an IRI; Unicode punctuation and spaces do not."""
    check(case)


@pytest.mark.parametrize("case", _params("rule11_literal.txt"))
def test_rule_11_plain_text_is_taken_literally(case: Case) -> None:
    """RFC 3986 2.4: no character reference or percent-encoding is decoded while scanning."""
    check(case)


@pytest.mark.parametrize("case", _params("seeds.txt"))
def test_the_specifications_own_examples_are_found(case: Case) -> None:
    """RFC 2396 appendix E (with its line breaks), RFC 3986 appendix C and F, the RFC 1738 appendix."""
    check(case)


def test_fixture_marks_are_parsed_with_escapes() -> None:
    case = _case(r"a\|b <|x:\n y|>	uri=x:y kind=urn", {})
    assert case.text == "a|b <x:\n y>"
    assert case.expected == (Expected((5, 10), "x:y", "urn"),)


# --- the re-like API -------------------------------------------------------------------------------------------

TEXT = 'Yes, Jim, see "http://www.w3.org/Addressing/" or <URL:ftp://ds.internic.\n net/rfc/>.'


def test_reference_behaves_like_a_match() -> None:
    first, second = linkkit.finditer(TEXT)
    assert first.span() == (15, 44) and (first.start(), first.end()) == (15, 44)
    assert first.group() == first.group(0) == first[0] == first.raw == "http://www.w3.org/Addressing/"
    assert first.string is TEXT
    assert first.groups() == () and first.groupdict() == {}  # re.Match of a pattern without sub-groups
    assert first.outer_span() == (14, 45)
    assert second.raw == "ftp://ds.internic.\n net/rfc/"
    assert second.uri == "ftp://ds.internic.net/rfc/"
    assert second.outer_span() == (49, TEXT.index(">") + 1)
    assert repr(first) == (
        "<linkkit.Reference span=(15, 44), raw='http://www.w3.org/Addressing/', "
        "uri='http://www.w3.org/Addressing/', delimiter='quote', kind='uri'>"
    )
    with pytest.raises(IndexError):
        first.group(1)


def test_unwrapped_is_the_reference_as_written_on_one_line() -> None:
    text = "> see <http://a.example/x-\n> y> and www.b.example/\n and c@d.example"
    refs = list(linkkit.finditer(text, emails=True))
    assert [ref.unwrapped for ref in refs] == ["http://a.example/x-y", "www.b.example/", "c@d.example"]
    assert [ref.uri for ref in refs] == ["http://a.example/x-y", "http://www.b.example/", "mailto:c@d.example"]


def test_findall_gives_the_cleaned_uris_in_text_order() -> None:
    assert linkkit.findall(TEXT) == ["http://www.w3.org/Addressing/", "ftp://ds.internic.net/rfc/"]


def test_sub_replaces_spans_and_keeps_delimiters() -> None:
    assert linkkit.sub("X", TEXT) == 'Yes, Jim, see "X" or <URL:X>.'
    assert linkkit.sub(lambda ref: ref.uri, TEXT) == TEXT.replace(".\n net", ".net")
    assert linkkit.sub("X", TEXT, count=1) == TEXT.replace("http://www.w3.org/Addressing/", "X")
    assert linkkit.subn("X", TEXT) == ('Yes, Jim, see "X" or <URL:X>.', 2)


def test_identity_sub_returns_the_input_unchanged() -> None:
    assert linkkit.sub(lambda ref: ref.raw, TEXT) == TEXT


def test_sub_treats_a_string_repl_literally() -> None:
    assert linkkit.sub(r"\g<0>\1", "see http://a.example/") == r"see \g<0>\1"


@pytest.mark.parametrize("repl", [b"X", None, 1])
def test_sub_refuses_a_repl_that_is_no_str_nor_function_even_without_references(repl: object) -> None:
    for replace in (linkkit.sub, linkkit.subn):
        message = f"^repl takes a str or a function of the Reference, not {type(repl).__name__}"
        with pytest.raises(TypeError, match=message):
            replace(repl, "no reference here")  # type: ignore[operator]


def test_sub_names_a_replacement_that_is_no_str_and_where() -> None:
    with pytest.raises(TypeError, match=r"^repl returned bytes for the reference at 4, not a str: b'X'$"):
        linkkit.sub(lambda ref: b"X", "see http://a.example/")  # type: ignore[arg-type,return-value]


@pytest.mark.parametrize("text", [b"http://example.org/", None, 1])
def test_a_text_that_is_no_str_is_an_error_naming_the_function_called(text: object) -> None:
    calls: dict[str, Callable[[], object]] = {
        "finditer": lambda: linkkit.finditer(text),  # type: ignore[arg-type]
        "findall": lambda: linkkit.findall(text),  # type: ignore[arg-type]
        "sub": lambda: linkkit.sub("X", text),  # type: ignore[arg-type]
        "subn": lambda: linkkit.subn("X", text),  # type: ignore[arg-type]
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"^{name}\(\) takes a str, not {type(text).__name__}$"):
            call()


def test_options_are_keyword_only_and_checked() -> None:
    with pytest.raises(TypeError):
        linkkit.findall(TEXT, bogus=True)
    with pytest.raises(TypeError):
        linkkit.finditer(b"http://example.org/")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ScanOptions(max_length=0)
    with pytest.raises(TypeError):
        ScanOptions(True)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"emails": "yes"}, "option emails takes a bool, not str: 'yes'"),
        ({"abbreviated": 1}, "option abbreviated takes a bool, not int: 1"),
        ({"max_length": 2.5}, "option max_length takes a int, not float: 2.5"),
        ({"max_length": True}, "option max_length takes a int, not bool: True"),
        ({"max_length": [1]}, r"option max_length takes a int, not list: \[1\]"),
    ],
)
def test_an_option_of_the_wrong_type_is_an_error_that_names_it(options: dict[str, object], message: str) -> None:
    for call in (linkkit.finditer, linkkit.findall, finditer_stream):
        with pytest.raises(TypeError, match=f"^{message}$"):
            call(TEXT, **options)  # type: ignore[operator]
    for replace in (linkkit.sub, linkkit.subn):
        with pytest.raises(TypeError, match=f"^{message}$"):
            replace("X", TEXT, **options)  # type: ignore[operator]


def test_a_misspelt_option_is_an_error_that_names_it() -> None:
    with pytest.raises(TypeError, match="emials"):
        linkkit.findall(TEXT, emials=True)  # type: ignore[call-arg]


_USER_SCRIPT = textwrap.dedent(
    """
    import linkkit
    from linkkit.text.stream import finditer_stream
    linkkit.findall("a", emials=True)
    list(linkkit.finditer("a", emails="yes"))
    linkkit.sub("X", "a", max_length="10")
    list(finditer_stream(["a"], abbreviated=None))
    """
)


def test_mypy_strict_catches_a_misspelt_option_and_a_wrong_type(tmp_path: Path) -> None:
    script = tmp_path / "user.py"
    script.write_text(_USER_SCRIPT, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-incremental", str(script)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in errors] == ["4", "5", "6", "7"], result.stdout
    assert 'Unexpected keyword argument "emials"' in errors[0]
    assert '"emails"' in errors[1] and '"max_length"' in errors[2] and '"abbreviated"' in errors[3]


def test_max_length_cuts_a_run_and_the_scan_goes_on() -> None:
    text = "http://example.org/" + "a" * 100 + " http://b.example/"
    assert linkkit.findall(text, max_length=30) == ["http://example.org/" + "a" * 11, "http://b.example/"]


def test_a_reference_cut_at_max_length_says_so_in_finditer_and_in_streams() -> None:
    text = "see http://example.org/" + "a" * 100 + " and http://b.example/" + "c" * 11 + ". "
    found = list(linkkit.finditer(text, max_length=30))
    assert [(ref.uri, ref.truncated) for ref in found] == [
        ("http://example.org/" + "a" * 11, True), ("http://b.example/" + "c" * 11, False),
    ]
    for size in (1, 7, 1000):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert list(finditer_stream(chunks, chunk_size=size, max_length=30)) == found


def test_options_change_what_is_found() -> None:
    text = "mail a@example.org or see www.example.org"
    assert linkkit.findall(text) == ["http://www.example.org"]
    assert linkkit.findall(text, abbreviated=False, emails=True) == ["mailto:a@example.org"]


# --- streams ---------------------------------------------------------------------------------------------------

STREAM_TEXT = (FIXTURES / "scanner" / "seeds.txt").read_text(encoding="utf-8").replace("\\n", "\n") * 3


def test_a_stream_gives_what_the_whole_text_gives() -> None:
    whole = list(linkkit.finditer(STREAM_TEXT, emails=True))
    for size in (1, 7, 64, 4096):
        chunks = [STREAM_TEXT[i : i + size] for i in range(0, len(STREAM_TEXT), size)]
        assert list(finditer_stream(chunks, emails=True)) == whole


def test_a_stream_reads_a_text_file_and_gives_absolute_offsets() -> None:
    refs = list(finditer_stream(io.StringIO(STREAM_TEXT), chunk_size=100))
    assert refs == list(linkkit.finditer(STREAM_TEXT))
    assert all(STREAM_TEXT[ref.start() : ref.end()] == ref.raw for ref in refs)
    assert all(ref.string == STREAM_TEXT[slice(*ref.outer_span())] for ref in refs)


def test_a_stream_follows_a_reference_longer_than_its_chunks() -> None:
    text = "x <http://example.org/" + "a\n" * 5000 + "> y http://b.example/"
    refs = list(finditer_stream(iter(text), chunk_size=16))
    assert [ref.uri for ref in refs] == ["http://example.org/" + "a" * 5000, "http://b.example/"]


def test_a_stream_finds_a_reference_wrapped_after_its_scheme_across_any_chunk_edge() -> None:
    """RFC 2396 appendix E: "<http:" and "//..." on two lines; the ":" trigger looks over the wrap to the "//"."""
    text = "see <http:\n" + " " * 62 + "//example.org/a> and <URL:ftp:\r\n\t//b.example/>."
    whole = list(linkkit.finditer(text))
    assert [ref.uri for ref in whole] == ["http://example.org/a", "ftp://b.example/"]
    for size in range(1, 90, 4):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert list(finditer_stream(chunks, chunk_size=size)) == whole


def test_a_stream_finds_a_reference_spaced_after_its_scheme_across_any_chunk_edge() -> None:
    """RFC 2396 appendix E: whitespace right after "mailto:" inside <...>; the ":" trigger reads the next word to its
    ">", which may lie past the text read so far."""
    text = "write to <mailto:" + " " * 63 + "a" * 240 + "@example.org> or <urn:\n isbn:0451450523>."
    whole = list(linkkit.finditer(text))
    assert [ref.uri for ref in whole] == ["mailto:" + "a" * 240 + "@example.org", "urn:isbn:0451450523"]
    for size in range(1, 400, 7):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert list(finditer_stream(chunks, chunk_size=size)) == whole


def test_a_stream_keeps_a_spaced_scheme_whose_next_word_holds_a_colon() -> None:
    """RFC 2396 appendix E: "<drm:\\tamd:amdgpu>" is one reference; read so far only up to "amd:", its ":" waits for
    the ">" while the later "amd:" (or an e-mail's "@") already is a trigger: the stream resumes before both."""
    text = "see <drm:\tamd:amdgpu> or <cid:\r\n  string:int32> and <mailto: a@example.org?cc=b:c>."
    whole = list(linkkit.finditer(text, emails=True))
    assert [ref.uri for ref in whole] == ["drm:amd:amdgpu", "cid:string:int32", "mailto:a@example.org?cc=b:c"]
    assert {ref.delimiter for ref in whole} == {"angle"}  # the "@" trigger in the last one's word is no e-mail
    for size in range(1, 40):
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        assert list(finditer_stream(chunks, chunk_size=size, emails=True)) == whole


def test_white_space_is_the_regex_packages_whitespace_in_both_engines() -> None:
    """The scanner's WHITE_SPACE_ITEMS (its ":" trigger) is Unicode White_Space, which is what regex's "\\s" and
    the standard library's "\\s" less the separators U+001C-U+001F match."""
    import re

    import regex

    from linkkit.text.rules import WHITE_SPACE_ITEMS

    everything = [chr(code) for code in range(0x110000)]
    spaces = {c for c in everything if regex.match(r"\s", c)}
    for engine in (re, regex):
        assert {c for c in everything if engine.match(f"[{WHITE_SPACE_ITEMS}]", c)} == spaces
    assert spaces == {c for c in everything if re.match(r"\s", c)} - set("\x1c\x1d\x1e\x1f")


def test_a_stream_takes_a_whole_str_too() -> None:
    refs = list(finditer_stream(STREAM_TEXT))
    assert refs == list(linkkit.finditer(STREAM_TEXT))
    assert all(ref.string == STREAM_TEXT[slice(*ref.outer_span())] for ref in refs)


def test_a_stream_rejects_bytes() -> None:
    with pytest.raises(TypeError):
        list(finditer_stream([b"http://example.org/"]))  # type: ignore[list-item]


# --- linear time on adversarial input --------------------------------------------------------------------------

_ADVERSARIAL = textwrap.dedent(
    """
    import time
    import linkkit
    M = 1_000_000
    K = 200_000  # patterns that make a reference or a near-reference every few characters
    for text in (
        "(" * M, "<" * M, "http://" + "a" * M, "http://" + "(" * M, "ab.cd/ef:gh" * (M // 11),
        "http://a" + "." * M, "www." * (M // 4), "<http://" + " " * M, "a" * M + "://x", "http://[" * (M // 8),
        "<http://a " * (K // 10), "http://a)" * (K // 9), "fax:a)-\\n" * (K // 8), "a@" * (K // 2),
        "<URL:" * (K // 5), "http://a-\\n" * (K // 10), "a:" * (K // 2), "<http://a-\\n b-\\n" * (K // 16),
        "http://a,http://b" * (K // 17), "http://a" + ",x:" * (M // 3), "> <http://a" + "\\n>" * (M // 2),
        # a candidate rejected after its run was walked, then a trigger inside the same run, again and again
        "urn:a:" * (K // 6), "urn:x:" * (K // 6), "(urn:a:" * (K // 7), "<urn:a:" * (K // 7), "http://?" * (K // 8),
        "http://#" * (K // 8), "ab://?" * (K // 6), "file://?" * (K // 8), "urn:ab:c%" * (K // 9),
        "www.a!" * (K // 6), "www.a-" * (K // 6), "mailto:?" * (K // 8), "a@b." * (K // 4),
        # a long valid run of URNs that a character at its end makes invalid (RFC 8141 2), brackets included
        "urn:ab:c/" * (K // 9) + "[", "urn:ab:(c)/" * (K // 11) + "[", "urn:ab:c/" * (K // 9) + "?x",
        "urn:ab:c?+d/" * (K // 12) + "?+", "的news:形式" * (K // 8), "http://a" + "a," * (M // 2),
        "urn:ab:" * (K // 7) + "?+x" * (K // 3),
        # a ":" trigger that looks over a wrap to "//"; trimmed punctuation before a closer; BBCode's end tag
        "<http:\\n//" * (K // 9), ("http:" + " " * 60) * (K // 65) + "//", "(http://a.b/x" + "." * M + ")",
        "(http://a.b/x." * (K // 14), "[url]http://a/[/" * (K // 16),
        # a "www." host or a host after "//" that prose punctuation or a "[" follows, the next one right after it
        "www.a.b," * (K // 8), "www.a.b's" * (K // 9), "http://a.b's" * (K // 12), "http://a.b[" * (K // 11),
        "www.a.b[" * (K // 8), "http://u;v@a.b[.]" * (K // 17), ("http://a.b[" + "x" * 300 + "]y") * (K // 313),
        # a "[" that no "]" closes, after which a trigger stands or none does
        "http://a/[" * (K // 10), "http://a/b[c " * (K // 13), "http://a/[" + "b" * M, "http://a/[b:" * (K // 12),
        # a "'" quotation closed inside a run that goes on, again and again
        "'http://a'," * (K // 11), "'urn:ab:c'," * (K // 11), "'www.a.b/c'," * (K // 12),
        # whitespace before a ":" or around its "//", which <...> ignores: a trigger every few characters
        "<a\\n://" * (K // 6), "<a :b>" * (K // 6), "a :/" * (K // 4), "<x-app: //" * (K // 10),
        # a host and a list of more hosts after a ",", too long or ended by no path, then again; RFC page breaks
        "http://a:1" + ",b:1" * M, ("http://a:1" + ",b.c:1" * 70 + "!") * (K // 420), "http://a,b.c" * (K // 12),
        "<http://a/" + "\\n\\nDoe  x  [Page 5]\\n\\fRFC 1  T  May\\n\\n  b/" * (K // 40) + ">",
        # emoji after a reference (rules 5 and 10), read back a character at a time: as a group of several characters
        # the regex package read them in quadratic time; bidirectional marks and invisible characters by delimiters
        "http://a/b" + "\U0001f600." * (M // 2), "http://a/b" + "\u00a9\ufe0f" * (M // 2),
        "http://a/b" + "\U0001f44d\U0001f3fb" * (M // 2), "http://a/b" + "\U0001f468\u200d\U0001f4bb" * (M // 3),
        "(\u200ehttp://a/b\u200e) " * (K // 14), "<http://a\u200b/b\u200b> " * (K // 16),
    ):
        list(linkkit.finditer(text, emails=True))
    # a host or a domain of millions of labels: read in pieces, never in one regex match (that raised MemoryError)
    for text in (
        "www" + ".a" * (4 * M), "www" + ".a" * (4 * M) + "'s", "a@" + "b." * (4 * M) + "c",
        "http://a" + ".a" * (4 * M) + "'s",
    ):
        list(linkkit.finditer(text, emails=True, max_length=1 << 30))
    print("done", time.process_time())
    """
)


def test_adversarial_input_finishes() -> None:
    """Megabytes of brackets, URI characters and near-triggers finish well within a generous bound: 60 s of the
    child's CPU time (about 22 s here), which other processes on a loaded machine do not stretch as they stretch
    the wall clock (that bound, ten times as generous, only stops a hang)."""
    result = subprocess.run(
        [sys.executable, "-c", _ADVERSARIAL], capture_output=True, text=True, timeout=600,
        cwd=ROOT,
    )
    done, cpu = result.stdout.split() or ["", ""]
    assert done == "done", result.stderr
    assert float(cpu) < 60, f"{cpu} s of CPU time"


def test_a_run_of_millions_of_full_stops_after_a_reference_is_trimmed_in_bounded_memory() -> None:
    """Rule 5's trailing run read back holds no memory for each of its characters: 16 million full stops after a
    reference (and emoji among them) are trimmed within an address space of 1 GiB, where the run read as one
    repetition of punctuation-or-emoji took about 120 bytes a character (MemoryError past some tens of millions)."""
    child = textwrap.dedent(
        """
        import resource
        import linkkit
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        for tail in ("." * 16_000_000, "\\U0001f600." * 8_000_000):
            print([ref.group() for ref in linkkit.finditer("see http://a/b" + tail, max_length=1 << 30)])
        """
    )
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.stdout.split("\n")[:2] == ["['http://a/b']", "['http://a/b']"], result.stderr[-500:]


def test_subn_stops_at_count_and_checks_it() -> None:
    assert linkkit.subn("X", "http://a.example/ and http://b.example/", count=1) == ("X and http://b.example/", 1)
    for bad, error in ((-1, ValueError), ("1", TypeError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="count"):
            linkkit.sub("X", "http://a.example/", count=bad)


def test_record_of_something_that_is_no_link_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="found link"):
        linkkit.record("http://a.example/")  # type: ignore[arg-type]
