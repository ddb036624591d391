"""A command run as a process of its own, with its wall time, CPU time and peak memory measured truthfully.

Linux keeps a process's peak resident memory across ``execve``: a command started by this process (fork or vfork)
starts with this process's own peak as its floor, so a benchmark holding a corpus in memory would report that
corpus as every command's peak. Each command is therefore started by a small launcher, a fresh interpreter that
forks and executes it and reports what ``wait4`` says of it (its own and its reaped children's CPU time, its peak
memory) and the wall time from the fork to its end."""

from __future__ import annotations

import subprocess
import sys
from typing import NamedTuple

_LAUNCHER = r"""
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    except OSError as error:
        print(f"{sys.argv[1]}: {error}", file=sys.stderr)
    os._exit(127)
_, status, usage = os.wait4(pid, 0)
print(f"\nMEASURED {time.perf_counter() - start} {usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}", file=sys.stderr)
sys.exit(os.waitstatus_to_exitcode(status))
"""


class Run(NamedTuple):
    """One run of a command: wall seconds, exit status, peak resident memory (KiB), CPU seconds (the command's
    and its reaped children's: a pool's workers), and what it wrote to standard error."""

    wall: float
    status: int
    memory: int
    cpu: float
    error: str


def run(argv: list[str], *, stdout: int | None = subprocess.DEVNULL) -> Run:
    """Run *argv* through the launcher, its standard error read (the launcher's report taken off its end)."""
    process = subprocess.Popen([sys.executable, "-c", _LAUNCHER, *argv], stdout=stdout, stderr=subprocess.PIPE)
    _, error = process.communicate()
    text = error.decode(errors="replace")
    head, _, report = text.rpartition("\nMEASURED ")
    if not report:
        raise RuntimeError(f"{' '.join(argv)}: the launcher did not report (exit {process.returncode}):\n{text}")
    wall, memory, cpu = report.split()
    return Run(float(wall), process.returncode, int(memory), float(cpu), head)

