"""Figures of reading the poker sites' own hand histories and checking them by replay.

    python benchmarks/site_histories.py CORPUS [CORPUS ...] [--reasons N]
                                        [--import-hands N --template FILE]

Every file under each CORPUS folder whose text cardlab recognises as a site's hand
history (PokerStars, GGPoker, PokerNow; other files are counted as not
recognised) is read hand by hand, each hand replayed on the engine and compared with
the site's own figures (what each collected, the rake, the total pot, the stacks).
Printed per site: hands read, replayed and matching, replayed with a mismatch (with the
first reasons), not replayed (the engine refused an action, with the first reasons),
unsupported (a game or rule cardlab does not play, a cancelled or partial hand: with
the count of each reason), files, seconds, and the peak memory of the process.

``--import-hands N``: the hands of ``--template`` (a PokerStars file, default the tests'
``tests/data/sites/stars-cash.txt``, its hands that replay) written N times over to one
file, each with its own hand number, and imported by ``cardlab history import`` into a
new store in a child process: wall time and peak memory (max RSS) of the child.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from cardlab.errors import CardlabError, HistoryError
from cardlab.table import sites
from cardlab.table.history import replay
from cardlab.table.sites._text import open_text


def _reason(text: str) -> str:
    """A reason without its numbers and names, to count alike reasons together."""
    text = text.split("unsupported: ", 1)[-1]
    text = re.sub(r"^.*?\(line \d+\): ", "", text)
    text = re.sub(r"line \d+: ", "", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.sub(r"\d[\d.,]*", "N", text)[:110]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="+")
    parser.add_argument("--reasons", type=int, default=4)
    parser.add_argument("--import-hands", type=int, default=0)
    parser.add_argument(
        "--template",
        default=str(Path(__file__).resolve().parents[1] / "tests/data/sites/stars-cash.txt"),
    )
    args = parser.parse_args()
    if args.import_hands:
        import_figures(args.import_hands, Path(args.template))
    files = sorted(f for c in args.corpus for f in Path(c).rglob("*") if f.is_file())
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    reasons: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    examples: dict[tuple[str, str], list[str]] = defaultdict(list)
    seconds: Counter[str] = Counter()
    unknown = 0
    for path in files:
        if not sites.is_site_file(path):
            unknown += 1
            continue
        begin = time.perf_counter()
        text, start = open_text(path)
        text.close()
        site = sites.detect(start) or "?"
        try:
            for entry in sites.iter_entries(path):
                assert isinstance(entry, sites.SiteEntry)
                site = entry.site
                c = counts[site]
                c["hands"] += 1
                if entry.history is None:
                    kind = "unsupported" if entry.unsupported else "unread"
                    c[kind] += 1
                    reasons[site, kind][_reason(entry.error or "")] += 1
                    examples[site, kind].append(entry.error or "")
                    continue
                try:
                    r = replay(entry.history, label=sites.label(entry))
                except CardlabError as exc:
                    c["not replayed"] += 1
                    reasons[site, "not replayed"][_reason(str(exc))] += 1
                    examples[site, "not replayed"].append(f"{path}: {exc}")
                    continue
                found = sites.mismatches(entry, r)
                if found:
                    c["mismatched"] += 1
                    reasons[site, "mismatched"][_reason(found[0])] += 1
                    examples[site, "mismatched"].append(f"{path}: {sites.label(entry)}: {found[0]}")
                else:
                    c["matching"] += 1
        except HistoryError as exc:
            counts[site]["files unread"] += 1
            examples[site, "files unread"].append(str(exc))
        counts[site]["files"] += 1
        seconds[site] += time.perf_counter() - begin
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(files)} files, {unknown} not a site's hand history")
    for site, c in sorted(counts.items()):
        replayed = c["matching"] + c["mismatched"]
        print(
            f"\n{site}: {c['files']} files, {c['hands']} hands: {replayed} replayed, "
            f"{c['matching']} matching, {c['mismatched']} mismatched, "
            f"{c['not replayed']} not replayed, {c['unsupported']} unsupported, "
            f"{c['unread']} unread; {seconds[site]:.2f} s"
        )
        for kind in ("mismatched", "not replayed", "unread", "unsupported", "files unread"):
            top = reasons[site, kind].most_common(args.reasons)
            for reason, n in top:
                print(f"  {kind} ({n}): {reason}")
            for example in examples[site, kind][: 1 if top else 0]:
                print(f"    e.g. {example[:300]}")
    print(f"\npeak memory (max RSS): {peak:.0f} MB")


def import_figures(count: int, template: Path) -> None:
    """Import ``count`` PokerStars hands made from ``template`` in a child process."""
    lines = template.read_text(encoding="utf-8").splitlines()
    entries = list(sites.iter_entries(template))
    starts = [e.line - 1 for e in entries] + [len(lines)]
    texts = []  # the hands that replay to the text's figures
    for k, entry in enumerate(entries):
        if entry.history is not None and not sites.mismatches(entry, replay(entry.history)):
            texts.append("\n".join(lines[starts[k] : starts[k + 1]]).strip())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stars.txt"
        with path.open("w", encoding="utf-8") as out:
            for n in range(count):
                text = texts[n % len(texts)]
                number = re.search(r"Hand #(\d+)", text)
                assert number is not None
                out.write(text.replace(number.group(1), f"7{n:011d}", 1) + "\n\n\n")
        db = Path(folder) / "hands.db"
        command = [sys.executable, "-m", "cardlab", "history", "--db", str(db), "import"]
        begin = time.perf_counter()
        done = subprocess.run([*command, str(path)], capture_output=True, text=True, env=os.environ)
        wall = time.perf_counter() - begin
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"import of {count:,} PokerStars hands: {wall:.1f} s, peak {peak:.0f} MB")
        print(f"  {done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr}")


if __name__ == "__main__":
    sys.exit(main())
