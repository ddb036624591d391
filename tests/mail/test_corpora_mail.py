"""corpora/mail: every message against its hand-checked gold list and gold absolutized output, exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures_loader import ROOT

from linkkit import mail
from linkkit.mail.links import read, text_parts
from linkkit.mail.message import Entity

CORPUS = ROOT / "corpora" / "mail"
GOLD = ROOT / "corpora" / "gold" / "mail"
NAMES = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".eml", ".mbox"))
DEFAULTS = {"message": 0, "base": None, "target_part": None, "charset_fallback": False}


def manifest() -> dict[str, dict[str, object]]:
    return json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def found(path: Path) -> list[dict[str, object]]:
    options = manifest()[path.name]
    records = []
    for message in mail.messages(path):
        for link in mail.links(message.data, headers=True, base_url=options.get("base_url")):  # type: ignore[arg-type]
            records.append({
                "message": message.index, "part": link.part, "content_type": link.content_type,
                "source": link.source, "where": link.where, "raw": link.raw, "uri": link.uri, "base": link.base,
                "target_part": link.target_part, "charset_fallback": link.charset_fallback,
            })
    return records


def test_every_message_has_gold_and_a_manifest_entry() -> None:
    assert NAMES and set(manifest()) == set(NAMES)
    for name in NAMES:
        assert (GOLD / f"{name}.links.jsonl").is_file()
        assert (GOLD / name.replace(".", ".absolutized.", 1)).is_file()


@pytest.mark.parametrize("name", NAMES)
def test_links_equal_the_gold(name: str) -> None:
    gold = [{**DEFAULTS, **json.loads(line)} for line in (GOLD / f"{name}.links.jsonl").read_text("utf-8").splitlines()]
    assert found(CORPUS / name) == gold


@pytest.mark.parametrize("name", NAMES)
def test_spans_point_at_what_is_written(name: str) -> None:
    for message in mail.messages(CORPUS / name):
        texts = {item.entity.part: item.decoded.text for item in text_parts(read(message.data), None)
                 if not isinstance(item, Entity)}
        for link in mail.links(message.data):
            written = texts[link.part][link.start() : link.end()]
            if link.source == "text":
                assert written == link.raw
            else:  # HTML: the written form, references and all
                assert written and (written == link.raw or "&" in written)


@pytest.mark.parametrize("name", NAMES)
def test_absolutize_equals_the_gold_and_identity_is_byte_for_byte(name: str) -> None:
    options = manifest()[name]
    path = CORPUS / name
    gold = (GOLD / name.replace(".", ".absolutized.", 1)).read_bytes()
    base_url = options.get("base_url")
    out = b"".join(m.replaced(mail.absolutize(m.data, base_url)) for m in mail.messages(path))  # type: ignore[arg-type]
    assert out == gold
    identity = b"".join(m.replaced(mail.rewrite(m.data, lambda link: link.raw)) for m in mail.messages(path))
    assert identity == path.read_bytes()


def test_the_malformed_message_says_what_is_wrong() -> None:
    problems = mail.problems((CORPUS / "malformed.eml").read_bytes())
    assert [(p.part, p.kind) for p in problems] == [
        ("", "structure"), ("3", "structure"), ("2", "transfer-encoding"), ("4", "transfer-encoding")
    ]


def test_the_unknown_charset_message_is_flagged() -> None:
    problems = mail.problems((CORPUS / "unknown-charset.eml").read_bytes())
    assert [(p.part, p.kind) for p in problems] == [("1", "charset"), ("2", "charset"), ("3", "charset")]
