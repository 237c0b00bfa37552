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

``--pokerkit``: the same files read by pokerkit's own converters where it has one
(PokerStars, Full Tilt, iPoker, partypoker), hand by hand by the site's hand number:
hands both read and replay to the end, with each player's net equal or different
(with the first differences), and hands only one of them reads.

``--import-hands N``: the hands of ``--template`` (a PokerStars file, default the tests'
``tests/data/sites/stars-cash.txt``, its hands that replay) written N times over to one
file, each with its own hand number, and imported by ``cardlab history import`` into a
new store in a child process, once with ``--jobs 1`` (everything in that process) and
once with ``--jobs`` (default: this machine's cores): wall time, the processor time of the
importing process and of its workers, and the peak memory (max RSS) of each.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter, defaultdict
from decimal import Decimal
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
    parser.add_argument("--pokerkit", action="store_true")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument(
        "--template",
        default=str(Path(__file__).resolve().parents[1] / "tests/data/sites/stars-cash.txt"),
    )
    args = parser.parse_args()
    if args.import_hands:
        import_figures(args.import_hands, Path(args.template), args.jobs)
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
    if args.pokerkit:
        pokerkit_figures(files, args.reasons)


def _nets_by_cardlab(path: Path) -> tuple[dict[str, dict[str, Decimal] | None], set[str]]:
    """Each hand's net per player by cardlab's reader and engine (None: not replayed),
    and the hands whose replay matches the site's own figures."""
    out: dict[str, dict[str, Decimal] | None] = {}
    matching: set[str] = set()
    for entry in sites.iter_entries(path):
        if entry.history is None or entry.name is None:
            continue
        try:
            replayed = replay(entry.history)
        except CardlabError:
            out[entry.name] = None
            continue
        out[entry.name] = dict(zip(entry.history.players, map(_decimal, replayed.net), strict=True))
        if not sites.mismatches(entry, replayed):
            matching.add(entry.name)
    return out, matching


def _nets_by_pokerkit(site: str, text: str) -> dict[str, dict[str, Decimal] | None]:
    """Each hand's net per player by pokerkit's converter and engine (None: not played
    to the end); hands its converter cannot read are left out (it warns and goes on)."""
    from pokerkit import notation

    parser = {
        "pokerstars": notation.PokerStarsParser,
        "fulltilt": notation.FullTiltPokerParser,
        "ipoker": notation.IPokerNetworkParser,
        "partypoker": notation.PartyPokerParser,
    }[site]()
    out: dict[str, dict[str, Decimal] | None] = {}
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        try:
            for hh in parser(text):
                try:
                    state = list(hh)[-1]
                except Exception:  # its engine refuses the hand: not played
                    out[str(hh.hand)] = None
                    continue
                if state.status:  # the hand did not end
                    out[str(hh.hand)] = None
                    continue
                pairs = zip(state.stacks, hh.starting_stacks, strict=True)
                nets = (_decimal(a) - _decimal(b) for a, b in pairs)
                out[str(hh.hand)] = dict(zip(hh.players, nets, strict=True))
        except Exception:  # the converter gave up on the file
            pass
    return out


def _decimal(x: object) -> Decimal:
    return Decimal(str(x))


POKERKIT_SITES = ("pokerstars", "fulltilt", "ipoker", "partypoker")


def pokerkit_figures(files: list[Path], reasons: int) -> None:
    """The hands of ``files`` read by cardlab and by pokerkit's converters, compared."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    differ: dict[str, list[str]] = defaultdict(list)
    for path in files:
        try:
            site = sites.site_of(path)
        except HistoryError:
            continue
        if site not in POKERKIT_SITES:
            continue
        text, _start = open_text(path)
        with text:
            whole = text.read()
        try:
            ours, matching = _nets_by_cardlab(path)
        except HistoryError:
            ours, matching = {}, set()
        theirs = _nets_by_pokerkit(site, whole)
        c = counts[site]
        for hand in ours.keys() | theirs.keys():
            a, b = ours.get(hand, "absent"), theirs.get(hand, "absent")
            if a == "absent":
                c["read by pokerkit only"] += 1
            elif b == "absent":
                c["read by cardlab only"] += 1
            elif a is None or b is None:
                c[
                    "not played to the end by "
                    + ("both" if a is b else "cardlab" if a is None else "pokerkit")
                ] += 1
            elif a == b:
                c["both: the same net"] += 1
            elif hand in matching:
                c["both: another net, cardlab's as the site's figures"] += 1
            else:
                c["both: another net, neither as the site's figures"] += 1
                gap = {
                    p: f"cardlab {a.get(p)}, pokerkit {b.get(p)}" for p in a if a.get(p) != b.get(p)
                }
                differ[site].append(f"{path.name} hand {hand}: {gap}")
    print("\nthe same files by pokerkit's converters (which take no rake):")
    for site, c in sorted(counts.items()):
        print(f"{site}: " + ", ".join(f"{n:,} {what}" for what, n in sorted(c.items())))
        for line in differ[site][:reasons]:
            print(f"  {line[:300]}")


def import_figures(count: int, template: Path, jobs: int) -> None:
    """Import ``count`` PokerStars hands made from ``template`` in a child process, with
    one job and with ``jobs``."""
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
        for n_jobs in sorted({1, jobs}):
            _import_once(path, Path(folder) / f"hands-{n_jobs}.db", count, n_jobs)


_MEASURE = """
import resource, sys, time
from pathlib import Path
from cardlab.store import Store
from cardlab.table.phh_import import import_files
if __name__ == "__main__":
    begin = time.perf_counter()
    with Store.open(sys.argv[1]) as store:
        report = import_files(store, [Path(sys.argv[2])], jobs=int(sys.argv[3]))
    wall = time.perf_counter() - begin
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(report.stored, report.already, len(report.bad), wall, me.ru_utime + me.ru_stime,
          kids.ru_utime + kids.ru_stime, me.ru_maxrss, kids.ru_maxrss)
"""


def _import_once(path: Path, db: Path, count: int, jobs: int) -> None:
    """One import in a new process (as ``cardlab history import --jobs``), measured from
    inside it: the figures of the import alone, not of starting Python."""
    script = db.with_suffix(".py")
    script.write_text(_MEASURE)
    done = subprocess.run(
        [sys.executable, str(script), str(db), str(path), str(jobs)],
        capture_output=True,
        text=True,
        env=os.environ,
    )
    if done.returncode:
        print(f"  import failed: {done.stderr.strip().splitlines()[-1:]}")
        return
    fields = done.stdout.split()
    stored, already, bad = (int(x) for x in fields[:3])
    wall, cpu, workers = (float(x) for x in fields[3:6])
    peak, worker_peak = (int(x) / 1024 for x in fields[6:8])
    print(
        f"import of {count:,} PokerStars hands, {jobs} job{'s' * (jobs > 1)}: {wall:.1f} s "
        f"({count / wall:,.0f} hands/s); processor {cpu:.1f} s here + {workers:.1f} s in "
        f"workers; peak {peak:.0f} MB here, {worker_peak:.0f} MB per worker; "
        f"{stored:,} stored, {already:,} already, {bad:,} bad"
    )


if __name__ == "__main__":
    sys.exit(main())
