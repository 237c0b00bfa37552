"""The fair shuffle (docs/fair-dealing.md): its bytes, its uniformity, the engine dealing
from it, and `verify` / `cardlab verify` catching every kind of tampering."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import itertools
import json
import random
import struct
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cli import main
from cardlab.decks import get_deck
from cardlab.table import Session, TableGame, apply, legal_actions, phh
from cardlab.table import dealing as d
from cardlab.table.history import to_history

SEED = bytes(range(32))


def reference_shuffle(
    items: list[object], key: bytes, seeds: list[str], number: int, pass_number: int = 0
) -> list[object]:
    """The docs' steps, written out again plainly: message, blocks, words, Fisher-Yates."""

    def block(k: int) -> bytes:
        message = b"cardlab-shuffle-v1\x00" + number.to_bytes(8, "big")
        message += pass_number.to_bytes(4, "big") + len(seeds).to_bytes(4, "big")
        for s in seeds:
            message += len(s).to_bytes(4, "big") + s.encode()
        message += k.to_bytes(8, "big")
        return hmac.digest(key, message, "sha256")

    def words() -> object:
        for k in itertools.count():
            b = block(k)
            for i in range(0, 32, 4):
                yield int.from_bytes(b[i : i + 4], "big")

    stream = words()
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        while True:
            u = next(stream)  # type: ignore[call-overload]
            if u < (1 << 32) // (i + 1) * (i + 1):
                break
        j = u % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_the_worked_example_of_the_docs() -> None:
    assert d.commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert d.shuffle(list(range(10)), SEED, ["a1b2", ""], 1) == [7, 9, 1, 4, 3, 2, 8, 5, 0, 6]
    docs = Path(__file__).resolve().parents[2] / "docs" / "fair-dealing.md"
    text = docs.read_text(encoding="utf-8")
    assert "7 9 1 4 3 2 8 5 0 6" in text and d.commitment(SEED) in text
    spelled = (
        "636172646c61622d73687566666c652d7631 00 0000000000000001 00000000 00000002 "
        "00000004 61316232 00000000 0000000000000000"
    )
    assert spelled in text.replace("`", "")
    assert d.stream_message(["a1b2", ""], 1, 0, 0).hex() == spelled.replace(" ", "")


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 80),
    seeds=st.lists(st.from_regex(r"[A-Za-z0-9_-]{0,64}", fullmatch=True), max_size=10),
    number=st.integers(0, 2**64 - 1),
    pass_number=st.integers(0, 5),
    key=st.binary(min_size=32, max_size=32),
)
def test_the_shuffle_is_the_documented_one_and_a_permutation(
    n: int, seeds: list[str], number: int, pass_number: int, key: bytes
) -> None:
    items = list(range(n))
    out = d.shuffle(items, key, seeds, number, pass_number)
    assert sorted(out) == items
    assert out == reference_shuffle(list(items), key, seeds, number, pass_number)


def test_every_order_of_four_cards_is_as_likely() -> None:
    """24,000 deals of four cards (deal numbers 0..23,999): each of the 24 orders within
    a chi-square bound of its expected 1,000 (99.9% critical value, 23 degrees: 49.7)."""
    counts = Counter(tuple(d.shuffle("abcd", SEED, ["x"], k)) for k in range(24_000))
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 49.7, counts


def test_rejection_skips_the_biased_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """With three places the word 2**32 - 1 would favour index 0: it is drawn again."""
    words = iter([2**32 - 1, 5, 7])  # 5 % 3 = 2 for i = 2; 7 % 2 = 1 for i = 1
    monkeypatch.setattr(d._Words, "next", lambda self: next(words))
    assert d.shuffle(["a", "b", "c"], SEED, [], 0) == ["a", "b", "c"]
    words = iter([3, 0])  # 3 % 3 = 0: swap places 2 and 0; then 0: swap 1 and 0
    monkeypatch.setattr(d._Words, "next", lambda self: next(words))
    assert d.shuffle(["a", "b", "c"], SEED, [], 0) == ["b", "c", "a"]


@pytest.mark.parametrize("bad", ["a b", "é", "x" * 65, 7, None])
def test_client_seeds_are_checked(bad: object) -> None:
    with pytest.raises(d.FairDealError, match="client seed"):
        d.check_client_seed(bad)


def _hand(
    game: str, seats: int, number: int, rng: random.Random
) -> tuple[phh.HandHistory, d.Dealer]:
    table = TableGame.create(game)
    session = Session(table, [f"p{i}" for i in range(seats)], [200] * seats)
    deal = d.FairDeal(d.commitment(SEED), tuple(f"s{i}" for i in range(seats)), number)
    dealer = d.Dealer(table.game.deck, SEED, deal)
    hand = session.new_hand(dealer=dealer)
    while not hand.is_over:
        actions = legal_actions(hand)
        if hand.legal().phase.value == "draw":
            held = [c for c in hand.hole[hand.actor or 0] if c is not None]
            apply(hand, actions[0].__class__.discard(tuple(held[: rng.randint(0, 5)])))
        else:
            apply(hand, rng.choice([a for a in actions if a.kind.value != "f"] or actions))
    fields = deal.user_fields() | d.revealed_fields(SEED, table.game.deck, deal, dealer.piles)
    return to_history(hand, user_fields=fields), dealer


@pytest.mark.parametrize(
    ("game", "seats"),
    [("fesca78-holdem", 6), ("standard52-omaha", 4), ("fesca78-stud", 5), ("standard52-draw", 6)],
)
def test_the_engine_deals_from_the_top_in_phh_order(game: str, seats: int) -> None:
    rng = random.Random(seats)
    history, dealer = _hand(game, seats, 3, rng)
    deck = history.deck
    dealt = []
    for action in history.actions:
        text = str(action)
        if text.startswith(("d dh", "d db")):
            dealt.extend(c for c in phh_cards(text, deck))
    top = dealer.cards[: min(len(dealt), len(dealer.cards))]
    assert dealt[: len(top)] == top  # no burns: the first cards of the deck, in order
    assert d.verify_deal(history).status == "verified"


def phh_cards(line: str, deck: object) -> list[object]:
    from cardlab.table.phh_actions import split_cards

    return list(split_cards(line.split()[-1], deck))  # type: ignore[arg-type]


def test_a_draw_that_runs_out_reshuffles_and_verifies() -> None:
    rng = random.Random(1)
    for number in range(40):
        history, dealer = _hand("standard52-draw", 10, number, rng)
        if dealer.piles:
            assert "_reshuffled" in history.user_fields
            assert d.verify_deal(history).status == "verified"
            without = dict(history.user_fields)
            del without["_reshuffled"]
            bad = dataclasses.replace(history, user_fields=without)
            assert "no reshuffle" in d.verify_deal(bad).detail
            return
    pytest.fail("no deal of 40 at ten seats ran the deck out")


def _tampered(history: phh.HandHistory) -> dict[str, phh.HandHistory]:
    user = history.user_fields
    actions = [str(a) for a in history.actions]
    k = next(i for i, a in enumerate(actions) if a.startswith("d db"))
    cards = phh_cards(actions[k], history.deck)
    unused = next(c for c in history.deck.cards if c.ascii not in " ".join(actions))
    actions[k] = "d db " + "".join([unused.ascii] + [c.ascii for c in cards[1:]])  # type: ignore[attr-defined]
    seeds = list(user["_client_seeds"])
    seeds[0] += "x"
    return {
        **_shown_swapped(history),
        "a changed card": dataclasses.replace(history, actions=tuple(actions)),  # type: ignore[arg-type]
        "a changed client seed": dataclasses.replace(
            history, user_fields=user | {"_client_seeds": seeds}
        ),
        "a wrong commitment": dataclasses.replace(
            history, user_fields=user | {"_commitment": "0" * 64}
        ),
        "another deal number": dataclasses.replace(
            history, user_fields=user | {"_deal_number": user["_deal_number"] + 1}
        ),
    }


def _shown_swapped(history: phh.HandHistory) -> dict[str, phh.HandHistory]:
    """The hand with the first shown card replaced by a card the deck never dealt, and
    by a card it dealt to another player (each a hand whose deal is otherwise sound)."""
    deck = history.deck
    actions = [str(a) for a in history.actions]
    k = next(i for i, a in enumerate(actions) if " sm " in a and not a.endswith(" sm -"))
    player = actions[k].split()[0]
    shown = phh_cards(actions[k], deck)
    dealt_text = " ".join(a.split()[-1] for a in actions if a.startswith("d "))
    never = next(c for c in deck.cards if c.ascii not in dealt_text)  # type: ignore[attr-defined]
    theirs = next(
        phh_cards(a, deck)[0]
        for a in actions
        if a.startswith("d dh ") and a.split()[2] != player and "??" not in a
    )
    out = {}
    for what, card in (("a shown card never dealt", never), ("another's card shown", theirs)):
        changed = list(actions)
        changed[k] = f"{player} sm " + "".join(c.ascii for c in [card, *shown[1:]])  # type: ignore[union-attr]
        out[what] = dataclasses.replace(history, actions=tuple(changed))  # type: ignore[arg-type]
    return out


def test_a_shown_card_is_checked_against_the_cards_dealt_to_the_player() -> None:
    """A showdown whose shown cards were replaced (by a card never dealt, or one dealt
    to somebody else) fails, though every card dealt is the deck's; the true one and
    "sm -" verify."""
    history, _ = _hand("fesca78-holdem", 3, 9, random.Random(5))
    assert any(" sm " in str(a) for a in history.actions)
    assert d.verify_deal(history).status == "verified"
    for what, bad in _shown_swapped(history).items():
        verdict = d.verify_deal(bad)
        assert verdict.status == "failed", what
        assert "which the deck did not deal to p" in verdict.detail, verdict.detail
    dashed = [f"{str(a).split()[0]} sm -" if " sm " in str(a) else str(a) for a in history.actions]
    dash = dataclasses.replace(history, actions=tuple(dashed))  # type: ignore[arg-type]
    assert d.verify_deal(dash).status == "verified"


def test_verify_rejects_each_tampering_and_says_unrevealed() -> None:
    history, _ = _hand("fesca78-holdem", 3, 9, random.Random(5))
    assert d.verify_deal(history).status == "verified"
    for what, bad in _tampered(history).items():
        verdict = d.verify_deal(bad)
        assert verdict.status == "failed", what
    hidden = {
        k: v for k, v in history.user_fields.items() if k not in ("_server_seed", "_shuffled_deck")
    }
    assert d.verify_deal(dataclasses.replace(history, user_fields=hidden)).status == "unrevealed"
    fair = {"_fair", "_commitment", "_client_seeds", "_deal_number", "_server_seed"}
    plain = {k: v for k, v in history.user_fields.items() if k not in fair | {"_shuffled_deck"}}
    assert d.verify_deal(dataclasses.replace(history, user_fields=plain)).status == "not fair-dealt"


def _run(argv: list[str]) -> int:
    try:
        main(argv)
    except SystemExit as ended:
        return int(ended.code or 0)
    return 0


def test_cardlab_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [_hand("fesca78-holdem", 3, k, random.Random(k))[0] for k in range(3)]
    good = tmp_path / "good.phhs"
    good.write_text(phh.dumps_all(hands), encoding="utf-8")
    assert _run(["verify", str(good)]) == 0
    assert capsys.readouterr().out.count("verified") >= 3
    for what, bad in _tampered(hands[1]).items():
        path = tmp_path / "bad.phhs"
        path.write_text(phh.dumps_all([hands[0], bad, hands[2]]), encoding="utf-8")
        assert _run(["verify", str(path), "--format", "json"]) == 1, what
        rows = json.loads(capsys.readouterr().out)["hands"]
        assert [r["status"] for r in rows] == ["verified", "failed", "verified"], what
    one = tmp_path / "one.phh"
    one.write_text(phh.dumps(hands[0]), encoding="utf-8")
    assert _run(["verify", str(one), "--format", "csv"]) == 0
    assert "verified" in capsys.readouterr().out
    (tmp_path / "junk.phh").write_text("not = [toml", encoding="utf-8")
    assert _run(["verify", str(tmp_path / "junk.phh")]) == 2
    assert _run(["verify", str(tmp_path / "missing.phh")]) == 2
    err = capsys.readouterr().err
    assert err.count("cardlab: error:") == 2 and "Traceback" not in err


def test_a_deck_order_is_the_one_the_docs_spell() -> None:
    codes = [c.ascii for c in get_deck("standard52").cards]
    assert codes[:2] == ["2c", "3c"] and codes[12] == "Ac" and codes[-1] == "As"
    fesca = [c.ascii for c in get_deck("FESCA78").cards]
    assert fesca[:13] == [f"M{r}" for r in range(1, 13)] + ["MZ"] and fesca[-1] == "YZ"
    assert struct.pack(">I", 1) == (1).to_bytes(4, "big")


def test_a_real_tables_download_verifies() -> None:
    """Hands downloaded from a real web table (tests/data/fair/table-download.phhs): each
    revealed deck is the plain re-implementation's, and every dealt card is in order."""
    path = Path(__file__).resolve().parents[1] / "data" / "fair" / "table-download.phhs"
    hands = phh.load_all(path)
    assert len(hands) == 4
    for h in hands:
        user = h.user_fields
        key = bytes.fromhex(user["_server_seed"])
        assert hashlib.sha256(key).hexdigest() == user["_commitment"]
        deck = reference_shuffle(
            list(h.deck.cards), key, user["_client_seeds"], user["_deal_number"]
        )
        assert " ".join(c.ascii for c in deck) == user["_shuffled_deck"]  # type: ignore[attr-defined]
        assert d.verify_deal(h).status == "verified"
