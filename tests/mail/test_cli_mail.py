"""The command line on e-mail: ``extract`` reads messages, mboxes and Maildirs (by name and by content), one
message at a time; ``rewrite`` and ``absolutize`` rewrite them, ``--in-place`` atomically."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest
from fixtures_loader import ROOT

from linkkit import cli

CORPUS = ROOT / "corpora" / "mail"
GOLD = ROOT / "corpora" / "gold" / "mail"


def gold(name: str, *, headers: bool) -> list[dict[str, object]]:
    records = [json.loads(line) for line in (GOLD / f"{name}.links.jsonl").read_text("utf-8").splitlines()]
    return [r for r in records if headers or r["source"] != "header"]


def set_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def jsonl(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("headers", [False, True])
def test_extract_jsonl_records_carry_message_part_and_source(capsys: pytest.CaptureFixture[str], headers: bool) -> None:
    for name in ("archive.mbox", "list-headers.eml", "forwarded.eml"):
        argv = ["extract", "--format", "jsonl", str(CORPUS / name), *(["--headers"] if headers else [])]
        assert cli.main(argv) == 0
        records = jsonl(capsys)
        expected = gold(name, headers=headers)
        assert [(r["message"], r["part"], r["source"], r["uri"]) for r in records] == [
            (g.get("message", 0), g["part"], g["source"], g["uri"]) for g in expected
        ]
        assert all(r["input"] == str(CORPUS / name) and r["unit"] == "character" for r in records)
    # the keys of every record first (linkkit.link.KEYS), then the message's, its position as one object among them
    assert list(records[0]) == ["input", "line", "column", "span", "unit", "kind", "where", "raw", "uri", "base",
                                "message", "message_id", "offset", "position", "part", "content_type", "source"]
    assert all(r["position"] == {"offset": r["offset"], "message": r["message"]} for r in records)


def test_extract_gives_message_id_and_mbox_offset(capsys: pytest.CaptureFixture[str]) -> None:
    mbox = CORPUS / "archive.mbox"
    assert cli.main(["extract", "--format", "jsonl", str(mbox)]) == 0
    records = jsonl(capsys)
    data = mbox.read_bytes()
    assert [(r["message"], r["message_id"], r["offset"]) for r in records] == [
        (0, "<m1@example.org>", 0),
        (1, "<m2@example.org>", data.index(b"From bob@")),
        (1, "<m2@example.org>", data.index(b"From bob@")),
        (2, "<m3@example.org>", data.index(b"From carol@")),
        (2, "<m3@example.org>", data.index(b"From carol@")),
    ]


def test_a_message_is_recognised_by_content_on_standard_input_and_without_a_suffix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (CORPUS / "qp-soft-breaks.eml").read_bytes()
    plain = [g["uri"] for g in gold("qp-soft-breaks.eml", headers=False)]
    set_stdin(monkeypatch, data)
    assert cli.main(["extract"]) == 0
    assert capsys.readouterr().out.splitlines() == plain
    (tmp_path / "message").write_bytes(data)
    assert cli.main(["extract", str(tmp_path / "message")]) == 0
    assert capsys.readouterr().out.splitlines() == plain
    # a name that says text wins: the raw message is scanned as text, soft breaks and all
    (tmp_path / "message.txt").write_bytes(data)
    assert cli.main(["extract", str(tmp_path / "message.txt")]) == 0
    assert capsys.readouterr().out.splitlines() != plain


def test_extract_reads_a_maildir_and_names_each_message_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    maildir = make_maildir(tmp_path)
    assert cli.main(["extract", "--format", "jsonl", str(maildir)]) == 0
    records = jsonl(capsys)
    expected = [("1.a:2,S", 0, g["uri"]) for g in gold("nested-multipart.eml", headers=False)]
    expected += [("2.b", 1, g["uri"]) for g in gold("content-base.eml", headers=False)]
    assert [(Path(str(r["input"])).name, r["message"], r["uri"]) for r in records] == expected
    assert len(expected) == 11


def make_maildir(tmp_path: Path) -> Path:
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    shutil.copy(CORPUS / "nested-multipart.eml", maildir / "cur" / "1.a:2,S")
    shutil.copy(CORPUS / "content-base.eml", maildir / "new" / "2.b")
    return maildir


def test_extract_warns_of_a_malformed_message_and_still_gives_its_links(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["extract", str(CORPUS / "malformed.eml")]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [g["uri"] for g in gold("malformed.eml", headers=False)]
    assert "message 0: warning: message: structure: no close delimiter" in captured.err
    assert "part 2: transfer-encoding" in captured.err


@pytest.mark.parametrize("command", [
    ["absolutize"], ["absolutize", "-o", "{out}"], ["absolutize", "--in-place"], ["rewrite", "--normalize"],
    ["rewrite", "--redact"], ["absolutize", "-r", "--base-url", "http://b.example/", "-o", "{out}"],
])
def test_rewriting_a_malformed_message_warns_as_extract_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    # issue 9: "a malformed message is reported with what went wrong": the bad part is left as it was, and said so
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(CORPUS / "malformed.eml", folder / "malformed.eml")
    argv = [part.format(out=tmp_path / "out") for part in command]
    assert cli.main([*argv, str(folder if "-r" in argv else folder / "malformed.eml")]) == 0
    err = capsys.readouterr().err
    assert f"{folder / 'malformed.eml'}: message 0: warning: message: structure: no close delimiter" in err
    assert "part 2: transfer-encoding" in err


def test_rewriting_a_maildir_in_place_warns_of_a_malformed_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    maildir = make_maildir(tmp_path)
    shutil.copy(CORPUS / "malformed.eml", maildir / "new" / "3.c")
    assert cli.main(["absolutize", "--in-place", str(maildir)]) == 0
    assert f"{maildir / 'new' / '3.c'}: message 2: warning: message: structure" in capsys.readouterr().err


def test_absolutize_mailbox_and_message_to_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    for name in ("archive.mbox", "alternative-content-location.eml", "list-headers.eml"):
        assert cli.main(["absolutize", str(CORPUS / name)]) == 0  # no --base needed for mail
        assert capsysbinary.readouterr().out == (GOLD / name.replace(".", ".absolutized.", 1)).read_bytes()


def test_absolutize_in_place_is_atomic_and_leaves_unchanged_files_alone(tmp_path: Path) -> None:
    changed = tmp_path / "archive.mbox"
    unchanged = tmp_path / "qp.eml"
    shutil.copy(CORPUS / "archive.mbox", changed)
    shutil.copy(CORPUS / "qp-soft-breaks.eml", unchanged)
    changed.chmod(0o640)
    before = unchanged.stat().st_mtime_ns
    assert cli.main(["absolutize", "--in-place", str(changed), str(unchanged)]) == 0
    assert changed.read_bytes() == (GOLD / "archive.absolutized.mbox").read_bytes()
    assert changed.stat().st_mode & 0o777 == 0o640
    assert unchanged.stat().st_mtime_ns == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["archive.mbox", "qp.eml"]  # no temporary file left


def test_maildir_is_rewritten_in_place_one_file_per_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    maildir = make_maildir(tmp_path)
    assert cli.main(["absolutize", str(maildir)]) == 1
    assert "--in-place only" in capsys.readouterr().err
    assert cli.main(["absolutize", "--in-place", str(maildir)]) == 0
    assert (maildir / "cur" / "1.a:2,S").read_bytes() == (GOLD / "nested-multipart.absolutized.eml").read_bytes()
    assert (maildir / "new" / "2.b").read_bytes() == (GOLD / "content-base.absolutized.eml").read_bytes()


def test_rewrite_of_a_message_changes_only_its_parts(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = tmp_path / "forwarded.eml"
    shutil.copy(CORPUS / "forwarded.eml", path)
    assert cli.main(["rewrite", str(path)]) == 0  # no option: the identity, byte for byte
    assert capsysbinary.readouterr().out == path.read_bytes()
    assert cli.main(["rewrite", "--unwrap", "--in-place", str(path)]) == 0
    # the quoted wrapped reference of part 1 is joined on one line; headers and the forwarded message are as they were
    assert path.read_bytes() == (CORPUS / "forwarded.eml").read_bytes().replace(
        b"<https://drafts.example.net/spec/\r\n> draft-07.html>", b"<https://drafts.example.net/spec/draft-07.html>"
    )


def test_rewrite_angle_on_an_mbox_escapes_from_lines_again(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    mbox = CORPUS / "archive.mbox"
    assert cli.main(["rewrite", "--angle", str(mbox)]) == 0
    out = capsysbinary.readouterr().out
    assert b">From the archives: <http://archive.example.org/1999/post.html>\n" in out  # mboxrd: escaped again
    assert b">>From the older archives: <http://archive.example.org/1990/>\n" in out
    assert out.count(b"\nFrom ") == 2 and out.startswith(b"From alice@")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_extract_unique_keeps_the_first_of_each_absolute_url_within_each_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # issue 9: "--unique in the CLI keeps the first of each absolute URL across the parts of a message"; relative
    # references are all kept, and the next message keeps its own first (the run-wide set dropped both)
    body = (b"Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\n"
            b"http://a.example/ and http://a.example/\n--b\nContent-Type: text/html\n\n"
            b'<a href="http://a.example/">a</a><a href="rel.html">r</a><a href="rel.html">r</a>\n--b--\n')
    mbox = tmp_path / "in.mbox"
    mbox.write_bytes(b"".join(b"From a@b.example Sat Jan  3 01:05:34 1996\nFrom: a@b.example\nSubject: s\n" + body
                              + b"\n" for _ in range(2)))
    text = tmp_path / "notes.txt"
    text.write_text("http://t.example/ http://t.example/\n")
    assert cli.main(["extract", "--unique", "-q", "-j", jobs, str(mbox), str(text)]) == 0
    assert capsys.readouterr().out.splitlines() == ["http://a.example/", "rel.html", "rel.html"] * 2 + [
        "http://t.example/"]


# A message whose header names a single field a message has (Content-Type): by its content alone it is no message,
# but the Maildir that holds it says it is one (its Content-Base is then the base of its link).
TERSE = b"X-Mailer: terse\nContent-Type: text/html\nContent-Base: http://terse.example/d/\n\n<a href=x.html>x</a>\n"


def maildir_in_a_tree(tmp_path: Path) -> Path:
    """A folder holding a text and a Maildir (with a dot file in cur/, which is no message)."""
    maildir = make_maildir(tmp_path / "tree")
    (maildir / "new" / "3.c").write_bytes(TERSE)
    (maildir / "cur" / ".uidlist").write_text("see http://not-a-message.example/\n")
    (tmp_path / "tree" / "notes.txt").write_text("http://notes.example/\n")
    return maildir


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fmt", ["jsonl", "tsv"])
def test_a_maildir_met_under_r_gives_the_records_of_the_maildir_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str, fmt: str
) -> None:
    # each message numbered as in the Maildir (cur/ then new/, in name order), read as a message whatever its
    # content: under -r each file was read as a message of its own (message 0), the terse one as a text
    maildir = maildir_in_a_tree(tmp_path)
    assert cli.main(["extract", "-q", "-j", jobs, "--format", fmt, str(maildir)]) == 0
    named = capsys.readouterr().out.splitlines()
    assert cli.main(["extract", "-q", "-j", jobs, "--format", fmt, "-r", str(tmp_path / "tree")]) == 0
    walked = capsys.readouterr().out.splitlines()
    assert "http://notes.example/" in walked[-1]  # the text after the Maildir, by name
    assert walked[:-1] == named
    if fmt == "jsonl":
        records = [json.loads(line) for line in named]
        assert [(Path(str(r["input"])).name, r["message"]) for r in records][-2:] == [("2.b", 1), ("3.c", 2)]
        assert records[-1]["uri"] == "http://terse.example/d/x.html"


def test_a_maildir_met_under_r_is_rewritten_message_by_message_as_when_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    maildir = maildir_in_a_tree(tmp_path)
    shutil.copy(CORPUS / "malformed.eml", maildir / "new" / "4.d")
    out = tmp_path / "out"
    argv = ["absolutize", "-q", "-r", str(tmp_path / "tree"), "--base-url", "http://site.example/", "-o", str(out)]
    assert cli.main(argv) == 0
    assert f"{maildir / 'new' / '4.d'}: message 3: warning: message: structure" in capsys.readouterr().err
    mirrored = out / "Maildir"
    assert (mirrored / "cur" / "1.a:2,S").read_bytes() == (GOLD / "nested-multipart.absolutized.eml").read_bytes()
    assert (mirrored / "new" / "3.c").read_bytes() == TERSE.replace(b"href=x.html", b"href=http://terse.example/d/x.html")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_maildir_named_counts_its_message_files_as_under_r(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    # the summary's files are the message files read, whether the Maildir is named or met under -r (it said 1)
    maildir = maildir_in_a_tree(tmp_path)
    names = tmp_path / "names"
    names.write_text(f"{maildir}\n")
    summaries = []
    for argv in (["--files-from", str(names)], ["-r", str(maildir)]):
        assert cli.main(["extract", "-j", jobs, *argv]) == 0
        summaries.append(capsys.readouterr().err.split(" in ")[0])
    assert summaries == ["linkkit: 3 file(s), 3 record(s), 12 link(s), 0.0 MB"] * 2


@pytest.mark.parametrize("recursive", [False, True])
def test_a_maildir_message_that_cannot_be_read_is_an_error_record_and_the_next_ones_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, recursive: bool
) -> None:
    # each message file is a document of its own: one larger than a message may be is an error record with its
    # index, in its place, and the messages after it still give their links (reading the Maildir stopped there)
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", 1000)
    monkeypatch.setattr("linkkit.mail.mailbox.HELD_LIMIT", 1000)
    maildir = maildir_in_a_tree(tmp_path)
    (maildir / "cur" / "1.a:2,S").write_bytes(b"Subject: big\n\n" + b"x" * 1000)
    argv = ["-r", str(tmp_path / "tree")] if recursive else [str(maildir)]
    assert cli.main(["extract", "-q", "-j", "1", "--format", "jsonl", *argv]) == 1
    records = jsonl(capsys)[: -1 if recursive else None]  # notes.txt last
    assert [(Path(str(r["input"])).name, r["message"], r["kind"]) for r in records[:1]] == [("1.a:2,S", 0, "error")]
    assert "message 0 at offset 0: a message larger than 1000 bytes" in str(records[0]["error"])
    assert [(r["message"], r["uri"]) for r in records[1:]] == [
        *[(1, g["uri"]) for g in gold("content-base.eml", headers=False)], (2, "http://terse.example/d/x.html")]


LISTED = (b"From: a@example.org\nList-Unsubscribe: <https://l.example/u?token=abc>\nSubject: see http://u:pw@s.example/\n"
          b"X-Trace: https://t.example/?token=kept\nContent-Type: text/plain\n\nbody https://b.example/?token=def\n")


@pytest.mark.parametrize(("options", "expected"), [
    (["--redact-query", "token", "--"], LISTED.replace(b"token=abc", b"token=***").replace(b"u:pw@", b"u:***@")
     .replace(b"token=def", b"token=***")),
    (["--defang"], LISTED.replace(b"https://l.example", b"hxxps://l[.]example")
     .replace(b"http://u:pw@s.example", b"hxxp://u:pw[@]s[.]example").replace(b"https://b.example", b"hxxps://b[.]example")),
])
def test_rewrite_redacts_and_defangs_the_header_fields_that_hold_urls_or_free_text(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], options: list[str], expected: bytes
) -> None:
    # issue 12: a List-Unsubscribe token or a password in a Subject's URL would leak from a redacted archive;
    # other fields (X-Trace) are left as they are
    path = tmp_path / "m.eml"
    path.write_bytes(LISTED)
    assert cli.main(["rewrite", "-q", *options, str(path)]) == 0
    assert capsysbinary.readouterr().out == expected
