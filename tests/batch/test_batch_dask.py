"""The Dask driver, on one local cluster for the module (loopback only, in this process), gives the bytes of the
local driver."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from warc_builder import per_record_gzip, response

from linkkit import cli
from linkkit.batch import drivers

distributed = pytest.importorskip("dask.distributed")
# as linkkit's own local cluster: no dashboard, the scheduler's HTTP server on a free port (8787 may be taken)
QUIET: dict[str, Any] = {"dashboard_address": None, "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"}}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        host="127.0.0.1", protocol="tcp", n_workers=1, threads_per_worker=2, processes=False, **QUIET,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    root = tmp_path / "in"
    root.mkdir()
    for index in range(30):
        (root / f"t{index:02}.txt").write_text(f"text {index} http://t.example/{index} and mailto:a@{index}.example\n")
    (root / "big.txt").write_text("filler " * 3000 + "http://late.example/\n")  # read by the worker, from its path
    (root / "p.html").write_text('<a href="x.html">x</a>')
    archive, _ = per_record_gzip([response(f"http://site.example/{i}/", f'<a href="{i}">x</a>'.encode(),
                                           headers=[("Content-Type", "text/html")]) for i in range(4)])
    (root / "c.warc.gz").write_bytes(archive)
    (root / "broken").symlink_to(root / "missing")
    return root


@pytest.mark.parametrize("format", ["plain", "jsonl"])
def test_dask_gives_the_bytes_of_the_local_driver(
    scheduler: str, inputs: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch,
    format: str,
) -> None:
    monkeypatch.setattr(drivers, "CHUNK_DOCUMENTS", 4)
    argv = ["extract", "-r", "-L", "-q", "--format", format, "--base", "http://b.example/", str(inputs)]
    assert cli.main([*argv, "-j", "1"]) == 1  # the broken link is an error; the rest goes on
    local = capsysbinary.readouterr()
    assert cli.main([*argv, "--engine", "dask", "--scheduler", scheduler]) == 1
    remote = capsysbinary.readouterr()
    assert remote.out == local.out
    assert remote.err == local.err
    assert b"http://late.example/" in local.out and b"http://site.example/3/3" in local.out


def test_scheduler_without_the_dask_engine_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["extract", "--scheduler", "tcp://127.0.0.1:1"])
    assert stop.value.code == 2
    assert "--scheduler is for --engine dask" in capsys.readouterr().err


def test_a_scheduler_that_cannot_be_reached_is_an_error_naming_it(
    inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was a traceback (OSError: Timed out trying to connect), after Dask's 30 s
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        status = cli.main(["extract", "-q", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9", str(inputs)])
    assert status == 1
    err = capsys.readouterr().err
    assert err.startswith("linkkit: error: --scheduler tcp://127.0.0.1:9: ") and "Traceback" not in err


def test_a_scheduler_address_without_a_port_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["extract", "--engine", "dask", "--scheduler", "nonsense", "-"])
    assert stop.value.code == 2
    assert "--scheduler nonsense: missing port number" in capsys.readouterr().err


def test_a_name_relative_to_the_client_is_read_there_by_workers_started_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    # `dask worker` started in another folder read `linkkit extract -r crawls` in its own: every file an error
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("see http://a.example/\n")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    with distributed.LocalCluster(host="127.0.0.1", n_workers=1, threads_per_worker=1, processes=True,
                                  **QUIET) as cluster:
        monkeypatch.chdir(tmp_path)
        status = cli.main(["extract", "-r", "-q", "--engine", "dask", "--scheduler", cluster.scheduler_address, "in"])
    assert (status, capsys.readouterr()) == (0, ("http://a.example/\n", ""))
    assert os.getcwd() == str(tmp_path)


def test_a_cluster_without_workers_is_an_error_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    # its tasks waited for a worker for ever, the run silent
    import dask

    empty = distributed.LocalCluster(host="127.0.0.1", protocol="tcp", n_workers=0, processes=False, **QUIET)
    with empty as cluster, dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        status = cli.main(["extract", "-q", "--engine", "dask", "--scheduler", cluster.scheduler_address, "-"])
    assert status == 1
    assert capsys.readouterr().err == (f"linkkit: error: --scheduler {cluster.scheduler_address}: "
                                       "no worker joined it within 1s\n")


def test_a_scheduler_without_linkkit_is_an_error_naming_it(
    scheduler: str, inputs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # its tasks did not unpickle there: a traceback of Dask's, "Error during deserialization of the task graph"
    reported = distributed.Client.get_versions

    def without_linkkit(client: distributed.Client, **options: object) -> dict[str, dict[str, dict[str, object]]]:
        versions = reported(client, **options)
        versions["scheduler"]["packages"]["linkkit"] = None
        return versions

    monkeypatch.setattr(distributed.Client, "get_versions", without_linkkit)
    assert cli.main(["extract", "-q", "--engine", "dask", "--scheduler", scheduler, str(inputs)]) == 1
    assert capsys.readouterr() == ("", f"linkkit: error: --scheduler {scheduler}: the scheduler has no linkkit, "
                                       f"this client {metadata.version('linkkit')}: install the same on every node\n")


def test_a_worker_without_the_clients_folder_reads_absolute_names_and_refuses_relative_ones(tmp_path: Path) -> None:
    # it read a relative name in its own folder, where another file of that name may lie
    from linkkit.sources.document import FILE, Document

    (tmp_path / "a.txt").write_text("http://a.example/\n")
    gone = str(tmp_path / "gone")
    absolute = [Document(str(tmp_path / "a.txt"), FILE, path=str(tmp_path / "a.txt"))]
    assert drivers._in_folder(lambda chunk: [document.name for document in chunk], gone, absolute) == [
        str(tmp_path / "a.txt")]
    message = f"a worker has no folder {gone} (No such file or directory), which names relative to it need: "
    with pytest.raises(OSError, match=f"^{re.escape(message)}name the inputs by absolute paths$"):
        drivers._in_folder(lambda chunk: [], gone, [Document("a.txt", FILE, path="a.txt")])


def test_a_local_cluster_whose_reader_goes_away_ends_quietly(tmp_path: Path) -> None:
    # its worker logged "Async instruction for <Task cancelled ...> ended with CancelledError" on standard error,
    # and its scheduler "Port 8787 is already in use" when another cluster (here, this socket) held Dask's port
    for index in range(8):  # a chunk each, at work when the reader goes
        (tmp_path / f"{index}.txt").write_text("".join(f"http://h.example/{n}\n" for n in range(60_000)))
    taken = socket.socket()
    with contextlib.suppress(OSError):  # held by another cluster already
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    with taken:
        run = subprocess.Popen([sys.executable, "-m", "linkkit", "extract", "-q", "-r", "--engine", "dask", "-j", "1",
                                str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert run.stdout is not None and run.stderr is not None
        assert run.stdout.readline() == b"http://h.example/0\n"
        run.stdout.close()
        assert (run.stderr.read(), run.wait(timeout=60)) == (b"", 141)


def test_a_tls_scheduler_without_certificates_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    # Dask's TypeError ("TLS expects a `ssl_context` argument of type ssl.SSLContext") ended the run in a traceback
    with pytest.raises(SystemExit) as stop:
        cli.main(["extract", "--engine", "dask", "--scheduler", "tls://127.0.0.1:1", "-"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.endswith("error: --scheduler tls://127.0.0.1:1: TLS needs the client's "
                                            "certificates in Dask's configuration (distributed.comm.tls)\n")
