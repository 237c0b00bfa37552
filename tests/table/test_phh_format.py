"""The PHH format: real files, round trips, pokerkit agreement, and every error case."""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import io
import random
import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cards import Card
from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.errors import CardError, CardlabError, HistoryError
from cardlab.table import phh
from cardlab.table.phh import HandHistory, dumps, dumps_all, load, load_all, loads, loads_all
from cardlab.table.phh_actions import (
    CheckCall,
    CompleteBetRaiseTo,
    DealBoard,
    DealHole,
    Fold,
    NoOp,
    PostBringIn,
    ShowMuck,
    StandPatDiscard,
    join_cards,
    parse_action,
    split_cards,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "phh"
PHH_FILES = sorted(DATA.glob("*.phh"))
PHHS_FILES = sorted(DATA.glob("*.phhs"))
STANDARD52 = get_deck("standard52")
FESCA78 = get_deck("FESCA78")


def _pokerkit():  # type: ignore[no-untyped-def]
    import pokerkit  # a test dependency: missing it is a failure, not a skip

    return pokerkit


# --- real files ----------------------------------------------------------------


def test_the_sample_files_are_there() -> None:
    assert len(PHH_FILES) >= 8 and PHHS_FILES
    variants = {load(p).variant for p in PHH_FILES}
    assert {"NT", "FT", "PO", "F7S"} <= variants


@pytest.mark.parametrize("path", PHH_FILES, ids=lambda p: p.name)
def test_sample_file_round_trips(path: Path) -> None:
    hand = load(path)
    assert loads(dumps(hand)) == hand
    assert dumps(loads(dumps(hand))) == dumps(hand)
    assert [str(a) for a in hand.actions] == [a.strip() for a in _raw_actions(path)]


def _raw_actions(path: Path) -> list[str]:
    import tomllib

    actions = tomllib.loads(path.read_text("utf-8"))["actions"]
    assert isinstance(actions, list)
    return [str(a) for a in actions]


@pytest.mark.parametrize("path", [DATA / "abs-nlh-handhq-1-first10.phhs"], ids=lambda p: p.name)
def test_sample_phhs_round_trips(path: Path) -> None:
    hands = load_all(path)
    assert len(hands) == 10
    assert loads_all(dumps_all(hands)) == hands
    assert hands[0].time == datetime.time(0, 0, 9)
    assert hands[0].blinds_or_straddles == (Decimal("0.50"), 1, 0)
    assert hands[0].user_fields == {} and hands[0].time_zone_abbreviation == "ET"


def test_sample_fields_read_as_written() -> None:
    hand = load(DATA / "pluribus-100-0.phh")
    assert hand.variant == "NT" and hand.player_count == 6 and hand.min_bet == 100
    assert hand.players == ("MrBlue", "MrBlonde", "MrWhite", "MrPink", "MrBrown", "Pluribus")
    assert hand.finishing_stacks == (10310, 9900, 10000, 9790, 10000, 10000)
    assert hand.actions[:2] == (DealHole(0, "TcQc"), DealHole(1, "8s4c"))
    assert hand.actions[7] == CompleteBetRaiseTo(3, 210)
    assert hand.actions[-1] == Fold(3)
    stud = load(DATA / "wsop-2023-43-5-50.phh")
    assert stud.bring_in == 75000 and stud.blinds_or_straddles is None
    assert stud.actions[3] == DealHole(3, "??") and stud.actions[15] == PostBringIn(2)
    draw = load(DATA / "arieh-yockey-2019.phh")
    assert draw.actions[9] == StandPatDiscard(0) and draw.actions[10] == StandPatDiscard(3, "AsQs")


# --- pokerkit reads what we write, and we read what it writes ---------------------


@pytest.mark.parametrize("path", [*PHH_FILES, *PHHS_FILES], ids=lambda p: p.name)
def test_we_write_what_pokerkit_writes(path: Path) -> None:
    pk = _pokerkit()
    text = path.read_text("utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pokerkit 0.7 warns on time_zone_abbreviation
        if path.suffix == ".phhs":
            theirs = pk.HandHistory.dumps_all(pk.HandHistory.loads_all(text))
            ours = dumps_all(load_all(path))
        else:
            theirs = pk.HandHistory.loads(text).dumps()
            ours = dumps(load(path))
    assert ours == theirs + "\n"
    # and what pokerkit writes, we read to the same hand
    if path.suffix == ".phhs":
        assert loads_all(theirs) == load_all(path)
    else:
        assert loads(theirs) == load(path)


@pytest.mark.parametrize("path", PHH_FILES, ids=lambda p: p.name)
def test_pokerkit_replays_what_we_write(path: Path) -> None:
    pk = _pokerkit()
    hand = load(path)
    if hand.ante_trimming_status and len(set(hand.antes)) > 1:
        # the spec: non-uniform (big-blind) antes want ante trimming off; the WSOP 2019
        # file says on, and its recorded finishing stacks are those of trimming off
        hand = HandHistory(**{**_fields(hand), "ante_trimming_status": False})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pk.HandHistory.loads(dumps(hand))
        states = list(theirs)
    assert theirs.actions == [str(a) for a in hand.actions]
    assert list(states[0].starting_stacks) == list(hand.starting_stacks)
    if hand.finishing_stacks is not None:  # the recorded result, independent of both
        assert tuple(states[-1].stacks) == hand.finishing_stacks


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_we_read_a_hand_pokerkit_played() -> None:
    pk = _pokerkit()
    game = pk.NoLimitTexasHoldem(
        (
            pk.Automation.ANTE_POSTING,
            pk.Automation.BET_COLLECTION,
            pk.Automation.BLIND_OR_STRADDLE_POSTING,
            pk.Automation.CARD_BURNING,
            pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            pk.Automation.HAND_KILLING,
            pk.Automation.CHIPS_PUSHING,
            pk.Automation.CHIPS_PULLING,
        ),
        True,
        0,
        (1, 2),
        2,
    )
    state = game((200, 150, 300), 3)
    state.deal_hole("AcKd")
    state.deal_hole("7h7s")
    state.deal_hole("2c3c")
    state.complete_bet_or_raise_to(6)
    state.fold()
    state.check_or_call()
    state.deal_board("Jc3d5c")
    state.complete_bet_or_raise_to(144)  # p2 all in
    state.check_or_call()
    text = pk.HandHistory.from_game_state(game, state).dumps()
    hand = loads(text)
    assert hand.starting_stacks == (200, 150, 300)
    assert hand.actions[:3] == (DealHole(0, "AcKd"), DealHole(1, "7h7s"), DealHole(2, "2c3c"))
    assert hand.actions[3:6] == (CompleteBetRaiseTo(2, 6), Fold(0), CheckCall(1))
    assert CompleteBetRaiseTo(1, 144) in hand.actions
    assert dumps(hand) == text + "\n"


def _pokerkit_random_hand(pk, rng: random.Random, kind: str):  # type: ignore[no-untyped-def]
    """A hand pokerkit plays with random legal actions and short stacks (all-ins)."""
    a = pk.Automation
    autos = (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.CARD_BURNING,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )
    game = {
        "NT": lambda: pk.NoLimitTexasHoldem(autos, True, 0, (1, 2), 2),
        "FT": lambda: pk.FixedLimitTexasHoldem(autos, True, 0, (1, 2), 2, 4),
        "PO": lambda: pk.PotLimitOmahaHoldem(autos, True, 0, (1, 2), 2),
        "F7S": lambda: pk.FixedLimitSevenCardStud(autos, True, 1, 1, 2, 4),
    }[kind]()
    n = rng.randint(2, 6)
    state = game(tuple(rng.randint(3, 60) for _ in range(n)), n)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)  # dealt explicitly: pokerkit's own shuffle is not seeded
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(deck.pop())
        elif state.can_deal_board():
            state.deal_board(deck.pop())
        elif state.can_post_bring_in() and rng.random() < 0.7:
            state.post_bring_in()
        else:
            moves = []
            if state.can_fold():
                moves.append(state.fold)
            if state.can_check_or_call():
                moves.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                moves.append(
                    functools.partial(state.complete_bet_or_raise_to, rng.randint(low, high))
                )
            rng.choice(moves)()
    return game, state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["NT", "FT", "PO", "F7S"]))
def test_we_read_random_hands_pokerkit_plays(seed: int, kind: str) -> None:
    pk = _pokerkit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game, state = _pokerkit_random_hand(pk, random.Random(seed), kind)
        text = pk.HandHistory.from_game_state(game, state).dumps()
    hand = loads(text)
    assert hand.variant == kind and len(hand.actions) == len(pk.HandHistory.loads(text).actions)
    assert dumps(hand) == text + "\n"


# --- actions -------------------------------------------------------------------

EXAMPLES = [
    ("d dh p1 AcKd", DealHole(0, "AcKd")),
    ("d dh p12 ????", DealHole(11, "????")),
    ("d db AcKdQh", DealBoard("AcKdQh")),
    ("p1 f", Fold(0)),
    ("p3 cc", CheckCall(2)),
    ("p1 cbr 100", CompleteBetRaiseTo(0, 100)),
    ("p1 cbr 3.50", CompleteBetRaiseTo(0, Decimal("3.50"))),
    ("p2 pb", PostBringIn(1)),
    ("p1 sd", StandPatDiscard(0)),
    ("p1 sd 7c8d", StandPatDiscard(0, "7c8d")),
    ("p1 sm AcKd", ShowMuck(0, "AcKd")),
    ("p1 sm ??Ad", ShowMuck(0, "??Ad")),
    ("p1 sm -", ShowMuck(0, "-")),
    ("p1 sm", ShowMuck(0)),
    ("p1 cc # a long think", CheckCall(0, "a long think")),
    ("# Burn card 6s is exposed", NoOp("Burn card 6s is exposed")),
    ("", NoOp()),
    ("d dh p1 M12YZ", DealHole(0, "M12YZ")),
]


@pytest.mark.parametrize(("text", "record"), EXAMPLES, ids=[t or "empty" for t, _ in EXAMPLES])
def test_action_examples(text: str, record: object) -> None:
    assert parse_action(text) == record
    assert str(record) == text


def test_action_whitespace_is_free() -> None:
    assert parse_action("  p1   cbr   100   #   why  ") == CompleteBetRaiseTo(0, 100, "why")
    assert parse_action("\t") == NoOp()
    assert ShowMuck(0).mucks and not ShowMuck(0, "-").mucks


_comments = st.none() | st.text(min_size=0, max_size=12).map(str.strip)
_players = st.integers(0, 11)  # positions: p1 is 0
_tokens = st.text("AKQJT98765432cdhs?MYZ-", min_size=1, max_size=8).filter(lambda t: t != "-")
_amounts = st.integers(1, 10**12) | st.decimals(
    min_value=Decimal("0.01"), max_value=Decimal(10**9), places=2, allow_nan=False
)
_records = st.one_of(
    st.builds(DealHole, _players, _tokens, _comments),
    st.builds(DealBoard, _tokens, _comments),
    st.builds(Fold, _players, _comments),
    st.builds(CheckCall, _players, _comments),
    st.builds(CompleteBetRaiseTo, _players, _amounts, _comments),
    st.builds(PostBringIn, _players, _comments),
    st.builds(StandPatDiscard, _players, st.none() | _tokens, _comments),
    st.builds(ShowMuck, _players, st.none() | _tokens | st.just("-"), _comments),
    st.builds(NoOp, _comments),
)


@given(_records)
def test_action_records_round_trip(record: object) -> None:
    text = str(record)
    assert parse_action(text) == record
    assert str(parse_action(text)) == text


@given(st.text(max_size=40))
def test_parse_action_fuzz(text: str) -> None:
    try:
        record = parse_action(text)
    except HistoryError as exc:
        assert repr(text) in str(exc)
    else:
        assert parse_action(str(record)) == record


ACTION_ERRORS = [
    ("p1 cbr x", "amount must be a positive integer or decimal, got 'x'"),
    ("p1 cbr -5", "amount must be a positive integer or decimal"),
    ("p1 cbr 0", "amount must be positive"),
    ("p1 cbr", "'cbr' takes 1 argument"),
    ("p1 f 100", "'f' takes no argument, got '100'"),
    ("p0 f", "expected an actor 'd' or p1, p2, ..., got 'p0'"),
    ("x1 f", "got 'x1'"),
    ("p1", "expected an action after the player"),
    ("p1 xx", "unknown action 'xx'"),
    ("d xx", "the dealer deals 'dh' (hole) or 'db' (board), got 'xx'"),
    ("d db", "'d db' takes one card token, got 0"),
    ("d dh AcKd", "'d dh' takes a player and one card token"),
    ("d dh q1 AcKd", "expected a player p1, p2, ..., got 'q1'"),
    ("d dh p1 -", "'-' (the cards dealt) is only for showing"),
    ("p1 sm Ac Kd", "'sm' takes at most one card token, got 2"),
]


@pytest.mark.parametrize(("text", "message"), ACTION_ERRORS)
def test_action_errors(text: str, message: str) -> None:
    with pytest.raises(HistoryError) as info:
        parse_action(text)
    assert message in str(info.value)
    assert repr(text) in str(info.value)


def test_records_refuse_bad_values() -> None:
    for make in (
        lambda: Fold(-1),
        lambda: Fold(True),
        lambda: CompleteBetRaiseTo(0, 0),
        lambda: CompleteBetRaiseTo(0, Decimal("NaN")),
        lambda: DealBoard("Ac Kd"),
        lambda: DealHole(0, "-"),
        lambda: CheckCall(0, " padded "),
    ):
        with pytest.raises(HistoryError):
            make()
    with pytest.raises(HistoryError, match="an action is a string"):
        parse_action(5)  # type: ignore[arg-type]


# --- cards ---------------------------------------------------------------------


def test_split_cards_examples() -> None:
    assert split_cards("AcKd", STANDARD52) == (Card.parse("Ac"), Card.parse("Kd"))
    assert split_cards("??Td", STANDARD52) == (None, Card.parse("Td"))
    assert split_cards("M12K3YZ", FESCA78) == (
        Card.parse("木12"),
        Card.parse("火3"),
        Card.parse("太極"),
    )
    assert split_cards("M1M12", FESCA78) == (Card.parse("木1"), Card.parse("木12"))
    assert join_cards([Card.parse("木12"), None, Card.parse("YZ")], FESCA78) == "M12??YZ"


@pytest.mark.parametrize(
    ("token", "deck", "message"),
    [
        ("AcKx", STANDARD52, "'Kx' is not a standard52 card"),
        ("AcAc", STANDARD52, "names a card twice"),
        ("M7", STANDARD52, "'M7' is not a standard52 card"),
        ("As", FESCA78, "'As' is not a FESCA78 card"),
        ("M13", FESCA78, "'3' is not a FESCA78 card"),
        ("", STANDARD52, "an empty card token"),
        ("?", STANDARD52, "'?' is not"),
    ],
)
def test_split_cards_errors(token: str, deck: object, message: str) -> None:
    with pytest.raises(CardError, match=message.replace("?", r"\?")):
        split_cards(token, deck)  # type: ignore[arg-type]


def test_join_cards_errors() -> None:
    with pytest.raises(CardError, match="not in the standard52 deck"):
        join_cards([Card.parse("木1")], STANDARD52)
    with pytest.raises(CardError, match="no cards"):
        join_cards([], STANDARD52)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_cards_round_trip_on_every_builtin_deck(data: st.DataObject) -> None:
    deck = get_deck(data.draw(st.sampled_from(BUILTIN_DECKS)))
    known = data.draw(st.lists(st.sampled_from(deck.cards), min_size=0, max_size=9, unique=True))
    slots = data.draw(st.lists(st.booleans(), min_size=len(known), max_size=len(known)))
    cards = [None if hide else card for card, hide in zip(known, slots, strict=True)]
    if not cards:
        cards = [None]
    token = join_cards(cards, deck)
    assert split_cards(token, deck) == tuple(cards)


# --- whole histories -----------------------------------------------------------

MINIMAL = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AcKd', 'd dh p2 ????', 'd dh p3 7h6h', 'p3 cbr 6', 'p1 f', 'p2 f']
"""

FESCA = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = [
  'd dh p1 M12YZ',
  'd dh p2 ????',
  'd dh p3 K3G7',
  'p3 cc',
  'p1 cc',
  'p2 cc',
  'd db S1D2M7',
]
_deck = 'FESCA78'
_game = 'fesca78-holdem'
_rules = {suit_tiebreak = 'off', compound = 'rarer'}
"""


def test_minimal_and_defaults() -> None:
    hand = loads(MINIMAL)
    assert hand.ante_trimming_status is False and hand.author is None
    assert hand.deck is STANDARD52
    assert dumps(hand).startswith(
        "variant = 'NT'\nante_trimming_status = false\nantes = [0, 0, 0]\n"
    )


def test_fesca_history_with_user_fields() -> None:
    hand = loads(FESCA)
    assert hand.deck is FESCA78
    assert hand.user_fields == {
        "_deck": "FESCA78",
        "_game": "fesca78-holdem",
        "_rules": {"suit_tiebreak": "off", "compound": "rarer"},
    }
    assert split_cards(hand.actions[0].token, hand.deck) == (  # type: ignore[union-attr]
        Card.parse("木12"),
        Card.parse("太極"),
    )
    text = dumps(hand)
    assert text.endswith(
        "_deck = 'FESCA78'\n_game = 'fesca78-holdem'\n"
        "_rules = {suit_tiebreak = 'off', compound = 'rarer'}\n"
    )
    assert loads(text) == hand


def test_unknown_keys_are_kept_in_order() -> None:
    text = MINIMAL + "zzz = 1\n_b = [1.5, 'x']\n'odd key' = {a = 1979-05-27}\n"
    hand = loads(text)
    assert list(hand.user_fields) == ["zzz", "_b", "odd key"]
    assert hand.user_fields["_b"] == [Decimal("1.5"), "x"]
    assert loads(dumps(hand)) == hand
    assert '"odd key" = {a = 1979-05-27}' in dumps(hand)


def test_constructor_parses_and_freezes() -> None:
    hand = HandHistory(
        variant="FT",
        antes=[0, 0],
        blinds_or_straddles=[1, 2],
        small_bet=2,
        big_bet=4,
        starting_stacks=[100, 100],
        actions=["d dh p1 AcKd", "d dh p2 ????", CheckCall(1)],
        user_fields={"_note": "hi"},
    )
    assert hand.antes == (0, 0) and hand.actions[0] == DealHole(0, "AcKd")
    assert hash(hand) == hash(loads(dumps(hand)))
    with pytest.raises(AttributeError):
        hand.variant = "NT"  # type: ignore[misc]
    assert eval(repr(hand)) == hand  # repr round-trips with the public names
    with pytest.raises(phh.HistoryFieldError) as info:
        dataclasses.replace(hand, actions=(*hand.actions, Fold(2)))
    assert (info.value.name, info.value.index) == ("actions", 3)
    assert str(info.value) == "actions[3] 'p3 f': player p3 of 2"


def test_draw_variant_code_is_cardlabs_own() -> None:
    assert "N5CD" in phh.CARDLAB_VARIANTS and "N5CD" not in phh.VARIANTS
    text = MINIMAL.replace("'NT'", "'N5CD'").replace(", 'p1 f', 'p2 f'", ", 'p1 sd AcKd'")
    assert loads(text).variant == "N5CD"
    with pytest.raises(HistoryError, match="min_bet: the field is required for variant 'N5CD'"):
        loads(text.replace("min_bet = 2\n", ""))


# hypothesis: random well-formed histories survive dumps -> load

_names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_money = st.integers(0, 10**9) | st.decimals(
    min_value=0, max_value=10**6, places=2, allow_nan=False, allow_infinity=False
)
_user_values = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | _names
    | st.decimals(places=3, allow_nan=False, allow_infinity=False)
    | st.dates()
    | st.times(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_names, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def _histories(draw: st.DrawFn) -> HandHistory:
    n = draw(st.integers(2, 9))
    per_player = lambda s: st.lists(s, min_size=n, max_size=n)  # noqa: E731
    actions = draw(st.lists(_records, max_size=12))
    actions = [a for a in actions if getattr(a, "player", 0) < n and _cards_ok(a)]
    fixed = draw(st.booleans())
    return HandHistory(
        variant="FT" if fixed else "NT",
        ante_trimming_status=draw(st.booleans()),
        antes=draw(per_player(_money)),
        blinds_or_straddles=draw(per_player(_money)),
        small_bet=2 if fixed else None,
        big_bet=4 if fixed else None,
        min_bet=None if fixed else draw(_money),
        starting_stacks=draw(per_player(st.integers(1, 10**9))),
        actions=actions,
        author=draw(st.none() | _names),
        event=draw(st.none() | _names),
        time=draw(st.none() | st.times()),
        hand=draw(st.none() | st.integers(0, 10**12) | _names),
        seats=draw(st.none() | per_player(st.integers(1, 10))),
        players=draw(st.none() | per_player(_names)),
        finishing_stacks=draw(st.none() | per_player(_money)),
        time_zone_abbreviation=draw(st.none() | _names),
        user_fields=draw(st.dictionaries(_names.map(lambda s: "_" + s), _user_values, max_size=3)),
    )


def _cards_ok(action: object) -> bool:
    cards = getattr(action, "token", None)
    if cards is None or cards == "-":
        return True
    try:
        split_cards(cards, STANDARD52)
    except CardError:
        return False
    return True


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(_histories())
def test_histories_round_trip(hand: HandHistory) -> None:
    text = dumps(hand)
    assert loads(text) == hand
    assert loads_all(dumps_all([hand, hand])) == [hand, hand]


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(_histories())
def test_pokerkit_reads_our_histories(hand: HandHistory) -> None:
    pk = _pokerkit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pk.HandHistory.loads(dumps(hand))
    assert theirs.variant == hand.variant
    assert tuple(theirs.antes) == hand.antes
    assert tuple(theirs.starting_stacks) == hand.starting_stacks
    assert theirs.actions == [str(a) for a in hand.actions]
    assert theirs.players == (None if hand.players is None else list(hand.players))
    assert theirs.time == hand.time and theirs.hand == hand.hand


# --- errors: every one names where --------------------------------------------


def _error(text: str) -> str:
    with pytest.raises(HistoryError) as info:
        loads(text)
    assert isinstance(info.value, CardlabError)
    return str(info.value)


def test_bad_toml_names_the_line() -> None:
    message = _error(MINIMAL + "oops = = 1\n")
    assert message.startswith("not valid TOML:") and "line 7" in message


def test_missing_fields() -> None:
    assert _error(MINIMAL.replace("antes = [0, 0, 0]\n", "")) == (
        "the required field 'antes' is missing"
    )
    assert _error(MINIMAL.replace("min_bet = 2\n", "")) == (
        "min_bet: the field is required for variant 'NT'"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("antes = [0, 0, 0]", "antes = 'none'", "line 2: antes: expected an array, got 'none'"),
        ("antes = [0, 0, 0]", "antes = [0, -1, 0]", "line 2: antes[1]: expected a number >= 0"),
        ("antes = [0, 0, 0]", "antes = [0, 0]", "line 2: antes: expected one entry per player (3)"),
        ("min_bet = 2", "min_bet = true", "line 4: min_bet: expected a number >= 0, got True"),
        ("min_bet = 2", "min_bet = nan", "line 4: min_bet: expected a number >= 0"),
        ("variant = 'NT'", "variant = 1", "line 1: variant: expected a string, got 1"),
        (
            "starting_stacks = [200, 200, 200]",
            "starting_stacks = [200, 0, 200]",
            "line 5: starting_stacks[1]: a starting stack is > 0, got 0",
        ),
        (
            "starting_stacks = [200, 200, 200]",
            "starting_stacks = [200]",
            "line 5: starting_stacks: a hand needs 2 or more players, got 1",
        ),
        ("'p1 f'", "'p1 cbr x'", "line 6: actions[4] 'p1 cbr x': amount must be a positive"),
        ("'p1 f'", "'p4 f'", "line 6: actions[4] 'p4 f': player p4 of 3"),
        ("'p1 f'", "7", "line 6: actions[4]: expected an action string, got 7"),
        ("AcKd", "AcKx", "line 6: actions[0] 'd dh p1 AcKx': card token 'AcKx': 'Kx' is not"),
    ],
)
def test_field_errors_name_the_line(old: str, new: str, message: str) -> None:
    assert old in MINIMAL
    got = _error(MINIMAL.replace(old, new))
    assert got.startswith(message), got


def test_action_error_on_a_later_line_of_a_multiline_array() -> None:
    got = _error(FESCA.replace("'p2 cc'", "'p2 cc 5'"))
    assert got.startswith("line 12: actions[5] 'p2 cc 5': 'cc' takes no argument")
    got = _error(FESCA.replace("'d db S1D2M7'", "'d db S1D2As'"))
    assert got.startswith("line 13: actions[6] 'd db S1D2As'") and "FESCA78" in got


def test_optional_field_errors() -> None:
    assert _error(MINIMAL + "month = 13\n").startswith("line 7: month: expected 1 to 12, got 13")
    assert _error(MINIMAL + "time = '20:00'\n").startswith("line 7: time: expected a local time")
    assert _error(MINIMAL + "players = ['a', 2, 'c']\n").startswith(
        "line 7: players[1]: expected a string, got 2"
    )
    assert _error(MINIMAL + "hand = true\n").startswith("line 7: hand: expected a string or")


def test_deck_must_be_builtin() -> None:
    got = _error(MINIMAL + "_deck = '/tmp/evil.toml'\n")
    assert got.startswith("line 7: _deck: expected a built-in deck") and "evil" in got
    assert "is not a FESCA78 card" in _error(MINIMAL + "_deck = 'FESCA78'\n")


def test_phhs_errors_name_the_hand() -> None:
    text = "[1]\n" + MINIMAL + "\n[2]\n" + MINIMAL.replace("'p1 f'", "'p1 cbr x'")
    got = _error_all(text)
    assert got.startswith("hand [2]: line 15: actions[4] 'p1 cbr x'"), got
    assert _error_all("x = 1\n").startswith("line 1: a .phhs file is one table per hand")
    assert _error_all("[1]\nvariant = 'NT'\n") == "hand [1]: the required field 'antes' is missing"
    assert loads_all("") == []


def _error_all(text: str) -> str:
    with pytest.raises(HistoryError) as info:
        loads_all(text)
    return str(info.value)


def test_file_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(HistoryError, match="is not a regular file"):
        load(tmp_path)
    with pytest.raises(HistoryError, match=r"cannot read .*missing\.phh"):
        load(tmp_path / "missing.phh")
    bad = tmp_path / "latin1.phh"
    bad.write_bytes(MINIMAL.encode() + b"author = '\xe9'\n")
    with pytest.raises(HistoryError, match="is not UTF-8 text"):
        load(bad)
    good = tmp_path / "good.phh"
    good.write_text("\ufeff" + MINIMAL, "utf-8")
    assert load(good) == loads(MINIMAL)
    with pytest.raises(HistoryError, match=r"good.phh: line 2: antes"):
        good.write_text(MINIMAL.replace("[0, 0, 0]", "[0, 0]"), "utf-8")
        load(good)
    monkeypatch.setattr(phh, "MAX_FILE_BYTES", 100)
    with pytest.raises(HistoryError, match="is over"):
        load(good)
    with pytest.raises(HistoryError, match="over the limit"):
        loads(MINIMAL)
    with pytest.raises(HistoryError, match="expected a path or a file, got bytes"):
        load(b"variant = 'NT'")  # type: ignore[arg-type]


def test_load_reads_files_and_loads_reads_text(tmp_path: Path) -> None:
    """``load`` takes a path (str or PathLike) or a file object, binary or text;
    ``loads`` takes text, as json and tomllib do; neither takes the other's input."""
    expected = loads(MINIMAL)
    path = tmp_path / "hand.phh"
    path.write_text(MINIMAL, "utf-8")
    assert load(path) == load(str(path)) == expected
    with path.open("rb") as binary:
        assert load(binary) == expected
    with path.open("r", encoding="utf-8") as text:
        assert load(text) == expected
    assert load(io.BytesIO(("\ufeff" + MINIMAL).encode())) == expected
    assert load(io.StringIO(MINIMAL)) == expected
    many = tmp_path / "hands.phhs"
    many.write_text(dumps_all([expected, expected]), "utf-8")
    assert load_all(many) == load_all(str(many)) == [expected, expected]
    with many.open("rb") as binary:
        assert load_all(binary) == [expected, expected]
    # the file's name is in the messages, as for a path
    path.write_text(MINIMAL.replace("[0, 0, 0]", "[0, 0]"), "utf-8")
    with path.open("rb") as binary, pytest.raises(HistoryError, match=r"hand.phh: line 2: antes"):
        load(binary)
    with pytest.raises(HistoryError, match="is not UTF-8 text"):
        load(io.BytesIO(b"author = '\xe9'\n"))
    # text given to load, a path or bytes given to loads: one clear message
    with pytest.raises(HistoryError, match=r"is PHH text, not a path .*phh\.loads"):
        load(MINIMAL)
    with pytest.raises(HistoryError, match=r"expected PHH text \(a str\), got PosixPath"):
        loads(path)  # type: ignore[arg-type]
    with pytest.raises(HistoryError, match=r"expected PHH text \(a str\), got bytes"):
        loads_all(MINIMAL.encode())  # type: ignore[arg-type]


def test_unwritable_values() -> None:
    hand = loads(MINIMAL)
    odd = HandHistory(**{**_fields(hand), "user_fields": {"_x": {1, 2}}})
    with pytest.raises(HistoryError, match="cannot write a set"):
        dumps(odd)
    with pytest.raises(HistoryError, match="standard field"):
        HandHistory(**{**_fields(hand), "user_fields": {"antes": [1]}})


def _fields(hand: HandHistory) -> dict[str, object]:
    return {name: getattr(hand, name) for name in phh.FIELD_ORDER}


def test_strings_that_need_escapes_round_trip() -> None:
    hand = loads(MINIMAL)
    for text in [
        "it's",
        "'quoted'",
        "a'''b",
        'say "hi"',
        "two\nlines",
        "tab\there",
        "\x00\x7f",
        "",
    ]:
        again = loads(dumps(HandHistory(**{**_fields(hand), "author": text})))
        assert again.author == text


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_load_fuzz(text: str) -> None:
    with contextlib.suppress(HistoryError):
        loads(text)
    with contextlib.suppress(HistoryError):
        loads_all(text)


@settings(max_examples=100)
@given(st.integers(0, len(MINIMAL) - 1), st.text(max_size=3))
def test_load_fuzz_near_valid(at: int, junk: str) -> None:
    text = MINIMAL[:at] + junk + MINIMAL[at + 1 :]
    try:
        hand = loads(text)
    except HistoryError:
        return
    assert loads(dumps(hand)) == hand
