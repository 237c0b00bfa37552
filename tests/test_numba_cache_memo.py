"""The sources' digest is remembered under their signature (path, size, mtime of every
file), so ``import cardlab`` does not read every source; any change is seen. A module's
code digest reads only the modules it imports."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from cardlab import _numba_cache
from cardlab._numba_cache import remembered_digest, sources_digest, sources_signature
from test_numba_cache import FILES  # the same small package that test digests

AN_HOUR_AGO = time.time() - 3600


def _package(root: Path) -> Path:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.utime(path, (AN_HOUR_AGO, AN_HOUR_AGO))  # settled: the digest may be remembered
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "keys.cpython-311.pyc").write_bytes(b"not a source")
    return root


def _no_computing(monkeypatch: Any) -> None:
    def refuse(package: Path = Path()) -> str:
        raise AssertionError("the digest was computed, not read from the memo")

    monkeypatch.setattr(_numba_cache, "sources_digest", refuse)


def test_the_remembered_digest_is_the_computed_one(tmp_path: Path, monkeypatch: Any) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / "cache" / "numba" / _numba_cache.MEMO  # its directory is made
    computed = sources_digest(root)
    assert remembered_digest(memo, root) == computed
    signature, _ = sources_signature(root)
    assert f"{signature} {computed}" in memo.read_text().splitlines()
    _no_computing(monkeypatch)  # the second time it is read
    assert remembered_digest(memo, root) == computed


def test_a_changed_source_changes_the_digest(tmp_path: Path, monkeypatch: Any) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / _numba_cache.MEMO
    first = remembered_digest(memo, root)
    keys = root / "keys.py"
    # same size, a new modification time (read by helper, inlined by the kernel)
    keys.write_text("SHIFT = 45\n")
    os.utime(keys, (AN_HOUR_AGO + 60, AN_HOUR_AGO + 60))
    second = remembered_digest(memo, root)
    assert second != first and second == sources_digest(root)
    # another size, the same modification time as before
    (root / "kern/helper.py").write_text(FILES["kern/helper.py"] + "# note\n")
    os.utime(root / "kern/helper.py", (AN_HOUR_AGO, AN_HOUR_AGO))
    third = remembered_digest(memo, root)
    assert third not in (first, second) and third == sources_digest(root)
    # a new file is seen too (it changes no digest here: nothing compiled imports it)
    before = sources_signature(root)[0]
    (root / "extra.py").write_text("X = 1\n")
    assert sources_signature(root)[0] != before
    # the pyc files beside the sources are no sources
    before = sources_signature(root)[0]
    (root / "__pycache__" / "more.py").write_text("not a source either\n")
    assert sources_signature(root)[0] == before
    # every version is remembered: going back needs no computing
    keys.write_text(FILES["keys.py"])
    os.utime(keys, (AN_HOUR_AGO, AN_HOUR_AGO))
    (root / "kern/helper.py").write_text(FILES["kern/helper.py"])
    os.utime(root / "kern/helper.py", (AN_HOUR_AGO, AN_HOUR_AGO))
    (root / "extra.py").unlink()
    _no_computing(monkeypatch)
    assert remembered_digest(memo, root) == first


def test_sources_written_just_now_are_not_remembered(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg")
    (root / "keys.py").write_text("SHIFT = 40\n")  # now: a second write could keep its time
    memo = tmp_path / _numba_cache.MEMO
    assert remembered_digest(memo, root) == sources_digest(root)
    assert not memo.exists()


def test_a_source_changed_while_digesting_is_not_remembered(
    tmp_path: Path, monkeypatch: Any
) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / _numba_cache.MEMO
    compute = _numba_cache.sources_digest

    def racing(package: Path) -> str:
        digest = compute(package)  # read the old text, then another writer changes it
        (root / "keys.py").write_text("SHIFT = 44444\n")
        os.utime(root / "keys.py", (AN_HOUR_AGO, AN_HOUR_AGO))
        return digest

    monkeypatch.setattr(_numba_cache, "sources_digest", racing)
    remembered_digest(memo, root)
    assert not memo.exists()
    monkeypatch.setattr(_numba_cache, "sources_digest", compute)
    assert remembered_digest(memo, root) == sources_digest(root)  # the new text's


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage\n",
        "cardlab sources digests 1\nnot-a-signature 0123456789abcdef\n",
        "cardlab sources digests 1\n" + "a" * 64 + " short\n",
        "cardlab sources digests 0\n",
    ],
)
def test_a_damaged_memo_is_computed_again_and_replaced(tmp_path: Path, text: str) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / _numba_cache.MEMO
    memo.write_text(text)
    assert remembered_digest(memo, root) == sources_digest(root)
    lines = memo.read_text().splitlines()
    assert lines[0] == "cardlab sources digests 1" and len(lines) == 2


def test_a_memo_that_cannot_be_read_or_written_is_no_error(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / _numba_cache.MEMO
    memo.mkdir()  # a directory where the file should be
    assert remembered_digest(memo, root) == sources_digest(root)
    assert memo.is_dir() and not list(tmp_path.glob("*.tmp"))


def test_the_memo_keeps_the_last_versions(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg")
    memo = tmp_path / _numba_cache.MEMO
    for i in range(12):
        (root / "keys.py").write_text(f"SHIFT = {i}\n")
        os.utime(root / "keys.py", (AN_HOUR_AGO + i, AN_HOUR_AGO + i))
        remembered_digest(memo, root)
    lines = memo.read_text().splitlines()
    assert len(lines) == 1 + 8
    assert lines[-1].split()[1] == sources_digest(root)


@pytest.mark.parametrize(
    "module", ["cardlab.poker.draw_strength", "cardlab.solve.cfr", "cardlab.analysis.chart"]
)
def test_a_modules_code_digest_reads_its_closure_alone_and_is_unchanged(module: str) -> None:
    from cardlab._sources import PACKAGE, closure_digest, code_digest, module_file

    every = {p: p.read_bytes() for p in PACKAGE.rglob("*.py")}  # as it was computed
    path = module_file(PACKAGE, module.split(".")[1:])
    assert path is not None
    assert code_digest(module) == closure_digest(PACKAGE, [path], every)
