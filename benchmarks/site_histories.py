"""Figures of reading the poker sites' own hand histories and checking them by replay.

    python benchmarks/site_histories.py CORPUS [CORPUS ...] [--reasons N]

Every file under each CORPUS folder whose text cardlab recognises as a site's hand
history (PokerStars, GGPoker, PokerNow; other files are counted as not
recognised) is read hand by hand, each hand replayed on the engine and compared with
the site's own figures (what each collected, the rake, the total pot, the stacks).
Printed per site: hands read, replayed and matching, replayed with a mismatch (with the
first reasons), not replayed (the engine refused an action, with the first reasons),
unsupported (a game or rule cardlab does not play, a cancelled or partial hand: with
the count of each reason), files, seconds, and the peak memory of the process.
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
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
    args = parser.parse_args()
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


if __name__ == "__main__":
    sys.exit(main())
