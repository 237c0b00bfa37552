"""Records for the store tests, and a writer script run in child processes.

A test record's ``phh`` is a TOML document that repeats its columns, so a reader can tell
a whole hand from a torn one: the players, stacks, variant and the number of actions in
the text must equal the columns stored beside it.
"""

import datetime
import random
import tomllib
from pathlib import Path
from typing import Any

from cardlab.store import HandRecord

SRC = str(Path(__file__).resolve().parents[2] / "src")
THIS_DIR = str(Path(__file__).resolve().parent)


def make_record(
    number: int,
    *,
    source: str = "test",
    game: str = "standard52-holdem",
    batch: int = 0,
    batch_size: int = 1,
    seats: int = 3,
    actions: int = 12,
    table_id: str | None = None,
    played_at: datetime.datetime | None = None,
) -> HandRecord:
    """A hand whose PHH text agrees with its columns; chips move between seats."""
    rng = random.Random(number)
    players = tuple(f"{source}-p{seat}" for seat in range(seats))
    starting = [rng.randrange(50, 500) for _ in players]
    finishing = list(starting)
    loser, winner = rng.sample(range(seats), 2)
    moved = rng.randrange(0, starting[loser] + 1)
    finishing[loser] -= moved
    finishing[winner] += moved
    moves = [f"p{1 + i % seats} cbr {i}" for i in range(actions)]
    board = "".join(rng.sample(["As", "Kd", "7h", "2c", "Tc", "9s"], 3))
    phh = "\n".join(
        [
            'variant = "NT"',
            f"players = {_toml_list(players)}",
            f"starting_stacks = {starting}",
            f"finishing_stacks = {finishing}",
            f"actions = {_toml_list(moves)}",
            f'_board = "{board}"',
            f"_number = {number}",
            f"_batch = {batch}",
            f"_batch_size = {batch_size}",
            "",
        ]
    )
    return HandRecord(
        game=game,
        variant="NT",
        phh=phh,
        players=players,
        starting_stacks=tuple(starting),
        finishing_stacks=tuple(finishing),
        board=board,
        actions=actions,
        showdown=number % 3 == 0,
        decided_by="showdown" if number % 3 == 0 else "fold",
        source=source,
        table_id=table_id,
        played_at=played_at or datetime.datetime.now(datetime.UTC),
    )


def _toml_list(items: tuple[str, ...] | list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def check_whole(record: HandRecord) -> dict[str, Any]:
    """Assert that the record's PHH text parses and agrees with its columns; return it."""
    document = tomllib.loads(record.phh)
    assert document["variant"] == record.variant
    assert document["players"] == list(record.players)
    assert document["starting_stacks"] == list(record.starting_stacks)
    assert document["finishing_stacks"] == list(record.finishing_stacks)
    assert len(document["actions"]) == record.actions
    assert document["_board"] == record.board
    return document


# Run as `python -c WRITER DB NAME MODE`. MODE "forever:P" writes batches of hands until
# killed; in batch P it stops halfway inside the transaction, says "mid P" and waits on
# stdin. MODE "count:C" writes C single hands after a "go" line on stdin.
WRITER = f"""
import sys
sys.path[:0] = [{SRC!r}, {THIS_DIR!r}]
from store_records import make_record
from cardlab.store import Store

path, name, mode = sys.argv[1:4]
kind, number = mode.split(":")
with Store.open(path) as store:
    print("ready", flush=True)
    if kind == "forever":
        total = 0
        for batch in range(10**9):
            size = 1 + batch % 7
            records = [
                make_record(total + i, source=name, batch=batch, batch_size=size, actions=300)
                for i in range(size)
            ]
            if batch == int(number):
                with store.transaction():
                    store.add_hands(records[: size // 2])
                    print("mid", batch, flush=True)
                    sys.stdin.readline()
                    store.add_hands(records[size // 2 :])
            elif batch % 2:
                store.add_hands(records)
            else:
                with store.transaction():
                    for record in records:
                        store.add_hand(record)
            total += size
            print(batch, total, flush=True)
    else:
        sys.stdin.readline()
        for number in range(int(number)):
            store.add_hand(make_record(number, source=name))
        print("done", flush=True)
"""
