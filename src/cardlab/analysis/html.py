"""The designer's report as one self-contained HTML page: tables as HTML, plots as PNG
images embedded in the page (base64), no script and nothing fetched from elsewhere.

The page opens with a table of contents (every deck, variant and part, linked). A
compared rule variant's section shows only what the option changes from its deck's
defaults and names the parts it leaves unchanged. A sampled rate never seen reads
"none in N deals, below X at 95%" (the bound of :func:`.report.none_seen_bound`)."""

from __future__ import annotations

import base64
import html
import io
import math
from fractions import Fraction
from typing import Any

from cardlab import render
from cardlab.analysis.plots import pyplot
from cardlab.poker.categories import Category

_STYLE = """
body { font-family: "Noto Sans CJK JP", "DejaVu Sans", sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #888; margin-top: 2em; }
h3 { margin-top: 1.4em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }
th { background: #eee; } td.l, th.l { text-align: left; }
tr.inv td { background: #fff3cd; }
.deck { display: inline-block; vertical-align: top; margin-right: 2em; }
img { max-width: 100%; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
nav.toc { border: 1px solid #bbb; padding: 0.4em 1.2em; display: inline-block; }
nav.toc ul { margin: 0.2em 0; padding-left: 1.4em; }
.same { color: #555; }
"""


def _name(category_id: str) -> str:
    try:
        return Category(category_id).english
    except ValueError:
        return category_id


def _pct(value: Any, digits: int = 3) -> str:
    return render.percent(Fraction(value) if isinstance(value, str) else value, digits)


def _png(fig: Any) -> str:
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=90)
    return base64.b64encode(out.getvalue()).decode("ascii")


def _img(data: str, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _label(d: dict[str, Any]) -> str:
    return d["deck"] if d["variant"] == "defaults" else f"{d['deck']} ({d['variant']})"


def _bound_pct(value: float) -> str:
    """An upper bound as a percentage of two significant digits, rounded up (so the
    printed figure is still a bound)."""
    pct = value * 100
    digits = max(0, 1 - math.floor(math.log10(pct)))
    scale = 10**digits
    return f"{math.ceil(pct * scale - 1e-9) / scale:.{digits}f}%"


def sampled_rate(value: Any, se: float, deals: int, bound: float | None) -> str:
    """A sampled rate: "p ± se", or "none in N deals, below X at 95%" where the sample
    saw none (``bound``: its one-sided upper bound; computed here if missing)."""
    if float(Fraction(value) if isinstance(value, str) else value) == 0:
        from cardlab.analysis.report import none_seen_bound

        upper = bound if bound is not None else none_seen_bound(deals)
        return f"none in {deals:,} deals, below {_bound_pct(upper)} at 95%"
    return f"{_pct(value)} ± {_pct(se)}"


def _tie_cells(t: dict[str, Any], deals: int) -> list[str]:
    n = int(t.get("deals", deals))
    return [
        sampled_rate(t[side], t[f"{side}_se"], n, t.get(f"{side}_upper95"))
        for side in ("with_suits", "without_suits")
    ]


def rarity_figure(report: dict[str, Any]) -> Any:
    """The share of five-card hands in each rarity range, one bar per deck and range,
    on a log scale: the ranges span five orders of magnitude and more, so a linear (or
    stacked) scale would show only the commonest one."""
    plt = pyplot()
    from matplotlib.ticker import FuncFormatter

    decks = report["decks"]
    lows = sorted({r["low"] for d in decks for r in d["rarity_ranges"]})
    width = 0.84 / max(1, len(decks))
    fig, ax = plt.subplots(
        figsize=(max(7.0, 0.16 * len(decks) * len(lows) + 3.0), 4.6), constrained_layout=True
    )
    colors = plt.cm.tab20 if len(decks) > 10 else plt.cm.tab10
    smallest = 100.0
    for j, d in enumerate(decks):
        shares = {r["low"]: float(Fraction(r["share"])) * 100 for r in d["rarity_ranges"]}
        xs = [k + (j - (len(decks) - 1) / 2) * width for k, low in enumerate(lows) if low in shares]
        hs = [shares[low] for low in lows if low in shares]
        smallest = min([smallest, *(h for h in hs if h > 0)])
        ax.bar(xs, hs, width=width, color=colors(j % colors.N), label=_label(d))
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}%"))
    ax.set_ylim(smallest / 4, 100 * 1.5)
    ax.set_xticks(range(len(lows)), [f"{low}-{low + 1}" for low in lows])
    ax.set_xlabel("rarity range, -log10 P (higher: rarer hands)")
    ax.set_ylabel("share of five-card hands, % (log scale)")
    ax.set_title("Five-card hands by rarity range, every deck (log scale)")
    ax.grid(axis="y", which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    return fig


def _rarity_plot(report: dict[str, Any]) -> str:
    plt = pyplot()
    fig = rarity_figure(report)
    data = _png(fig)
    plt.close(fig)
    return data


def _deck_plot(d: dict[str, Any]) -> str:
    plt = pyplot()
    rows = d["five"]["hands"]
    seven = {r["id"]: r for r in d["seven"]["hands"]}
    omaha = {r["id"]: r for r in d["omaha"]["hands"]}
    names = [_name(r["id"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6.5, 0.32 * len(rows) + 1.2), constrained_layout=True)
    y = list(range(len(rows)))
    for offset, (label, source) in enumerate(
        (("five cards", None), ("best of seven", seven), ("Omaha", omaha))
    ):
        values = []
        for r in rows:
            row = r if source is None else source.get(r["id"])
            p = Fraction(row["probability"]) if row else Fraction(0)
            values.append(render.rarity(p) if p > 0 else 0.0)
        ax.barh([v + (offset - 1) * 0.27 for v in y], values, height=0.27, label=label)
    ax.set_yticks(y, names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("rarity, -log10 P")
    ax.set_title(f"{_label(d)}: rarity of each hand (strongest at the top)", fontsize=9)
    ax.legend(fontsize=7)
    data = _png(fig)
    plt.close(fig)
    return data


def _table(headers: list[str], rows: list[list[str]], left: int = 1, marks: Any = None) -> str:
    head = "".join(
        f'<th class="l">{html.escape(h)}</th>' if i < left else f"<th>{html.escape(h)}</th>"
        for i, h in enumerate(headers)
    )
    body = []
    for k, row in enumerate(rows):
        cells = "".join(
            f'<td class="l">{html.escape(c)}</td>' if i < left else f"<td>{html.escape(c)}</td>"
            for i, c in enumerate(row)
        )
        cls = ' class="inv"' if marks and marks[k] else ""
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


# the parts of a deck's section, by the names of report.SECTIONS they show
_PARTS = {
    "order": "order",
    "hands": "hand table (five cards, best of seven, Omaha)",
    "inversions": "seven-card inversions",
    "no_hand": "no hand",
    "ranges": "hands by rarity range",
    "splits": "split pots",
}
_SHOWS = {
    "order": ("order",),
    "hands": ("five", "seven", "omaha"),
    "inversions": ("seven",),
    "no_hand": ("no_hand",),
    "ranges": ("rarity_ranges",),
    "splits": ("ties",),
}


def _anchor(k: int, part: str = "") -> str:
    return f"deck-{k}" + (f"-{part}" if part else "")


def _hand_rows(
    d: dict[str, Any], base: dict[str, Any] | None
) -> tuple[list[list[str]], list[bool]]:
    """The hand table's rows (and which show a seven-card inversion): every hand, or for a
    variant only those whose figures differ from ``base``'s."""
    seven = {r["id"]: r for r in d["seven"]["hands"]}
    omaha = {r["id"]: r for r in d["omaha"]["hands"]}
    omaha_exact = d["omaha"]["exact"]
    rows, marks = [], []
    for r in d["five"]["hands"]:
        s, o = seven.get(r["id"]), omaha.get(r["id"])
        if base is not None and _same_hand(r["id"], d, base):
            continue
        o_text = "" if o is None else _pct(o["probability"])
        if o is not None and not omaha_exact:
            o_text = sampled_rate(o["probability"], o["std_error"], int(o["total"]),
                                  o.get("upper95"))  # fmt: skip
        rows.append(
            [
                str(r["order"]),
                _name(r["id"]),
                f"{r['count']:,}",
                _pct(r["probability"], 4),
                f"{r['rarity']:.3f}",
                "" if s is None else _pct(s["probability"], 4),
                ", ".join(_name(w) for w in s["inverted_over"]) if s else "",
                o_text,
            ]
        )
        marks.append(bool(s and s["inverted_over"]))
    return rows, marks


def _same_hand(hand: str, d: dict[str, Any], base: dict[str, Any]) -> bool:
    """Whether one hand's row reads the same in the variant ``d`` and its defaults."""

    def row(entry: dict[str, Any], table: str) -> Any:
        rows = [r for r in entry[table]["hands"] if r["id"] == hand]
        return {k: v for k, v in rows[0].items() if k != "name"} if rows else None

    return all(row(d, t) == row(base, t) for t in ("five", "seven", "omaha"))


def _hands_part(d: dict[str, Any], base: dict[str, Any] | None) -> str:
    rows, marks = _hand_rows(d, base)
    omaha_how = "exact" if d["omaha"]["exact"] else f"sampled, {d['omaha']['samples']:,} deals"
    headers = ["#", "hand", "five-card count", "five cards", "rarity", "best of seven",
               "7-card inversion over", f"Omaha ({omaha_how})"]  # fmt: skip
    parts = []
    if base is not None:
        mine = {r["id"] for r in d["five"]["hands"]}
        gone = [_name(r["id"]) for r in base["five"]["hands"] if r["id"] not in mine]
        kept = len(d["five"]["hands"]) - len(rows)
        parts.append(
            f"<p>Hands whose figures change: {len(rows)} of {len(d['five']['hands'])}"
            + (f" ({kept} unchanged, not listed)" if kept else "")
            + (f"; no longer hands: {html.escape(', '.join(gone))}" if gone else "")
            + ".</p>"
        )
    parts.append(_table(headers, rows, left=2, marks=marks))
    return "\n".join(parts)


def _part_body(part: str, d: dict[str, Any], base: dict[str, Any] | None, deals: int) -> str:
    if part == "order":
        return f"<p><b>Order</b> (strongest first): {html.escape(d['order'])}</p>"
    if part == "hands":
        return _hands_part(d, base)
    if part == "inversions":
        inv = d["seven"]["inversions"]
        text = "; ".join(f"{_name(a)} more frequent than {_name(b)}" for a, b in inv) or "none"
        return f"<p><b>Seven-card inversions</b>: {html.escape(text)}</p>"
    if part == "no_hand":
        nh = d["no_hand"]
        return (
            "<p><b>No hand</b>: "
            f"{_pct(nh['five'])} of five cards ({html.escape(nh['five'])}), "
            f"{_pct(nh['seven'])} as the best of seven, {_pct(nh['omaha'])} in Omaha.</p>"
        )
    if part == "ranges":
        ranges = [
            [r["range"], ", ".join(_name(h) for h in r["hands"]), _pct(r["share"])]
            for r in d["rarity_ranges"]
        ]
        return _table(["rarity", "hands", "share"], ranges, left=2)
    ties = [[t["game"], *_tie_cells(t, deals)] for t in d["ties"]]
    return _table(["game", "suit tie-breaks on", "off"], ties)


_HEADED = {"hands": "Hands", "ranges": "Hands by rarity range", "splits": "Split pots, heads-up"}


def _changed(part: str, d: dict[str, Any]) -> bool:
    same = d.get("same_as_defaults")
    return same is None or not all(s in same for s in _SHOWS[part])


def _deck_section(k: int, d: dict[str, Any], deals: int, base: dict[str, Any] | None = None) -> str:
    """One deck's section; for a variant (``base``: its deck's defaults) only the parts
    it changes, and a line naming those it leaves unchanged."""
    parts = [
        f'<h2 id="{_anchor(k)}">{html.escape(_label(d))}: {d["cards"]} cards, '
        f"{d['five']['combinations']:,} five-card hands</h2>"
    ]
    variant = base is not None and "same_as_defaults" in d
    if variant:
        same = [_PARTS[p] for p in _PARTS if not _changed(p, d)]
        option, deck = html.escape(d["variant"]), html.escape(d["deck"])
        if len(same) == len(_PARTS):
            parts.append(
                f'<p class="same">{option} changes nothing on {deck}: every figure is '
                f"unchanged from the defaults ({html.escape(', '.join(same))}).</p>"
            )
        else:
            what = html.escape(", ".join(same) if same else "nothing")
            parts.append(
                f'<p class="same">Only what {option} changes from the {deck} defaults is '
                f"shown. Unchanged: {what}.</p>"
            )
    for part in _PARTS:
        if part in _HEADED and (not variant or _changed(part, d)):
            parts.append(f'<h3 id="{_anchor(k, part)}">{_HEADED[part]}</h3>')
        if variant and not _changed(part, d):
            continue
        parts.append(_part_body(part, d, base if variant else None, deals))
    if not variant or _changed("hands", d):
        parts.append(_img(_deck_plot(d), f"rarity of each hand in {_label(d)}"))
    return "\n".join(parts)


def _summary(report: dict[str, Any]) -> str:
    rows = []
    for d in report["decks"]:
        holdem = next((t for t in d["ties"] if t["game"].endswith("-holdem")), None)
        splits = ["", ""] if holdem is None else _tie_cells(holdem, report["tie_samples"])
        rows.append(
            [
                _label(d),
                str(d["cards"]),
                _pct(d["no_hand"]["five"]),
                _pct(d["no_hand"]["seven"]),
                *splits,
                str(len(d["seven"]["inversions"])),
            ]
        )
    return _table(
        [
            "deck",
            "cards",
            "no hand (5 cards)",
            "no hand (best of 7)",
            "Hold'em splits, suits on",
            "suits off",
            "7-card inversions",
        ],
        rows,
    )


def pushfold_figure(section: dict[str, Any]) -> Any:
    """The share of hands pushed (solid) and called (hatched) at each stack, one group
    of bars per stack and one colour per deck."""
    plt = pyplot()
    decks = section["decks"]
    stacks = section["stacks"]
    fig, ax = plt.subplots(figsize=(7.5, 4.2), constrained_layout=True)
    width = 0.8 / max(1, 2 * len(decks))
    colors = plt.cm.tab10
    for j, d in enumerate(decks):
        for side, (key, hatch) in enumerate((("push_share", ""), ("call_share", "//"))):
            xs = [k + (2 * j + side - (2 * len(decks) - 1) / 2) * width for k in range(len(stacks))]
            hs = [100 * r[key] for r in d["stacks"]]
            label = f"{d['deck']} {'push' if side == 0 else 'call'}"
            ax.bar(xs, hs, width=width, color=colors(j % 10), hatch=hatch, edgecolor="white",
                   label=label)  # fmt: skip
    ax.set_xticks(range(len(stacks)), [f"{s:g} big blinds" for s in stacks])
    ax.set_ylabel("share of all hands, %")
    ax.set_ylim(0, 100)
    ax.set_title("Heads-up push/fold: hands pushed (solid) and called (hatched)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
    return fig


def _pushfold_section(section: dict[str, Any] | None) -> str:
    if not section:
        return ""
    from cardlab.analysis.deck_pushfold import MOVE_HEADERS, bound_text, move_rows, share_rows

    plt = pyplot()
    fig = pushfold_figure(section)
    image = _png(fig)
    plt.close(fig)
    headers, rows = share_rows(section)
    parts = [
        '<h2 id="pushfold">Push/fold across decks</h2>',
        '<p class="note">Heads-up No-Limit Hold\'em, both players all in or out before the '
        "flop: the small blind pushes or folds, the big blind calls or folds, at the "
        "equilibrium of each deck (CFR+ on its classes of starting hands, "
        "<code>cardlab solve pushfold</code>; the decks' default rules). Shares are of all "
        "hands dealt. A class's <i>push bound</i> is the highest stack (1 to 25 big blinds "
        f"by halves) at which it pushes with probability 1/2 or more ({bound_text(25)}: at "
        f"every stack of the chart, {bound_text(0)}: at none).</p>",
        _table(headers, rows),
        _img(image, "hands pushed and called at each stack, every deck"),
    ]
    parts.append(
        f'<p class="note"><b>Matching classes across decks.</b> {html.escape(section["matching"])} '
        "A move from or to 25+ is at least what it says.</p>"
    )
    for c in section["moves"]:
        parts.append(
            f"<h3>{html.escape(c['deck'])} against {html.escape(c['reference'])}</h3>"
            f"<p>The push bounds that move most, in big blinds ({c['matched']} classes "
            f"matched, {c['unmatched']} not; mean move of the matched classes "
            f"{c['mean_push_move']:+.2f}).</p>"
        )
        parts.append(_table(MOVE_HEADERS, move_rows(c), left=2))
    return "\n".join(parts)


def _postflop_section(section: dict[str, Any] | None) -> str:
    if not section:
        return ""
    from cardlab.analysis.deck_postflop import HEADERS, range_lines, rows, spot_line

    parts = [
        '<h2 id="postflop">After the flop across decks</h2>',
        '<p class="note">One single-raised pot (IP the preflop raiser, OOP the big blind '
        "who called) solved by <code>cardlab solve postflop</code> on a dry and a wet flop "
        f"of each deck: {html.escape(spot_line(section))}. Frequencies are of the acting "
        "player's range where it acts: OOP's lead at the root, IP's bet after a check, "
        "OOP's check-raise and fold facing that bet, IP's raise and fold facing the lead. "
        "EVs are in chips (the two add up to the pot), equity is OOP's share of the pot "
        "with no more betting.</p>",
        _table(HEADERS, rows(section), left=2),
        "<ul>"
        + "".join(f"<li>{html.escape(line)}</li>" for line in range_lines(section))
        + "</ul>",
        f'<p class="note">Flops: {html.escape(section["flop_rule"])}</p>',
    ]
    return "\n".join(parts)


def _contents(report: dict[str, Any]) -> str:
    """The table of contents: the side-by-side part, then every deck and variant with
    the parts its section shows."""

    def link(target: str, text: str) -> str:
        return f'<a href="#{target}">{html.escape(text)}</a>'

    items = [f"<li>{link('side-by-side', 'Side by side')}</li>"]
    if report.get("pushfold"):
        items.append(f"<li>{link('pushfold', 'Push/fold across decks')}</li>")
    if report.get("postflop"):
        items.append(f"<li>{link('postflop', 'After the flop across decks')}</li>")
    for k, d in enumerate(report["decks"]):
        subs = [
            f"<li>{link(_anchor(k, p), _HEADED[p])}</li>"
            for p in _HEADED
            if d.get("same_as_defaults") is None or _changed(p, d)
        ]
        sub = f"<ul>{''.join(subs)}</ul>" if subs else ""
        items.append(f"<li>{link(_anchor(k), _label(d))}{sub}</li>")
    return f'<nav class="toc" id="contents"><b>Contents</b><ul>{"".join(items)}</ul></nav>'


def report_html(report: dict[str, Any], *, title: str = "cardlab designer's report") -> str:
    """The page."""
    sections = []
    defaults: dict[str, dict[str, Any]] = {}
    for k, d in enumerate(report["decks"]):
        if d["variant"] == "defaults":
            defaults[d["deck"]] = d
        base = None if d["variant"] == "defaults" else defaults.get(d["deck"])
        sections.append(_deck_section(k, d, report["tie_samples"], base))
    compare = ", ".join(report["compare"]) or "none"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{html.escape(title)}</title>
<link rel="icon" href="data:,">
<style>{_STYLE}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p class="note">Exact figures are counted over every hand of the deck; split pots are sampled
({report["tie_samples"]:,} random heads-up deals per row, seed {report["seed"]}, with standard
errors; a split never seen is given as "none in N deals" with its exact one-sided 95% upper
bound), and Omaha is sampled ({report["omaha_samples"]:,} deals) where the exact count is
a cluster job. Rule options compared: {html.escape(compare)}; a compared option's section
shows only what it changes. The publisher compares decks
by the share of <i>no hand</i>: about 50% with ordinary cards, 45% and 43% as Mixwell is
added.</p>
{_contents(report)}
<h2 id="side-by-side">Side by side</h2>
{_summary(report)}
{_img(_rarity_plot(report), "five-card hands by rarity range, every deck, log scale")}
{_pushfold_section(report.get("pushfold"))}
{_postflop_section(report.get("postflop"))}
{chr(10).join(sections)}
</body></html>
"""
