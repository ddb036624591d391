"""Links in e-mail: linkkit.mail against urlscan and against the script a user would write (``email`` + urlextract).

    python3 benchmarks/bench_mail.py CORPUS [--repeat N] [--no-install]

CORPUS is a folder made by the project's corpus script (its ``email/`` holds the standard library's e-mail test
messages) or any folder of messages and mailboxes; ``corpora/mail`` (messages written for the project, with
hand-checked gold) is always added.  Every tool reads the same messages (mailboxes are split by
``linkkit.mail.messages``, so an mbox is the same list of messages for all), in one run, timed in CPU time (the
machine may be shared), best of ``--repeat``.

- linkkit: ``linkkit.mail.links(message)``, every text part, HTML with its base.
- urlscan: its own modules, as its command line ``urlscan -n FILE`` runs them: ``BytesParser(policy.default)``
  (with its first-line fix for header-less input), ``urlscan.msgurls``, ``URLChooser(...).urls``.
- email + urlextract: ``email.message_from_bytes(policy=default)``, ``walk()``, ``get_content()`` of each text
  part, ``URLExtract().find_urls``: what a user would write.

Scores: each tool's URLs against the gold of ``corpora/mail`` (as multisets per message; header fields are left
out of the gold for all three, since only linkkit reads them by default; linkkit is also scored with
``headers=True`` against the whole gold): precision, recall, and the number of messages found exactly.
The peers are installed with pip when missing (``--no-install`` to refuse).
"""

from __future__ import annotations

import argparse
import collections
import email
import email.policy
import io
import json
import time
from collections.abc import Callable
from pathlib import Path

from linkkit import mail
from peers import ensure

ROOT = Path(__file__).resolve().parent.parent
GOLD_CORPUS = ROOT / "corpora" / "mail"
GOLD = ROOT / "corpora" / "gold" / "mail"
PEERS = {"urlscan": "urlscan", "urlextract": "urlextract"}  # module -> pip package


def load(folder: Path) -> list[tuple[str, int, bytes]]:
    """(file, index in the file, message bytes) for every message under *folder*."""
    found = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.endswith((".json", ".md"))):
        for message in mail.messages(path):
            found.append((str(path.relative_to(folder)), message.index, message.data))
    return found


# ------------------------------------------------------------------------------------------------------ tools
def linkkit_urls(data: bytes) -> list[str]:
    return [link.uri for link in mail.links(data)]


def linkkit_urls_with_headers(data: bytes) -> list[str]:
    return [link.uri for link in mail.links(data, headers=True)]


def urlscan_tool() -> Callable[[bytes], list[str]]:
    from email import policy
    from email.parser import BytesParser

    from urlscan import __main__ as cli
    from urlscan import urlchoose, urlscan

    def urls(data: bytes) -> list[str]:
        # urlscan/__main__.py process_input() and main() with -n (no browser), for one message
        parser = BytesParser(policy=policy.default.clone(utf8=True))
        message = parser.parse(io.BytesIO(data))
        if "From" not in message and "Date" not in message:
            message = parser.parse(cli._fix_first_line(io.BytesIO(data)))
        chooser = urlchoose.URLChooser(urlscan.msgurls(message, regex=None, headers=False), dedupe=False,
                                       reverse=False, shorten=False)
        return list(chooser.urls)

    return urls


def email_urlextract_tool() -> Callable[[bytes], list[str]]:
    from urlextract import URLExtract

    extractor = URLExtract()

    def urls(data: bytes) -> list[str]:
        found: list[str] = []
        message = email.message_from_bytes(data, policy=email.policy.default)
        for part in message.walk():
            if part.get_content_type() in ("text/plain", "text/html"):
                try:
                    text = part.get_content()
                except (LookupError, ValueError, AssertionError):
                    continue
                found.extend(extractor.find_urls(text))
        return found

    return urls


def guarded(tool: Callable[[bytes], list[str]]) -> Callable[[bytes], tuple[list[str], bool]]:
    def run(data: bytes) -> tuple[list[str], bool]:
        try:
            return tool(data), False
        except Exception:
            return [], True

    return run


# ---------------------------------------------------------------------------------------------------- scoring
def gold() -> dict[tuple[str, int], tuple[list[str], list[str]]]:
    """(file, message index) -> (gold URIs of the bodies, gold URIs with the header fields)."""
    table: dict[tuple[str, int], tuple[list[str], list[str]]] = {}
    for path in sorted(GOLD_CORPUS.iterdir()):
        if path.suffix not in (".eml", ".mbox"):
            continue
        for message in mail.messages(path):
            table[(path.name, message.index)] = ([], [])
        for line in (GOLD / f"{path.name}.links.jsonl").read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            body, everything = table[(path.name, record.get("message", 0))]
            everything.append(record["uri"])
            if record["source"] != "header":
                body.append(record["uri"])
    return table


def score(found: dict[tuple[str, int], list[str]], expected: dict[tuple[str, int], list[str]]) -> str:
    true_positives = found_total = expected_total = exact = 0
    for key, wanted in expected.items():
        got = collections.Counter(found.get(key, []))
        want = collections.Counter(wanted)
        true_positives += sum((got & want).values())
        found_total += sum(got.values())
        expected_total += sum(want.values())
        exact += got == want
    precision = true_positives / found_total if found_total else 1.0
    recall = true_positives / expected_total if expected_total else 1.0
    return f"precision {precision:.2f}, recall {recall:.2f}, exact {exact}/{len(expected)} messages"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path, help="a folder of messages (its email/ subfolder when there is one)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per tool; the best is kept (default 3)")
    parser.add_argument("--no-install", action="store_true", help="do not pip install missing peers")
    args = parser.parse_args()
    ensure(PEERS, install=not args.no_install, script="bench_mail")
    folder = args.corpus / "email" if (args.corpus / "email").is_dir() else args.corpus
    messages = load(folder) + [(f"corpora/mail/{name}", index, data) for name, index, data in load(GOLD_CORPUS)]
    size = sum(len(data) for _, _, data in messages)
    print(f"{len(messages)} messages, {size / 1e6:.3f} MB ({folder} and corpora/mail)")
    tools = {
        "linkkit": guarded(linkkit_urls),
        "urlscan": guarded(urlscan_tool()),
        "email + urlextract": guarded(email_urlextract_tool()),
    }
    rates: dict[str, float] = {}
    results: dict[str, dict[tuple[str, int], list[str]]] = {}
    for name, tool in tools.items():
        best = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            outcome = [tool(data) for _, _, data in messages]
            best = min(best, time.process_time() - start)
        failures = sum(failed for _, failed in outcome)
        results[name] = {(file.removeprefix("corpora/mail/"), index): urls
                         for (file, index, _), (urls, _) in zip(messages, outcome, strict=True)
                         if file.startswith("corpora/mail/")}
        rates[name] = len(messages) / best
        print(f"{name:20} {len(messages) / best:10.1f} messages/s {size / 1e6 / best:8.3f} MB/s"
              f"  ({best:.3f} s CPU, {sum(len(u) for u, _ in outcome)} URLs, {failures} messages raised)")
    for name in tools:
        if name != "linkkit":
            print(f"linkkit is {rates['linkkit'] / rates[name]:.1f}x {name}")
    table = gold()
    bodies = {key: body for key, (body, _) in table.items()}
    print(f"gold of corpora/mail: {len(table)} messages, {sum(len(b) for b in bodies.values())} body URLs, "
          f"{sum(len(e) for _, e in table.values())} with header fields")
    for name in tools:
        print(f"{name:20} {score(results[name], bodies)}")
    with_headers = {key: linkkit_urls_with_headers(data) for file, index, data in messages
                    if file.startswith("corpora/mail/") for key in [(file.removeprefix("corpora/mail/"), index)]}
    print(f"{'linkkit, headers=True':20} {score(with_headers, {k: e for k, (_, e) in table.items()})} (whole gold)")


if __name__ == "__main__":
    main()
