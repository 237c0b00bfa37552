"""Running the board more than once, against the rules of docs/table.md and pokerkit.

pokerkit plays multiple runouts (``select_runout_count``) but its PHH reader has no
action for the choice; cardlab writes the count agreed as ``_runs`` and each run's
board as ``d db`` lines in dealing order (pokerkit's own order of operations). Here each
written history is played on pokerkit by hand: the same actions, the runout count
selected by every player, and pokerkit's boards and finishing stacks must be ours.
"""

from __future__ import annotations

import random
import warnings

import pokerkit as pk
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import ActionError
from cardlab.table import HandState, TableGame, phh
from cardlab.table import events as ev
from cardlab.table.history import replay, to_history
from cardlab.table.state import Phase

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.CARD_BURNING,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)

GAMES = {
    "NT": ("standard52-holdem", "no-limit"),
    "NS": ("short36-holdem", "no-limit"),
    "PO": ("standard52-omaha", "pot-limit"),
    "FO/8": ("standard52-omaha8", "fixed-limit"),
}


def _game(code: str) -> TableGame:
    key, betting = GAMES[code]
    return TableGame.create(key, betting=betting, blinds=(1, 2), small_bet=2, big_bet=4)


def _shove(hand: HandState, rng: random.Random, street: str) -> None:
    """Check or call until ``street``, then push (some fold when more than two are in)."""
    while hand.phase is Phase.BET:
        legal = hand.legal()
        if hand.street_name != street:
            hand.check_or_call()
        elif legal.raise_max is not None and rng.random() < 0.7:
            hand.bet_or_raise_to(legal.raise_max)
        elif legal.fold and rng.random() < 0.15 and len(hand.in_hand()) > 2:
            hand.fold()
        else:
            hand.check_or_call()


def _all_in_hand(game: TableGame, rng: random.Random, runs: int) -> HandState:
    """A hand where everyone left goes all in on a random street before the river,
    with stacks of different sizes (side pots), every player asking for ``runs``."""
    n = rng.randint(2, 4)
    sizes = [5, 7, 9, 10, 13] if game.stakes.raise_cap else [40, 60, 100, 101, 157]
    stacks = [rng.choice(sizes) for _ in range(n)]
    hand = HandState(game, stacks, seed=rng.randrange(2**32), runs=3)
    _shove(hand, rng, rng.choice(["pre-flop", "flop", "turn"]))
    while hand.phase is Phase.RUNS:
        hand.choose_runs(min(runs, hand.legal().runs))
    return hand


def _pokerkit_replay(text: str) -> pk.State:
    """The history played on pokerkit action by action, selecting its ``_runs``."""
    hh = pk.HandHistory.loads(text, automations=AUTOMATIONS)
    runs = hh.user_defined_fields.get("_runs", 1)
    state = hh.create_state()
    for action in hh.actions:
        if state.can_select_runout_count():
            for _ in list(state.runout_count_selector_indices):
                state.select_runout_count(runs)
        if " sm " in action and not state.can_show_or_muck_hole_cards():
            continue  # pokerkit showed the all-in hands itself
        if state.can_burn_card():
            state.burn_card("??")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pk.parse_action(state, action)
    while state.status:
        if state.can_select_runout_count():
            state.select_runout_count(runs)
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)
        else:
            break
    return state


@pytest.mark.parametrize("code", sorted(GAMES))
@pytest.mark.parametrize("runs", [2, 3])
def test_runs_agree_with_pokerkit(code: str, runs: int) -> None:
    game = _game(code)
    key = code
    rng = random.Random(f"{key} {runs}")
    ran = 0
    for _ in range(25):
        hand = _all_in_hand(game, rng, runs)
        text = phh.dumps(to_history(hand))
        theirs = _pokerkit_replay(text)
        assert hand.result is not None
        assert list(hand.result.finishing_stacks) == list(theirs.stacks), text
        if hand.runs > 1:
            ran += 1
            pk_boards = [
                "".join(repr(c) for c in theirs.get_board_cards(i)) for i in theirs.board_indices
            ]
            ours = ["".join(c.ascii for c in b) for b in hand.result.runouts]
            assert ours == pk_boards
        # cardlab's own replay of the file gives the same hand
        again = replay(phh.loads(text)).hand
        assert again.result is not None
        assert again.result.finishing_stacks == hand.result.finishing_stacks
        assert again.runouts() == hand.runouts()
    assert ran >= 10


def _heads_up(runs_allowed: int = 2) -> HandState:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100], seed=5, runs=runs_allowed)
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    return hand


def test_everyone_must_agree() -> None:
    hand = _heads_up(3)
    assert hand.phase is Phase.RUNS and hand.legal().runs == 3
    hand.choose_runs(2)
    hand.choose_runs(3)
    assert hand.runs == 1 and hand.result is not None and hand.result.runouts == ()
    assert hand.result.awards and not any(isinstance(a, ev.RunAward) for a in hand.result.awards)


def test_no_preference_defers() -> None:
    hand = _heads_up(3)
    hand.choose_runs(None)
    hand.choose_runs(3)
    assert hand.runs == 3 and hand.result is not None and len(hand.result.runouts) == 3


def test_runs_split_a_pot_evenly_odd_chip_to_the_first_run() -> None:
    # the rule of docs/table.md: each pot splits evenly between the runs, the odd chips
    # to the first run; each run's share goes to that run's best hand
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [101, 101], deal="manual", runs=3)
    hand.deal_hole(0, game.game.deck.parse_cards("AcAd"))
    hand.deal_hole(1, game.game.deck.parse_cards("KcKd"))
    hand.bet_or_raise_to(101)
    hand.check_or_call()
    for _ in range(2):
        hand.choose_runs(3)
    cards = game.game.deck.parse_cards
    for board in ("2h7s9d", "3h", "4c", "2s7h9c", "Kh", "5d", "2c7d9h", "3s", "4d"):
        hand.deal_board(cards(board))
        if board in ("4c", "5d"):
            pass
    assert hand.result is not None
    shares = [(a.run, a.players, a.amounts) for a in hand.result.awards]
    # 202 chips: 68 + 67 + 67; the aces win runs 1 and 3, the kings run 2
    assert shares == [(0, (0,), (68,)), (1, (1,), (67,)), (2, (0,), (67,))]
    assert hand.result.finishing_stacks == (135, 67)


def test_the_choice_is_refused_when_not_due_or_too_many() -> None:
    hand = _heads_up(2)
    with pytest.raises(ActionError, match="1 to 2 times"):
        hand.choose_runs(3)
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    plain = HandState(game, [100, 100], seed=5)  # the table does not allow runs
    plain.bet_or_raise_to(100)
    plain.check_or_call()
    assert plain.result is not None and plain.runs == 1
    with pytest.raises(ActionError, match="nobody chooses the runs"):
        plain.choose_runs(2)
    with pytest.raises(ActionError, match="runs is the most times"):
        HandState(game, [100, 100], runs=4)


def test_a_short_deck_limits_the_runs() -> None:
    # 36 cards, 9 players: 18 hole cards, 18 left; a run from the flop deals three
    # burns and five cards: two runs fit, three do not
    game = _game("NS")
    hand = HandState(game, [50] * 9, seed=3, runs=3)
    hand.bet_or_raise_to(50)
    while hand.phase is Phase.BET:
        hand.check_or_call()
    assert hand.legal().runs == 2


def test_stud_is_never_run_twice() -> None:
    game = TableGame.create("standard52-stud", bring_in=1, small_bet=2, big_bet=4)
    hand = HandState(game, [10, 10], seed=2, runs=2)
    while not hand.is_over:
        assert hand.phase is not Phase.RUNS
        legal = hand.legal()
        if legal.raise_max is not None:
            hand.bet_or_raise_to(legal.raise_max)
        else:
            hand.check_or_call()
    assert hand.runs == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 3]))
def test_chips_are_kept_and_runs_deal_distinct_cards(seed: int, runs: int) -> None:
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = _all_in_hand(game, random.Random(seed), runs)
    assert hand.result is not None
    assert sum(hand.result.finishing_stacks) == sum(hand.starting_stacks)
    boards = hand.runouts()
    assert len(boards) == hand.runs
    base = hand._run_base if hand.runs > 1 else 5
    assert all(b[:base] == boards[0][:base] for b in boards)  # the cards all runs share
    own = [c for b in boards for c in b[base:]] + [c for h in hand.hole for c in h]
    own += list(boards[0][:base])
    assert len(own) == len(set(own))  # no card is dealt twice
    assert all(len(b) == 5 for b in boards)
