"""Disk caches are keyed by the code that built what they hold."""

from __future__ import annotations

from pathlib import Path

from cardlab._sources import closure_digest, code_digest

FILES = {
    "__init__.py": "",
    "table.py": "from cardlab.builder import build\n",
    "builder.py": "def build():\n    from cardlab.helper import STEP\n    return STEP\n",
    "helper.py": "STEP = 3\n",
    "web.py": "import starlette\n",
}


def _digest(root: Path) -> str:
    sources = {p: p.read_bytes() for p in root.rglob("*.py")}
    return closure_digest(root, [root / "table.py"], sources)


def test_a_change_anywhere_in_the_code_that_built_it_changes_the_key(tmp_path: Path) -> None:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    first = _digest(tmp_path)
    (tmp_path / "web.py").write_text("import starlette\nimport uvicorn\n")
    assert _digest(tmp_path) == first  # not imported by the table's code
    (tmp_path / "helper.py").write_text("STEP = 4\n")  # imported inside a function
    second = _digest(tmp_path)
    (tmp_path / "builder.py").write_text(FILES["builder.py"] + "# a note\n")
    assert len({first, second, _digest(tmp_path)}) == 3


def test_the_draw_table_and_the_task_cache_follow_their_code() -> None:
    # the draw table is built by draw_strength and the evaluator it imports
    assert code_digest("cardlab.poker.draw_strength") != code_digest("cardlab.cli.web")
    # a user's task outside cardlab still gets a key
    assert len(code_digest("not_cardlab.tasks")) == 16
