"""``cardlab poker``: table, rank, compare, rules — output shapes and bad input."""

import json
from fractions import Fraction

import pytest

from cardlab.cli import main
from cardlab.cli._common import parse_rules as parse_options


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["poker", *args])
    return capsys.readouterr().out


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    return json.loads(run(capsys, *args, "--format", "json"))  # type: ignore[no-any-return]


def test_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "table", "--deck", "FESCA78")
    assert (data["deck"], data["cards"], data["hand_size"]) == ("FESCA78", 78, 5)
    assert data["combinations"] == 21_111_090
    hands = data["hands"]
    assert [h["order"] for h in hands] == list(range(1, 15))
    assert set(hands[0]) == {"order", "id", "count", "probability", "rarity"}
    assert hands[0]["id"] == "mixwell_five_of_a_kind"
    assert sum(h["count"] for h in hands) == data["combinations"]
    assert sum(Fraction(h["probability"]) for h in hands) == 1
    trips = next(p for p in data["partial_compounds"] if p["with"] == "three_of_a_kind")
    assert trips["assigned_to"] == "mixwell"


def test_table_fesca60_and_standard(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "table", "--deck", "FESCA60")
    trips = next(p for p in data["partial_compounds"] if p["with"] == "three_of_a_kind")
    assert trips["assigned_to"] == "three_of_a_kind"
    assert "five_of_a_kind" not in [h["id"] for h in data["hands"]]
    std = run_json(capsys, "table", "--deck", "standard52")
    assert [h["count"] for h in std["hands"]][:3] == [40, 624, 3744]
    assert std["distinct_values"] == 7462
    assert std["partial_compounds"] == []


def test_table_text_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "table", "--deck", "FESCA42")
    assert "850,668 five-card hands" in text and "Mixwell" in text
    assert "partial compounds" in text
    csv = run(capsys, "table", "--deck", "standard52", "--format", "csv").splitlines()
    assert csv[0] == "order,id,hand,役,count,probability,percent,rarity"
    assert csv[1].startswith("1,straight_flush,straight flush,")
    assert len(csv) == 10


def test_table_options_and_compare_options(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "table", "--deck", "FESCA60", "-o", "no_hand_lowest=off")
    assert [h["id"] for h in data["hands"]][-2:] == ["high_card", "one_pair"]
    data = run_json(
        capsys,
        "table",
        "--deck",
        "FESCA60",
        "--compare-options",
        "compound=mixwell",
        "order=classic",
    )
    assert data["changed_options"] == {"compound": "mixwell", "order": "classic"}
    assert data["default"]["deck"] == data["changed"]["deck"] == "FESCA60"
    ids = {d["id"] for d in data["differences"]}
    assert {"mixwell", "three_of_a_kind"} <= ids
    text = run(capsys, "table", "--deck", "FESCA60", "--compare-options", "no_hand_lowest=off")
    assert "up" in text and "down" in text
    csv = run(capsys, "table", "--compare-options", "compound=base", "--format", "csv")
    assert csv.startswith("id,hand,order,order_changed,count,count_changed")


def test_rank(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "rank", "--deck", "FESCA78", "木7", "火7", "土7", "金2", "水9")
    assert data["id"] == "mixwell" and data["secondary"] == "three_of_a_kind"
    assert data["order"] == 10
    assert data["description"].startswith("Mixwell + three of a kind, 7s")
    text = run(capsys, "rank", "M7 K7 D7 G2 S9")
    assert "Mixwell + three of a kind, 7s" in text and "ミクスウェル" in text
    data = run_json(capsys, "rank", "--deck", "standard52", "As Ks Qs Js Ts 2d 3c", "--best")
    assert data["id"] == "straight_flush" and data["secondary"] is None


def test_compare(capsys: pytest.CaptureFixture[str]) -> None:
    # hands of one deal: no card in two hands (that is an error, see test_cli_hardening)
    data = run_json(capsys, "compare", "木7 火7 土7 金2 水9", "木8 火8 土8 金3 水10")
    assert data["winners"] == [1] and data["decided_by"] == "ranks"
    assert [h["id"] for h in data["hands"]] == ["mixwell", "mixwell"]
    pairs = ("陰陽9 木9 火3 土4 陰陽5", "水9 金9 陰陽3 木4 火5")
    data = run_json(capsys, "compare", "-r", "suit_tiebreak=off", *pairs)
    assert (data["winners"], data["decided_by"]) == ([0, 1], "tie")
    text = run(capsys, "compare", "--deck", "standard52", "As Ad Kc Kd 2s", "Ah Ac Kh Ks 2d")
    assert "tie" in text
    text = run(capsys, "compare", *pairs)
    assert "hand 1 wins, decided by suits" in text


def test_rules(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "rules", "--deck", "FESCA78", "-o", "compound=base")
    options = {o["name"]: o for o in data["options"]}
    assert options["compound"]["value"] == "base" and options["compound"]["default"] == "rarer"
    assert options["compound"]["source"] == "[src]"
    assert data["order"][0] == "mixwell_five_of_a_kind"
    text = run(capsys, "rules", "--deck", "FESCA60")
    assert "order (strongest first)" in text
    sources = {line.split("│")[4].strip() for line in text.splitlines() if line.count("│") > 5}
    assert sources - {""} == {"[src]", "[choice]"}  # printed as written, not escaped (\\[src])
    assert "\\[" not in text


def test_rules_defaults_are_the_decks_own(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "rules", "-d", "standard52")
    options = {o["name"]: o for o in data["options"]}
    # standard52: suits in the deck's order, no suit tie-break; not FESCA's 木 < ... < 陰陽
    assert options["suit_order"]["default"] == "♣ ♦ ♥ ♠"
    assert options["suit_tiebreak"]["default"] == "off"
    assert options["wrap"]["default"] == "ace-low"
    fesca = {o["name"]: o for o in run_json(capsys, "rules")["options"]}
    assert fesca["suit_order"]["default"] == "木 火 土 金 水 陰陽"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["rank", "--deck", "NOPE", "木1 火2 土3 金4 水5"], "unknown deck"),
        (["rank", "木1 火2 土3 金4"], "exactly five"),
        (["rank", "木1 火2 土3 金4 水5 木6"], "exactly five"),
        (["rank", "木1 木1 土3 金4 水5"], "twice"),
        (["rank", "--deck", "TESCA52", "木1 火2 土3 陰陽4 水5"], "土3"),
        (["rank", "木1 火2 土3 金4 Q5"], "malformed card"),
        (["rank", "-o", "nope=1", "木1 火2 土3 金4 水5"], "unknown rule option"),
        (["rank", "-o", "compound=sometimes", "木1 火2 土3 金4 水5"], "compound"),
        (["compare", "木1 火2 土3 金4 水5"], "at least two"),
        (["compare", "木1 火2 土3 金4 水5", "木1 火2"], "exactly five"),
        (["table", "--deck", "nope.toml"], "nope.toml"),
        (["table", "stray=1"], "stray=1"),
        (["table", "--hand-size", "7", "--compare-options", "compound=base"], "five-card"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["poker", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and err.count("\n") == 1
    assert needle in err


def test_parse_options() -> None:
    assert parse_options(["mixwell_suits=M K D G S compound=base"]) == {
        "mixwell_suits": "M K D G S",
        "compound": "base",
    }
    assert parse_options(["a=1", "b=2,c=3"]) == {"a": "1", "b": "2", "c": "3"}


def test_six_seven_and_omaha_are_wired_to_tables7(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardlab.cli import _tables7

    calls: list[tuple[str, int, str, dict[str, object]]] = []

    def fake(rules: object, fmt: str, *, hand_size: int, game: str, **kw: object) -> None:
        calls.append((fmt, hand_size, game, kw))

    monkeypatch.setattr(_tables7, "show_table", fake)
    main(["poker", "table", "--hand-size", "6", "--format", "json"])
    main(["poker", "table", "--game", "omaha", "--samples", "100", "--seed", "3"])
    main(["poker", "table", "--hand-size", "7", "--game", "stud"])
    assert calls == [
        ("json", 6, "holdem", {"seed": 0}),
        ("text", 7, "omaha", {"seed": 3, "samples": 100}),
        ("text", 7, "stud", {"seed": 0}),
    ]


def test_deck_from_a_toml_file(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "mini.toml"
    path.write_text(
        'name = "mini"\nsuits = ["M", "K", "D", "G", "S"]\n'
        'ranks = ["1", "2", "3", "4", "5", "6"]\nwrap = "line"\n',
        encoding="utf-8",
    )
    data = run_json(capsys, "table", "--deck", str(path))
    assert (data["deck"], data["cards"], data["combinations"]) == ("mini", 30, 142_506)
    data = run_json(capsys, "rank", "--deck", str(path), "M1 K2 D3 G4 S5")
    assert data["id"] == "mixwell_straight"


def test_table_game_stud_means_seven_cards(capsys: pytest.CaptureFixture[str]) -> None:
    main(["poker", "table", "--deck", "standard52", "--game", "stud", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["hand_size"] == 7
    assert data["combinations"] == 133_784_560
