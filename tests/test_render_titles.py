"""Table titles stay on one line when the console has room, however narrow the table."""

from __future__ import annotations

from rich.console import Console

from cardlab import render

TITLE = "standard52-holdem: 2 hands, showdown in 2 (100.0%)"


def _printed(width: int, title: str | None) -> list[str]:
    console = Console(width=width, record=True, soft_wrap=False, highlight=False)
    with console.capture() as captured:
        console.print(render.text_table(["player", "net"], [["you", "+3"]], title=title))
    return captured.get().split("\n")


def test_a_title_longer_than_its_table_is_one_line() -> None:
    lines = _printed(200, TITLE)
    assert lines[0] == TITLE  # not "... showdown in" / "2 (100.0%)", and not padded
    assert lines[1].startswith("┏") and len(lines[1]) < len(TITLE)


def test_a_short_title_is_not_padded_to_the_table() -> None:
    lines = _printed(200, "short")
    assert lines[0] == "short"
    assert len(lines[1]) > len("short")


def test_a_console_narrower_than_the_title_wraps_it_at_its_own_width() -> None:
    lines = _printed(30, TITLE)
    assert lines[0].rstrip() == "standard52-holdem: 2 hands,"
    assert lines[1] == "showdown in 2 (100.0%)"
    assert all(len(line) <= 30 for line in lines)


def test_no_title_prints_the_table_alone() -> None:
    assert _printed(200, None)[0].startswith("┏")
