"""The compiled kernels' cache directory follows the sources of compiled code."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cardlab._numba_cache import sources_digest


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


FILES = {
    "__init__.py": "",
    "keys.py": "SHIFT = 50\n",
    "cli.py": "import click\n",
    "kern/__init__.py": "",
    "kern/fast.py": (
        "from numba import njit\nfrom cardlab.kern.helper import f\n\n"
        "@njit\ndef g(x):\n    return f(x)\n"
    ),
    "threads.py": "import numba\nfrom cardlab import cli\nnumba.set_num_threads(1)\n",
    "kern/helper.py": "from cardlab.keys import SHIFT\ndef f(x):\n    return x >> SHIFT\n",
}


def test_digest_changes_with_what_compiled_code_imports(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg", FILES)
    first = sources_digest(root)
    (root / "keys.py").write_text("SHIFT = 45\n")  # read by helper, inlined by fast
    second = sources_digest(root)
    (root / "kern/helper.py").write_text(FILES["kern/helper.py"] + "# note\n")
    assert len({first, second, sources_digest(root)}) == 3


def test_digest_ignores_modules_compiled_code_does_not_reach(tmp_path: Path) -> None:
    root = _package(tmp_path / "pkg", FILES)
    before = sources_digest(root)
    (root / "cli.py").write_text("import click\nimport rich\n")
    # a module that uses numba without compiling anything does not pull its imports in
    (root / "threads.py").write_text("import numba\nfrom cardlab import cli\n")
    assert sources_digest(root) == before


def test_the_cache_goes_to_a_directory_per_digest(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import os, cardlab; print(os.environ['NUMBA_CACHE_DIR'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    where = Path(out.stdout.strip())
    assert where.parent == tmp_path / "cardlab" / "numba"
    assert where.name == sources_digest() and where.is_dir()
    # when a new digest starts, directories of other sources unused for two weeks go,
    # recent ones (another checkout's) stay
    stale = where.parent / "0123456789abcdef"
    recent = where.parent / "fedcba9876543210"
    stale.mkdir()
    recent.mkdir()
    weeks_ago = time.time() - 15 * 24 * 3600
    os.utime(stale, (weeks_ago, weeks_ago))
    where.rmdir()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    assert where.is_dir() and recent.is_dir() and not stale.exists()
    # the user's choice stands
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == str(tmp_path / "mine")


def test_compile_times_are_kept_beside_the_versions(tmp_path: Path, monkeypatch: Any) -> None:
    """The first run of a new version says how long the last compile took here."""
    from cardlab._compile_times import compile_seconds, record_compile_seconds

    version = tmp_path / "numba" / "0123456789abcdef"
    version.mkdir(parents=True)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(version))
    assert compile_seconds("web bots") is None
    record_compile_seconds("web bots", 73.26)
    assert compile_seconds("web bots") == 73.3
    # a new version's directory reads the same file
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba" / "fedcba9876543210"))
    assert compile_seconds("web bots") == 73.3
    (tmp_path / "numba" / "compile-seconds.json").write_text("not json")
    assert compile_seconds("web bots") is None  # a damaged record is no figure, no error
    record_compile_seconds("web bots", 5)
    assert compile_seconds("web bots") == 5.0
    # a cache directory the user chose keeps its own record
    mine = tmp_path / "mine"
    mine.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(mine))
    assert compile_seconds("web bots") is None
