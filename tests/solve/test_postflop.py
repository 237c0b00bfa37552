"""The postflop solver: its size grammar and tree, its O(n) terminal values against plain
n x n sums, its showdown order against cardlab's evaluator, its equities against the
exact equity engine, determinism across threads, saving, locking and the CLI."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cli import assert_answer_or_one_line, run_cli, start
from cardlab.errors import GameError
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import get_game
from cardlab.poker.hands import best_hand
from cardlab.solve.postflop import PostflopSolution, Solver, Spot, parse_sizes, solve
from cardlab.solve.postflop import _kernels as k
from cardlab.solve.postflop.sizes import format_sizes

BASIC_OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
BASIC_IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"


def basic_spot(board: str = "Td9d6h Qc", **kw: object) -> Spot:
    """postflop-solver's basic example (its README and examples/basic.rs)."""
    args: dict[str, object] = dict(
        bets="60%, e, a",
        raises="2.5x",
        river_donk="50%",
        add_allin=1.5,
        force_allin=0.15,
        merging=0.1,
    )
    args.update(kw)
    return Spot("standard52-holdem", board, BASIC_OOP, BASIC_IP, 200, 900, **args)  # type: ignore[arg-type]


# --- sizes and the tree -------------------------------------------------------------------


@given(
    st.lists(
        st.sampled_from(["33%", "2.5x", "100c", "20c3r", "e", "2e", "3e200%", "a", "75%", "150%"]),
        max_size=6,
    )
)
def test_sizes_round_trip(items: list[str]) -> None:
    sizes = parse_sizes(", ".join(items), raise_sizes=True)
    assert parse_sizes(format_sizes(sizes), raise_sizes=True) == sizes


@pytest.mark.parametrize("text", ["60", "2.5x", "0%", "-5%", "1x", "e0", "10c0r", "abc", "%"])
def test_bad_bet_sizes_are_one_error(text: str) -> None:
    with pytest.raises(GameError, match=r"size|raise|%"):
        parse_sizes(text)


def test_basic_example_tree_by_hand() -> None:
    """The tree of the basic example, sizes worked out by hand: 60% of 200 = 120; the
    geometric size over 2 streets with stack 900 into 200: ((1 + 2*4.5)^(1/2) - 1)/2 of
    the pot = 216; a 2.5x raise of 120 = 300; the river donk 50% of 440 = 220."""
    tree = basic_spot().tree_config()
    from cardlab.solve.postflop.tree import ActionTree

    t = ActionTree(tree)
    root = t.nodes[0]
    assert root.actions == ["k", "b120", "b216", "a900"]
    by_line = {t.describe(i): n for i, n in enumerate(t.nodes)}
    assert by_line["k b120"].actions == ["f", "c", "r300"]
    assert by_line["k b120 c /"].actions == ["k", "b220"]  # OOP called: donk sizes
    assert by_line["b120 c /"].actions == ["k", "b264", "a780"]  # OOP bet: its own sizes
    assert by_line["k k /"].actions == ["k", "b120", "a900"]  # e on the river: all in
    assert by_line["k k /"].committed == (0, 0)


def test_geometric_and_allin_thresholds() -> None:
    spot = Spot("standard52-holdem", "Ks Td 7c", "AA", "KK", 100, 1000, bets="e", raises="")
    from cardlab.solve.postflop.tree import ActionTree

    t = ActionTree(spot.tree_config())
    # three streets to all in with 1000 behind a pot of 100: (21^(1/3) - 1)/2 = 0.879 pots
    assert t.nodes[0].actions == ["k", "b88"]
    forced = Spot(
        "standard52-holdem",
        "Ks Td 7c 2h 3d",
        "AA",
        "KK",
        100,
        160,
        bets="75%",
        raises="",
        force_allin=0.4,
    )
    # 75 into 100 leaves 85 behind a pot of 250 after a call: 0.34 pots, under 0.4
    assert ActionTree(forced.tree_config()).nodes[0].actions == ["k", "a160"]


# --- terminal values against n x n sums ---------------------------------------------------


def _plain_showdown(
    game_arrays: k.Arrays,
    hands: tuple,
    board: tuple,
    reach_o: np.ndarray,
    p: int,
    rules: object,
    *,
    win: float = 1.0,
    tie: float = 0.5,
    lose: float = 0.0,
) -> np.ndarray:
    """Σ over the opponent's hands sharing no card: reach × (win, tie or lose)."""
    mine, theirs = hands[p], hands[1 - p]
    out = np.zeros(len(mine.cards))
    keys_o = [
        None if set(c) & set(board) else best_hand(c + board, rules).key for c in theirs.cards
    ]
    for h, cards in enumerate(mine.cards):
        if set(cards) & set(board):
            continue
        key = best_hand(cards + board, rules).key
        for o, other in enumerate(theirs.cards):
            if keys_o[o] is None or set(cards) & set(other):
                continue
            out[h] += reach_o[o] * (win if key > keys_o[o] else tie if key == keys_o[o] else lose)
    return out


@pytest.mark.parametrize(
    "deck_game,board,oop,ip",
    [
        ("standard52-holdem", "Ks Td 7c 4h 2s", "any", "any"),
        ("standard52-holdem", "Ah Kh Qh 2h 3h", "AA, KK, 5h4h, JhTh, 22, 76s", "any"),
        ("fesca78-holdem", "M7 K7 G12 Y3 S9", "any", "any"),
    ],
)
def test_showdown_and_fold_values_equal_plain_sums(
    deck_game: str, board: str, oop: str, ip: str
) -> None:
    spot = Spot(deck_game, board, oop, ip, 100, 100, bets="a", raises="")
    game = spot.game_arrays()
    g = game.arrays
    rng = np.random.default_rng(7)
    rules = game.game.rules
    sample = slice(0, 400)  # FESCA's full ranges are large: the first hands suffice
    for p in (0, 1):
        reach_o = rng.random(len(game.hands[1 - p]))
        out = np.empty(len(game.hands[p]))
        k.showdown_values(g, p, 0, reach_o, 1.0, 0.5, 0.0, out, k.scratch(g))
        plain = _plain_showdown(g, game.hands, game.board, reach_o, p, rules)
        np.testing.assert_allclose(out[sample], plain[sample], rtol=1e-9, atol=1e-9)
        k.fold_values(g, p, reach_o, 1.0, out, k.scratch(g))
        mass = np.array(
            [
                sum(
                    r
                    for o, r in zip(game.hands[1 - p].cards, reach_o, strict=True)
                    if not set(o) & set(c)
                )
                for c in game.hands[p].cards[:40]
            ]
        )
        np.testing.assert_allclose(out[:40], mass, rtol=1e-9)
        # no rake: the wins less the losses (a tie is worth 0), with some hands of no
        # reach (the sweeps skip them)
        reach_o[rng.random(len(reach_o)) < 0.3] = 0.0
        k.showdown_zero_sum(g, p, 0, reach_o, 1.0, out, k.scratch(g))
        wins = _plain_showdown(g, game.hands, game.board, reach_o, p, rules, win=1.0, tie=0.0)
        losses = _plain_showdown(
            g, game.hands, game.board, reach_o, p, rules, win=0.0, tie=0.0, lose=1.0
        )
        np.testing.assert_allclose(out[sample], (wins - losses)[sample], rtol=1e-9, atol=1e-9)


def test_showdown_order_is_the_evaluators() -> None:
    """Every pair of hands on a FESCA river compares in the tables as best_hand does
    (Mixwell and the suit tie-breaks included)."""
    spot = Spot("fesca78-holdem", "M7 K7 G12 Y3 S9", "any", "any", 100, 100)
    game = spot.game_arrays()
    rules = game.game.rules
    order, rank = game.showdown_tables()[:2]
    strength = np.empty(len(game.hands[0]), np.int64)
    strength[order[0]] = rank[0]
    rng = np.random.default_rng(3)
    for h, o in rng.integers(0, len(game.hands[0]), size=(300, 2)):
        a, b = game.hands[0].cards[h], game.hands[0].cards[o]
        ka = best_hand(a + game.board, rules).key
        kb = best_hand(b + game.board, rules).key
        assert (ka > kb) == (strength[h] > strength[o])
        assert (ka == kb) == (strength[h] == strength[o])


# --- solving -------------------------------------------------------------------------------


def test_root_equity_equals_the_exact_equity_engine() -> None:
    spot = Spot(
        "standard52-holdem",
        "Qs Jh 2h",
        "QQ+, AKs, JTs",
        "KQ, 22, A5s",
        100,
        400,
        bets="",
        raises="",
    )  # no betting: the solver only deals
    sol = PostflopSolution(spot, Solver(spot.game_arrays()))
    eq = sol.equity()
    want = exact_equity(get_game("standard52-holdem"), ["QQ+, AKs, JTs", "KQ, 22, A5s"], "Qs Jh 2h")
    assert eq.oop == pytest.approx(float(want.players[0].equity), abs=1e-9)
    assert eq.ip == pytest.approx(float(want.players[1].equity), abs=1e-9)
    ev = sol.ev()  # with no betting the EV is the pot times the equity
    assert ev.oop == pytest.approx(100 * float(want.players[0].equity), abs=1e-7)


def test_turn_spot_converges_and_threads_agree() -> None:
    spot = basic_spot()
    one = PostflopSolution(spot, Solver(spot.game_arrays(), threads=1)).resume(30, target=None)
    two = PostflopSolution(spot, Solver(spot.game_arrays(), threads=2)).resume(30, target=None)
    assert one.exploitability == pytest.approx(two.exploitability, rel=1e-6)
    more = two.resume(70, target=None)
    assert more.exploitability_pot_percent < 1.0  # a small fraction of the pot after 100
    ev = more.ev()
    assert ev.oop + ev.ip == pytest.approx(200, abs=1e-6)  # no rake: the pot is shared


def test_exploitability_stops_at_the_target() -> None:
    sol = solve(basic_spot("Td9d6h Qc 3s"), 2000, target=0.3, every=5)
    assert sol.exploitability_pot_percent <= 0.3
    assert sol.iterations < 2000


def test_best_response_is_at_least_the_strategy_value() -> None:
    sol = solve(basic_spot("Td9d6h Qc 3s"), 20, target=None)
    br, ev = sol.solver.best_response_values(), sol.ev()
    assert br.oop >= ev.oop - 1e-9 and br.ip >= ev.ip - 1e-9


def test_rake_is_taken_from_the_pot() -> None:
    spot = Spot(
        "standard52-holdem",
        "Ks Td 7c 4h 2s",
        "AA, 98s",
        "KQ",
        100,
        100,
        bets="",
        raises="",
        rake_rate=0.05,
        rake_cap=3,
    )
    ev = PostflopSolution(spot, Solver(spot.game_arrays())).ev()
    assert ev.oop + ev.ip == pytest.approx(97.0)


def test_save_load_and_nodes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    sol = solve(basic_spot("Td9d6h Qc 3s"), 40, target=None)
    path = tmp_path / "river.npz"
    sol.save(path)
    again = PostflopSolution.load(path)
    assert again.iterations == sol.iterations
    assert again.ev().oop == pytest.approx(sol.ev().oop, rel=1e-12)
    node = again.node("k b120")
    assert node.player == "oop" and node.actions == ("f", "c", "r300")
    np.testing.assert_array_equal(node.strategy(), sol.node("k b120").strategy())
    with pytest.raises(GameError, match="no action"):
        again.node("b999")
    with pytest.raises(GameError, match="not a saved"):
        (tmp_path / "bad.npz").write_bytes(b"nonsense")
        PostflopSolution.load(tmp_path / "bad.npz")


@pytest.mark.parametrize("schedule", ["smooth", "restart"])
def test_a_loaded_solution_resumes_with_its_schedule(tmp_path, schedule: str) -> None:  # type: ignore[no-untyped-def]
    sol = solve(basic_spot("Td9d6h Qc 3s"), 14, target=None, schedule=schedule)
    sol.save(tmp_path / "river.npz")
    again = PostflopSolution.load(tmp_path / "river.npz")
    assert again.solver.schedule == schedule
    # iterations 15 to 20 (the restart schedule restarts the average on the 17th)
    assert again.resume(6, target=None).exploitability == sol.resume(6, target=None).exploitability


def test_node_locking_plays_the_lock_and_the_rest_adapts() -> None:
    spot = basic_spot("Td9d6h Qc 3s")
    free = solve(spot, 60, target=None)
    locked = PostflopSolution(spot, Solver(spot.game_arrays()))
    locked.lock("", {"k": 1.0})  # OOP never bets the river
    locked.resume(60, target=None)
    assert locked.node("").frequencies()[0] == pytest.approx(1.0)
    # IP, never facing a bet, bets more after the check than against the free OOP
    assert locked.node("k").frequencies()[0] != pytest.approx(free.node("k").frequencies()[0])
    assert locked.ev().oop < free.ev().oop + 1e-6  # a constraint never helps the locked side


def test_compressed_storage_reaches_the_target_with_the_same_answer(tmp_path) -> None:  # type: ignore[no-untyped-def]
    spot = basic_spot("Td9d6h Qc 3s")
    plain = PostflopSolution(spot, Solver(spot.game_arrays()))
    small = PostflopSolution(spot, Solver(spot.game_arrays(compressed=True)))
    for sol in (plain, small):
        sol.resume(2000, target=0.3, every=5)
        assert sol.exploitability_pot_percent <= 0.3  # an exact best response's measure
    assert small.solver.g.regrets.dtype == np.int16
    assert small.iterations <= 1.5 * plain.iterations
    assert small.ev().oop == pytest.approx(plain.ev().oop, abs=0.5)  # chips of a 200 pot
    np.testing.assert_allclose(
        small.node("").frequencies(), plain.node("").frequencies(), atol=0.03
    )
    # 16-bit numbers with a float32 scale per node and deal: about half the storage
    storage = plain.game.memory_bytes - plain.game.table_bytes()
    packed = small.game.memory_bytes - small.game.table_bytes()
    assert packed == storage // 2 + 2 * 4 * small.game.blocks
    path = tmp_path / "small.npz"
    small.save(path)
    again = PostflopSolution.load(path)
    assert again.game.compressed
    assert again.ev().oop == pytest.approx(small.ev().oop, rel=1e-12)
    code, _out, err = run_cli(["solve", "postflop", "--load", str(path), "--compress"])
    assert code == 0, err
    plain.save(tmp_path / "plain.npz")
    code, out, err = run_cli(
        ["solve", "postflop", "--load", str(tmp_path / "plain.npz"), "--compress"]
    )
    assert code == 2 and "saved uncompressed" in err
    assert_answer_or_one_line(code, out, err)


def test_memory_is_estimated_and_refused_before_allocating() -> None:
    spot = Spot(
        "fesca78-holdem", "M7 K7 G12", "any", "any", 100, 1000, bets="33%, 75%, a", raises="50%, a"
    )
    with pytest.raises(GameError, match=r"needs about .* of memory"):
        spot.game_arrays(max_memory=2**30)


# --- the command line ---------------------------------------------------------------------


def test_cli_json_result() -> None:
    code, out, err = run_cli(
        [
            "solve",
            "postflop",
            "--board",
            "Td9d6h Qc 3s",
            "--pot",
            "200",
            "--stack",
            "900",
            "--oop",
            BASIC_OOP,
            "--ip",
            BASIC_IP,
            "--bets",
            "60%, e, a",
            "--raises",
            "2.5x",
            "--target",
            "1",
            "--format",
            "json",
            "--node",
            "k",
        ]
    )
    assert code == 0, err
    data = json.loads(out)
    assert set(data["ev"]) == {"oop", "ip"} and set(data["equity"]) == {"oop", "ip"}
    assert data["exploitability"]["pot_percent"] <= 1
    assert [a["action"] for a in data["actions"]] == ["k", "b120", "a900"]
    assert data["node"]["player"] == "ip" and data["node"]["hands"]


BAD = [
    ["--board", "Td9d6h", "--pot", "200", "--stack", "900", "--oop", "AA", "--ip", "XX"],
    ["--board", "Td9d6h Td", "--pot", "200", "--stack", "900", "--oop", "AA", "--ip", "KK"],
    ["--board", "Td9d", "--pot", "200", "--stack", "900", "--oop", "AA", "--ip", "KK"],
    ["--board", "Td9d6h", "--pot", "0", "--stack", "900", "--oop", "AA", "--ip", "KK"],
    ["--board", "Td9d6h", "--pot", "200", "--stack", "900", "--oop", "AA:2", "--ip", "KK"],
    [
        "--board",
        "Td9d6h",
        "--pot",
        "200",
        "--stack",
        "900",
        "--oop",
        "AA",
        "--ip",
        "KK",
        "--bets",
        "60",
    ],
    [
        "--board",
        "Td9d6h",
        "--pot",
        "200",
        "--stack",
        "900",
        "--oop",
        "AA",
        "--ip",
        "KK",
        "--turn-raises",
        "2x5",
    ],
    [
        "--board",
        "Td9d6h",
        "--pot",
        "200",
        "--stack",
        "900",
        "--oop",
        "AA",
        "--ip",
        "KK",
        "--game",
        "standard52-omaha",
    ],
    ["--board", "Td9d6h", "--oop", "AA", "--ip", "KK"],
    [
        "--board",
        "Td9d6h",
        "--pot",
        "200",
        "--stack",
        "900",
        "--oop",
        "AA",
        "--ip",
        "KK",
        "--node",
        "b999",
        "-n",
        "1",
    ],
    ["--load", "/nonexistent.npz"],
    [
        "--board",
        "Td9d6h",
        "--pot",
        "200",
        "--stack",
        "900",
        "--oop",
        "AA",
        "--ip",
        "KK",
        "--out",
        "/nonexistent/x.json",
    ],
    *(
        ["--board", "Td9d6h", "--pot", "200", "--stack", "900", "--oop", "AA", "--ip", "KK", *x]
        for x in (["-n", "0"], ["--every", "0"], ["--threads", "0"], ["--threads", "-2"])
    ),
]


@pytest.mark.parametrize("args", BAD)
def test_cli_bad_input_is_one_line(args: list[str]) -> None:
    code, out, err = run_cli(["solve", "postflop", *args])
    assert code == 2, (out, err)
    assert_answer_or_one_line(code, out, err)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("b999", "no action 'b999' here (actions: k, b100)"),
        ("b100 c 9d", "9d cannot be dealt here: it is on the board"),
        ("b100 c 2c k k 2c", "2c cannot be dealt here: it is on the board"),
        ("b100 f k", "the hand is over at 'b100 f': nothing follows"),
        ("b100 c Zz", "Zz"),
    ],
)
def test_a_wrong_node_is_told_before_anything_is_built(
    monkeypatch: pytest.MonkeyPatch, line: str, message: str
) -> None:
    """A first run compiles kernels (and says so on stderr): a line that leads nowhere is
    refused before, so the refusal stays one line and nobody waits a solve for it."""
    monkeypatch.setattr(Spot, "game_arrays", start)
    args = ["--board", "Td9d6h", "--pot", "200", "--stack", "900", "--oop", "AA", "--ip", "KK"]
    code, out, err = run_cli(["solve", "postflop", *args, "--node", line])
    assert code == 2, (out, err)
    assert message in err
    assert_answer_or_one_line(code, out, err)
    # a good line reaches the solve
    code, _, _ = run_cli(["solve", "postflop", *args, "--node", "b100 c 2c k"])
    assert code is None


@settings(max_examples=25, deadline=None)
@given(
    board=st.text(alphabet="AKQJT98765432shdc 木火X", max_size=12),
    rng=st.text(alphabet="AKQJT98765432so+-,:.0", max_size=12),
    bets=st.text(alphabet="0123456789%xcear, .", max_size=8),
)
def test_cli_fuzz(board: str, rng: str, bets: str) -> None:
    args = [
        "solve",
        "postflop",
        "--board",
        board,
        "--pot",
        "10",
        "--stack",
        "10",
        "--oop",
        rng,
        "--ip",
        "AA",
        "--bets",
        bets,
        "--raises",
        "",
        "-n",
        "2",
        "--target",
        "50",
    ]
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(0, 2))


def test_range_weights_and_classes_on_fesca() -> None:
    from cardlab.solve.postflop import parse_weighted_range

    game = get_game("fesca78-holdem")
    r = parse_weighted_range("Z-Z:0.5, M7 K7", game)
    assert (
        r.weight_of((game.deck.parse_cards("M7 K7")[0], game.deck.parse_cards("M7 K7")[1])) == 1.0
    )
    pairs = [c for c, w in zip(r.combos, r.weights, strict=True) if w == 0.5]
    ranks = {c[0].rank.key for c in pairs} | {c[1].rank.key for c in pairs}
    # Z-Z: two Zs of the five element suits (太極, the Z of 陰陽, is a class of its own)
    assert ranks == {"Z"} and len(pairs) == len(list(itertools.combinations(range(5), 2)))


def test_a_line_the_opponent_stopped_playing_still_converges() -> None:
    # OOP holds the nuts or air against bluff catchers: IP soon never raises OOP's bet,
    # and OOP's strategy facing that raise must still converge (it once stayed at the
    # first iterations' average, folding the nuts half the time: 8% of the pot exploitable
    # after 1,000 iterations)
    spot = Spot(
        "standard52-holdem",
        "Ks Td 7c 4h 2s",
        "AA,KK,KQ,98s",
        "KJ,QQ,JJ,T9s",
        100,
        100,
        bets="50%, a",
        raises="",
        add_allin=1.5,
    )
    solution = solve(spot, 200, target=0.01, every=10)
    assert solution.exploitability_pot_percent <= 0.01
    facing = solution.node("b50 a100")
    nuts = [i for i, r in enumerate(facing.hands()) if "9" not in str(r.cards[0]) + str(r.cards[1])]
    calls = facing.strategy()[1]
    rows = facing.hands()
    assert all(r.strategy[1] > 0.99 for i, r in enumerate(rows) if i in nuts)
    assert calls.shape == (len(solution.game.hands[0]),)


def test_the_fesca_grid_shows_a_pair_and_its_yin_yang_twin_apart(tmp_path: Path) -> None:
    """Z-Z (two element Zs) on the diagonal and Z-Z陰陽 listed below the square: they
    once shared the cell, and the grid showed only one of them."""
    from rich.console import Console

    from cardlab.solve.postflop.grid import draw_grid, text_grid

    spot = Spot("fesca78-holdem", "M7 K7 G12 Y3 S9", "Z-Z, Z-Z陰陽, 12-11s", "11-11", 100, 100,
                bets="a", raises="")  # fmt: skip
    root = solve(spot, 2).root()
    console = Console(width=400, record=True)
    console.print(text_grid(root))
    lines = console.export_text().splitlines()
    first = next(line for line in lines if "Z-Z" in line)
    assert first.split()[0] == "Z-Z" and "陰陽" not in first
    assert sum("Z-Z陰陽" in line for line in lines) == 1
    draw_grid(root, tmp_path / "grid.png")
    assert (tmp_path / "grid.png").stat().st_size > 0
