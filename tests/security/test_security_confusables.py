"""UTS #39 in linkkit.security.confusables: the skeleton against every line of the vendored confusables.txt (the
Unicode data is its own test vector: each source is confusable with its prototype), labelled examples, and the
resolved script sets of 5.1."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest
from fixtures_loader import load_table
from hypothesis import given
from hypothesis import strategies as st

from linkkit.security.confusables import ALL, _prototypes, ascii_lookalike, labels, resolved_scripts, skeleton


def _mapping_lines() -> list[tuple[str, str]]:
    """The (source, prototype) pairs of confusables.txt in NFD form: TR39's skeleton begins with NFD, so a
    precomposed source (or a prototype not in NFD, 13 lines in 13.0.0) is reached through its decomposition."""
    return [
        (source, prototype)
        for source, prototype in _prototypes().items()
        if unicodedata.normalize("NFD", source) == source and unicodedata.normalize("NFD", prototype) == prototype
    ]


def test_the_vendored_data_is_confusables_txt_13_with_its_licence() -> None:
    data = resources.files("linkkit.security").joinpath("data")
    head = data.joinpath("confusables.txt").read_text(encoding="utf-8")
    assert "# Version: 13.0.0" in head and "© 2020 Unicode®, Inc." in head
    assert "UNICODE LICENSE V3" in data.joinpath("LICENSE-UNICODE").read_text(encoding="utf-8")
    assert len(_prototypes()) == 6311
    assert len(_mapping_lines()) == 5215


def test_every_mapping_line_is_confusable_with_its_prototype() -> None:
    broken = [(s, p) for s, p in _mapping_lines() if skeleton(s) != skeleton(p)]
    assert broken == []


@pytest.mark.parametrize(("x", "y", "confusable"), load_table("security/skeletons.txt"))
def test_skeleton_examples(x: str, y: str, confusable: str) -> None:
    assert (skeleton(x) == skeleton(y)) is (confusable == "yes")


@given(st.text(max_size=20))
def test_the_skeleton_of_a_skeleton_holds_no_default_ignorable(text: str) -> None:
    assert "\u200b" not in skeleton(text) and "\u00ad" not in skeleton(text)


@pytest.mark.parametrize(
    ("label", "scripts"),
    [
        ("example", {"Latn"}),
        ("ελληνικά", {"Grek"}),
        ("пример", {"Cyrl"}),
        ("日本語のドメイン", {"Jpan"}),  # Han + Hiragana + Katakana: augmented (TR39 5.1)
        ("한국어漢字", {"Kore"}),  # Hangul + Han
        ("中文域名", {"Hani", "Hanb", "Jpan", "Kore"}),
        ("123-", ALL),  # Common only
        ("pаypal", set()),  # Latin + Cyrillic
        ("Ελλаda", set()),  # Greek + Cyrillic + Latin
        ("aᄀ", set()),  # Latin + Hangul jamo
    ],
)
def test_resolved_script_set(label: str, scripts: set[str]) -> None:
    assert resolved_scripts(label) == scripts


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("example.com", []),
        ("xn--pypal-4ve.com", [(0, 13, "pаypal")]),
        ("XN--PYPAL-4VE.com", [(0, 13, "pаypal")]),
        ("bücher.Example", [(0, 6, "bücher")]),
        ("ＰＡＹＰＡＬ.com", []),  # UTS 46 maps it to "paypal": that label itself
        ("пример。рф", [(0, 6, "пример"), (7, 9, "рф")]),  # an ideographic full stop separates labels
        ("xn--invalid-.com", []),
    ],
)
def test_labels_are_read_as_a_browser_reads_them(host: str, expected: list[tuple[int, int, str]]) -> None:
    assert [tuple(label) for label in labels(host)] == expected


@pytest.mark.parametrize(
    ("label", "lookalike"),
    [("pаypal", "paypal"), ("mоre", "more"), ("ѕсоре", "scope"), ("bücher", None), ("example", None), ("пример", None)],
)
def test_ascii_lookalike(label: str, lookalike: str | None) -> None:
    assert ascii_lookalike(label) == lookalike
