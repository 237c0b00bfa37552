"""The game object: parsing, moves, states, views and seeded deals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import CardlabError, GameError
from cardlab.openseven import solver
from cardlab.openseven.game import (
    Call,
    Game,
    OpenSevenError,
    Side,
    Start,
    State,
    format_arrangement,
    parse_arrangement,
    parse_move,
)


@st.composite
def arrangements(draw: st.DrawFn, low: int = 1, high: int = 9) -> tuple[int, ...]:
    n = draw(st.integers(low, high))
    return tuple(draw(st.permutations(range(1, n + 1))))


@given(arrangements())
def test_arrangement_text_round_trips(values: tuple[int, ...]) -> None:
    assert parse_arrangement(format_arrangement(values)) == values
    assert parse_arrangement(list(values)) == values


@pytest.mark.parametrize("text", ["1 2 2", "0 1 2", "1 2 4", "", "a b", "1 2 3.0"])
def test_bad_arrangements_quote_the_input(text: str) -> None:
    with pytest.raises(OpenSevenError) as info:
        parse_arrangement(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, GameError | CardlabError)
    assert isinstance(info.value, ValueError)


def test_arrangement_of_the_wrong_size_for_the_game() -> None:
    with pytest.raises(OpenSevenError, match=r"1\.\.7"):
        Game(7).new("1 2 3")


@pytest.mark.parametrize(
    ("text", "move"),
    [("3", Start(3)), ("left", Call(Side.LEFT)), ("R", Call(Side.RIGHT)), (" l ", Call(Side.LEFT))],
)
def test_moves_parse_and_format(text: str, move: Start | Call) -> None:
    assert parse_move(text) == move
    assert parse_move(str(move)) == move


def test_bad_move_text() -> None:
    with pytest.raises(OpenSevenError, match="'up'"):
        parse_move("up")


def test_a_game_played_by_hand() -> None:
    state = Game(7).new("2 3 1 5 7 4 6")
    assert state.legal_moves() == [Start(p) for p in range(1, 8)]
    state = state.apply("4")  # value 5: positions 5 and 3
    assert state.targets() == {Side.LEFT: 5, Side.RIGHT: 3}
    assert state.view().faces == (None, None, None, 5, None, None, None)
    assert state.view().named == (3, 5)
    state = state.apply(Call(Side.RIGHT))  # position 3 holds 1: positions 1 and 7
    assert state.last == 1
    for move in ["right", "right", "right", "right", "right"]:
        state = state.apply(move)
    assert state.is_won and state.status == "won"
    assert state.turned == (4, 3, 7, 2, 5, 1, 6)
    assert state.legal_moves() == []


def test_the_middle_value_names_one_card_with_two_calls() -> None:
    state = Game(7).new("4 1 2 3 5 6 7").apply("1")
    assert state.last == 4
    assert state.legal_moves() == [Call(Side.LEFT), Call(Side.RIGHT)]
    assert state.apply("left").turned == state.apply("right").turned == (1, 4)


def test_losing_and_illegal_moves() -> None:
    state = Game(3).new("2 1 3").apply("2")  # value 1: positions 1 and 3
    state = state.apply("left")  # value 2: the middle, already up
    assert state.is_lost and state.status == "lost"
    with pytest.raises(OpenSevenError, match="over"):
        state.apply("left")
    fresh = Game(3).new("2 1 3")
    with pytest.raises(OpenSevenError, match="start position"):
        fresh.apply("left")
    with pytest.raises(OpenSevenError, match=r"1\.\.3"):
        fresh.apply("9")
    started = fresh.apply("1")  # value 2: the middle
    with pytest.raises(OpenSevenError, match="started"):
        started.apply("2")
    one_side = Game(5).new("1 2 3 4 5").apply("5")  # value 5: positions 5 (up) and 1
    assert one_side.legal_moves() == [Call(Side.RIGHT)]
    assert not one_side.can(Call(Side.LEFT))
    with pytest.raises(OpenSevenError, match="position 5 is already face up"):
        one_side.apply("left")


def test_seeded_deals_repeat() -> None:
    game = Game(9)
    assert game.deal(42).arrangement == game.deal(42).arrangement
    a, b = random.Random(1), random.Random(1)
    assert [game.deal(rng=a).arrangement for _ in range(5)] == [
        game.deal(rng=b).arrangement for _ in range(5)
    ]


def test_repr_round_trips() -> None:
    state = Game(5).new("3 1 2 5 4").apply("2")
    assert eval(repr(state), {"State": State, "Game": Game}) == state


def test_game_size_is_checked() -> None:
    with pytest.raises(OpenSevenError, match="0"):
        Game(0)


@given(arrangements(), st.randoms(use_true_random=False))
@settings(max_examples=150, deadline=None)
def test_random_play_always_ends_won_or_lost(values: tuple[int, ...], rng: random.Random) -> None:
    state = Game(len(values)).new(values)
    for _ in range(len(values)):
        if state.is_over:
            break
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])
    assert state.is_over
    assert state.is_won == (len(state.turned) == len(values))
    assert all(v is not None for v in state.view().faces) == state.is_won


@given(arrangements(high=9))
@settings(max_examples=120, deadline=None)
def test_every_listed_line_replays_as_a_win(values: tuple[int, ...]) -> None:
    solved = solver.solve(values)
    lines = list(solver.winning_lines(values))
    assert len(lines) == solved.lines == len(set(lines))
    calls = 0
    for line in lines:
        said = solver.calls(values, line)
        state = Game(len(values)).new(values).apply(said[0])
        for word in said[1:]:
            state = state.apply(word.split("/")[0])
            calls += 1 + ("/" in word)
        assert state.turned == line and state.is_won
    # every line has exactly one doubled step unless it starts in the middle or N is even
    assert sum(2 if "left/right" in solver.calls(values, ln) else 1 for ln in lines) == (
        solved.solutions
    )


def test_a_state_history_must_be_a_legal_game() -> None:
    game = Game(5)
    assert State(game, (1, 2, 3, 4, 5), (5, 1)).last == 1
    with pytest.raises(OpenSevenError, match="cannot be turned"):
        State(game, (1, 2, 3, 4, 5), (5, 2))


@given(arrangements(high=12), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_counts_respect_the_symmetries(values: tuple[int, ...], rng: random.Random) -> None:
    """Mirror: reversing the row reverses the per-start counts. Class relabelling: a
    permutation of positions that keeps mirror pairs, applied to positions and values,
    permutes the per-start counts the same way."""
    n = len(values)
    solved = solver.solve(values)
    mirrored = solver.solve(values[::-1])
    assert mirrored.per_start == tuple(
        type(s)(n + 1 - s.position, s.solutions, s.lines) for s in solved.per_start[::-1]
    )
    pairs = list(range(1, n // 2 + 1))
    rng.shuffle(pairs)
    pi = {}
    for p, q in zip(range(1, n // 2 + 1), pairs, strict=True):
        flip = rng.random() < 0.5
        pi[p], pi[n + 1 - p] = (q, n + 1 - q) if not flip else (n + 1 - q, q)
    if n % 2:
        pi[(n + 1) // 2] = (n + 1) // 2
    relabelled = [0] * n
    for p, v in enumerate(values, start=1):
        relabelled[pi[p] - 1] = pi[v]
    moved = solver.solve(relabelled)
    for s in solved.per_start:
        twin = moved.per_start[pi[s.position] - 1]
        assert (twin.solutions, twin.lines) == (s.solutions, s.lines)
