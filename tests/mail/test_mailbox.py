"""linkkit.mail.messages: mbox (RFC 4155, mboxrd unescaping), Maildir, single messages, file objects."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from collections.abc import Callable
from pathlib import Path

import codecs

import pytest
import zstandard
from fixtures_loader import load_table

from linkkit import mail

MBOX = (
    b"From a@example.org Mon Nov 16 09:00:00 2026\n"
    b"Subject: one\n\nA paragraph whose next line starts with From\n"
    b"From here on it is body: no empty line before it\n\n"
    b"From b@example.org Tue Nov 17 10:00:00 2026\n"
    b"Subject: two\n\n>From the archives\n>>From older archives\n>not a From line\n\n"
    b"From c@example.org Wed Nov 18 11:00:00 2026\n"
    b"Subject: three\n\nlast, without the closing empty line\n"
)


def test_mbox_messages_offsets_and_mboxrd_unescaping(tmp_path: Path) -> None:
    path = tmp_path / "box"
    path.write_bytes(MBOX)
    found = list(mail.messages(path))
    assert [m.index for m in found] == [0, 1, 2]
    assert [m.offset for m in found] == [0, MBOX.index(b"From b@"), MBOX.index(b"From c@")]
    assert all(m.path == str(path) for m in found)
    # a "From " line that does not follow an empty line is body (RFC 4155 appendix A)
    assert found[0].data == (b"Subject: one\n\nA paragraph whose next line starts with From\n"
                             b"From here on it is body: no empty line before it\n")
    # mboxrd: one ">" is taken from each ">*From " line
    assert found[1].data == b"Subject: two\n\nFrom the archives\n>From older archives\n>not a From line\n"
    assert found[2].data == b"Subject: three\n\nlast, without the closing empty line\n"
    assert b"".join(m.record for m in found) == MBOX


def test_mbox_record_with_new_data_is_escaped_again() -> None:
    second = list(mail.messages(io.BytesIO(MBOX)))[1]
    assert second.replaced(second.data) == second.record
    new = second.replaced(second.data.replace(b"archives", b"ARCHIVES"))
    assert new == (b"From b@example.org Tue Nov 17 10:00:00 2026\nSubject: two\n\n>From the ARCHIVES\n"
                   b">>From older ARCHIVES\n>not a From line\n\n")


def test_a_message_of_an_mbox_of_bare_cr_lines_is_escaped_again_where_a_cr_ends_a_line() -> None:
    # RFC 4155 appendix A (mboxrd) on a classic Mac OS mailbox: a line starts after a CR
    mbox = (b"From a@example.org Mon Nov 16 09:00:00 2026\rSubject: a\r\r>From here\r\r"
            b"From b@example.org Tue Nov 17 10:00:00 2026\rSubject: b\r\rb\r")
    first, second = mail.messages(io.BytesIO(mbox))
    assert first.replaced(first.data) + second.record == mbox
    assert first.replaced(first.data + b"From there\r") == (b"From a@example.org Mon Nov 16 09:00:00 2026\r"
                                                           b"Subject: a\r\r>From here\r>From there\r\r")


def test_an_mboxcl2_message_rewritten_is_escaped_and_read_back_by_its_separators() -> None:
    body = b"Quoted:\n\nFrom c@example.org Mon Nov 16 09:00:00 2026\nhttp://c.example/\n"
    box = (b"From a@example.org Mon Nov 16 09:00:00 2026\nContent-Length: %d\n\n" % len(body) + body + b"\n"
           b"From b@example.org Tue Nov 17 10:00:00 2026\n\nhttp://b.example/\n")
    first, second = mail.messages(io.BytesIO(box))  # the Content-Length holds the unescaped From line in its body
    new = first.data.replace(b"c.example", b"new.example")
    rewritten = first.replaced(new) + second.record
    assert rewritten.count(b"\n>From c@example.org") == 1  # escaped again; the Content-Length no longer ends it
    assert [m.data for m in mail.messages(io.BytesIO(rewritten))] == [new, second.data]


def test_single_message_file_and_file_object(tmp_path: Path) -> None:
    data = b"Subject: x\r\n\r\nhttp://a.example/\r\n"
    path = tmp_path / "x.eml"
    path.write_bytes(data)
    for source in (path, str(path), io.BytesIO(data)):
        (message,) = mail.messages(source)
        assert (message.index, message.offset, message.data, message.record) == (0, 0, data, data)
    # a file object without a name has no path (a GzipFile over bytes calls itself "")
    for source in (io.BytesIO(data), gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data)))):
        assert [m.path for m in mail.messages(source)] == [None]  # type: ignore[arg-type]


def test_a_text_file_object_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "x.eml"
    path.write_bytes(b"Subject: x\n\nhttp://a.example/\n")
    with path.open(encoding="utf-8") as text, pytest.raises(TypeError, match="binary mode"):
        list(mail.messages(text))  # type: ignore[arg-type]


def test_maildir_cur_then_new_in_name_order(tmp_path: Path) -> None:
    for sub, name, body in [("new", "2.b", b"3"), ("cur", "9.a:2,S", b"2"), ("cur", "1.a:2,", b"1"),
                            ("tmp", "0.x", b"never"), ("cur", ".hidden", b"never")]:
        (tmp_path / sub).mkdir(exist_ok=True)
        (tmp_path / sub / name).write_bytes(b"Subject: " + body + b"\n\n")
    found = list(mail.messages(tmp_path))
    assert [m.data for m in found] == [b"Subject: 1\n\n", b"Subject: 2\n\n", b"Subject: 3\n\n"]
    assert [Path(m.path).name for m in found] == ["1.a:2,", "9.a:2,S", "2.b"]  # type: ignore[arg-type]


def test_an_apple_mail_export_bundle_is_its_mbox(tmp_path: Path) -> None:
    bundle = tmp_path / "Inbox.mbox"  # Apple Mail's export: the mbox with its Info.plist and table_of_contents
    bundle.mkdir()
    (bundle / "mbox").write_bytes(MBOX)
    (bundle / "Info.plist").write_bytes(b'<?xml version="1.0"?>\n<plist version="1.0"><dict/></plist>\n')
    (bundle / "table_of_contents").write_bytes(b"\x00\x01")
    for source in (bundle, f"{bundle}/"):
        found = list(mail.messages(source))
        assert [m.data for m in found] == [m.data for m in mail.messages(io.BytesIO(MBOX))]
        assert {m.path for m in found} == {str(bundle / "mbox")}
    (tmp_path / "mail").mkdir()  # a folder of mail files holding one named mbox is no bundle
    (tmp_path / "mail" / "mbox").write_bytes(MBOX)
    with pytest.raises(mail.MailError, match="not a Maildir"):
        list(mail.messages(tmp_path / "mail"))


@pytest.mark.parametrize(("codec", "compress", "decompress"), [
    ("gzip", gzip.compress, gzip.decompress), ("bzip2", bz2.compress, bz2.decompress),
    ("xz", lzma.compress, lzma.decompress),
    ("zstd", lambda data: zstandard.ZstdCompressor().compress(data),
     lambda data: zstandard.ZstdDecompressor().decompressobj().decompress(data)),
])
def test_a_maildir_message_stored_compressed_is_the_message_it_decompresses_to(
    tmp_path: Path, codec: str, compress: Callable[[bytes], bytes], decompress: Callable[[bytes], bytes]
) -> None:
    data = b"Subject: z\n\nhttp://a.example/\n"
    (tmp_path / "cur").mkdir()
    (tmp_path / "cur" / "1700000000.M1P1.host,S=28:2,SZ").write_bytes(compress(data))  # Dovecot's zlib plugin
    (message,) = mail.messages(tmp_path)
    assert (message.data, message.compression) == (data, codec)
    assert [link.uri for link in mail.links(message.data)] == ["http://a.example/"]
    assert message.replaced(data) == message.record
    assert decompress(message.replaced(b"Subject: z\n\nhttp://b.example/\n")) == b"Subject: z\n\nhttp://b.example/\n"


def test_a_damaged_compressed_maildir_message_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "1:2,Z").write_bytes(gzip.compress(b"Subject: z\n\nhttp://a.example/\n")[:-12])
    with pytest.raises(mail.MailError, match=r"new/1:2,Z: message 0: cannot decompress its gzip data"):
        list(mail.messages(tmp_path))


def test_a_folder_that_is_no_maildir_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(mail.MailError, match="not a Maildir"):
        list(mail.messages(tmp_path))


def test_mbox_is_streamed_one_message_at_a_time() -> None:
    class Lines(io.RawIOBase):
        """A file that counts how far it was read."""

        def __init__(self, data: bytes) -> None:
            self.inner = io.BytesIO(data)
            self.read_to = 0

        def readable(self) -> bool:
            return True

        def readline(self, size: int | None = -1) -> bytes:
            line = self.inner.readline(-1 if size is None else size)
            self.read_to = self.inner.tell()
            return line

    box = b"".join(b"From x@example.org Mon Nov 16 09:00:00 2026\nSubject: %d\n\nbody\n\n" % i for i in range(1000))
    source = Lines(box)
    iterator = mail.messages(source)  # type: ignore[arg-type]
    first = next(iterator)
    assert first.data == b"Subject: 0\n\nbody\n"
    assert source.read_to < 200  # the first message was handed out after reading about one message


LIMIT = 1000  # the most bytes of one message held whole, made small for these tests (linkkit.io.HELD_LIMIT)
FROM_LINE = b"From a@example.org Mon Nov 16 09:00:00 2026\n"
SMALL = b"Subject: small\n\nhttp://a.example/\n"


class Counted(io.BytesIO):
    """A file that records the furthest it was read."""

    read_to = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.read_to = max(self.read_to, self.tell())
        return line


@pytest.mark.parametrize(
    ("data", "held", "error"),
    [
        # an mbox: the messages before the large one, then its error (index, offset of its From line)
        (FROM_LINE + SMALL + b"\n" + FROM_LINE + b"Subject: big\n\n" + b"x\n" * 5000, 1,
         "message 1 at offset 79: a message larger than 1000 bytes"),
        # a message file of many lines, and one of a single line with no line end (read a line at a time)
        (b"Subject: big\n\n" + b"x\n" * 5000, 0, "message 0 at offset 0: a message larger than 1000 bytes"),
        (b"Subject: big\n\n" + b"x" * 10000, 0, "message 0 at offset 0: a message larger than 1000 bytes"),
        (FROM_LINE + b"Subject: big\n\n" + b"x" * 10000, 0, "message 0 at offset 0: a message larger than 1000"),
    ],
)
def test_a_message_larger_than_the_limit_is_an_error_read_no_further_than_it(
    monkeypatch: pytest.MonkeyPatch, data: bytes, held: int, error: str
) -> None:
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", LIMIT)
    monkeypatch.setattr("linkkit.mail.mailbox.HELD_LIMIT", LIMIT)
    source = Counted(data)
    found = []
    with pytest.raises(mail.MailError, match=error) as raised:
        found.extend(mail.messages(source))
    assert str(raised.value).startswith("<mailbox>: ")
    assert [m.data for m in found] == [SMALL] * held
    assert source.read_to <= 2 * LIMIT + len(FROM_LINE + SMALL) + 1  # memory follows the limit, not the input


def test_a_maildir_message_larger_than_the_limit_is_an_error_naming_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("linkkit.io.HELD_LIMIT", LIMIT)
    monkeypatch.setattr("linkkit.mail.mailbox.HELD_LIMIT", LIMIT)
    (tmp_path / "cur").mkdir()
    (tmp_path / "cur" / "1").write_bytes(SMALL)
    (tmp_path / "cur" / "2").write_bytes(b"x" * (LIMIT + 1))
    found = []
    with pytest.raises(mail.MailError, match=r"cur/2: message 1 at offset 0: a message larger than 1000 bytes"):
        found.extend(mail.messages(tmp_path))
    assert [m.data for m in found] == [SMALL]


@pytest.mark.parametrize(("head", "expected"), load_table("mail/sniff.txt"))
def test_mail_is_told_by_its_first_bytes(head: str, expected: str) -> None:
    data = codecs.escape_decode(head.encode("utf-8"))[0]
    assert mail.looks_like_mail(data) == (expected == "mail")
