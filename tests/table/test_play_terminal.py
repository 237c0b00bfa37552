"""``cardlab play`` in the terminal, driven with piped input and a fixed seed: the
wording said to you, the seat markers, each show once, the look back at the last hand,
rebuys, the session's result, the Draw hint and the Stud up-cards."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardlab.cards import Card
from cardlab.cli import cli, main
from cardlab.cli.play import TerminalTable, menu, own_cards, raise_word, yours
from cardlab.errors import GameError
from cardlab.store import Store
from cardlab.table import TableGame
from cardlab.table import events as ev
from cardlab.table.actions import Action, apply
from cardlab.table.narrate import Narrator, describe
from cardlab.table.session import Session
from cardlab.table.state import HandState
from cardlab.table.view import seat_view

HOLDEM = ["play", "--game", "standard52-holdem", "--seats", "3", "--bots", "station"]

# third person forms that must never follow "you"
THIRD_PERSON = re.compile(
    r"\byou (posts|calls|checks|bets|raises|completes|folds|shows|mucks|wins|draws|"
    r"discards|stands|brings|is|has)\b"
)


def play(tmp_path: Path, keys: str, *args: str) -> list[str]:
    db = tmp_path / "play.sqlite3"
    result = CliRunner().invoke(cli, [*args, "--db", str(db)], input=keys)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()


def kept_hands(tmp_path: Path, name: str = "you") -> list[tuple[int, int]]:
    """(starting stack, finishing stack) of ``name`` in each stored hand, oldest first."""
    with Store.open(tmp_path / "play.sqlite3", read_only=True) as store:
        hands = store.hands()[::-1]  # the store lists the newest first
    out = []
    for h in hands:
        seat = h.players.index(name)
        out.append((h.starting_stacks[seat], h.finishing_stacks[seat]))
    return out


def block(lines: list[str], first: str, last: str) -> list[str]:
    """The lines from the one equal to ``first`` to the next one equal to ``last``."""
    start = lines.index(first)
    return lines[start : lines.index(last, start) + 1]


# the first hand of the seed-2 table, every street checked through, as it was told
HAND_1 = [
    "  you post 1",
    "  station-2 posts 2",
    "  pre-flop",
    "  you: Ac Kh",
    "  station-3 calls 2",
    "  you call 1",
    "  station-2 checks",
    "  flop",
    "  board: 4s 8h Jc",
    "  you check",
    "  station-2 checks",
    "  station-3 checks",
    "  turn",
    "  board: Qd",
    "  you check",
    "  station-2 checks",
    "  station-3 checks",
    "  river",
    "  board: 2s",
    "  you check",
    "  station-2 checks",
    "  station-3 checks",
    "  you show Ac Kh: no hand, ace high (best five Ac Kh Qd Jc 8h)",
    "  station-2 shows 7c Tc: no hand, queen high (best five Qd Jc Tc 8h 7c)",
    "  station-3 shows Qh Qc: three of a kind, queens (best five Qh Qd Qc Jc 8h)",
    "  main pot: station-3 wins 6 (decided by category)",
    "  your stack: 198 (-2)",
]


@pytest.fixture(scope="module")
def checked_through(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Hand 1 called and checked down, then at hand 2: a look back and quit."""
    tmp = tmp_path_factory.mktemp("play")
    return play(tmp, "c\nc\nc\nc\nl\nq\n", *HOLDEM, "--seed", "2")


def test_your_actions_are_said_to_you(checked_through: list[str]) -> None:
    assert "  you post 1" in checked_through and "  you call 1" in checked_through
    assert "  you check" in checked_through
    assert not [line for line in checked_through if THIRD_PERSON.search(line)]


def test_r_is_raise_over_a_blind_and_bet_in_an_unopened_round(checked_through: list[str]) -> None:
    prompts = [line for line in checked_through if line.startswith("your move")]
    assert prompts[0] == "your move (f fold, c call 1, r 4..200 raise to; l last hand, q quits): c"
    assert prompts[1] == "your move (c check, r 2..198 bet; l last hand, q quits): c"


def test_the_button_is_marked(checked_through: list[str]) -> None:
    # three seats, the button starts on the last seat and moves to you in hand 2
    assert "  station-3    stack    198  bet     2  ?? ??  (button)" in checked_through
    assert "→ you          stack    198  bet     0  3c Ad  (button)" in checked_through


def test_each_show_line_is_printed_once(checked_through: list[str]) -> None:
    first = next(i for i, line in enumerate(checked_through) if line.startswith("last hand"))
    live = checked_through[:first]
    shows = [line for line in live if " show" in line]
    assert shows == HAND_1[-5:-2]
    assert len([line for line in live if "main pot" in line]) == 1


def test_the_last_hand_is_told_again(checked_through: list[str]) -> None:
    told = block(
        checked_through,
        "last hand: hand 1 · Texas Hold'em (no-limit, blinds 1/2, min bet 2)",
        "end of the last hand",
    )
    assert told[1] == "  players: you 200, station-2 200, station-3 200 (button)"
    assert told[2:-1] == HAND_1
    # and it is the hand as it was played live, line for line
    live = checked_through[: next(i for i, x in enumerate(checked_through) if "hand 2" in x)]
    assert [line for line in live if line in HAND_1] == HAND_1
    # the prompt comes back after it
    after = checked_through[checked_through.index("end of the last hand") + 1]
    assert after.startswith("your move (f fold, c call 2, r 4..198 raise to;")


def test_the_session_result_after_quitting(checked_through: list[str], tmp_path: Path) -> None:
    tail = checked_through[checked_through.index("quit: the hand in play is not kept") :]
    assert tail[1:] == [
        "session result: 1 hand(s)",
        "your net: -2 chips (-1.0 big blinds of 2)",
        "  seat  name          bought in      stack        net        bb",
        "     1  you                 200        198         -2      -1.0",
        "     2  station-2           200        198         -2      -1.0",
        "     3  station-3           200        204         +4      +2.0",
        "biggest pot: 6 (hand 1, won by station-3)",
        tail[-1],
    ]
    assert tail[-1].startswith("1 hand(s) played; seed 2")


def test_the_session_result_at_the_end_of_the_input(tmp_path: Path) -> None:
    """Ctrl-D mid-hand: the nets are those of the kept hands."""
    lines = play(tmp_path, "c\n" * 7, *HOLDEM, "--seed", "2")
    kept = kept_hands(tmp_path)
    assert len(kept) == 1 and lines[-1].startswith("1 hand(s) played")
    won = sum(after - before for before, after in kept)
    assert f"your net: {won:+d} chips ({won / 2:+.1f} big blinds of 2)" in lines
    assert "biggest pot: 6 (hand 1, won by station-3)" in lines


def test_the_engine_refusals_are_said_to_you(tmp_path: Path) -> None:
    lines = play(tmp_path, "r 3\nr 100000\nc\nr 1\nf\nr\nq\n", *HOLDEM, "--seed", "2")
    text = "\n".join(lines)
    assert "r 3\nyou must raise to at least 4, got 3; try again: r 100000\n" in text
    assert "you can raise to at most 200 (your stack), got 100000; try again: c" in text
    assert "r 1\nyou must bet at least 2, got 1; try again: f\n" in text
    assert "you have nothing to call: check instead of folding; try again: r\n" in text
    assert "a bet needs a whole amount: 'r'; try again: q" in text
    assert not re.search(r"\bp\d\b", text)


def test_yours_rewrites_the_engine_messages() -> None:
    assert yours("p3 must bet or raise to at least 4, got 1", 2, "bet") == (
        "you must bet at least 4, got 1"
    )
    assert yours("p1 cannot discard Ah: not in their hand", 0, "raise") == (
        "you cannot discard Ah: not in your hand"
    )
    assert yours("p12 has nothing to call", 0, "raise") == "p12 has nothing to call"


# --- the seats --------------------------------------------------------------------------


def test_an_all_in_player_is_marked() -> None:
    session = Session(TableGame.create("standard52-holdem"), ["you", "ann", "bob"], [200, 50, 200])
    hand = session.new_hand()
    for text in ("r 10", "c", "r 50", "c"):  # bob raises, you call, ann all in, bob calls
        apply(hand, Action.parse(text))
    table = TerminalTable(session, [], False, None, io.StringIO())  # type: ignore[arg-type]
    assert table.render(seat_view(hand, 0)).splitlines()[1:] == [
        f"→ you          stack    190  bet    10  {' '.join(map(str, hand.hole[0]))}",
        "  ann          stack      0  bet    50  ?? ??  (all-in)",
        "  bob          stack    150  bet    50  ?? ??  (button)",
    ]


def test_menu_words_follow_the_round() -> None:
    hand = HandState(TableGame.create("standard52-holdem"), [100, 100, 100], seed=1)
    view = seat_view(hand, hand.actor)
    assert view.legal is not None and raise_word(view.legal, view) == "raise"
    assert menu(view.legal, view) == "f fold, c call 2, r 4..100 raise to"
    for _ in range(3):
        apply(hand, Action.call())
    view = seat_view(hand, hand.actor)  # the flop, nobody has bet
    assert view.legal is not None and menu(view.legal, view) == "c check, r 2..98 bet"


# --- the Stud up-cards ------------------------------------------------------------------


def test_stud_marks_your_face_up_cards(tmp_path: Path) -> None:
    args = ["play", "--game", "standard52-stud", "--seats", "3", "--bots", "station"]
    lines = play(tmp_path, "c\n" * 5, *args, "--seed", "2", "--hands", "1")
    assert "  you: Ac Kh 9c (face up: 9c)" in lines
    assert "→ you          stack    199  bet     0  Ac Kh 9c (face up: 9c)" in lines
    assert "  station-2: ?? ?? 4s" in lines  # their down cards stay hidden
    assert "  you: Qs (face up)" in lines and "  you: 5h (face down)" in lines
    seventh = "→ you          stack    198  bet     0  Ac Kh 9c Qs 6s Kc 5h (face up: 9c Qs 6s Kc)"
    assert seventh in lines
    assert not any("(button)" in line for line in lines)  # Stud has no button to mark
    # third street: the bring-in, then a completion is offered
    assert lines[lines.index("  station-2 brings in 1") + 6].startswith(
        "your move (f fold, c call 1, r 2 complete;"
    )


def test_own_cards_marks() -> None:
    cards = [Card.parse(c) for c in ("Ah", "Kd", "7c")]
    assert own_cards(cards, [False, False, False], False) == "Ah Kd 7c"  # Hold'em: all down
    assert own_cards(cards, [False, False, True], True) == "Ah Kd 7c (face up: 7c)"
    assert own_cards(cards[2:], [True], True) == "7c (face up)"
    assert own_cards(cards[:1], [False], True) == "Ah (face down)"


# --- rebuys ------------------------------------------------------------------------------

SHORT = ["play", "--game", "standard52-holdem", "--seats", "2", "--bots", "station"]
SHORT += ["--stack", "4", "--seed", "1"]


def _busts(tmp_path: Path, name: str = "you") -> list[int]:
    """The hands (from 1) after which ``name`` had no chips, from the store."""
    return [i + 1 for i, (_, after) in enumerate(kept_hands(tmp_path, name)) if after == 0]


def test_no_rebuy_ends_the_session_when_you_bust(tmp_path: Path) -> None:
    lines = play(tmp_path, "r 4\n" * 8, *SHORT, "--hands", "6", "--no-rebuy")
    busts = _busts(tmp_path)
    assert busts and "you have no chips left" in lines
    assert lines[-1].startswith(f"{busts[0]} hand(s) played")


def test_piped_input_without_a_choice_ends_as_no_rebuy(tmp_path: Path) -> None:
    lines = play(tmp_path, "r 4\n" * 8, *SHORT, "--hands", "6")
    assert "you have no chips left" in lines and "you buy in again for 4" not in lines
    assert lines[-1].startswith(f"{_busts(tmp_path)[0]} hand(s) played")


def test_rebuy_buys_in_again_and_counts_it(tmp_path: Path) -> None:
    lines = play(tmp_path, "r 4\n" * 20, *SHORT, "--hands", "8", "--rebuy")
    busts = [b for b in _busts(tmp_path) if b < 8]  # after the last hand nobody buys in
    assert busts and lines.count("you buy in again for 4") == len(busts)
    assert lines[-1].startswith("8 hand(s) played")
    stack = kept_hands(tmp_path)[-1][1]
    bought = 4 * (1 + len(busts))
    row = f"     1  you          {bought:>10}  {stack:>9}  {stack - bought:>+9d}"
    assert any(line.startswith(row) for line in lines), lines[-6:]
    # the bot that ran out bought in again too: every hand was dealt
    bot = [b for b in _busts(tmp_path, "station-2") if b < 8]
    assert bot and lines.count("station-2 buys in again for 4") == len(bot)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_you_are_asked() -> None:
    session = Session(TableGame.create("standard52-holdem"), ["you", "bot"], [10, 10])
    table = TerminalTable(session, [], False, None, Terminal("maybe\ny\n"))  # type: ignore[arg-type]
    session.seats[0].stack = 0
    assert table._rebuys() and session.seats[0].stack == 10 and table.ledger.bought[0] == 20
    session.seats[0].stack = 0
    table.stdin = Terminal("n\n")
    assert not table._rebuys() and session.seats[0].stack == 0


def test_rebuy_is_for_cash_games(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, [*HOLDEM, "--tournament", "--rebuy"])
    assert isinstance(result.exception, GameError) and "cash game" in str(result.exception)
    assert "hand 1" not in result.output


def test_a_draw_is_told(tmp_path: Path) -> None:
    args = ["play", "--game", "standard52-draw", "--seats", "3", "--bots", "random"]
    lines = play(tmp_path, "c\nc\nd Ac 9c\nc\n", *args, "--seed", "2", "--hands", "1")
    start = lines.index("  you discard Ac 9c")
    assert lines[start : start + 3] == [
        "  you discard Ac 9c",
        "  random-2 draws 5",  # their new cards stay hidden
        "  you draw 2h 2c",
    ]
    assert "→ you          stack    196  bet     0  Kh Jc Td 2h 2c" in lines
    assert "  you show Kh Jc Td 2h 2c: one pair, 2s (best five 2h 2c Kh Jc Td)" in lines


# --- the Draw hint -----------------------------------------------------------------------


def test_the_draw_hint_gives_the_best_keep(tmp_path: Path) -> None:
    from cardlab.poker.draw_strength import keep_strengths
    from cardlab.poker.games import get_game

    args = ["play", "--game", "standard52-draw", "--seats", "3", "--bots", "station", "--hints"]
    lines = play(tmp_path, "c\nc\nq\n", *args, "--seed", "2")
    hints = [line for line in lines if line.startswith("hint:")]
    keep = keep_strengths(get_game("standard52-draw"), "Ac Kh 9c Jc Td")[0]
    drawn = 5 - len(keep.kept)
    words = f"hint: best keep: keep {' '.join(map(str, keep.kept))}, draw {drawn}; "
    assert hints[0].startswith(words + "your equity after the draw ≈ ")
    assert hints[0].endswith("against random hands; pot odds 16.7%")
    assert hints[1].startswith(words) and "pot odds" not in hints[1]  # at the draw


# --- tournaments still play --------------------------------------------------------------


def test_a_tournament_ends_with_standings_and_the_result(tmp_path: Path) -> None:
    args = [*HOLDEM, "--seed", "2", "--tournament", "--stack", "20", "--levels", "2/4,5/10"]
    lines = play(tmp_path, "c\n" * 300, *args, "--level-hands", "2")
    assert "level 1: blinds 2/4 (next level in 2 hands)" in lines
    assert any(line.startswith("standings") or "standings" in line for line in lines)
    result = lines.index(next(line for line in lines if line.startswith("session result")))
    assert not any(line.startswith("your net") for line in lines)  # a tournament's is its prize
    assert lines[result + 1].startswith("biggest pot: ")


# --- narration ---------------------------------------------------------------------------


def test_narrator_bet_raise_and_completion() -> None:
    hand = HandState(TableGame.create("standard52-holdem"), [100, 100, 100], seed=1)
    for text in ("c", "c", "c", "r 6", "r 18", "c", "c"):  # flop: a bet, then a raise
        apply(hand, Action.parse(text))
    tell = Narrator(["ann", "bob", "cy"], you=0, game=hand.game).tell
    said = [line for line in map(tell, hand.history) if line]
    assert said[:3] == ["you post 1", "bob posts 2", "cy calls 2"]
    assert said[-4:] == ["you bet 6", "bob raises to 18", "cy calls 18", "you call 12"]
    # the web log's words are unchanged: one event alone cannot say bet or raise
    assert describe(ev.CompleteBetRaiseTo(0, 6), ["ann"]) == "ann bets/raises to 6"
    assert describe(ev.PostBlind(0, 1), ["ann"]) == "ann posts 1"

    stud = HandState(TableGame.create("standard52-stud"), [100, 100, 100], seed=1)
    legal = stud.legal()
    assert legal.raise_min is not None
    stud.bet_or_raise_to(legal.raise_min)  # the low card completes instead of bringing in
    tell = Narrator(["ann", "bob", "cy"], game=stud.game).tell
    said = [line for line in map(tell, stud.history) if line]
    assert said[-1] == f"{['ann', 'bob', 'cy'][legal.player]} completes to {legal.raise_min}"


class Interrupted(io.StringIO):
    """Input that gives one call, then Ctrl-C at the next prompt."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_the_session_result_after_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted("c\n"))
    with pytest.raises(SystemExit) as stopped:  # the summary, then exit 130 as for Ctrl-C
        main([*HOLDEM, "--seed", "2", "--db", str(tmp_path / "play.sqlite3")])
    assert stopped.value.code == 130
    out, err = capsys.readouterr()
    assert err == "cardlab: interrupted\n"
    lines = out.splitlines()
    assert lines[-9:-1] == [
        "your move (c check, r 2..198 bet; l last hand, q quits): ",  # Ctrl-C here
        "quit: the hand in play is not kept",
        "session result: 0 hand(s)",
        "your net: +0 chips (+0.0 big blinds of 2)",
        "  seat  name          bought in      stack        net        bb",
        "     1  you                 200        200         +0      +0.0",
        "     2  station-2           200        200         +0      +0.0",
        "     3  station-3           200        200         +0      +0.0",
    ]
    assert lines[-1].startswith("0 hand(s) played; seed 2")
