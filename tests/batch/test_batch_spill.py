"""A document's output past SPILL_SIZE goes to a temporary file that the writer copies and removes: memory stays
bounded whatever the size of one input, and the output bytes are the same."""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

import pytest

from linkkit import cli
from linkkit.batch import drivers
from linkkit.batch import extract as extract_module
from linkkit.batch.extract import ExtractOptions, extract, extract_all
from linkkit.sources import Document
from linkkit.sources import inputs as inputs_module

TEXT = "".join(f"see http://example.org/{index} and <www.example.com/{index}>.\n" for index in range(300))


def test_a_spilled_outcome_holds_the_same_lines_in_a_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    document = Document("t.txt", "text", TEXT.encode())
    whole = extract(document, ExtractOptions(format="jsonl", spill=True))
    assert whole.spilled is None  # under SPILL_SIZE: held in memory
    monkeypatch.setattr(extract_module, "SPILL_SIZE", 256)
    spilled = extract(document, ExtractOptions(format="jsonl", spill=True))
    assert spilled.lines == [] and spilled.spilled is not None
    assert Path(spilled.spilled).read_bytes() == b"".join(whole.lines)
    assert (spilled.links, spilled.failed) == (whole.links, whole.failed) == (600, False)
    # Without spill (Dask: results travel to another machine) everything stays in the outcome.
    assert extract(document, ExtractOptions(format="jsonl")).lines == whole.lines


def _texts_and_spills(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> tuple[Path, Path]:
    """A folder of *count* copies of TEXT, and the empty folder that temporary files go to for the test."""
    inputs, spills = tmp_path / "in", tmp_path / "spills"
    inputs.mkdir()
    spills.mkdir()
    for index in range(count):
        (inputs / f"{index}.txt").write_text(TEXT, encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(spills))
    return inputs, spills


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_command_line_writes_spilled_output_unchanged_and_leaves_no_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], jobs: str
) -> None:
    inputs, spills = _texts_and_spills(tmp_path, monkeypatch, 3)
    assert cli.main(["extract", "-q", "-r", "--format", "jsonl", "--jobs", jobs, str(inputs)]) == 0
    expected = capsysbinary.readouterr().out
    monkeypatch.setattr(extract_module, "SPILL_SIZE", 256)
    assert cli.main(["extract", "-q", "-r", "--format", "jsonl", "--jobs", jobs, str(inputs)]) == 0
    assert capsysbinary.readouterr().out == expected
    assert expected.count(b"\n") == 1800
    assert list(spills.iterdir()) == []


class _GoneAfterWrites:
    """Standard output whose reader goes away after *allowed* writes (``linkkit extract ... | head -1``), a slow
    reader until then: a write returns once the workers have spilled *ahead* more outcomes (or after a few
    seconds), so that outcomes read ahead and not written are there when the run stops."""

    def __init__(self, allowed: int, spills: Path, ahead: int) -> None:
        self.buffer = self
        self.writes = 0
        self.allowed = allowed
        self.spills = spills
        self.ahead = ahead

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.writes > self.allowed:
            raise BrokenPipeError(32, "Broken pipe")
        for _ in range(500):
            if len(list(self.spills.iterdir())) >= self.ahead:
                break
            time.sleep(0.01)
        return len(data)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise ValueError("not a file descriptor")  # as a captured standard output says


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_stopped_early_leaves_no_temporary_file_of_what_it_did_not_write(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, jobs: str
) -> None:
    # Before: each outcome read ahead (or being made) when the reader went away left its spill file behind, and
    # standard input spooled to a temporary file and not read yet stayed too.
    inputs, spills = _texts_and_spills(tmp_path, monkeypatch, 12)
    monkeypatch.setattr(extract_module, "SPILL_SIZE", 256)
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)  # one outcome, and one spill, per file
    monkeypatch.setattr(inputs_module, "WHOLE_SIZE", 1000)  # standard input goes to a temporary file
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(TEXT.encode()), encoding="utf-8"))
    # one process reads two chunks ahead (the file and standard input) before it writes: gone at once, then
    monkeypatch.setattr("sys.stdout", _GoneAfterWrites(1, spills, 3) if jobs == "2" else _GoneAfterWrites(0, spills, 0))
    names = sorted(str(path) for path in inputs.iterdir())
    assert cli.main(["extract", "-q", "--format", "jsonl", "--jobs", jobs, names[0], "-", *names[1:]]) == 141
    assert list(spills.iterdir()) == []


def test_a_run_of_small_documents_ends_where_it_would_spill_and_none_spills(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # spilling is for one document's lines: a run of small ones ends before the next document instead
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(extract_module, "SPILL_SIZE", 256)
    texts = [f"see http://example.org/{index} and www.example.com/{index}\n" for index in range(50)]
    documents = [Document(f"{index}.txt", "text", text.encode()) for index, text in enumerate(texts)]
    outcomes = extract_all(documents, ExtractOptions(spill=True))
    assert len(outcomes) > 1 and all(outcome.spilled is None for outcome in outcomes)
    assert b"".join(line for outcome in outcomes for line in outcome.lines) == b"".join(
        extract(document, ExtractOptions()).lines[0] for document in documents)
    assert sum(outcome.links for outcome in outcomes) == 100 and list(tmp_path.iterdir()) == []
