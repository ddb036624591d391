"""Batch: linkkit over a web archive a real crawler wrote, against the warcio + lxml script a user would write;
FastWARC against warcio; --jobs 1 against --jobs 2 over a folder of texts; peak memory.

    python3 benchmarks/bench_batch.py --shared SHARED_DIR [--work DIR] [--repeat N]
    python3 benchmarks/bench_batch.py --corpus CORPUS_DIR [--work DIR] [--repeat N]

With ``--shared`` the corpus is built by ``SHARED_DIR/make_corpus.sh WORK/corpus`` (a few minutes); ``--corpus``
takes one built before (its ``html/`` and ``text/`` folders). Then, in one run:

1. ``CORPUS/html`` is served by ``python -m http.server`` bound to 127.0.0.1 on a free port and crawled by
   ``wget --recursive --warc-file`` (wget is installed with apt-get when missing); the server is stopped by its pid.
2. linkkit (``linkkit extract --format jsonl -j 1``) and the warcio + lxml script (``ArchiveIterator``, ``response``
   records with an HTML Content-Type, ``lxml.html`` ``iterlinks`` and ``urljoin`` against ``WARC-Target-URI``) read
   that archive, each in a process of its own, in ``--repeat`` interleaved rounds: wall time (best) and CPU time
   (median; what counts on a shared machine), records/s, MB/s, both ratios, and the links each finds that the other
   misses, classified (by where linkkit found them, by the element and attribute
   lxml reports, or "resolved differently" when both read the same reference and made different URIs of it).
3. FastWARC against warcio: every record of the archive read with its content (in this process, best of N).
4. ``linkkit extract -r CORPUS/text`` with ``--jobs 1`` and ``--jobs 2``: wall time, speed-up, same bytes; the CPU
   time of the main process and of its workers apart, the main process's cost per file, and the speed-up two free
   cores allow at most with that split.
5. 1,000 tiny files: the CPU time each file adds (1,000 files against 1), against a bare Python open + read loop
   and against scanning the same texts alone (``linkkit.finditer``).
6. Peak memory (maximum resident set) of each linkkit process, from ``wait4`` in a launcher of its own
   (``processes.py``: a process started by this one would count this one's peak as its own).

Only loopback is used. Nothing is written outside ``--work`` (default: a new temporary folder).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import processes
from peers import ensure

ROOT = Path(__file__).resolve().parent.parent

# The script a user would write: warcio for the records, lxml for the links, urljoin against the target URI.
USER_SCRIPT = r'''
import sys
from urllib.parse import urljoin
from lxml import html
from warcio.archiveiterator import ArchiveIterator

with open(sys.argv[1], "rb") as stream, open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape") as out:
    for record in ArchiveIterator(stream):
        if record.rec_type != "response" or record.http_headers is None:
            continue
        if "html" not in (record.http_headers.get_header("Content-Type") or ""):
            continue
        url = record.rec_headers.get_header("WARC-Target-URI")
        body = record.content_stream().read()
        try:
            document = html.document_fromstring(body)
        except Exception:  # an empty or unparsable page
            continue
        for element, attribute, link, _ in document.iterlinks():
            out.write(f"{url}\t{element.tag}\t{attribute or '#text'}\t{link}\t{urljoin(url, link)}\n")
'''


def run(argv: list[str], *, stdout: int | None = subprocess.DEVNULL) -> tuple[float, int, int, float, str]:
    """Run *argv*; its wall time, exit status, peak resident memory in KiB (of the process itself), CPU seconds
    (its own and its reaped children's: a pool's workers) and what it wrote to standard error
    (:func:`processes.run`: this process's own peak memory is not the command's)."""
    done = processes.run(argv, stdout=stdout)
    if done.status not in (0, 1):
        sys.exit(f"bench_batch: {' '.join(argv)} failed ({done.status}):\n{done.error}")
    return done.wall, done.status, done.memory, done.cpu, done.error


class Timing(NamedTuple):
    """Runs of one command: the best wall time, the largest peak memory (KiB), the median CPU time, and the median of
    what the command printed as ``SPLIT main workers`` (the CPU of a linkkit process and of its workers apart)."""

    wall: float
    memory: int
    cpu: float
    split: tuple[float, float] | None


def interleaved(repeat: int, commands: dict[str, list[str]], outputs: dict[str, Path] | None = None,
                ) -> dict[str, Timing]:
    """*repeat* rounds, each running every command once in turn: what a shared machine does to one round it does
    to all of them. The output a command writes (*outputs*, by its name) is removed before each of its runs, so
    that each writes a new file as a first run does: replacing the previous run's output would charge the freeing
    of its pages to the command (about 30 ms of system time for the archive's 48 MB of JSON lines)."""
    runs: dict[str, list[tuple[float, int, int, float, str]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            if outputs and name in outputs:
                outputs[name].unlink(missing_ok=True)
            runs[name].append(run(argv))
    timings = {}
    for name, done in runs.items():
        splits = [line.split()[1:3] for r in done for line in r[4].splitlines() if line.startswith("SPLIT ")]
        split = None
        if splits:
            split = (statistics.median(float(s[0]) for s in splits), statistics.median(float(s[1]) for s in splits))
        timings[name] = Timing(min(r[0] for r in done), max(r[2] for r in done), statistics.median(r[3] for r in done),
                               split)
    return timings


# linkkit's command line in this process, then the CPU time of this process and of the workers it reaped, apart.
SPLIT = """import resource, sys
from linkkit.cli import main
status = main(sys.argv[1:])
own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print("SPLIT", own.ru_utime + own.ru_stime, workers.ru_utime + workers.ru_stime, file=sys.stderr)
sys.exit(status)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ensure_wget() -> str:
    found = shutil.which("wget")
    if found is None:
        print("installing wget with apt-get", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", "wget"], check=True, stdout=subprocess.DEVNULL)
        found = shutil.which("wget")
    if found is None:
        sys.exit("bench_batch: wget is missing and could not be installed")
    return found


def crawl(site: Path, work: Path) -> Path:
    """Serve *site* on loopback and crawl it with wget into ``WORK/crawl.warc.gz``; the server is stopped."""
    wget = ensure_wget()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(site)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        mirror = work / "wget"
        shutil.rmtree(mirror, ignore_errors=True)
        archive = work / "crawl"
        subprocess.run(
            [wget, "--recursive", "--level=inf", "--no-parent", "--quiet", "-e", "robots=off",
             f"--directory-prefix={mirror}", f"--warc-file={archive}", "--no-warc-keep-log",
             f"http://127.0.0.1:{port}/"],
            check=False,  # wget exits 8 when some page was a 404: the archive holds those responses too
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    return work / "crawl.warc.gz"


def warc_counts(archive: Path) -> tuple[int, int]:
    """Records, and ``response`` records with an HTML payload, in *archive*."""
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    records = html = 0
    with open(archive, "rb") as stream:
        for record in ArchiveIterator(stream, parse_http=True):
            records += 1
            if record.record_type == WarcRecordType.response and "html" in (record.http_content_type or ""):
                html += 1
    return records, html


def read_speed(archive: Path, repeat: int) -> dict[str, float]:
    """Seconds to read every record of *archive* with its content, FastWARC and warcio, best of *repeat*."""
    from fastwarc.warc import ArchiveIterator as FastIterator
    from warcio.archiveiterator import ArchiveIterator as WarcioIterator

    def fastwarc() -> int:
        with open(archive, "rb") as stream:
            return sum(len(record.reader.read()) for record in FastIterator(stream, parse_http=False))

    def warcio() -> int:
        with open(archive, "rb") as stream:
            return sum(len(record.content_stream().read()) for record in WarcioIterator(stream))

    times = {}
    for name, reader in (("fastwarc", fastwarc), ("warcio", warcio)):
        spans = []
        for _ in range(repeat):
            start = time.perf_counter()
            reader()
            spans.append(time.perf_counter() - start)
        times[name] = min(spans)
    return times


def compare(linkkit_jsonl: Path, script_tsv: Path) -> None:
    """The links each side finds that the other misses, as (page, URI) multisets, classified: by where linkkit found
    them and by the element and attribute lxml reports; "resolved differently" when the other side read the same
    reference (the same raw text on the same page) and made another URI of it."""
    ours: collections.Counter[tuple[str, str]] = collections.Counter()
    our_class: dict[tuple[str, str], tuple[str, str]] = {}  # (page, uri) -> (where, raw)
    our_raw: set[tuple[str, str]] = set()
    errors = 0
    with open(linkkit_jsonl, encoding="utf-8", errors="surrogateescape") as lines:
        for line in lines:
            found = json.loads(line)
            if found["kind"] == "error":
                errors += 1
                continue
            key = (found["target_uri"], found["uri"])
            ours[key] += 1
            our_class.setdefault(key, (found["where"], found["raw"]))
            our_raw.add((found["target_uri"], found["raw"].strip()))
    theirs: collections.Counter[tuple[str, str]] = collections.Counter()
    their_class: dict[tuple[str, str], tuple[str, str]] = {}
    their_raw: set[tuple[str, str]] = set()
    with open(script_tsv, encoding="utf-8", errors="surrogateescape") as lines:
        for line in lines:
            page, tag, attribute, raw, uri = line.rstrip("\n").split("\t")
            key = (page, uri)
            theirs[key] += 1
            their_class.setdefault(key, (f"{tag} {attribute}", raw))
            their_raw.add((page, raw.strip()))
    print(f"\n-- links: linkkit {sum(ours.values())}, warcio+lxml {sum(theirs.values())}; "
          f"linkkit error records {errors}")

    def show(title: str, missing: collections.Counter[tuple[str, str]], places: dict[tuple[str, str], tuple[str, str]],
             other_raw: set[tuple[str, str]]) -> None:
        classes: collections.Counter[str] = collections.Counter()
        examples: dict[str, tuple[str, str]] = {}
        for key, count in missing.items():
            place, raw = places[key]
            name = f"{place} (resolved differently)" if (key[0], raw.strip()) in other_raw else place
            classes[name] += count
            examples.setdefault(name, (key[0], raw))
        print(f"{title}: {sum(missing.values())}")
        for name, count in classes.most_common(14):
            page, raw = examples[name]
            print(f"  {count:7}  {name:42} e.g. {raw[:60]!r} on ...{page[-30:]}")

    show("found by linkkit only", ours - theirs, our_class, their_raw)
    show("found by warcio+lxml only", theirs - ours, their_class, our_raw)


def text_jobs(corpus: Path, work: Path, repeat: int) -> None:
    outputs = {jobs: work / f"text-j{jobs}.txt" for jobs in ("1", "2")}
    timings = interleaved(repeat, {
        jobs: [sys.executable, "-c", SPLIT, "extract", "-r", "-q", "-j", jobs, "-o", str(out), str(corpus)]
        for jobs, out in outputs.items()
    }, outputs)
    size = sum(path.stat().st_size for path in corpus.rglob("*") if path.is_file())
    files = sum(1 for path in corpus.rglob("*") if path.is_file())
    empty = work / "empty.txt"
    empty.write_bytes(b"")
    startup = interleaved(repeat, {"start": [sys.executable, "-c", SPLIT, "extract", "-q", "-j", "1", "-o",
                                             str(work / "empty-out.txt"), str(empty)]})["start"]
    digests = {jobs: hashlib.sha256(out.read_bytes()).hexdigest() for jobs, out in outputs.items()}
    print(f"\n-- linkkit extract -r over {corpus.name}/ ({files} files, {size / 1e6:.1f} MB), {repeat} interleaved "
          "rounds")
    for jobs, timing in timings.items():
        print(f"  --jobs {jobs}: {timing.wall:.2f} s wall, {timing.cpu:.2f} s CPU (all processes; "
              f"{timing.cpu / timing.wall:.2f} cores used), {size / 1e6 / timing.wall:.1f} MB/s, peak "
              f"{timing.memory / 1024:.0f} MiB (main process), output {outputs[jobs].stat().st_size} bytes sha256 "
              f"{digests[jobs][:12]}")
    one, two = timings["1"], timings["2"]
    assert two.split is not None
    main_cpu, workers_cpu = two.split
    after_start = main_cpu - startup.cpu  # the main process's work once started: sources, pool, output
    per_file = after_start / files * 1e6
    # Two free cores: the start-up runs alone (the workers are forked after it), then the main process's work and
    # the workers' share the two cores.
    bound = one.cpu / (startup.cpu + max(after_start, (after_start + workers_cpu) / 2))
    print(f"  --jobs 2 CPU: main process {main_cpu:.3f} s (start-up {startup.cpu:.3f} s, then {per_file:.0f} us per "
          f"file), workers {workers_cpu:.3f} s; with two free cores at most {bound:.2f}x --jobs 1 (its CPU "
          f"{one.cpu:.3f} s over the start-up plus the larger of the main process's work and half of all work)")
    # The workers do what --jobs 1 does after its start-up, less walking and writing: what they spend beyond that is
    # the pool's own cost (forking, pickling, each worker loading the scanner), which the bound above pays in full.
    print(f"  workers beyond --jobs 1's work after start-up: {workers_cpu - (one.cpu - startup.cpu):+.3f} s; "
          f"a bound with none, and no main process work: {one.cpu / (startup.cpu + (one.cpu - startup.cpu) / 2):.2f}x")
    print(f"  speed-up --jobs 2 / --jobs 1: {one.wall / two.wall:.2f}x wall (target 1.8x; other jobs on the machine "
          f"take cores from --jobs 2); identical bytes: {digests['1'] == digests['2']}")


def tiny_files(work: Path, repeat: int) -> None:
    folder = work / "tiny"
    folder.mkdir(exist_ok=True)
    for index in range(1000):
        (folder / f"f{index}.txt").write_text(f"file {index} see http://example.com/{index} and www.x.org/{index}.\n")
    names = sorted(str(path) for path in folder.iterdir())
    bare = "import sys\nfor name in sys.argv[1:]:\n    with open(name, 'rb') as file:\n        file.read()\n"
    # scanning alone: the texts read first (not timed apart: the same read is in "open+read"), then only scanned
    scan = ("import sys, linkkit\ntexts = []\nfor name in sys.argv[1:]:\n    with open(name, 'rb') as file:\n"
            "        texts.append(file.read().decode('utf-8', 'surrogateescape'))\n"
            "for text in texts:\n    [ref.uri for ref in linkkit.finditer(text)]\n")
    commands = {
        "linkkit 1000": [sys.executable, "-m", "linkkit", "extract", "-j", "1", *names],
        "linkkit 1": [sys.executable, "-m", "linkkit", "extract", "-j", "1", names[0]],
        "open+read 1000": [sys.executable, "-c", bare, *names],
        "open+read 1": [sys.executable, "-c", bare, names[0]],
        "open+read+scan 1000": [sys.executable, "-c", scan, *names],
        "open+read+scan 1": [sys.executable, "-c", scan, names[0]],
        "version": [sys.executable, "-m", "linkkit", "--version"],
    }
    ripgrep = shutil.which("rg")
    if ripgrep:
        commands["ripgrep"] = [ripgrep, "-o", "https?://[^ ]+", *names]
    t = interleaved(repeat, commands)
    ours = (t["linkkit 1000"].cpu - t["linkkit 1"].cpu) / 999 * 1e6
    theirs = (t["open+read 1000"].cpu - t["open+read 1"].cpu) / 999 * 1e6
    scanning = (t["open+read+scan 1000"].cpu - t["open+read+scan 1"].cpu) / 999 * 1e6 - theirs
    print(f"\n-- 1,000 tiny files, CPU medians of {repeat} interleaved rounds: linkkit extract -j 1 "
          f"{t['linkkit 1000'].cpu:.3f} s, one file {t['linkkit 1'].cpu:.3f} s, 'linkkit --version' "
          f"{t['version'].cpu:.3f} s, python -c pass-like start {t['open+read 1'].cpu:.3f} s")
    print(f"   each extra file: linkkit {ours:.0f} us, a bare Python open + read {theirs:.0f} us, scanning its text "
          f"(linkkit.finditer, each .uri) {scanning:.0f} us; linkkit beyond scanning {ours - scanning:.0f} us "
          f"(target: no more than open + read)")
    if ripgrep:
        print(f"   ripgrep -o: {t['ripgrep'].cpu:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--shared", type=Path, help="the folder holding make_corpus.sh: build the corpus with it")
    source.add_argument("--corpus", type=Path, help="a corpus built before (html/ and text/)")
    parser.add_argument("--work", type=Path, help="where the corpus, the archive and outputs go (default: a new "
                        "temporary folder)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # the script a user would write runs on warcio and lxml (its failure to import them exits 1, as a linkkit run
    # with a failed input does: installed first, not taken for a run)
    ensure({"warcio": "warcio", "lxml": "lxml"}, script="bench_batch")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_batch-"))
    work.mkdir(parents=True, exist_ok=True)
    corpus = args.corpus
    if corpus is None:
        corpus = work / "corpus"
        print(f"building the corpus with make_corpus.sh into {corpus.name}/ ...", file=sys.stderr)
        subprocess.run(["bash", str(args.shared / "make_corpus.sh"), str(corpus)], check=True,
                       stdout=subprocess.DEVNULL)

    print(f"load average before: {' '.join(f'{load:.1f}' for load in os.getloadavg())} on {os.cpu_count()} cores "
          "(other jobs on a shared machine take cores from --jobs 2)")
    archive = crawl(corpus / "html", work)
    records, html_records = warc_counts(archive)
    size = archive.stat().st_size
    print(f"-- the archive: wget --recursive --warc-file over {corpus.name}/html served on 127.0.0.1: "
          f"{records} records, {html_records} HTML responses, {size / 1e6:.1f} MB gzip per record")

    ours = work / "linkkit.jsonl"
    script = work / "user_script.py"
    script.write_text(USER_SCRIPT)
    theirs = work / "user_script.tsv"
    timings = interleaved(args.repeat, {
        "linkkit -j 1": [sys.executable, "-m", "linkkit", "extract", "--format", "jsonl", "-j", "1", "-q", "-o",
                         str(ours), str(archive)],
        "warcio+lxml script": [sys.executable, str(script), str(archive), str(theirs)],
    }, {"linkkit -j 1": ours, "warcio+lxml script": theirs})
    print(f"\n-- one core, the whole archive, {args.repeat} interleaved rounds: wall time best, CPU time median "
          "(process start included)")
    for name, timing in timings.items():
        print(f"  {name:20} {timing.wall:7.2f} s wall {timing.cpu:7.2f} s CPU  {html_records / timing.cpu:8.0f} HTML "
              f"records/s  {records / timing.cpu:8.0f} records/s  {size / 1e6 / timing.cpu:6.1f} MB/s (CPU)  peak "
              f"{timing.memory / 1024:.0f} MiB")
    linkkit, user = timings["linkkit -j 1"], timings["warcio+lxml script"]
    print(f"  linkkit / script speed: {user.wall / linkkit.wall:.2f}x wall, {user.cpu / linkkit.cpu:.2f}x CPU "
          "(target 3x)")
    compare(ours, theirs)

    times = read_speed(archive, args.repeat)
    print(f"\n-- reading every record with its content: FastWARC {times['fastwarc']:.3f} s "
          f"({size / 1e6 / times['fastwarc']:.0f} MB/s), warcio {times['warcio']:.3f} s "
          f"({size / 1e6 / times['warcio']:.0f} MB/s): FastWARC {times['warcio'] / times['fastwarc']:.1f}x")

    text_jobs(corpus / "text", work, args.repeat)
    tiny_files(work, args.repeat)
    print(f"\nload average after: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()
