"""Drivers: the same pure function mapped over documents, in input order, by the local process or a pool of them
(``--jobs``), or by a Dask cluster (``--engine dask``). Documents go out in chunks (one task, many small files) and
results come back in order, with a bounded number of chunks in flight: memory does not grow with the input."""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from ..sources.document import Document

Result = TypeVar("Result")
ChunkFunction = Callable[[list[Document]], list[Result]]

CHUNK_DOCUMENTS = 256  # documents per task at most: many tiny files cost one task, not one each
CHUNK_BYTES = 1 << 20  # and about this many bytes of input per task, so that work spreads over the workers
# Chunks queued per worker: results come back in input order, so a slow chunk (one large file) holds back the ones
# after it; enough of them keep the other workers busy meanwhile, and memory stays bounded by their number.
IN_FLIGHT = 8


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
    (no pool is started for a handful of files); else in a pool of *jobs* processes."""
    pending = chunks(documents)
    first = list(itertools.islice(pending, 2))
    if jobs <= 1 or len(first) < 2:
        for chunk in itertools.chain(first, pending):
            yield from function(chunk)
        return
    import multiprocessing  # loaded only for a pool

    # fork where there is one: the workers start at once and inherit the loaded modules
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs) as pool:
        yield from _ordered(lambda chunk: pool.apply_async(function, (chunk,)), lambda future: future.get(),
                            itertools.chain(first, pending), IN_FLIGHT * jobs)


def run_dask(function: ChunkFunction[Result], documents: Iterable[Document], *, scheduler: str | None, jobs: int,
             ) -> Iterator[Result]:
    """*function* over chunks of *documents* on a Dask cluster: the one at *scheduler* (``tcp://host:8786``), or a
    local one of *jobs* worker processes listening on the loopback interface only. A document read from a path
    is read by the worker, so the paths must name the same files there (a shared file system)."""
    from dask.distributed import Client, LocalCluster

    if scheduler is not None:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(
            host="127.0.0.1", n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
        )
        client = Client(cluster)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        yield from _ordered(lambda chunk: client.submit(function, chunk, pure=False), lambda future: future.result(),
                            chunks(documents), IN_FLIGHT * workers)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
