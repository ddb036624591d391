"""The encoding an HTML document declares of itself (HTML 13.2.3.1 BOM, 13.2.3.2 prescan, 13.2.6.4.4 a <meta> the
parser meets), from tests/fixtures/html/declared_encodings.jsonl."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fixtures_loader import FIXTURES

from linkkit.html import links
from linkkit.html.encoding import declared_encoding

CASES = [json.loads(line) for line in (FIXTURES / "html" / "declared_encodings.jsonl").read_text("utf-8").splitlines()]


@pytest.mark.parametrize("case", CASES, ids=[case["case"] for case in CASES])
def test_the_declared_encoding_is_the_bom_else_the_first_meta_the_parser_meets(case: dict[str, Any]) -> None:
    assert declared_encoding(case["latin1"].encode("latin-1")) == case["declared"]


@pytest.mark.parametrize("case", [case for case in CASES if case["declared"]], ids=lambda case: case["case"])
def test_links_reads_a_declaring_document_in_the_encoding_it_declares(case: dict[str, Any]) -> None:
    word = "путь" if case["declared"] in ("koi8-r", "cp1251", "utf-8") else "表示"
    page = case["latin1"].encode("latin-1") + f"<a href={word}>".encode(case["declared"])
    assert links(page)[-1].raw == word
