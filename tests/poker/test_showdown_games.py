"""Games as data, showdowns and deal checks."""

from fractions import Fraction

import pytest

from cardlab.errors import CardlabError, GameError
from cardlab.poker.games import BASE_GAMES, game_names, get_game
from cardlab.poker.showdown import best_five, settle


def test_every_builtin_game_is_registered() -> None:
    names = game_names()
    assert len(names) == 9 * len(BASE_GAMES)
    for name in ("fesca78-holdem", "tesca54-draw", "standard52-holdem", "fesca60-omaha"):
        assert name in names
        assert get_game(name).key == name


def test_display_names() -> None:
    assert get_game("fesca78-holdem").name == "FESCA78 Mixwell Texas Hold'em"
    assert get_game("tesca54-draw").name == "TESCA54 Mixwell Draw"
    assert get_game("standard52-holdem").name == "Texas Hold'em"
    assert get_game("FESCA60-Omaha").name == "FESCA60 Mixwell Omaha"


def test_unknown_game_lists_valid_ones() -> None:
    with pytest.raises(GameError, match="fesca78-holdem"):
        get_game("fesca99-holdem")
    with pytest.raises(GameError, match="'standard52-poker'"):
        get_game("standard52-poker")


def test_options_change_the_rules() -> None:
    game = get_game("fesca78-holdem", suit_tiebreak="off")
    assert not game.rules.suit_tiebreak
    assert get_game("fesca78-holdem").rules.suit_tiebreak


def test_holdem_showdown_winner_and_step() -> None:
    game = get_game("standard52-holdem")
    s = settle(game, ["As Ac", "Kd Kh"], board="2c 7d 9h Ks 3s")
    assert s.winners == (1,)
    assert s.decided_by == "category"
    assert s.players[1].share == 1
    assert set(s.players[1].best_five) == set(game.deck.parse_cards("Kd Kh Ks 9h 7d"))


def test_split_pot_playing_the_board() -> None:
    game = get_game("standard52-holdem")
    s = settle(game, ["2c 3d", "2d 3c", "4h 5h"], board="Ts Js Qs Ks As")
    assert s.winners == (0, 1, 2) and s.split and s.decided_by == "tie"
    assert all(p.share == Fraction(1, 3) for p in s.players)


def test_suits_settle_what_ranks_cannot() -> None:
    game = get_game("fesca78-holdem")
    hands, board = ["木12 火3", "水12 金3"], "陰陽12 陰陽5 陰陽7 土9 金10"
    s = settle(game, hands, board=board)
    assert s.winners == (1,)
    assert s.decided_by == "suits"
    off = settle(game.with_options(suit_tiebreak="off"), hands, board=board)
    assert off.split


def test_omaha_uses_exactly_two_hole_cards() -> None:
    game = get_game("standard52-omaha")
    hole = game.deck.parse_cards("As Ks Qs Js")
    board = game.deck.parse_cards("Ts 9s 8c 2d 3h")
    value = best_five(game, hole, board)
    # six spades in all, but only two hole cards play: a straight, not a flush
    assert value.category.value == "straight"
    assert len(set(value.cards) & set(hole)) == 2


def test_stud_and_draw_showdowns() -> None:
    stud = get_game("fesca42-stud")
    s = settle(stud, ["木1 火1 土1 金2 水3 陰陽4 木5", "木6 火6 土2 金3 水4 陰陽5 木Z"])
    assert s.winners in ((0,), (1,))
    draw = get_game("tesca54-draw")
    d = settle(draw, ["木1 火1 水1 陰陽2 木3", "木4 火5 水6 陰陽7 木8"])
    assert d.players[0].value.category.value == "three_of_a_kind"


@pytest.mark.parametrize(
    ("hands", "board", "message"),
    [
        (["As Ac", "As Kd"], "2c 7d 9h Ks 3s", "As is dealt in player 1 and player 2"),
        (["As Ac", "Kd Kh"], "2c 7d 9h Ks Ac", "Ac"),
        (["As Ac Ad", "Kd Kh"], "2c 7d 9h Ks 3s", "player 1 must hold 2 cards"),
        (["As Ac", "Kd Kh"], "2c 7d 9h", "needs 5 board cards"),
        (["As Ac"], "2c 7d 9h Ks 3s", "2 to 10 players"),
    ],
)
def test_bad_deals_are_refused(hands: list[str], board: str, message: str) -> None:
    with pytest.raises(CardlabError, match=message):
        settle(get_game("standard52-holdem"), hands, board=board)


def test_too_many_players_for_the_deck() -> None:
    game = get_game("fesca42-stud")
    assert game.max_players == 6
    hands = [" ".join(str(c) for c in game.deck.cards[7 * i : 7 * i + 7]) for i in range(6)]
    hands.append("木1")
    with pytest.raises(GameError, match="2 to 6 players"):
        settle(game, hands)
