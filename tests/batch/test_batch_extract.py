"""The batch's pure function on a text read as a stream that fails part way (a damaged compressed file): every
reference of the text read before the failure, then the error."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import linkkit
from linkkit.batch import extract as extract_module
from linkkit.batch.extract import ExtractOptions, extract
from linkkit.sources import Document

TEXT = "".join(f"line {i} <http://example.org/{i}> and www.example.com/{i}, see\n" for i in range(3000)).encode()


class _Damaged(io.RawIOBase):
    """*data*, then the error a damaged gzip member raises."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        chunk = self.data.read(len(buffer))
        if not chunk:
            raise EOFError("Compressed file ended before the end-of-stream marker was reached")
        buffer[: len(chunk)] = chunk
        return len(chunk)


@pytest.mark.parametrize("cut", [0, 100, 70000, len(TEXT) - 7])
def test_a_stream_cut_short_gives_every_reference_read_before_the_cut_then_the_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cut: int
) -> None:
    path = tmp_path / "t.txt.gz"
    path.write_bytes(b"")
    monkeypatch.setattr(extract_module, "open_input", lambda name: _Damaged(TEXT[:cut]))
    outcome = extract(Document(str(path), "text", path=str(path), size=len(TEXT)), ExtractOptions())
    assert b"".join(outcome.lines).decode().splitlines() == linkkit.findall(TEXT[:cut].decode())
    assert outcome.failed == 1
    assert outcome.messages == [f"linkkit: error: {path}: cannot decompress further: Compressed file ended before "
                                "the end-of-stream marker was reached"]
