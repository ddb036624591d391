"""The scheme table (linkkit.uri.schemes): the facts each scheme's own specification gives, as the scanner reads."""

from __future__ import annotations

import pytest
from fixtures_loader import load_table

import linkkit


@pytest.mark.parametrize(("text", "found"), load_table("schemes/prose.txt"))
def test_a_scheme_whose_uris_open_with_an_authority_needs_it_in_running_text(text: str, found: str) -> None:
    assert [match.group() for match in linkkit.finditer(text)] == ([] if found == "-" else found.split(" "))
