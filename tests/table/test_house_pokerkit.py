"""Home-game rules (straddles, missed and dead blinds, bomb pots, double boards) against
pokerkit playing the same hands, and against the rules as docs/home-games.md writes them."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import warnings
from dataclasses import dataclass

import pokerkit as pk
import pytest
from pokerkit_driver import AUTOMATIONS, play

from cardlab.table import HandState, TableGame
from cardlab.table.history import replay, to_history
from cardlab.table.house import Straddle, bomb_pot_stakes, hand_stakes, straddler
from cardlab.table.phh import dumps, loads
from cardlab.table.structure import Betting, Stakes


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns about burn cards it did not deal


@dataclass(frozen=True)
class HouseSetup:
    """A hand with a home game's forced bets, on both engines (the driver's protocol)."""

    variant: str  # NT or PO
    stakes: Stakes
    stacks: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.stacks)

    def cardlab_game(self) -> TableGame:
        key = "standard52-holdem" if self.variant == "NT" else "standard52-omaha"
        return dataclasses.replace(TableGame.create(key, blinds=(1, 2)), stakes=self.stakes)

    def pokerkit_state(self, boards: int = 1) -> pk.State:
        kind = pk.NoLimitTexasHoldem if self.variant == "NT" else pk.PotLimitOmahaHoldem
        s = self.stakes
        antes = s.antes_for(self.players)
        blinds = list(s.blinds) + [0] * (self.players - len(s.blinds))
        return kind.create_state(
            AUTOMATIONS,
            False,
            tuple(antes),
            tuple(blinds),
            s.small_bet,
            self.stacks,
            self.players,
            starting_board_count=boards,
        )


def _stacks(rng: random.Random, n: int) -> tuple[int, ...]:
    return tuple(rng.choice([rng.randint(3, 60), rng.randint(100, 600)]) for _ in range(n))


BASE = Stakes(Betting.NO_LIMIT, blinds=(1, 2), small_bet=2)


def _base(variant: str) -> Stakes:
    pot_limit = Betting.POT_LIMIT if variant == "PO" else Betting.NO_LIMIT
    return dataclasses.replace(BASE, betting=pot_limit)


@pytest.mark.parametrize("kind", [Straddle.UTG, Straddle.BUTTON, Straddle.MISSISSIPPI])
@pytest.mark.parametrize("variant", ["NT", "PO"])
def test_straddles_play_as_pokerkit_plays_them(kind: Straddle, variant: str) -> None:
    straddled = 0
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(3, 9)
        willing = {p for p in range(n) if rng.random() < 0.5}
        position = straddler(kind, n, willing)
        stakes = hand_stakes(
            _base(variant), n, straddle=(kind, position) if position is not None else None
        )
        setup = HouseSetup(variant, stakes, _stacks(rng, n))
        ours = HandState(setup.cardlab_game(), list(setup.stacks), deal="manual")
        if position is not None:
            straddled += 1
            # docs/home-games.md: the straddle is twice the big blind, posted at the
            # position the rule names, and the player left of it acts first
            assert stakes.blinds[position] == 4
            if kind is Straddle.UTG:
                assert position == 2
            elif kind is Straddle.BUTTON:
                assert position == n - 1
            else:
                assert position == max(p for p in willing if p >= 2)
        play(setup, seed)  # type: ignore[arg-type]  # every decision agrees with pokerkit
        del ours
    assert straddled > 20


def test_the_first_to_act_is_left_of_the_straddle() -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    for n in range(3, 10):
        for position in range(2, n):
            stakes = hand_stakes(game.stakes, n, straddle=(Straddle.MISSISSIPPI, position))
            hand = HandState(dataclasses.replace(game, stakes=stakes), [100] * n, seed=1)
            assert hand.actor == (position + 1) % n
            # everyone calls: the straddler has the last word (the option)
            while hand.actor != position:
                hand.check_or_call()
            assert hand.legal().check and hand.legal().can_raise
            assert hand.street_name == "pre-flop"


def test_missed_blinds_and_a_dead_small_blind_play_as_pokerkit() -> None:
    for seed in range(80):
        rng = random.Random(seed)
        n = rng.randint(3, 9)
        small = rng.random() < 0.5  # False: the small blind's seat is empty (dead button)
        big = 1 if small else 0
        owed = {p: (2, rng.choice([0, 1])) for p in range(big + 1, n) if rng.random() < 0.3}
        stakes = hand_stakes(BASE, n, big=big, small=small, owed=owed)
        if not small:
            assert stakes.blinds[0] == 2 and 1 not in stakes.blinds  # no small blind
        for p, (live, dead) in owed.items():
            assert stakes.blinds[p] == -live and stakes.antes[p] == dead
        play(HouseSetup("NT", stakes, _stacks(rng, n)), seed)  # type: ignore[arg-type]


def _random_actions(hand: HandState, rng: random.Random) -> None:
    while not hand.is_over:
        legal = hand.legal()
        if legal.phase.value == "showdown":
            hand.show_or_muck(True)
            continue
        roll = rng.random()
        if legal.fold and roll < 0.2:
            hand.fold()
        elif legal.raise_min is not None and roll > 0.8:
            assert legal.raise_max is not None
            hand.bet_or_raise_to(rng.choice([legal.raise_min, legal.raise_max]))
        else:
            hand.check_or_call()


def _pokerkit_replay(text: str) -> list[int]:
    history = pk.HandHistory.loads(text)
    states = list(history)
    state = states[-1]
    assert not state.status
    return list(state.stacks)


@pytest.mark.parametrize("variant", ["NT", "PO"])
def test_a_bomb_pot_replays_in_pokerkit(variant: str) -> None:
    for seed in range(25):
        rng = random.Random(seed)
        n = rng.randint(2, 9)
        ante = rng.choice([1, 5, 20])
        setup = HouseSetup(variant, bomb_pot_stakes(_base(variant), ante), _stacks(rng, n))
        hand = HandState(setup.cardlab_game(), list(setup.stacks), seed=seed, bomb_pot=True)
        # no betting before the flop: the flop is out before anyone is asked
        assert hand.street_name == "flop" or hand.is_over
        if not hand.is_over:
            assert hand.total_pot == sum(min(ante, s) for s in setup.stacks)
        _random_actions(hand, rng)
        text = dumps(to_history(hand))
        assert "blinds_or_straddles = [" + ", ".join(["0"] * n) + "]" in text
        assert f"antes = [{', '.join([str(ante)] * n)}]" in text
        assert hand.result is not None
        assert _pokerkit_replay(text) == list(hand.result.finishing_stacks)
        assert list(replay(loads(text)).hand.result.finishing_stacks) == list(  # type: ignore[union-attr]
            hand.result.finishing_stacks
        )


def _apply_to_pokerkit(state: pk.State, action: str) -> None:
    words = action.split()
    if words[0] == "d":
        if words[1] == "dh":
            state.deal_hole(words[3])
        else:
            state.deal_board(words[2])
        return
    what = words[1]
    if what == "cc":
        state.check_or_call()
    elif what == "f":
        state.fold()
    elif what == "cbr":
        state.complete_bet_or_raise_to(int(words[2]))
    # "sm": pokerkit's automation shows every hand at the showdown


def test_a_double_board_bomb_pot_pays_as_pokerkit_pays_two_boards() -> None:
    split_boards = 0
    for seed in range(30):
        rng = random.Random(seed)
        n = rng.randint(2, 7)
        setup = HouseSetup("NT", bomb_pot_stakes(BASE, 5), _stacks(rng, n))
        hand = HandState(
            setup.cardlab_game(), list(setup.stacks), seed=seed, bomb_pot=True, boards=2
        )
        _random_actions(hand, rng)
        history = to_history(hand)
        assert history.user_fields["_boards"] == 2
        theirs = setup.pokerkit_state(boards=2)
        for action in history.actions:
            _apply_to_pokerkit(theirs, str(action))
        assert not theirs.status
        assert hand.result is not None
        assert list(theirs.stacks) == list(hand.result.finishing_stacks), seed
        assert [list(theirs.get_board_cards(b)) for b in (0, 1)] == [
            list(pk.Card.parse("".join(c.ascii for c in board))) for board in hand.boards
        ]
        winners = {a.decided_by.split(":")[0]: a.players for a in hand.result.awards}
        split_boards += len(set(map(tuple, winners.values()))) > 1
        # the file replays in cardlab to the same stacks (its _boards field)
        again = replay(loads(dumps(history))).hand
        assert again.result is not None and again.result.finishing_stacks == (
            hand.result.finishing_stacks
        )
    assert split_boards > 3  # the boards were won by different players


def test_the_replayer_shows_both_boards() -> None:
    pytest.importorskip("starlette")
    from cardlab.web.replay import hand_frames

    setup = HouseSetup("NT", bomb_pot_stakes(BASE, 5), (100, 100, 100))
    hand = HandState(setup.cardlab_game(), [100] * 3, seed=4, bomb_pot=True, boards=2)
    while not hand.is_over:
        if hand.phase.value == "bet":
            hand.check_or_call()
        else:
            hand.show_or_muck(True)
    frames = hand_frames(to_history(hand))["frames"]
    last = frames[-1]
    assert last["board"] == [str(c) for c in hand.boards[0]]
    assert last["second_board"] == [str(c) for c in hand.boards[1]]
    # a hand on one board has no second board in its frames
    one = HandState(setup.cardlab_game(), [100] * 3, seed=4, bomb_pot=True)
    while not one.is_over:
        if one.phase.value == "bet":
            one.check_or_call()
        else:
            one.show_or_muck(True)
    assert all("second_board" not in f for f in hand_frames(to_history(one))["frames"])


def test_a_double_board_is_not_run_twice() -> None:
    """Two boards and several runs do not mix: the engine refuses the pair, a history
    that claims both is refused, and an all-in double-board hand goes to its showdown
    without asking for runs, its exact odds counted for each board on its own
    (tests/table/test_all_in_odds.py checks the figures) and no rabbit (it was shown down)."""
    from cardlab.errors import ActionError, HistoryError
    from cardlab.table.odds import all_in_odds, all_in_streets
    from cardlab.table.state import Phase

    setup = HouseSetup("NT", bomb_pot_stakes(BASE, 5), (100, 100, 100))
    game = setup.cardlab_game()
    with pytest.raises(ActionError, match="two boards is not run more than once"):
        HandState(game, [100] * 3, seed=4, bomb_pot=True, boards=2, runs=2)
    hand = HandState(game, [100] * 3, seed=4, bomb_pot=True, boards=2)
    while not hand.is_over:
        assert hand.phase is not Phase.RUNS
        if hand.phase is Phase.BET:
            most = hand.legal().raise_max
            if most is None:
                hand.check_or_call()
            else:
                hand.bet_or_raise_to(most)  # all in: the rest is dealt without betting
            assert all_in_odds(hand) is None
        else:
            hand.show_or_muck(True)
    assert hand.all_in_board is not None and hand.runs == 1 and hand.result is not None
    assert len(hand.result.boards) == 2 and hand.result.runouts == ()
    streets = all_in_streets(hand)
    assert {o.on for o in streets} == {0, 1} and hand.rabbit_due() == 0
    if importlib.util.find_spec("starlette") is not None:  # the table page's last hand
        from cardlab.web.table_phh import showdown_summary

        summary = showdown_summary(hand, ["a", "b", "c"])
        assert summary["boards"] == [" ".join(map(str, board)) for board in hand.boards]
        assert len(set(summary["boards"])) == 2 and summary["runs"] == []
    text = dumps(to_history(hand)).replace("_boards = 2", "_boards = 2\n_runs = 2")
    assert "_runs = 2" in text
    with pytest.raises(HistoryError, match="not run more than once"):
        replay(loads(text))
