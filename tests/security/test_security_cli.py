"""The command line's security options: extract --flags (every format), rewrite --defang, --redact,
--drop-userinfo and --redact-query, on text, HTML and mail inputs under tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from linkkit import cli, mail
from linkkit.security import refang

TEXT = (
    "Beacon: http://www.example.com@0x7f.1/a, login at https://bob:hunter2@x.example/cb?token=t0k&b=2\n"
    "and www.example.org/x. Clean: https://example.net/ok\n"
)
HTML = (
    b"<!doctype html><p><a href=\"java&#x09;script:alert(1)\">x</a>\n"
    b"<a href='https://u:pw@h.example/?sid=1&amp;x=2'>y</a> <img src=rel/a.png> text www.e.example/t?sid=9</p>\n"
)
MESSAGE = (
    b"From: a@example.org\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
    b"Reset: https://mail.example/reset?token=s3cr3t&u=7 or https://u:pw@mail.example/\r\n"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"text": tmp_path / "log.txt", "html": tmp_path / "page.html", "mail": tmp_path / "message.eml"}
    paths["text"].write_text(TEXT, encoding="utf-8")
    paths["html"].write_bytes(HTML)
    paths["mail"].write_bytes(MESSAGE)
    return paths


def test_extract_flags_plain_is_a_second_column(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    assert run(capsys, "extract", "--flags", str(files["text"])).splitlines() == [
        "http://www.example.com@0x7f.1/a\tuserinfo,deceptive-userinfo,rare-ip-form",
        "https://bob:hunter2@x.example/cb?token=t0k&b=2\tuserinfo,password",
        "http://www.example.org/x\t",
        "https://example.net/ok\t",
    ]
    assert "\t" not in run(capsys, "extract", str(files["text"]))


def test_extract_flags_jsonl_carries_each_flag(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    records = [json.loads(line) for line in run(capsys, "extract", "--flags", "--format", "jsonl",
                                                str(files["text"])).splitlines()]
    first = records[0]["flags"]
    assert [f["name"] for f in first] == ["userinfo", "deceptive-userinfo", "rare-ip-form"]
    assert first[2]["span"] == [23, 29] and first[2]["detail"] == "127.0.0.1" and "7.4" in first[2]["reason"]
    assert records[3]["flags"] == []


@pytest.mark.parametrize("form", ["tsv", "csv"])
def test_extract_flags_tsv_and_csv_have_a_flags_column(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], form: str
) -> None:
    lines = run(capsys, "extract", "--flags", "--format", form, str(files["text"])).splitlines()
    separator = "\t" if form == "tsv" else ","
    assert lines[0].split(separator)[-1] == "flags"
    assert lines[1].endswith(separator + '"userinfo,deceptive-userinfo,rare-ip-form"' if form == "csv"
                             else separator + "userinfo,deceptive-userinfo,rare-ip-form")


def test_extract_flags_of_html_and_mail_links_judge_the_active_scheme(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path]
) -> None:
    html_lines = run(capsys, "extract", "--flags", str(files["html"])).splitlines()
    assert html_lines[0].endswith("\tactive-scheme")
    assert html_lines[1].endswith("\tuserinfo,password")
    mail_lines = run(capsys, "extract", "--flags", str(files["mail"])).splitlines()
    assert mail_lines == ["https://mail.example/reset?token=s3cr3t&u=7\t", "https://u:pw@mail.example/\tuserinfo,password"]


def test_rewrite_defang_and_refang_back(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    defanged = run(capsys, "rewrite", "--defang", str(files["text"]))
    assert defanged == (
        "Beacon: hxxp://www.example.com[@]0x7f[.]1/a, login at hxxps://bob:hunter2[@]x[.]example/cb?token=t0k&b=2\n"
        "and www[.]example[.]org/x. Clean: hxxps://example[.]net/ok\n"
    )
    assert refang(defanged) == TEXT


def test_rewrite_redact(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    assert run(capsys, "rewrite", "--redact", "--redact-query", "token", "--", str(files["text"])) == TEXT.replace(
        "hunter2", "***").replace("t0k", "***")
    assert run(capsys, "rewrite", "--drop-userinfo", str(files["text"])) == TEXT.replace(
        "www.example.com@", "").replace("bob:hunter2@", "")


def test_rewrite_html_is_rewritten_as_html(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    out = run(capsys, "rewrite", "--redact-query", "sid", "--", str(files["html"]))
    assert out.encode() == HTML.replace(b"u:pw@", b"u:***@").replace(b"sid=1", b"sid=***").replace(b"sid=9", b"sid=***")
    assert run(capsys, "rewrite", "--redact", str(files["html"])).encode() == HTML.replace(b"u:pw@", b"u:***@")


@pytest.mark.parametrize("name", ["page.html", "message.eml"])
def test_rewrite_reaches_the_address_an_anchor_shows(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     name: str) -> None:
    shown = b'<a href="http://u:pw@h.example/?sid=1">http://u:pw@h.example/?sid=1</a>\n'
    head = b"" if name.endswith(".html") else b"From: a@example.org\nContent-Type: text/html\n\n"
    path = tmp_path / name
    path.write_bytes(head + shown)
    out = run(capsys, "rewrite", "--redact-query", "sid", "--", str(path))
    assert out.encode() == head + shown.replace(b"u:pw@", b"u:***@").replace(b"sid=1", b"sid=***")
    out = run(capsys, "rewrite", "--defang", str(path))
    assert out.encode() == head + shown.replace(b"http://u:pw@h.example/", b"hxxp://u:pw[@]h[.]example/")


def test_rewrite_mail_in_place(capsys: pytest.CaptureFixture[str], files: dict[str, Path]) -> None:
    run(capsys, "rewrite", "--in-place", "--redact-query", "token", "--", str(files["mail"]))
    new = files["mail"].read_bytes()
    assert [link.uri for link in mail.links(new)] == [
        "https://mail.example/reset?token=***&u=7", "https://u:***@mail.example/"
    ]
    assert new.startswith(MESSAGE[: MESSAGE.index(b"Reset")])


def test_rewrite_tree_defangs_each_file(capsys: pytest.CaptureFixture[str], files: dict[str, Path],
                                        tmp_path: Path) -> None:
    out_dir = tmp_path.parent / (tmp_path.name + "-out")
    assert cli.main(["rewrite", "-r", "--defang", str(tmp_path), "-o", str(out_dir), "-q"]) == 0
    assert (out_dir / "log.txt").read_text(encoding="utf-8").startswith("Beacon: hxxp://www.example.com[@]0x7f[.]1/a")
    assert b"hxxps://u:pw[@]h[.]example/" in (out_dir / "page.html").read_bytes()
    assert files["text"].read_text(encoding="utf-8") == TEXT  # the source tree is left alone
