"""Hands survive a killed writer whole, and concurrent writers lose nothing, on SQLite and
on PostgreSQL (tests/store/conftest.py)."""

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import replace

import pytest
from store_records import WRITER, check_whole, make_record

from cardlab.store import Store


def _writer(path: str, name: str, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), name, mode],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _check_batches(store: Store, source: str) -> int:
    """Every stored hand of ``source`` is whole, and so is every batch; return the count."""
    sizes: dict[int, int] = {}
    seen: Counter[int] = Counter()
    numbers = []
    for record in store.hands(source=source):
        document = check_whole(record)
        batch, size = document["_batch"], document["_batch_size"]
        assert isinstance(batch, int) and isinstance(size, int)
        sizes[batch] = size
        seen[batch] += 1
        numbers.append(document["_number"])
    assert {batch: seen[batch] for batch in sizes} == sizes  # no batch written in part
    assert sorted(sizes) == list(range(len(sizes)))  # the first batches, in order
    assert sorted(numbers) == list(range(len(numbers)))
    return len(numbers)


@pytest.mark.parametrize(
    ("pause_at", "after_batches"),
    [(3, 0), (12, 0), (40, 0), (-1, 5), (-1, 25)],
)
def test_killed_writer_leaves_only_whole_hands(
    location: str, pause_at: int, after_batches: int
) -> None:
    """SIGKILL inside an open transaction (the writer waits there), or wherever the writer
    happens to be after some batches: what is stored is whole batches of whole hands."""
    path = location
    writer = _writer(path, "killed", f"forever:{pause_at}")
    assert writer.stdout is not None
    try:
        assert writer.stdout.readline() == "ready\n"
        committed = 0
        batches = 0
        while True:
            line = writer.stdout.readline()
            assert line, writer.stderr.read() if writer.stderr else "writer stopped"
            if line.startswith("mid"):
                break
            committed = int(line.split()[1])
            batches += 1
            if pause_at < 0 and batches == after_batches:
                break
        writer.send_signal(signal.SIGKILL)
    finally:
        writer.kill()
        writer.wait()
        for pipe in (writer.stdin, writer.stdout, writer.stderr):
            if pipe is not None:
                pipe.close()
    assert writer.returncode == -signal.SIGKILL
    with Store.open(path) as store:  # Store.open runs quick_check: it would refuse damage
        stored = _check_batches(store, "killed")
    assert stored >= committed  # every commit the writer reported is there
    if pause_at >= 0:
        assert stored == committed  # and the half-written batch is not
    if not path.startswith("postgresql://"):
        connection = sqlite3.connect(path)
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        connection.close()


def test_two_processes_writing_at_once_lose_nothing(location: str) -> None:
    path = location
    Store.open(path).close()
    count = 150
    writers = [_writer(path, f"w{i}", f"count:{count}") for i in range(2)]
    try:
        for writer in writers:  # both have the file open before either writes
            assert writer.stdout is not None
            assert writer.stdout.readline() == "ready\n"
        for writer in writers:
            assert writer.stdin is not None
            writer.stdin.write("go\n")
            writer.stdin.flush()
        for writer in writers:
            out, err = writer.communicate(timeout=300)
            assert writer.returncode == 0, err
            assert out == "done\n"
    finally:
        for writer in writers:
            writer.kill()
            writer.wait()
    with Store.open(path) as store:
        assert store.count_hands() == 2 * count
        for name in ("w0", "w1"):
            hands = store.hands(source=name)
            numbers = sorted(check_whole(r)["_number"] for r in hands)
            assert numbers == list(range(count))
            for record in hands:
                made = make_record(check_whole(record)["_number"], source=name)
                assert record == replace(made, played_at=record.played_at, id=record.id)


def test_threads_sharing_one_store(location: str) -> None:
    path = location
    errors: list[BaseException] = []
    per_thread = 40
    with Store.open(path) as store:

        def work(name: str) -> None:
            try:
                for number in range(per_thread):
                    if number % 4 == 3:
                        with store.transaction():
                            store.add_hand(make_record(number, source=name))
                            store.save_table(name, {}, {"hands": number + 1})
                    else:
                        store.add_hand(make_record(number, source=name))
                    store.hands(source=name, limit=3)
                    store.stats()
            except BaseException as error:  # reported by the main thread
                errors.append(error)

        threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.count_hands() == 4 * per_thread
        for i in range(4):
            numbers = sorted(check_whole(r)["_number"] for r in store.hands(source=f"t{i}"))
            assert numbers == list(range(per_thread))
            assert store.load_table(f"t{i}")[1] == {"hands": per_thread}
    assert path.startswith("postgresql://") or os.path.exists(path)
