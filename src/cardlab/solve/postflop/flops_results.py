"""The results of many flops: kept in a file as they arrive, summed up by texture, drawn.

**The file** (:class:`ResultsFile`): JSON lines. The first line is the header,
``{"format": "cardlab-flops", "version": 1, "config": ...}`` with the
:meth:`~cardlab.solve.postflop.flops.FlopsSpot.as_dict` of the spot; each further line
is one flop's :class:`~cardlab.solve.postflop.flops.FlopResult`, appended and flushed as
soon as it is done. A rerun with the same config reads the flops done and skips them; a
file of another config is refused (its results would mix two spots). A line cut short
when a run was killed is dropped and cut from the file before the next one is written.

**By texture** (:func:`by_texture`): for each value of each texture dimension
(:data:`~cardlab.solve.postflop.flops.DIMENSIONS`), and for all flops together, the
flops' figures averaged with their weights (the raw flops each class stands for):
OOP's bet frequency, each player's EV and equity. A group's equity realisation is
its mean EV over its mean equity times the pot (the realisation of the group as a
whole, not a mean of per-flop ratios). Skipped flops are counted, never averaged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.errors import GameError
from cardlab.poker.games import Game
from cardlab.solve.postflop.flops import (
    CONNECTED,
    DIMENSIONS,
    PAIRING,
    SUITS,
    FlopClass,
    FlopResult,
    FlopsSpot,
    run_flops,
    texture,
)

FORMAT = "cardlab-flops"
VERSION = 1


class ResultsFile:
    """A run's results, one JSON line per flop after a header line with its config."""

    def __init__(self, path: str | Path, config: FlopsSpot) -> None:
        self.path = Path(path)
        self.config = config
        self._whole: int | None = None  # bytes of whole lines, once read

    def read(self) -> dict[str, FlopResult]:
        """The flops done (by their text), after checking the file is this config's."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self._whole = 0
            return {}
        except OSError as error:
            raise GameError(f"cannot read {str(self.path)!r}: {error.strerror}") from None
        self._whole = data.rfind(b"\n") + 1
        lines = data[: self._whole].decode("utf-8", errors="replace").splitlines()
        if not lines:
            return {}
        self._check_header(lines[0])
        done: dict[str, FlopResult] = {}
        for n, line in enumerate(lines[1:], 2):
            try:
                result = FlopResult.from_dict(json.loads(line))
            except (ValueError, GameError):
                raise GameError(f"{self.path}:{n}: not a flop result line") from None
            done[result.flop] = result
        return done

    def _check_header(self, line: str) -> None:
        try:
            header = json.loads(line)
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise GameError(f"{self.path} is not a results file of cardlab solve flops")
        if header.get("version") != VERSION:
            raise GameError(
                f"{self.path} is a version {header.get('version')!r} file, not {VERSION}"
            )
        theirs, ours = _flat(header.get("config")), _flat(self.config.as_dict())
        differ = sorted(k for k in theirs.keys() | ours.keys() if theirs.get(k) != ours.get(k))
        if differ:
            k = differ[0]
            raise GameError(
                f"{self.path} holds another spot's flops ({k} {theirs.get(k)!r} there, "
                f"{ours.get(k)!r} here{' and more' if len(differ) > 1 else ''}): "
                "give the same options to resume it, or another --out"
            )

    def append(self, result: FlopResult) -> None:
        """Write one result at the end (the header first if the file is new)."""
        if self._whole is None:
            self.read()
        assert self._whole is not None
        text = json.dumps(result.as_dict(), ensure_ascii=False, allow_nan=True) + "\n"
        if self._whole == 0:
            header = {"format": FORMAT, "version": VERSION, "config": self.config.as_dict()}
            text = json.dumps(header, ensure_ascii=False) + "\n" + text
        data = text.encode("utf-8")
        with self.path.open("ab") as f:
            if f.tell() > self._whole:
                f.truncate(self._whole)  # a line cut short when the last run was killed
            f.write(data)
            f.flush()
        self._whole += len(data)


def solve_flops(
    config: FlopsSpot,
    flops: Sequence[FlopClass],
    out: str | Path | None = None,
    *,
    client: Any = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[FlopResult]:
    """Every flop's result: those already in the results file ``out`` read back, the
    others solved (:func:`~cardlab.solve.postflop.flops.run_flops`) and appended to it as
    each is done, so that an interrupted run (Ctrl-C: ``KeyboardInterrupt`` goes through)
    keeps them. In the order of ``flops``; ``progress(done, total)`` after each."""
    file = None if out is None else ResultsFile(out, config)
    done = {} if file is None else file.read()
    found = {str(f): done[str(f)] for f in flops if str(f) in done}
    todo = [f for f in flops if str(f) not in found]
    if progress is not None:
        progress(len(found), len(flops))
    for result in run_flops(config, todo, client=client, threads=threads):
        if file is not None:
            file.append(result)
        found[result.flop] = result
        if progress is not None:
            progress(len(found), len(flops))
    return [found[str(f)] for f in flops]


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out |= _flat(v, f"{prefix}.{k}" if prefix else str(k))
        return out
    return {prefix: value}


# --- by texture ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextureRow:
    """The weighted figures of the flops of one texture (see the module's docstring).
    ``classes`` and ``weight`` count the flops solved; ``skipped`` those skipped."""

    dimension: str
    value: str
    classes: int
    weight: int
    skipped: int
    pot: float
    bet: float
    ev: tuple[float, float]
    equity: tuple[float, float]
    realisation: tuple[float, float]

    def as_dict(self) -> dict[str, Any]:
        return {
            "dimension": self.dimension,
            "texture": self.value,
            "classes": self.classes,
            "weight": self.weight,
            "skipped": self.skipped,
            "pot": self.pot,
            "bet": self.bet,
            "ev": {"oop": self.ev[0], "ip": self.ev[1]},
            "equity": {"oop": self.equity[0], "ip": self.equity[1]},
            "realisation": {"oop": self.realisation[0], "ip": self.realisation[1]},
        }


def by_texture(results: Iterable[FlopResult], game: Game) -> list[TextureRow]:
    """All flops first, then each dimension's values in a fixed order (high cards from
    the highest rank down)."""
    results = list(results)
    groups: dict[tuple[str, str], list[FlopResult]] = {("all", "all"): results}
    for r in results:
        t = texture(game.deck.parse_cards(r.flop), game)
        for d in DIMENSIONS:
            groups.setdefault((d, t.value(d)), []).append(r)
    order = {
        "suits": SUITS,
        "pairing": PAIRING,
        "connected": CONNECTED,
        "high": tuple(r.key for r in reversed(game.deck.ranks)),
    }

    def place(key: tuple[str, str]) -> tuple[int, int]:
        d, v = key
        return (-1, 0) if d == "all" else (DIMENSIONS.index(d), order[d].index(v))

    return [_row(d, v, groups[(d, v)]) for d, v in sorted(groups, key=place)]


def _row(dimension: str, value: str, results: Sequence[FlopResult]) -> TextureRow:
    solved = [r for r in results if r.skipped is None]
    weight = sum(r.weight for r in solved)

    def mean(values: Iterable[float]) -> float:
        if not weight:
            return math.nan
        return sum(r.weight * v for r, v in zip(solved, values, strict=True)) / weight

    ev = (mean(r.ev[0] for r in solved), mean(r.ev[1] for r in solved))
    equity = (mean(r.equity[0] for r in solved), mean(r.equity[1] for r in solved))
    pots = {r.pot for r in solved}
    pot = pots.pop() if len(pots) == 1 else math.nan
    realised = tuple(
        e / (q * pot) if q > 0 and pot > 0 else math.nan for e, q in zip(ev, equity, strict=True)
    )
    return TextureRow(
        dimension,
        value,
        len(solved),
        weight,
        len(results) - len(solved),
        pot,
        mean(r.bet for r in solved),
        ev,
        equity,
        (realised[0], realised[1]),
    )


def draw_textures(rows: Sequence[TextureRow], path: str | Path, title: str) -> None:
    """A PNG: OOP's bet frequency and EV share of the pot per texture, one panel each."""
    from cardlab._matplotlib import pyplot

    plt = pyplot()
    shown = [r for r in rows if r.weight]
    labels = [r.value if r.dimension != "high" else f"{r.value} high" for r in shown]
    colours = {d: f"C{i}" for i, d in enumerate(("all", *DIMENSIONS))}
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 0.45 * len(shown) + 2), 7), sharex=True)
    x = range(len(shown))
    bars = [
        ("OOP bets (% of its range)", [100 * r.bet for r in shown]),
        ("OOP EV (% of the pot)", [100 * r.ev[0] / r.pot for r in shown]),
    ]
    for ax, (label, values) in zip(axes, bars, strict=True):
        ax.bar(x, values, color=[colours[r.dimension] for r in shown])
        ax.set_ylabel(label)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylim(0, 100)  # an EV may pass the pot (calls won) or fall below 0
    axes[1].set_xticks(list(x), labels, rotation=60, ha="right", fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
