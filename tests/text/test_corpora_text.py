"""The scanner over every bundled plain-text corpus against its hand-checked gold file.

The gold files (corpora/gold/text/NAME.jsonl) were written by reading each text against the issue's policy:
RFC 3986 appendix C and RFC 2396 appendix E for delimiting, RFC 3986 draft appendix F for abbreviations.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

import linkkit
from linkkit.text.stream import finditer_stream
from fixtures_loader import ROOT

CORPORA = ROOT / "corpora"
TEXTS = sorted((CORPORA / "text").iterdir())


def gold(text_path: Path) -> list[dict[str, Any]]:
    lines = (CORPORA / "gold" / "text" / f"{text_path.name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def read(text_path: Path) -> str:
    return text_path.read_text(encoding="utf-8")


def test_the_corpus_holds_the_two_seed_drafts_and_three_written_texts() -> None:
    names = {path.name for path in TEXTS}
    assert {"draft-fielding-uri-rfc2396bis-01.txt", "draft-fielding-url-syntax-05.txt"} <= names
    assert {"mail-digest.txt", "markdown-readme.md", "chinese-notes.txt"} <= names


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_scanner_finds_exactly_the_gold_uris_in_text_order(path: Path) -> None:
    assert [ref.uri for ref in linkkit.finditer(read(path))] == [entry["uri"] for entry in gold(path)]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_raw_is_exactly_the_characters_each_gold_reference_occupies(path: Path) -> None:
    text = read(path)
    found = [(ref.raw, text.count("\n", 0, ref.start()) + 1) for ref in linkkit.finditer(text)]
    assert found == [(entry["raw"], entry["line"]) for entry in gold(path)]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_streaming_the_text_in_small_chunks_finds_the_gold_references(path: Path) -> None:
    refs = list(finditer_stream(io.StringIO(read(path), newline=""), chunk_size=61))
    assert [(ref.uri, ref.raw) for ref in refs] == [(entry["uri"], entry["raw"]) for entry in gold(path)]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_findall_gives_the_gold_uris(path: Path) -> None:
    assert linkkit.findall(read(path)) == [entry["uri"] for entry in gold(path)]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_reading_without_a_line_end_hyphen_is_an_alternative(path: Path) -> None:
    # RFC 3986 appendix C: the hyphen "may or may not actually be part of the URI".
    refs = list(linkkit.finditer(read(path)))
    for ref, entry in zip(refs, gold(path), strict=True):
        for alternative in entry.get("alternatives", ()):
            assert alternative in ref.alternatives, ref


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_identity_sub_returns_each_corpus_text_unchanged(path: Path) -> None:
    text = read(path)
    assert linkkit.sub(lambda ref: ref.group(), text) == text
