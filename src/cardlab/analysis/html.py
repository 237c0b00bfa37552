"""The designer's report as one self-contained HTML page: tables as HTML, plots as PNG
images embedded in the page (base64), no script and nothing fetched from elsewhere."""

from __future__ import annotations

import base64
import html
import io
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


def _rarity_plot(report: dict[str, Any]) -> str:
    plt = pyplot()
    decks = report["decks"]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(decks)), 4.2), constrained_layout=True)
    lows = sorted({r["low"] for d in decks for r in d["rarity_ranges"]})
    bottoms = [0.0] * len(decks)
    colors = plt.cm.viridis
    for k, low in enumerate(lows):
        heights = []
        for d in decks:
            share = next((r["share"] for r in d["rarity_ranges"] if r["low"] == low), "0")
            heights.append(float(Fraction(share)) * 100)
        ax.bar(
            range(len(decks)),
            heights,
            bottom=bottoms,
            color=colors(k / max(1, len(lows) - 1)),
            label=f"rarity {low}-{low + 1}",
        )
        bottoms = [b + h for b, h in zip(bottoms, heights, strict=True)]
    ax.set_xticks(range(len(decks)), [_label(d) for d in decks], rotation=30, ha="right")
    ax.set_ylabel("share of five-card hands, %")
    ax.set_title("Five-card hands by rarity range (-log10 P)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1, 1))
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


def _deck_section(d: dict[str, Any]) -> str:
    parts = [
        f"<h2>{html.escape(_label(d))}: {d['cards']} cards, "
        f"{d['five']['combinations']:,} five-card hands</h2>"
    ]
    parts.append(f"<p><b>Order</b> (strongest first): {html.escape(d['order'])}</p>")
    seven = {r["id"]: r for r in d["seven"]["hands"]}
    omaha = {r["id"]: r for r in d["omaha"]["hands"]}
    omaha_exact = d["omaha"]["exact"]
    rows, marks = [], []
    for r in d["five"]["hands"]:
        s, o = seven.get(r["id"]), omaha.get(r["id"])
        o_text = "" if o is None else _pct(o["probability"])
        if o is not None and not omaha_exact:
            o_text += f" ± {_pct(o['std_error'])}"
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
    omaha_how = "exact" if omaha_exact else f"sampled, {d['omaha']['samples']:,} deals"
    parts.append(
        _table(
            [
                "#",
                "hand",
                "five-card count",
                "five cards",
                "rarity",
                "best of seven",
                "7-card inversion over",
                f"Omaha ({omaha_how})",
            ],
            rows,
            left=2,
            marks=marks,
        )
    )
    inv = d["seven"]["inversions"]
    inv_text = (
        "; ".join(f"{_name(a)} more frequent than {_name(b)}" for a, b in inv) if inv else "none"
    )
    parts.append(f"<p><b>Seven-card inversions</b>: {html.escape(inv_text)}</p>")
    nh = d["no_hand"]
    parts.append(
        "<p><b>No hand</b>: "
        f"{_pct(nh['five'])} of five cards ({html.escape(nh['five'])}), "
        f"{_pct(nh['seven'])} as the best of seven, {_pct(nh['omaha'])} in Omaha.</p>"
    )
    ranges = [
        [r["range"], ", ".join(_name(h) for h in r["hands"]), _pct(r["share"])]
        for r in d["rarity_ranges"]
    ]
    parts.append("<h3>Hands by rarity range</h3>")
    parts.append(_table(["rarity", "hands", "share"], ranges, left=2))
    ties = [
        [
            t["game"],
            f"{_pct(t['with_suits'])} ± {_pct(t['with_suits_se'])}",
            f"{_pct(t['without_suits'])} ± {_pct(t['without_suits_se'])}",
        ]
        for t in d["ties"]
    ]
    parts.append("<h3>Split pots, heads-up</h3>")
    parts.append(_table(["game", "suit tie-breaks on", "off"], ties))
    parts.append(_img(_deck_plot(d), f"rarity of each hand in {_label(d)}"))
    return "\n".join(parts)


def _summary(report: dict[str, Any]) -> str:
    rows = []
    for d in report["decks"]:
        holdem = next((t for t in d["ties"] if t["game"].endswith("-holdem")), None)
        rows.append(
            [
                _label(d),
                str(d["cards"]),
                _pct(d["no_hand"]["five"]),
                _pct(d["no_hand"]["seven"]),
                "" if holdem is None else _pct(holdem["with_suits"]),
                "" if holdem is None else _pct(holdem["without_suits"]),
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


def report_html(report: dict[str, Any], *, title: str = "cardlab designer's report") -> str:
    """The page."""
    sections = [_deck_section(d) for d in report["decks"]]
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
errors), and Omaha is sampled ({report["omaha_samples"]:,} deals) where the exact count is
a cluster job. Rule options compared: {html.escape(compare)}. The publisher compares decks
by the share of <i>no hand</i>: about 50% with ordinary cards, 45% and 43% as Mixwell is
added.</p>
<h2>Side by side</h2>
{_summary(report)}
{_img(_rarity_plot(report), "five-card hands by rarity range, every deck")}
{"".join(sections)}
</body></html>
"""
