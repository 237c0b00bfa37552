"""The fair-dealing check of the page /verify (static/verify.js) in a real Chromium, hand
for hand against Python's :func:`cardlab.table.dealing.verify_deal`.

Hands are dealt in Python from the fair shuffle in four games (a draw game with enough
seats and discards to reshuffle), written with their revealed seeds, then tampered with
in each way the check must catch. The browser's verdicts must equal Python's, with
WebCrypto and again with the pure-JavaScript SHA-256 forced.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import random
import time
from pathlib import Path
from typing import Any

import pytest
from _browser import PHONE, Page

from cardlab.decks import get_deck
from cardlab.table import Action, Session, TableGame, apply, legal_actions, phh
from cardlab.table.actions import Kind
from cardlab.table.dealing import Dealer, FairDeal, commitment, revealed_fields, verify_deal
from cardlab.table.history import to_history
from cardlab.table.phh_actions import join_cards, split_cards
from cardlab.table.state import HandState, Phase
from cardlab.web.table_phh import FinishedHand

FAIR_FIELDS = (
    "_fair",
    "_commitment",
    "_client_seeds",
    "_deal_number",
    "_practice",
    "_server_seed",
    "_shuffled_deck",
    "_reshuffled",
)
REVEALED = ("_server_seed", "_shuffled_deck", "_reshuffled")


@dataclasses.dataclass
class Dealt:
    """One hand dealt by the fair shuffle, and what it takes to write it."""

    history: phh.HandHistory
    hand: HandState
    order: list[int]
    piles: int


def _policy(hand: HandState, rng: random.Random) -> Action:
    """A random player that rarely folds and, in a draw, throws most of its cards away
    (so that a full table runs the deck out and reshuffles)."""
    legal = hand.legal()
    actor = hand.actor
    assert actor is not None
    if legal.phase is Phase.DRAW:
        held = [c for c in hand.hole[actor] if c is not None]
        keep = rng.choice([0, 0, 0, 1, 2, 5])
        return Action.discard(tuple(held[keep:]))
    options = legal_actions(hand)
    folds = [a for a in options if a.kind is Kind.FOLD]
    others = [a for a in options if a not in folds]
    if folds and (not others or rng.random() < 0.1):
        return folds[0]
    return rng.choice(others)


def _deal(game_name: str, seats: int, number: int, rng: random.Random) -> Dealt:
    game = TableGame.create(game_name)
    names = [f"player{k}" for k in range(seats)]
    session = Session(game, names, 400, seed=number, button=rng.randrange(seats))
    server_seed = rng.randbytes(32)
    # people send 32 hex digits; bots and absent people the empty string
    seeds = tuple(rng.randbytes(16).hex() if rng.random() < 0.6 else "" for _ in range(seats))
    deal = FairDeal(commitment(server_seed), seeds, number)
    dealer = Dealer(game.game.deck, server_seed, deal)
    hand = session.new_hand(dealer=dealer)
    while not hand.is_over:
        apply(hand, _policy(hand, rng))
    fields = deal.user_fields() | revealed_fields(server_seed, game.game.deck, deal, dealer.piles)
    history = to_history(hand, players=session.names(), user_fields=fields)
    return Dealt(history, hand, session.order, len(dealer.piles))


def _user(history: phh.HandHistory, **changes: Any) -> phh.HandHistory:
    """The history with user fields changed (None: removed)."""
    user = dict(history.user_fields)
    for name, value in changes.items():
        if value is None:
            user.pop(name, None)
        else:
            user[name] = value
    return dataclasses.replace(history, user_fields=user)


def _swap_dealt_card(history: phh.HandHistory) -> phh.HandHistory:
    """The first card of the first deal replaced by a card the hand never dealt."""
    deck = history.deck
    undealt = deck.parse_cards(history.user_fields["_shuffled_deck"])[-1]
    actions = [str(a) for a in history.actions]
    first = next(k for k, a in enumerate(actions) if a.startswith("d dh "))
    words = actions[first].split()
    cards = list(split_cards(words[3], deck))
    assert undealt not in cards
    words[3] = join_cards([undealt, *cards[1:]], deck)
    actions[first] = " ".join(words)
    return dataclasses.replace(history, actions=tuple(actions))  # type: ignore[arg-type]


def _swap_shown_card(history: phh.HandHistory) -> phh.HandHistory | None:
    """The first card a player shows replaced by a card the hand never dealt (None if
    nobody shows a card): every card dealt is still the deck's."""
    deck = history.deck
    actions = [str(a) for a in history.actions]
    shows = [k for k, a in enumerate(actions) if " sm " in a and a.split()[-1] not in ("-", "sm")]
    if not shows:
        return None
    k = shows[0]
    words = actions[k].split()
    cards = list(split_cards(words[2], deck))
    if cards[0] is None:
        return None
    dealt = " ".join(a.split()[-1] for a in actions if a.startswith("d "))
    never = next(c for c in reversed(deck.cards) if c.ascii not in dealt)
    words[2] = join_cards([never, *cards[1:]], deck)
    actions[k] = " ".join(words)
    return dataclasses.replace(history, actions=tuple(actions))  # type: ignore[arg-type]


def _swap_deck_end(history: phh.HandHistory) -> phh.HandHistory:
    """The last two cards of _shuffled_deck swapped (cards nobody was dealt)."""
    codes = history.user_fields["_shuffled_deck"].split()
    codes[-1], codes[-2] = codes[-2], codes[-1]
    return _user(history, _shuffled_deck=" ".join(codes))


def _masked(dealt: Dealt) -> phh.HandHistory:
    """The table's download for the seat in position 0: everybody else's face-down cards
    (and discards) are ``??`` unless shown."""
    result = dealt.hand.result
    assert result is not None
    record = FinishedHand(
        1, dealt.history, tuple(dealt.hand.history), tuple(dealt.order), frozenset(result.shown)
    )
    return record.for_seat(dealt.order[0])


HANDWRITTEN = """\
# written by hand: double quotes, escapes, comments, arrays over several lines
[{name}]
variant = "{variant}"   # the variant
antes = [
  {antes},
]
blinds_or_straddles = [{blinds}]
min_bet = {min_bet}.0
starting_stacks = [{stacks}]
actions = [
{actions}
]
"_fair" = "cardlab-\\u0073huffle-v1"
_commitment = '{commitment}'
_client_seeds = [{seeds}]
_deal_number = {number}
_server_seed = "{server_seed}"
_deck = "{deck}"
"""


def _handwritten(history: phh.HandHistory, name: str) -> str:
    """A hold'em hand as a person might type it (Python reads it back the same)."""
    user = history.user_fields
    lines = "\n".join(f'  "{a}",  # action {k}' for k, a in enumerate(history.actions, 1))
    return HANDWRITTEN.format(
        name=name,
        variant=history.variant,
        antes=", ".join(str(a) for a in history.antes),
        blinds=", ".join(str(b) for b in history.blinds_or_straddles or ()),
        stacks=", ".join(str(s) for s in history.starting_stacks),
        actions=lines,
        commitment=user["_commitment"],
        seeds=", ".join(f'"{s}"' for s in user["_client_seeds"]),
        number=user["_deal_number"],
        server_seed=user["_server_seed"],
        min_bet=history.min_bet,
        deck=history.deck.name,
    )


def _hands() -> tuple[str, dict[int, str]]:
    """The .phhs text of every test hand, and the status each hand must get."""
    rng = random.Random(20240601)
    clean: list[tuple[str, Dealt]] = []
    number = 1
    plan = [
        ("fesca78-holdem", [2, 3, 4, 6, 9, 2, 5, 8]),
        ("standard52-holdem", [2, 3, 6, 10, 4, 2, 7, 5]),
        ("standard52-stud", [2, 4, 8, 3, 5, 7]),
        ("standard52-draw", [7, 8, 10, 6, 9, 10, 8, 7]),
    ]
    for game_name, seat_counts in plan:
        for seats in seat_counts:
            clean.append((game_name, _deal(game_name, seats, number, rng)))
            number += rng.randrange(1, 50)
    reshuffled = [d for g, d in clean if d.piles]
    assert len(reshuffled) >= 2, "no draw hand ran the deck out: deal more discards"
    holdem = [d for g, d in clean if g.endswith("holdem")]
    fesca = holdem[0]
    standard = next(d for g, d in clean if g == "standard52-holdem")
    draw = reshuffled[0]
    stud = next(d for g, d in clean if g == "standard52-stud")

    entries: list[tuple[phh.HandHistory, str]] = [(d.history, "verified") for _, d in clean]
    seeds = list(standard.history.user_fields["_client_seeds"])
    seeds[0] = "tampered" + seeds[0][8:]
    other_seed = hashlib.sha256(b"another seed").digest()
    piles = list(draw.history.user_fields["_reshuffled"])
    pile = piles[0].split()
    pile[0] = draw.history.user_fields["_shuffled_deck"].split()[-1]  # not a card out of play
    entries += [
        (_swap_dealt_card(fesca.history), "failed"),
        (_swap_dealt_card(standard.history), "failed"),
        (_user(standard.history, _client_seeds=seeds), "failed"),
        (_user(fesca.history, _client_seeds=[""] * (fesca.history.player_count - 1)), "failed"),
        (_user(fesca.history, _commitment=commitment(other_seed)), "failed"),
        (_user(stud.history, _server_seed=other_seed.hex()), "failed"),
        (_swap_deck_end(fesca.history), "failed"),
        (_swap_deck_end(stud.history), "failed"),
        (_user(draw.history, _reshuffled=[" ".join(pile), *piles[1:]]), "failed"),
        (_user(draw.history, _reshuffled=None), "failed"),
        (_user(fesca.history, _fair="cardlab-shuffle-v0"), "failed"),
        (
            _user(stud.history, _server_seed=None, _shuffled_deck=None, _reshuffled=None),
            "unrevealed",
        ),
        (_user(draw.history, **dict.fromkeys(REVEALED)), "unrevealed"),
        (_user(fesca.history, **dict.fromkeys(FAIR_FIELDS)), "not fair-dealt"),
        (_user(standard.history, _practice=True), "verified"),
        (_masked(fesca), "verified"),
        (_masked(draw), "verified"),
        (_masked(stud), "verified"),
    ]
    # a shown card replaced by one never dealt: in a full history, and in a download
    # where the shower's hole cards are ???? until shown
    for game_name in ("fesca78-holdem", "standard52-stud", "standard52-holdem"):
        swapped = (_swap_shown_card(d.history) for g, d in clean if g == game_name)
        entries.append((next(h for h in swapped if h is not None), "failed"))
    masked_swaps = (_swap_shown_card(_masked(d)) for g, d in clean if g == "standard52-holdem")
    entries.append((next(h for h in masked_swaps if h is not None), "failed"))
    # a download where somebody's hole cards are hidden (????) yet take their place
    masked = (_masked(d) for g, d in clean if g == "standard52-holdem")
    entries.append(
        (next(m for m in masked if any("????" in str(a) for a in m.actions)), "verified")
    )
    text = phh.dumps_all(h for h, _ in entries)
    written = _handwritten(holdem[1].history, str(len(entries) + 1))
    expected = {k: status for k, (_, status) in enumerate(entries, 1)}
    expected[len(entries) + 1] = "verified"
    return text + "\n" + written, expected


@pytest.fixture(scope="module")
def hands() -> tuple[str, dict[int, str], list[tuple[str, str]]]:
    """The text, the expected statuses, and Python's (status, detail) per hand."""
    text, expected = _hands()
    python = [(v.status, v.detail) for v in map(verify_deal, phh.loads_all(text))]
    return text, expected, python


def _run(page: Page, text: str, *, fallback: bool) -> tuple[list[dict[str, Any]], float]:
    page.js(
        "window.cardlabFair.useFallback = arguments[1];"
        "document.getElementById('fv-text').value = arguments[0];",
        text,
        fallback,
    )
    assert page.js("return window.cardlabFair.usingWebCrypto") is (not fallback)
    start = time.perf_counter()
    page.js("document.getElementById('fv-run').click()")
    page.wait(
        lambda: page.js("return document.getElementById('fv-results').dataset.state") == "done",
        what="the check did not finish",
    )
    elapsed = time.perf_counter() - start
    rows = page.js(
        "return [...document.querySelectorAll('#fv-rows tr')].map(r => ({"
        "hand: +r.dataset.hand, status: r.dataset.status, detail: r.cells[2].textContent}))"
    )
    return list(rows), elapsed


def test_the_browser_agrees_with_python(
    page: Page, hands: tuple[str, dict[int, str], list[tuple[str, str]]]
) -> None:
    text, expected, python = hands
    assert len(python) >= 45
    # the check can fail: Python says what each hand was made to be
    assert {k: status for k, (status, _) in enumerate(python, 1)} == expected
    assert any("reshuffle" in detail for status, detail in python if status == "verified")
    page.open("/verify")
    timings = {}
    for fallback in (False, True):
        rows, timings[fallback] = _run(page, text, fallback=fallback)
        assert [r["hand"] for r in rows] == list(range(1, len(python) + 1))
        got = [(r["status"], r["detail"]) for r in rows]
        assert [s for s, _ in got] == [s for s, _ in python], f"fallback={fallback}"
        assert got == python, f"fallback={fallback}"
    summary = page.text("fv-summary")
    assert f"{len(python)} hands" in summary and "failed" in summary
    print(
        f"\n/verify: {len(python)} hands checked in {timings[False] * 1000:.0f} ms (WebCrypto), "
        f"{timings[True] * 1000:.0f} ms (pure JS)"
    )


def test_the_worked_example(page: Page) -> None:
    """docs/fair-dealing.md: the seed 00 01 .. 1f, its commitment, and a shuffle of 0..9."""
    page.open("/verify")
    result = page.driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const f = window.cardlabFair;
        const seed = Uint8Array.from({length: 32}, (_, k) => k);
        const hex = [...seed].map((b) => b.toString(16).padStart(2, "0")).join("");
        (async () => {
          const out = [];
          for (const fallback of [false, true]) {
            f.useFallback = fallback;
            out.push({
              webcrypto: f.usingWebCrypto,
              commitment: await f.commitment(hex),
              shuffle: await f.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], seed, ["a1b2", ""], 1),
              message: [...f.streamMessage(["a1b2", ""], 1, 0, 0)]
                .map((b) => b.toString(16).padStart(2, "0")).join(""),
            });
          }
          f.useFallback = false;
          return out;
        })().then(done, (e) => done(String(e)));
        """
    )
    message = (
        "636172646c61622d73687566666c652d7631 00 0000000000000001 00000000 00000002 "
        "00000004 61316232 00000000 0000000000000000"
    ).replace(" ", "")
    assert [r["webcrypto"] for r in result] == [True, False]
    for r in result:
        assert r["commitment"] == (
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
        )
        assert r["shuffle"] == [7, 9, 1, 4, 3, 2, 8, 5, 0, 6]
        assert r["message"] == message


def test_the_fallback_sha256_and_hmac_match_hashlib(page: Page) -> None:
    """Every padding case (lengths round 55, 56, 64 bytes) and keys longer than a block."""
    page.open("/verify")
    cases = [(bytes(range(k % 70)) * 2, bytes((7 * i) % 256 for i in range(k))) for k in range(140)]
    result = page.driver.execute_async_script(
        """
        const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
        const f = window.cardlabFair;
        (async () => {
          const out = [];
          for (const fallback of [true, false]) {
            f.useFallback = fallback;
            for (const [key, data] of cases) {
              out.push([await f.sha256(data), await f.hmacSha256(key, data)]);
            }
          }
          f.useFallback = false;
          return out;
        })().then(done, (e) => done(String(e)));
        """,
        [[list(k), list(d)] for k, d in cases],
    )
    want = [
        [hashlib.sha256(d).hexdigest(), hmac.new(k, d, hashlib.sha256).hexdigest()]
        for k, d in cases
    ]
    assert result == want + want


def test_open_a_file_on_a_phone(
    page: Page, hands: tuple[str, dict[int, str], list[tuple[str, str]]], tmp_path: Path
) -> None:
    text, _, python = hands
    path = tmp_path / "hands.phhs"
    path.write_text(text, encoding="utf-8")
    page.open("/verify", PHONE)
    page.driver.find_element("id", "fv-file").send_keys(str(path))
    page.wait(
        lambda: page.js("return document.getElementById('fv-results').dataset.state") == "done",
        what="the check of the opened file did not finish",
    )
    statuses = page.js(
        "return [...document.querySelectorAll('#fv-rows tr')].map(r => r.dataset.status)"
    )
    assert statuses == [s for s, _ in python]
    assert page.js("return document.getElementById('fv-text').value") == text
    # nothing sticks out sideways at 390 px
    assert page.js("return document.documentElement.scrollWidth") <= PHONE[0]
    page.screenshot("verify")


def test_text_that_is_not_toml_says_so(page: Page) -> None:
    page.open("/verify")
    page.js("document.getElementById('fv-text').value = arguments[0]", "[1]\nvariant = 'NT\n")
    page.js("document.getElementById('fv-run').click()")
    page.wait(
        lambda: page.js("return document.getElementById('fv-results').dataset.state") == "error"
    )
    assert "line 2" in page.text("fv-error")
    assert page.js("return document.querySelectorAll('#fv-rows tr').length") == 0


def test_deck_codes_split_longest_first(page: Page) -> None:
    page.open("/verify")
    fesca = [c.ascii for c in get_deck("FESCA78").cards]
    split = page.js(
        "return window.cardlabFair.splitCards(arguments[0], arguments[1], 'FESCA78')",
        "M10K3YZ??M1M12",
        fesca,
    )
    assert split == ["M10", "K3", "YZ", None, "M1", "M12"]
