"""The table page's drawing modules as pure functions, run in node (no browser).

``table_panel.choices(state)`` says what the action panel offers from the state alone
and ``table_felt.winners``/``badges``/``seatAngle`` what the felt shows; each case below
states the expectation from the page's rules (docs/web-tables.md), not from the code.
The browser tests (``*_browser.py``) check the same modules drawn in Chromium.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "cardlab" / "web" / "static"
NODE = shutil.which("node")


def _node() -> str:
    """Debian's node (the README's test command installs it): missing is a failure."""
    if NODE is None:
        pytest.fail("node is missing (apt-get install -y nodejs)")
    return NODE


# a module of the page needs a window only for its query string (dom.js's params)
HARNESS = """
globalThis.window = { location: { search: "" } };
const panel = await import("./table_panel.js");
const felt = await import("./table_felt.js");
const draw = await import("./table_draw.js");
const cases = JSON.parse(process.argv[2]);
const out = cases.map(([what, s]) => {
  if (what === "choices") return panel.choices(s);
  if (what === "winners") return [...felt.winners(s)];
  if (what === "badges") return s.seats.map((p) => felt.badges(p, s, felt.winners(s)));
  if (what === "angles") return s.map(([i, base, n]) => felt.seatAngle(i, base, n));
  if (what === "hint") return draw.hintText(s);
  if (what === "range example") return draw.rangeExample(s);
  throw new Error(what);
});
console.log(JSON.stringify(out));
"""


def run(tmp_path: Path, cases: list[tuple[str, Any]]) -> list[Any]:
    for module in STATIC.glob("*.js"):
        shutil.copy(module, tmp_path / module.name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "harness.js").write_text(HARNESS)
    done = subprocess.run(
        [_node(), "harness.js", json.dumps(cases)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: list[Any] = json.loads(done.stdout)
    return result


def seat(n: int, **more: Any) -> dict[str, Any]:
    return {
        "seat": n,
        "name": f"p{n}",
        "kind": "human",
        "cards": [],
        "up": [],
        "in_hand": False,
        "stack": 100,
        "bet": 0,
        "connected": True,
    } | more


def state(legal: dict[str, Any] | None, **more: Any) -> dict[str, Any]:
    me = seat(1, you=True, cards=["As", "Kd"], up=[False, False], in_hand=True)
    base: dict[str, Any] = {
        "table": {"base": "holdem", "hand_number": 4, "config": {}},
        "you": {"seat": 1, "name": "p1"},
        "seats": [me, seat(2, cards=["??", "??"], in_hand=True)],
        "hand": {"over": False},
        "legal": legal,
        "last": None,
        "turn": 7,
    }
    return base | more


BET = {
    "phase": "bet",
    "fold": True,
    "call": 4,
    "check": False,
    "bring_in": None,
    "raise_min": 8,
    "raise_max": 100,
    "bet": False,
    "complete": False,
    "presets": [{"label": "all-in", "amount": 100}],
}


def ids(choice: dict[str, Any]) -> list[tuple[str, str, Any]]:
    return [(b["id"], b["label"], b.get("action") or b.get("message")) for b in choice["buttons"]]


def test_the_action_panel_offers_what_the_rules_allow(tmp_path: Path) -> None:
    check = BET | {"call": 0, "check": True, "fold": False, "raise_min": 2, "bet": True}
    showdown = {"phase": "showdown", "muck": False}
    runs = {"phase": "runs", "runs": 3}
    over = state(None, hand={"over": True}, can_show=True)
    watching = state(BET, you=None)
    folded = state(None, hand={"over": True}, can_show=False)
    bet, checks, shows, three, wait, after, nobody, gone = run(
        tmp_path,
        [
            ("choices", state(BET)),
            ("choices", state(check)),
            ("choices", state(showdown)),
            ("choices", state(runs)),
            ("choices", state(None)),
            ("choices", over),
            ("choices", watching),
            ("choices", folded),
        ],
    )
    assert ids(bet) == [("pt-act-fold", "Fold", "f"), ("pt-act-call", "Call 4", "c")]
    assert bet["raise"] == {"word": "Raise to", "min": 8, "max": 100, "presets": BET["presets"]}
    assert [c["card"] for c in bet["cards"]] == ["As", "Kd"]
    # nothing to call: a check (the primary choice) and a bet, no fold
    assert ids(checks) == [("pt-act-call", "Check", "c")] and checks["buttons"][0]["primary"]
    assert checks["raise"]["word"] == "Bet" and checks["raise"]["min"] == 2
    # a showdown where mucking is not allowed (the last aggressor shows)
    assert ids(shows) == [("pt-act-show", "Show", "s")] and shows["raise"] is None
    assert ids(three) == [
        ("pt-act-runs-1", "Run it once", "runs 1"),
        ("pt-act-runs-2", "Run it twice", "runs 2"),
        ("pt-act-runs-3", "Run it three times", "runs 3"),
        ("pt-act-runs-any", "No preference", "runs"),
    ]
    assert wait["mode"] == "wait" and wait["buttons"] == [] and wait["note"]
    assert after["mode"] == "show" and ids(after) == [
        ("pt-act-show-cards", "Show my cards", {"type": "show"})
    ]
    assert nobody is None and gone is None  # a spectator, a hand over with nothing to show


def test_a_draw_offers_the_hole_cards_and_stud_marks_the_up_cards(tmp_path: Path) -> None:
    draw = {"phase": "draw", "hole": ["As", "Kd", "7c", "7h", "2s"]}
    stud = state(None, table={"base": "stud", "hand_number": 1, "config": {}})
    stud["seats"][0] |= {"cards": ["As", "Kd", "7c"], "up": [False, False, True]}
    drawing, studs = run(tmp_path, [("choices", state(draw)), ("choices", stud)])
    assert drawing["mode"] == "draw" and drawing["draw"] == draw["hole"]
    assert [(c["up"], c["down"]) for c in studs["cards"]] == [
        (False, True),
        (False, True),
        (True, False),
    ]


def test_the_felt_shows_winners_badges_and_the_viewer_at_the_bottom(tmp_path: Path) -> None:
    last = {
        "hand": 4,
        "pots": [
            {"amount": 61, "winners": ["p1", "p2"]},  # split: 30 each, the odd chip aside
            {"amount": 10, "winners": ["p2"]},
        ],
    }
    s = state(None, hand={"over": True}, last=last)
    s["seats"][1] |= {"all_in": True, "kind": "bot"}
    s["seats"].append(seat(3, sitting_out=True, owes=["big"]))
    won, badges, angles = run(
        tmp_path, [("winners", s), ("badges", s), ("angles", [[0, 0, 4], [2, 0, 4], [1, 1, 6]])]
    )
    assert dict(won) == {"p1": 30, "p2": 40}
    assert badges[0] == [["badge win", "wins 30"]]
    assert badges[1] == [["badge win", "wins 40"], ["badge", "all-in"], ["badge bot", "bot"]]
    assert badges[2] == [["badge", "sitting out"], ["badge", "missed big blind"]]
    # the viewer's seat straight down (pi/2), the one across straight up; seat 2 of 6
    # seen from seat 2 is at the bottom too
    assert angles == pytest.approx([3.14159265 / 2, 3 * 3.14159265 / 2, 3.14159265 / 2])


def test_a_hint_says_each_boards_hand_and_equity_on_a_double_board(tmp_path: Path) -> None:
    single = {"hand": "one pair, 3s", "equity": 0.5126, "boards": []}
    double = {
        "hand": None,
        "equity": 0.25,
        "boards": [
            {"on": 1, "hand": "two pair, 9s and 4s", "equity": 0.375},
            {"on": 2, "hand": "no hand, ace high", "equity": 0.125},
        ],
    }
    counting = {"hand": None, "equity": None, "boards": [{"on": 1, "hand": None, "equity": None}]}
    one, two, later = run(tmp_path, [("hint", single), ("hint", double), ("hint", counting)])
    assert one == "You have one pair, 3s. Your equity: 51.3% against a random hand (exact)."
    assert two == (
        "Board 1: you have two pair, 9s and 4s, equity 37.5%. "
        "Board 2: you have no hand, ace high, equity 12.5%. "
        "Your share of the pot: 25.0% against a random hand (exact; half the pot on each board)."
    )
    assert "too many deals" in later and "Board 1" in later


def test_a_hint_names_the_range_it_counts_against(tmp_path: Path) -> None:
    ranged = {"hand": None, "against": "QQ+,AKs", "equity": 0.6123, "boards": []}
    random = {"hand": "one pair, 3s", "against": "random", "equity": 0.5126, "boards": []}
    empty = {"hand": "three of a kind, aces", "against": "AA", "equity": None,
             "range_empty": True, "boards": []}  # fmt: skip
    double = {
        "hand": None,
        "against": "Z-Z",
        "equity": 0.25,
        "boards": [{"on": 1, "hand": None, "equity": 0.3}, {"on": 2, "hand": None, "equity": 0.2}],
    }
    got = run(
        tmp_path,
        [("hint", ranged), ("hint", random), ("hint", empty), ("hint", double)]
        + [("range example", g) for g in ("standard52-holdem", "fesca78-holdem", "fesca42-omaha")],
    )
    assert got[0] == "Your equity: 61.2% against QQ+,AKs (exact)."
    assert got[1] == "You have one pair, 3s. Your equity: 51.3% against a random hand (exact)."
    assert got[2] == "You have three of a kind, aces. Your equity: no hand of AA is left."
    assert got[3].endswith(
        "Your share of the pot: 25.0% against Z-Z (exact; half the pot on each board)."
    )
    assert got[4:] == ["random, or QQ+,AKs", "random, or Z-Z", None]
