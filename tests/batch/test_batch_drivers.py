"""The local driver: the same bytes whatever --jobs, results in input order, documents sent in chunks."""

from __future__ import annotations

import gc
import gzip
import itertools
import os
import signal
import weakref
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from warc_builder import per_record_gzip, response

from linkkit import cli
from linkkit.batch import drivers
from linkkit.batch.drivers import chunks, run_local
from linkkit.sources import Document


def _pid_chunk(documents: list[Document]) -> list[tuple[str, int]]:
    return [(document.name, os.getpid()) for document in documents]


def corpus(root: Path) -> Path:
    """Texts, HTML, a message, a compressed file and a WARC: every kind of document, in several folders."""
    for folder in range(4):
        sub = root / f"d{folder}"
        sub.mkdir(parents=True)
        for index in range(12):
            text = f"{folder}/{index} http://t.example/{folder}/{index}. www.w.example\n"
            (sub / f"t{index:02}.txt").write_text(text)
        (sub / "page.html").write_text(f'<a href="p{folder}.html">x</a><img src="/i{folder}.png">')
        (sub / "note.txt.gz").write_bytes(gzip.compress(f"gz http://g.example/{folder}\n".encode()))
    (root / "m.eml").write_bytes(b"From: a@example.org\nSubject: s\n\nmail http://mail.example/x\n")
    archive, _ = per_record_gzip([response(f"http://site.example/{i}/", f'<a href="{i}.html">x</a>'.encode(),
                                           headers=[("Content-Type", "text/html")]) for i in range(5)])
    (root / "crawl.warc.gz").write_bytes(archive)
    return root


@pytest.mark.parametrize("format", ["plain", "jsonl", "tsv", "csv"])
def test_jobs_1_and_jobs_2_give_identical_bytes(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch, format: str
) -> None:
    root = corpus(tmp_path / "corpus")
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 3)  # many chunks, so that the pool has work to share
    outputs = []
    for jobs in ("1", "2"):
        assert cli.main(["extract", "-r", "-q", "--format", format, "-j", jobs, "--base", "http://b.example/",
                         str(root)]) == 0
        outputs.append(capsysbinary.readouterr().out)
    assert outputs[0] == outputs[1]
    assert b"http://t.example/3/11" in outputs[0] and b"http://mail.example/x" in outputs[0]
    assert b"http://site.example/4/4.html" in outputs[0]


def test_the_pool_runs_chunks_in_other_processes_and_keeps_input_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 2)
    documents = [Document(f"d{index}", "text", b"") for index in range(40)]
    results = list(run_local(_pid_chunk, documents, jobs=2))
    assert [name for name, _ in results] == [f"d{index}" for index in range(40)]
    assert os.getpid() not in {pid for _, pid in results}


def test_one_job_or_one_chunk_runs_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    documents = [Document(f"d{index}", "text", b"") for index in range(5)]
    assert {pid for _, pid in run_local(_pid_chunk, documents, jobs=4)} == {os.getpid()}  # one chunk: no pool
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    assert {pid for _, pid in run_local(_pid_chunk, documents, jobs=1)} == {os.getpid()}


def _collector_state(documents: list[Document]) -> list[tuple[bool, int]]:
    return [(gc.isenabled(), os.getpid()) for _ in documents]


def _raising(documents: list[Document]) -> list[str]:
    if documents[0].name == "d3":
        raise ValueError("d3")
    return [document.name for document in documents]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_collector_is_paused_while_chunks_run_and_restored_however_the_run_ends(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    documents = [Document(f"d{index}", "text", b"") for index in range(8)]
    states = list(run_local(_collector_state, documents, jobs=jobs))
    assert {enabled for enabled, _ in states} == {False}  # in the workers too
    assert ({pid for _, pid in states} == {os.getpid()}) == (jobs == 1)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    stopped = run_local(_collector_state, documents, jobs=jobs)
    next(stopped)
    assert not gc.isenabled()  # the reader runs with it paused too, between the results
    stopped.close()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    with pytest.raises(ValueError, match="d3"):
        list(run_local(_raising, documents, jobs=jobs))
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()  # a caller's own choices are kept: the collector off, objects of its own frozen
    gc.freeze()
    try:
        list(run_local(_collector_state, documents, jobs=jobs))
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()


class _Cyclic:
    """An object in a reference cycle of its own, as an error kept with its traceback is."""

    def __init__(self) -> None:
        self.itself = self


def test_cycles_made_while_the_collector_is_paused_are_collected_once_they_pass_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    monkeypatch.setattr(drivers, "CYCLES_CHECK", 1_000)
    made: list[weakref.ref[_Cyclic]] = []

    def cyclic(documents: list[Document]) -> list[int]:
        for _ in range(300):  # each with its __dict__: 600 tracked objects a chunk, that no reference frees
            made.append(weakref.ref(_Cyclic()))
        return [sum(ref() is not None for ref in made)]

    alive = list(run_local(cyclic, [Document(f"d{index}", "text", b"") for index in range(10)], jobs=1))
    assert alive[:2] == [300, 600]  # uncollected while paused, until the check
    assert max(alive) < 1_800 and alive[-1] < 10 * 300


def test_chunks_hold_at_most_so_many_documents_or_about_so_many_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 3)
    monkeypatch.setattr(drivers, "CHUNK_BYTES", 100)
    sizes = [10, 10, 10, 10, 200, 5, 5]
    documents = [Document(str(index), "text", size=size) for index, size in enumerate(sizes)]
    assert [[d.name for d in chunk] for chunk in chunks(documents)] == [["0", "1", "2"], ["3", "4"], ["5", "6"]]


def test_memory_is_bounded_by_the_chunks_in_flight_not_by_the_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    pulled = []

    def source() -> object:
        for index in range(100):
            pulled.append(index)
            yield Document(str(index), "text", b"")

    results = run_local(_pid_chunk, source(), jobs=2)  # type: ignore[arg-type]
    next(results)
    # the first result arrives while the source has been read only as far as the window of chunks in flight
    assert len(pulled) <= drivers.IN_FLIGHT * 2 + 2
    assert len(list(results)) == 99


class _Pipe:
    """A worker's end of the pipe, as the main process sees it: what was sent to it."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send_bytes(self, payload: bytes) -> None:
        self.sent.append(payload)


def test_each_chunk_goes_to_the_worker_with_fewest_and_only_a_small_one_to_a_worker_at_work() -> None:
    free, working, full = _Pipe(), _Pipe(), _Pipe()
    busy: dict[Any, deque[int]] = {free: deque(), working: deque([0]), full: deque([1, 2])}
    small, large = b"s" * drivers.AHEAD_BYTES, b"L" * (drivers.AHEAD_BYTES + 1)
    ready = deque([(3, small), (4, small), (5, small), (6, large)])
    drivers._dispatch(ready, busy)  # type: ignore[arg-type]
    assert free.sent[0] == small and busy[free][0] == 3  # the free worker first
    assert sorted([*busy[free], *busy[working]]) == [0, 3, 4, 5] and len(busy[free]) == len(busy[working]) == 2
    assert full.sent == [] and busy[full] == deque([1, 2])  # two in hand at most
    # the large chunk waits for a free worker: sent ahead, it could fill the pipe while that worker waits to send
    assert list(ready) == [(6, large)]
    busy[working].popleft()
    drivers._dispatch(ready, busy)  # type: ignore[arg-type]
    assert list(ready) == [(6, large)]
    busy[working].clear()
    drivers._dispatch(ready, busy)  # type: ignore[arg-type]
    assert working.sent[-1] == large and busy[working] == deque([6]) and not ready


def _echo_large(documents: list[Document]) -> list[bytes]:
    return [document.data * 4 for document in documents]  # results larger than a pipe's buffer


def test_chunks_and_results_larger_than_a_pipe_buffer_pass_without_the_processes_waiting_on_each_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)

    def stuck(*_: object) -> None:
        raise TimeoutError("the main process and a worker wait on each other")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(30)
    try:
        documents = [Document(f"d{index}", "text", bytes([65 + index % 26]) * (index % 3 * 300_000))
                     for index in range(30)]
        results = list(run_local(_echo_large, documents, jobs=2))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert results == [document.data * 4 for document in documents]


def _fail_on_d7(documents: list[Document]) -> list[str]:
    if any(document.name == "d7" for document in documents):
        raise ValueError("d7 cannot be read")
    return [document.name for document in documents]


def _die_on_d7(documents: list[Document]) -> list[str]:
    if any(document.name == "d7" for document in documents):
        os._exit(3)  # a worker killed (out of memory, a signal) returns nothing
    return [document.name for document in documents]


@pytest.mark.parametrize(("function", "error"), [(_fail_on_d7, ValueError), (_die_on_d7, ChildProcessError)])
def test_a_worker_that_raises_or_dies_stops_the_run_with_an_error_after_the_results_before_it(
    monkeypatch: pytest.MonkeyPatch, function: Any, error: type[Exception]
) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    documents = [Document(f"d{index}", "text", b"") for index in range(20)]
    results = run_local(function, documents, jobs=2)
    assert [next(results) for _ in range(7)] == [f"d{index}" for index in range(7)]
    with pytest.raises(error):
        next(results)


def test_a_run_stopped_early_ends_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 1)
    results = run_local(_pid_chunk, [Document(f"d{index}", "text", b"") for index in range(50)], jobs=2)
    workers = {pid for _, pid in itertools.islice(results, 3)}
    results.close()  # the reader went away (a closed pipe): the workers are not left behind
    for pid in workers:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # reaped already: no such child


MAIN_KILLED = """
import multiprocessing, sys, time
from linkkit.batch import drivers
from linkkit.sources import Document

def slow(chunk):
    time.sleep(0.05)
    return [len(chunk)]

drivers.CHUNK_DOCUMENTS = 1
results = drivers.run_local(slow, [Document(f"d{i}", "text", b"x") for i in range(200)], jobs=2)
next(results)
print(" ".join(str(child.pid) for child in multiprocessing.active_children()), flush=True)
time.sleep(600)
"""


def _ended(pid: int) -> bool:
    """Whether the process *pid* is gone or a zombie (ended, its exit not collected by its new parent)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as status:
            return status.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc")
@pytest.mark.parametrize("signal_number", [9, 15])
def test_workers_end_when_the_main_process_is_killed(signal_number: int) -> None:
    # Before: each forked worker held the main process's end of the other workers' pipes, so none saw its own
    # pipe close, and all stayed blocked (ppid 1) for ever after `kill` of the main process.
    import subprocess
    import sys
    import time

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    main = subprocess.Popen([sys.executable, "-c", MAIN_KILLED], stdout=subprocess.PIPE, env=env)
    assert main.stdout is not None
    workers = [int(pid) for pid in main.stdout.readline().split()]
    assert len(workers) == 2
    main.send_signal(signal_number)
    main.wait()
    main.stdout.close()
    for _ in range(3000):  # each ends within a chunk of work; a generous bound against a loaded machine
        if all(_ended(pid) for pid in workers):
            break
        time.sleep(0.01)
    left = [pid for pid in workers if not _ended(pid)]
    for pid in left:  # a failing run does not leave them behind
        os.kill(pid, 9)
    assert left == []
