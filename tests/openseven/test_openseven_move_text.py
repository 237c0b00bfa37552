"""Move text that is not a move is an OpenSevenError (exit 2 in the terminal), never a crash."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.cli import main
from cardlab.openseven.game import Call, OpenSevenError, Start, parse_move


@pytest.mark.parametrize("text", ["²", "٣", "--1", "1.5", "9" * 5000, "1" * 10, "", "\x00"])
def test_not_a_move(text: str) -> None:
    with pytest.raises(OpenSevenError, match="position number") as info:
        parse_move(text)
    assert len(str(info.value)) < 120


@given(st.text(max_size=30))
def test_any_text_is_a_move_or_an_error(text: str) -> None:
    try:
        move = parse_move(text)
    except OpenSevenError:
        return
    assert isinstance(move, Start | Call)
    assert parse_move(str(move)) == move


def test_play_with_a_superscript_move_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["openseven", "play", "--cards", "7", "--moves", "²"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and "position number" in err
