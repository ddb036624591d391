"""Drivers: the same pure function mapped over documents, in input order, by the local process or a pool of them
(``--jobs``), or by a Dask cluster (``--engine dask``). Documents go out in chunks (one task, many small files) and
results come back in order, with a bounded number of chunks in flight: memory does not grow with the input."""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from ..io import TERMINATING
from ..sources.document import Document

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

Result = TypeVar("Result")
ChunkFunction = Callable[[list[Document]], list[Result]]

CHUNK_DOCUMENTS = 256  # documents per task at most: many tiny files cost one task, not one each
CHUNK_BYTES = 1 << 20  # and about this many bytes of input per task, so that work spreads over the workers
# Chunks queued per worker: results come back in input order, so a slow chunk (one large file) holds back the ones
# after it; enough of them keep the other workers busy meanwhile, and memory stays bounded by their number.
IN_FLIGHT = 8
AHEAD_BYTES = 1 << 15  # a chunk sent to a worker at work holds at most this much (its pickle): _dispatch
# The cyclic garbage collector is paused while a local run maps its function: what a run builds per link and per
# document (rows, lines, documents) holds no cycle (a run over the bundled corpora leaves none), yet the collector's
# passes traversed it, at 10,000 allocations apart still 1-4% of a run. The objects loaded before the run are set
# aside (``gc.freeze``, inherited by forked workers, whose pages a collection would then not copy). After a chunk,
# one collection runs once the tracked objects made since the last one, less those freed, pass CYCLES_CHECK, so
# that cycles made all the same (an error kept with its traceback) stay bounded.
CYCLES_CHECK = 100_000


def chunks(documents: Iterable[Document]) -> Iterator[list[Document]]:
    """*documents* in consecutive chunks of at most CHUNK_DOCUMENTS documents or about CHUNK_BYTES bytes."""
    chunk: list[Document] = []
    size = 0
    for document in documents:
        chunk.append(document)
        size += document.size
        if len(chunk) >= CHUNK_DOCUMENTS or size >= CHUNK_BYTES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def default_jobs() -> int:
    """All the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _ordered(
    submit: Callable[[list[Document]], Any], get: Callable[[Any], list[Result]], pending: Iterator[list[Document]],
    window: int,
) -> Iterator[Result]:
    queued: deque[Any] = deque()
    for chunk in pending:
        queued.append(submit(chunk))
        if len(queued) >= window:
            yield from get(queued.popleft())
    while queued:
        yield from get(queued.popleft())


def run_local(function: ChunkFunction[Result], documents: Iterable[Document], *, jobs: int) -> Iterator[Result]:
    """*function* over chunks of *documents*: in this process for one job, or when all of them fit in one chunk
    (no pool is started for a handful of files); else in a pool of *jobs* processes. The cyclic garbage collector
    is paused meanwhile (CYCLES_CHECK), in the workers too."""
    with _collector_paused():
        pending = chunks(documents)
        first = list(itertools.islice(pending, 2))
        if jobs <= 1 or len(first) < 2:
            for chunk in itertools.chain(first, pending):
                results = function(chunk)
                _collect_if_grown()
                yield from results
            return
        yield from _pooled(function, itertools.chain(first, pending), jobs=jobs, window=IN_FLIGHT * jobs)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector disabled and the loaded objects frozen (CYCLES_CHECK); both undone after, but
    for a caller's own frozen objects, which stay frozen (``gc.unfreeze`` would release them all)."""
    enabled, frozen = gc.isenabled(), gc.get_freeze_count() > 0
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if not frozen:
            gc.unfreeze()
        if enabled:
            gc.enable()


def _collect_if_grown() -> None:
    """One collection when the tracked objects made since the last one, less those freed, pass CYCLES_CHECK."""
    if gc.get_count()[0] > CYCLES_CHECK:
        gc.collect()


class _Worker(NamedTuple):
    """A worker process and the main process's end of the pipe it takes chunks from and sends results to."""

    process: BaseProcess
    connection: Connection


def _serve(connection: Connection, function: ChunkFunction[Any], inherited: list[Connection]) -> None:
    """A worker's life: a chunk in, its results (or the exception it raised) out, until None comes, or until the
    main process is gone (killed: its end of the pipe closed), so that no worker outlives it. *inherited* are the
    main process's ends of the pipes, which a forked worker holds copies of: closed first, or the pipe would never
    be seen to close."""
    for end in inherited:
        end.close()
    for number in TERMINATING:  # in place of the main process's handlers, which fork passed on
        signal.signal(number, _end_worker)
    _unmasked(_STARTING)  # held since the fork (_started): a signal sent meanwhile is taken now, by these handlers
    gc.disable()  # as in the main process (CYCLES_CHECK), which a worker started without fork does not inherit
    while True:
        try:
            chunk = connection.recv()
        except EOFError:
            return
        if chunk is None:
            return
        try:
            reply: tuple[bool, Any] = (True, function(chunk))
        except (KeyboardInterrupt, SystemExit):  # Ctrl-C reaches the whole process group, or the run is ended
            return  # (_end_worker): the main process stops the run
        except BaseException as error:  # sent to the main process, which raises it there
            reply = (False, error)
        _collect_if_grown()
        try:
            connection.send(reply)
        except OSError:  # the main process is gone (BrokenPipeError): nobody to send the results to
            return


def _end_worker(signal_number: int, _frame: object) -> None:
    """A worker asked to end (SIGTERM: the main process stops a run that did not finish) ends through its cleanups,
    so that a file it was rewriting in place or into a mirror keeps no temporary file beside it (ended at once by
    the signal's default, the worker left ``.NAME.linkkit-tmp-PID`` there, which the next ``-r`` run read)."""
    raise SystemExit(128 + signal_number)


# The signals a worker takes as the main process's do not: the run's end (TERMINATING), and Ctrl-C.
_STARTING = (*TERMINATING, signal.SIGINT)


def _started(process: BaseProcess) -> None:
    """Start the worker *process* with :data:`_STARTING` held until it has its own handlers (:func:`_serve`): one
    that came between the fork and them ran the main process's, in the worker (a traceback of ``_Terminated`` on
    standard error, and no cleanup). The main process takes one sent meanwhile once the worker has started."""
    held = _masked(_STARTING)
    try:
        process.start()
    finally:
        _unmasked(_STARTING, held)


def _masked(numbers: tuple[int, ...]) -> set[int] | None:
    """Hold the signals *numbers* (where the platform can), returning the set held before."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return set(signal.pthread_sigmask(signal.SIG_BLOCK, numbers))


def _unmasked(numbers: tuple[int, ...], before: set[int] | None = None) -> None:
    """Take the signals *numbers* again, but those held *before* (:func:`_masked`)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [number for number in numbers if number not in (before or ())])


def _pooled(function: ChunkFunction[Result], pending: Iterator[list[Document]], *, jobs: int, window: int,
            ) -> Iterator[Result]:
    """*function* over *pending* chunks in *jobs* worker processes, results in input order, at most *window*
    chunks read and not yet yielded. A worker takes a chunk when it is free, and a small one more while it works
    (:func:`_dispatch`), the next ones read ahead meanwhile; the main process waits on the pipes itself, with no
    thread of its own: a ``multiprocessing.Pool``'s task and result threads cost the main process about 20 us per
    file."""
    import multiprocessing
    from multiprocessing.connection import wait
    from multiprocessing.reduction import ForkingPickler

    # fork where there is one: the workers start at once and inherit the loaded modules
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    forked = context.get_start_method() == "fork"  # a forked worker holds copies of every pipe end made before it
    workers: list[_Worker] = []
    ready: deque[tuple[int, bytes]] = deque()  # chunks read ahead: their index and their pickle
    done: dict[int, tuple[bool, Any]] = {}  # a chunk's index -> its results, or (False, what it raised)
    read = yielded = 0
    exhausted = finished = False
    try:
        for _ in range(jobs):  # within the try: a run stopped while they start ends those started
            ours, theirs = context.Pipe()
            inherited = [*(worker.connection for worker in workers), ours] if forked else []
            process = context.Process(target=_serve, args=(theirs, function, inherited), daemon=True)
            _started(process)
            theirs.close()
            workers.append(_Worker(process, ours))
        busy: dict[Connection, deque[int]] = {worker.connection: deque() for worker in workers}  # chunks sent
        while True:
            # read ahead, so that a worker that finishes gets its next chunk at once
            while not exhausted and len(ready) < 2 * jobs and read - yielded < window:
                chunk = next(pending, None)
                exhausted = chunk is None
                if chunk is not None:
                    ready.append((read, bytes(ForkingPickler.dumps(chunk))))
                    read += 1
            _dispatch(ready, busy)
            while yielded in done:  # in input order: what a chunk raised comes after the results before it
                ok, value = done.pop(yielded)
                if not ok:
                    raise value
                _collect_if_grown()
                yield from value
                yielded += 1
            working = [connection for connection, sent in busy.items() if sent]
            if not working:
                if exhausted and yielded == read:
                    break
                if not busy:
                    raise ChildProcessError("every worker process ended")
                continue  # the window emptied: read on
            for connection in cast("list[Connection]", wait(working)):
                sent = busy[connection]
                try:
                    done[sent[0]] = connection.recv()
                except (EOFError, OSError):  # the worker is gone (killed): no more work for it
                    del busy[connection]
                    for index in sent:
                        done[index] = (False, ChildProcessError("a worker process ended without returning its "
                                                                "results"))
                    continue
                sent.popleft()
            _dispatch(ready, busy)
        finished = True
    finally:
        _stop(workers, finished)


def _dispatch(ready: deque[tuple[int, bytes]], busy: dict[Connection, deque[int]]) -> None:
    """Send the chunks read ahead, each to the worker with the fewest in hand: a free worker takes any, one at work
    a second of at most AHEAD_BYTES, which waits in the pipe's buffer so that the worker goes on without waiting for
    the main process (which shares the cores with it) to read its results. A larger one could fill that buffer while
    the worker, its results unread, waits to send them: each process would wait for the other."""
    while ready and busy:
        connection, sent = min(busy.items(), key=lambda worker: len(worker[1]))
        if len(sent) >= 2 or (sent and len(ready[0][1]) > AHEAD_BYTES):
            return
        index, payload = ready.popleft()
        sent.append(index)
        with contextlib.suppress(OSError):  # the worker is gone: reading its pipe tells so, for each chunk it held
            connection.send_bytes(payload)


def _stop(workers: list[_Worker], finished: bool) -> None:
    """End the workers: asked to, when the run finished (they are waiting for work), else at once."""
    for worker in workers:
        if finished:
            worker.connection.send(None)
        else:
            worker.process.terminate()
        worker.connection.close()
    for worker in workers:
        worker.process.join()


def unusable_scheduler(address: str) -> str | None:
    """Why this client cannot reach a Dask scheduler at *address*, told before trying (each ended in a traceback),
    or None: one another process reaches has a host and a port (``tcp://HOST:8786``), and a ``tls://`` one needs
    the client's certificates in Dask's configuration."""
    from distributed.comm.addressing import get_address_host_port
    from distributed.security import Security

    try:
        get_address_host_port(address)
    except ValueError as error:
        return str(error)
    if address.startswith("tls://") and Security().get_connection_args("client")["ssl_context"] is None:
        return "TLS needs the client's certificates in Dask's configuration (distributed.comm.tls)"
    return None


def run_dask(function: ChunkFunction[Result], documents: Iterable[Document], *, scheduler: str | None, jobs: int,
             ) -> Iterator[Result]:
    """*function* over chunks of *documents* on a Dask cluster: the one at *scheduler* (``tcp://host:8786``), or a
    local one of *jobs* worker processes listening on the loopback interface only. A document read from a path
    is read by the worker, so the paths must name the same files there (a shared file system)."""
    import logging

    import dask
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(  # Dask's own warnings (a task cancelled when the reader went away) are no user's
            host="127.0.0.1", n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
            silence_logs=logging.ERROR,
            # no dashboard, and the scheduler's HTTP server on a free port (on 8787, taken by another cluster, Dask
            # warned on standard error: Port 8787 is already in use)
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )
        client = Client(cluster)
    try:
        if cluster is None:  # a cluster of no worker holds the tasks for ever: one is waited for as the scheduler is
            timeout = dask.config.get("distributed.comm.timeouts.connect")
            try:
                client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise TimeoutError(f"no worker joined it within {timeout}") from None
            _same_linkkit(cast(dict[str, Any], client.get_versions(packages=["linkkit"])))
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        task = partial(_in_folder, function, _working_folder())
        yield from _ordered(lambda chunk: client.submit(task, chunk, pure=False), lambda future: future.result(),
                            chunks(documents), IN_FLIGHT * workers)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


class ClusterMismatch(RuntimeError):
    """The Dask cluster does not run the linkkit of its client."""


def _same_linkkit(versions: dict[str, Any]) -> None:
    """Raise ClusterMismatch unless the scheduler and every worker of a Dask cluster (*versions*, as
    ``Client.get_versions`` gives them) run the client's linkkit: the scheduler unpickles the tasks and the workers
    run them, so one without linkkit, or with another version, ended the run in a traceback of Dask's (``Error
    during deserialization of the task graph``) or gave another version's output."""
    ours = versions["client"]["packages"].get("linkkit")
    found = {"the scheduler": versions["scheduler"]["packages"].get("linkkit")}
    found.update((f"worker {address}", worker["packages"].get("linkkit"))
                 for address, worker in versions["workers"].items())
    for node, version in found.items():
        if version != ours:
            has = "has no linkkit" if version is None else f"runs linkkit {version}"
            raise ClusterMismatch(f"{node} {has}, this client {ours}: install the same on every node")


# One task at a time runs in a folder of its own (the process has one working folder); the work holds the GIL anyway.
_FOLDER_CHANGE = threading.Lock()


def _in_folder(function: ChunkFunction[Result], folder: str | None, chunk: list[Document]) -> list[Result]:
    """*function* over *chunk*, run by a Dask worker in the client's working *folder*, so that a name the user gave
    relative to it (``linkkit extract -r crawls``) means the same file there as to the client, whatever folder the
    worker was started in (it was read there: every file an error, ``No such file or directory``). A worker without
    that folder (a machine that mounts the inputs alone) runs it where it is, its absolute names holding, unless
    the chunk names a file relative to the folder: that is an error, lest another file of that name be read."""
    if folder is None:
        return function(chunk)
    with _FOLDER_CHANGE:
        here = _working_folder()
        if here == folder:  # a local cluster's workers, started here
            return function(chunk)
        try:
            os.chdir(folder)
        except OSError as error:
            if any(document.path is not None and not os.path.isabs(document.path) for document in chunk):
                raise OSError(f"a worker has no folder {folder} ({error.strerror}), which names relative to it "
                              "need: name the inputs by absolute paths") from None
            return function(chunk)
        try:
            return function(chunk)
        finally:
            if here is not None:
                os.chdir(here)


def _working_folder() -> str | None:
    """This process's working folder, None when it was removed (a relative name then names nothing anyway)."""
    try:
        return os.getcwd()
    except OSError:
        return None
