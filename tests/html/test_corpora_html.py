"""The hand-checked HTML corpus (corpora/html): links and absolutized bytes against gold files.

Each document NAME.html has NAME.links.jsonl (tag, attr, raw, uri and byte span of every link, in document order)
and NAME.absolutized.html (the document with every link replaced by its absolute URI and nothing else changed),
both written by hand from the HTML policy in the README; manifest.json gives the retrieval URL each one is tested with
(and, for one, the ``encoding`` argument).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from linkkit import html
from fixtures_loader import ROOT

CORPUS = ROOT / "corpora" / "html"
DOCUMENTS: list[dict[str, Any]] = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["documents"]


def _stem(entry: dict[str, Any]) -> str:
    return entry["document"].removesuffix(".html")


def _gold_links(entry: dict[str, Any]) -> list[dict[str, Any]]:
    lines = (CORPUS / f"{_stem(entry)}.links.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _is_plain_utf8(entry: dict[str, Any]) -> bool:
    """True for documents in UTF-8 without a byte order mark or encoding argument: their str form is the same text."""
    data = (CORPUS / entry["document"]).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return "encoding" not in entry and not data.startswith(b"\xef\xbb\xbf")


PARAMS = [pytest.param(entry, id=_stem(entry)) for entry in DOCUMENTS]
UTF8_PARAMS = [pytest.param(entry, id=_stem(entry)) for entry in DOCUMENTS if _is_plain_utf8(entry)]


def test_every_document_in_the_folder_is_in_the_manifest() -> None:
    listed = {entry["document"] for entry in DOCUMENTS}
    on_disk = {path.name for path in CORPUS.glob("*.html") if not path.name.endswith(".absolutized.html")}
    assert listed == on_disk


@pytest.mark.parametrize("entry", PARAMS)
def test_links_are_the_gold_list_in_document_order(entry: dict[str, Any]) -> None:
    document = (CORPUS / entry["document"]).read_bytes()
    found = [
        {"tag": link.tag, "attr": link.attr, "raw": link.raw, "uri": link.uri, "span": list(link.span())}
        for link in html.links(document, base_url=entry["url"], encoding=entry.get("encoding"))
    ]
    assert found == _gold_links(entry)


@pytest.mark.parametrize("entry", PARAMS)
def test_absolutize_gives_the_gold_output_byte_for_byte(entry: dict[str, Any]) -> None:
    document = (CORPUS / entry["document"]).read_bytes()
    expected = (CORPUS / f"{_stem(entry)}.absolutized.html").read_bytes()
    assert html.absolutize(document, entry["url"], encoding=entry.get("encoding")) == expected


@pytest.mark.parametrize("entry", PARAMS)
def test_identity_rewrite_returns_the_document_unchanged(entry: dict[str, Any]) -> None:
    document = (CORPUS / entry["document"]).read_bytes()
    identity = html.rewrite(document, lambda link: link.raw, base_url=entry["url"], encoding=entry.get("encoding"))
    assert identity == document


@pytest.mark.parametrize("entry", UTF8_PARAMS)
def test_str_documents_absolutize_like_their_utf8_bytes(entry: dict[str, Any]) -> None:
    text = (CORPUS / entry["document"]).read_text(encoding="utf-8")
    expected = (CORPUS / f"{_stem(entry)}.absolutized.html").read_text(encoding="utf-8")
    assert html.absolutize(text, entry["url"]) == expected
