"""Provably fair dealing: a shuffle nobody can choose or predict, and anybody can check.

The scheme (``cardlab-shuffle-v1``; docs/fair-dealing.md has every byte, so it can be
re-implemented elsewhere) in four steps:

1. Per table the server draws a secret 32-byte *server seed* and shows every seat its
   *commitment*, ``sha256(server_seed)`` in lowercase hex, before the first hand under it.
2. Before each deal every seated person's browser sends a *client seed* of its own
   (bots and absent players contribute the empty string).
3. The deck, in the deck's listed order, is shuffled by Fisher-Yates from the last card
   down; each index is drawn without bias (rejection sampling) from 32-bit words of a
   stream of HMAC-SHA256 blocks keyed by the server seed over the client seeds, the
   hand's number, the pass (0: the deck; 1, 2...: reshuffles of a draw) and a block
   counter. Cards are dealt from the top (the first card of the shuffled list) in the
   order the hand's PHH lists them, with no burns.
4. Any seated player may ask to reveal the server seed; it is revealed at the end of the
   hand in play, a new commitment is shown, and every hand played under the old seed can
   be checked: :func:`verify_deal` re-derives each deck, checks the commitment and that every
   card dealt came from the deck in order.

The server cannot choose the cards (it committed to its seed before it saw the client
seeds) and the players cannot predict them (they never see the server seed before the
hand). What this does not prove is in the docs.

>>> seed = bytes(range(32))
>>> commitment(seed)[:16]
'630dcd2966c43366'
>>> shuffle(list(range(10)), seed, ["a1b2", ""], 1)
[7, 9, 1, 4, 3, 2, 8, 5, 0, 6]
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardlab.cards import Card
from cardlab.decks import Deck
from cardlab.errors import CardlabError, GameError

SCHEME = "cardlab-shuffle-v1"
"""The name of this scheme, written in each hand's PHH as ``_fair``."""

SEED_BYTES = 32
MAX_CLIENT_SEED = 64
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{0,64}")
"""A client seed: up to 64 characters of ``A-Z a-z 0-9 _ -`` (the browser sends 32 hex
digits from ``crypto.getRandomValues``); the empty string for a bot or an absent player."""

_PREFIX = SCHEME.encode("ascii") + b"\x00"
_WORDS_PER_BLOCK = 8  # a SHA-256 block gives eight 32-bit words

T = TypeVar("T")


class FairDealError(GameError):
    """A bad server seed, client seed or hand number given to the shuffle."""


def new_server_seed() -> bytes:
    """A fresh secret server seed (32 bytes from the operating system's generator)."""
    return secrets.token_bytes(SEED_BYTES)


def practice_seed(seed: int) -> bytes:
    """The server seed of a practice table whose creator fixed ``seed``: every deal is
    known in advance, which is why such a table seats nobody else."""
    return hashlib.sha256(f"cardlab practice table seed {seed}".encode()).digest()


def commitment(server_seed: bytes) -> str:
    """``sha256(server_seed)`` in lowercase hex: shown before the seed is used."""
    _check_server_seed(server_seed)
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seed(value: object) -> str:
    """``value`` if it is a valid client seed, else :class:`FairDealError`."""
    if not isinstance(value, str) or CLIENT_SEED.fullmatch(value) is None:
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise FairDealError(
            f"a client seed is up to {MAX_CLIENT_SEED} characters of A-Z a-z 0-9 _ -: {shown}"
        )
    return value


def _check_server_seed(server_seed: object) -> None:
    if not isinstance(server_seed, bytes) or len(server_seed) != SEED_BYTES:
        raise FairDealError(f"a server seed is {SEED_BYTES} bytes")


def parse_server_seed(text: object) -> bytes:
    """A server seed from its 64 lowercase hex digits."""
    if not isinstance(text, str) or re.fullmatch(r"[0-9a-f]{64}", text) is None:
        shown = repr(text)[:80]
        raise FairDealError(f"a server seed is 64 lowercase hex digits: {shown}")
    return bytes.fromhex(text)


def stream_message(
    client_seeds: Sequence[str], hand_number: int, pass_number: int, block: int
) -> bytes:
    """The HMAC message of one block of the stream (docs/fair-dealing.md, "Bytes")."""
    if not 0 <= hand_number < 2**64 or not 0 <= pass_number < 2**32 or not 0 <= block < 2**64:
        raise FairDealError(
            f"hand number, pass and block are 64, 32 and 64-bit unsigned integers: "
            f"{hand_number}, {pass_number}, {block}"
        )
    parts = [_PREFIX, struct.pack(">QII", hand_number, pass_number, len(client_seeds))]
    for seed in client_seeds:
        raw = check_client_seed(seed).encode("ascii")
        parts.append(struct.pack(">I", len(raw)) + raw)
    parts.append(struct.pack(">Q", block))
    return b"".join(parts)


class _Words:
    """The 32-bit big-endian words of the HMAC-SHA256 stream, in order."""

    def __init__(
        self, server_seed: bytes, client_seeds: Sequence[str], hand_number: int, pass_number: int
    ) -> None:
        _check_server_seed(server_seed)
        self._key = server_seed
        self._seeds = list(client_seeds)
        self._hand = hand_number
        self._pass = pass_number
        self._block = 0
        self._words: list[int] = []

    def next(self) -> int:
        if not self._words:
            message = stream_message(self._seeds, self._hand, self._pass, self._block)
            digest = hmac.new(self._key, message, hashlib.sha256).digest()
            self._words = list(reversed(struct.unpack(">8I", digest)))
            self._block += 1
        return self._words.pop()


def shuffle(
    items: Sequence[T],
    server_seed: bytes,
    client_seeds: Sequence[str],
    hand_number: int,
    pass_number: int = 0,
) -> list[T]:
    """``items`` shuffled by the scheme: Fisher-Yates from the last place down, each
    index ``j`` in ``0..i`` drawn by rejection from the stream's words (a word ``u`` is
    used when ``u < 2**32 - 2**32 % (i + 1)``, and then ``j = u % (i + 1)``)."""
    out = list(items)
    words = _Words(server_seed, client_seeds, hand_number, pass_number)
    for i in range(len(out) - 1, 0, -1):
        size = i + 1
        limit = 2**32 - (2**32 % size)
        u = words.next()
        while u >= limit:
            u = words.next()
        j = u % size
        out[i], out[j] = out[j], out[i]
    return out


@dataclass(frozen=True)
class FairDeal:
    """The public inputs of one hand's shuffle (what its PHH carries from the start).

    ``client_seeds`` are by position (p1 first, as the PHH's players); ``practice``: the
    table's creator fixed the seed, so the deal was known to them."""

    commitment: str
    client_seeds: tuple[str, ...]
    hand_number: int
    practice: bool = False

    def user_fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "_fair": SCHEME,
            "_commitment": self.commitment,
            "_client_seeds": list(self.client_seeds),
            "_deal_number": self.hand_number,
        }
        if self.practice:
            out["_practice"] = True
        return out


@dataclass
class Dealer:
    """The cards of one hand, shuffled by the scheme; a :class:`HandState` deals from
    :attr:`cards` and calls :meth:`reshuffle` when a draw runs the deck out."""

    deck: Deck
    server_seed: bytes
    deal: FairDeal
    cards: list[Card] = field(init=False)
    piles: list[tuple[Card, ...]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.cards = shuffle(
            self.deck.cards, self.server_seed, self.deal.client_seeds, self.deal.hand_number
        )

    def reshuffle(self, pile: Sequence[Card]) -> list[Card]:
        """The cards out of play, put in the deck's listed order and shuffled as pass 1,
        2, ... of the same hand."""
        ordered = sorted(pile, key=self.deck.code)
        self.piles.append(tuple(ordered))
        return shuffle(
            ordered,
            self.server_seed,
            self.deal.client_seeds,
            self.deal.hand_number,
            len(self.piles),
        )


def revealed_fields(
    server_seed: bytes, deck: Deck, deal: FairDeal, piles: Sequence[Sequence[Card]] = ()
) -> dict[str, Any]:
    """The PHH user fields added once the server seed is revealed: the seed, the whole
    shuffled deck, and the reshuffled piles of a draw (ASCII card codes)."""
    cards = shuffle(deck.cards, server_seed, deal.client_seeds, deal.hand_number)
    out: dict[str, Any] = {
        "_server_seed": server_seed.hex(),
        "_shuffled_deck": " ".join(c.ascii for c in cards),
    }
    if piles:
        out["_reshuffled"] = [" ".join(c.ascii for c in pile) for pile in piles]
    return out


# --- checking a hand afterwards -------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_deal` found for one hand: ``status`` is ``verified``,
    ``unrevealed`` (the server seed is not known yet), ``failed`` or ``not fair-dealt``
    (the hand carries no fair-dealing fields); ``detail`` says why."""

    status: str
    detail: str
    practice: bool = False

    @property
    def ok(self) -> bool:
        return self.status != "failed"


def verify_deal(history: Any) -> Verdict:
    """Check one PHH hand (a :class:`~cardlab.table.phh.HandHistory`) against its
    fair-dealing fields; never raises on a bad hand, says why instead."""
    from cardlab.table import phh_actions as pa

    user = history.user_fields
    practice = bool(user.get("_practice", False))
    if "_commitment" not in user and "_fair" not in user:
        return Verdict("not fair-dealt", "the hand carries no fair-dealing fields", practice)
    try:
        scheme = user.get("_fair")
        if scheme != SCHEME:
            return Verdict("failed", f"unknown scheme {scheme!r} (cardlab knows {SCHEME})")
        promised = user.get("_commitment")
        if not isinstance(promised, str) or re.fullmatch(r"[0-9a-f]{64}", promised) is None:
            return Verdict("failed", f"the commitment is not 64 hex digits: {promised!r:.80}")
        seeds = user.get("_client_seeds")
        if not isinstance(seeds, list):
            return Verdict("failed", "_client_seeds is not a list of strings")
        for s in seeds:
            check_client_seed(s)
        number = user.get("_deal_number")
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            return Verdict("failed", f"_deal_number is not a whole number: {number!r:.40}")
        if len(seeds) != len(history.starting_stacks):
            return Verdict(
                "failed",
                f"{len(seeds)} client seeds for {len(history.starting_stacks)} players",
            )
        if "_server_seed" not in user:
            return Verdict(
                "unrevealed", f"server seed not yet revealed ({promised[:16]}...)", practice
            )
        server_seed = parse_server_seed(user["_server_seed"])
        if hashlib.sha256(server_seed).hexdigest() != promised:
            return Verdict(
                "failed",
                f"the revealed server seed does not match the commitment {promised[:16]}...",
                practice,
            )
        deck = history.deck
        cards = shuffle(deck.cards, server_seed, seeds, number)
        shown = user.get("_shuffled_deck")
        if shown is not None:
            listed = deck.parse_cards(str(shown))
            for k, (want, got) in enumerate(zip(cards, listed, strict=False)):
                if want != got:
                    return Verdict(
                        "failed",
                        f"_shuffled_deck card {k + 1} is {got.ascii}, the seeds give {want.ascii}",
                        practice,
                    )
            if len(listed) != len(cards):
                return Verdict("failed", "_shuffled_deck has the wrong number of cards", practice)
        piles = user.get("_reshuffled", [])
        if not isinstance(piles, list):
            return Verdict("failed", "_reshuffled is not a list of card lists", practice)
        return _walk(history, deck, cards, server_seed, seeds, number, piles, pa, practice)
    except CardlabError as error:
        return Verdict("failed", str(error), practice)


def _walk(
    history: Any,
    deck: Deck,
    cards: list[Card],
    server_seed: bytes,
    seeds: list[str],
    number: int,
    piles: list[Any],
    pa: Any,
    practice: bool,
) -> Verdict:
    """Every card dealt in the actions, in order, against the deck from the top; and
    every card a player shows or discards by name, against the cards dealt to them."""
    at = 0
    passes = 0
    dealt: set[Card] = set()
    held: dict[int, set[Card]] = {}  # player -> every card the deck dealt them
    count = 0
    for line_no, item in enumerate(history.actions, 1):
        action = pa.parse_action(item) if isinstance(item, str) else item
        text = str(action)
        if isinstance(action, pa.ShowMuck | pa.StandPatDiscard):
            named = action.token
            if named is None or named == "-":
                continue
            mine = held.get(action.player, set())
            for card in pa.split_cards(named, deck):
                if card is not None and card not in mine:
                    verb = "shows" if isinstance(action, pa.ShowMuck) else "discards"
                    return Verdict(
                        "failed",
                        f"action {line_no} ({text!r}) {verb} {card.ascii}, which the deck "
                        f"did not deal to p{action.player + 1}",
                        practice,
                    )
        if isinstance(action, pa.DealHole | pa.DealBoard):
            for card in pa.split_cards(action.token, deck):
                if at == len(cards):
                    if passes >= len(piles):
                        return Verdict(
                            "failed",
                            f"action {line_no} ({text!r}) deals past the deck's last card "
                            "and the hand records no reshuffle",
                            practice,
                        )
                    pile = deck.parse_cards(str(piles[passes]))
                    stray = [c.ascii for c in pile if c not in dealt]
                    if stray:
                        return Verdict(
                            "failed",
                            f"reshuffle {passes + 1} holds cards never dealt: {' '.join(stray)}",
                            practice,
                        )
                    passes += 1
                    ordered = sorted(pile, key=deck.code)
                    cards = shuffle(ordered, server_seed, seeds, number, passes)
                    at = 0
                    if not cards:
                        return Verdict("failed", "a reshuffle of no cards", practice)
                want = cards[at]
                at += 1
                count += 1
                if card is not None and card != want:
                    return Verdict(
                        "failed",
                        f"card {count} dealt (action {line_no}: {text!r}) is {card.ascii}, "
                        f"the deck has {want.ascii}",
                        practice,
                    )
                dealt.add(want)
                if isinstance(action, pa.DealHole):
                    held.setdefault(action.player, set()).add(want)
    reshuffles = f", {passes} reshuffle(s)" if passes else ""
    rabbit = history.user_fields.get("_rabbit")
    hunted = ""
    if rabbit is not None:  # the cards a rabbit hunt showed come next from the deck
        shown = deck.parse_cards(str(rabbit))
        for k, card in enumerate(shown, 1):
            if at == len(cards) or card != cards[at]:
                next_card = cards[at].ascii if at < len(cards) else "no card"
                return Verdict(
                    "failed",
                    f"rabbit card {k} is {card.ascii}, the deck has {next_card} next",
                    practice,
                )
            at += 1
        hunted = f", {len(shown)} rabbit card(s)"
    return Verdict(
        "verified", f"{count} cards dealt in order from the deck{reshuffles}{hunted}", practice
    )
