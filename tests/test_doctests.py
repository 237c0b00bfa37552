"""The examples in docstrings and in docs/*.md run, and print what they say.

Every module of the package is collected; the ones left out are named here with the
reason, so that a new module's examples are checked without anyone adding it.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import cardlab

ROOT = Path(__file__).resolve().parents[1]

SKIPPED = {
    "cardlab.__main__": "runs the command line when imported",
}
OPTIONAL = ("cardlab.web",)  # needs the `web` extra


def _modules() -> list[str]:
    names = [
        m.name
        for m in pkgutil.walk_packages(cardlab.__path__, prefix="cardlab.")
        if not m.name.startswith(OPTIONAL)
    ]
    return sorted(n for n in names if n not in SKIPPED)


@pytest.mark.parametrize("name", _modules())
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {name}"


@pytest.mark.parametrize("path", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_docs_examples(path: Path) -> None:
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples fail in {path}"


def test_the_modules_with_examples_are_collected() -> None:
    """The walk finds the modules that hold examples (a broken walk would pass vacuously)."""
    found = _modules()
    assert {"cardlab.poker.games", "cardlab.decks", "cardlab.poker.frequencies"} <= set(found)
    assert "cardlab.poker.equity" in found  # its example shows 907/990, what it returns
