"""Bring the console examples of the docs up to date: run each one and write what it
prints into its block (commands, markers and the rest of the file stay as written).

    python scripts/update_doc_examples.py               # README.md and docs/*.md
    python scripts/update_doc_examples.py docs/open-seven.md
    python scripts/update_doc_examples.py --no-slow     # leave <!-- example: slow --> ones

The convention, and what the check in tests/test_doc_examples.py forgives, is described
there. Look at the diff before committing: the output is the command's, right or wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_doc_examples import ExampleError, doc_files, refresh  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="Markdown files (default: all docs)")
    parser.add_argument(
        "--no-slow", action="store_true", help="leave the slow examples as they are"
    )
    args = parser.parse_args(argv)
    files = [f.resolve() for f in args.files] or doc_files()
    changed = 0
    for path in files:
        if not path.is_file():
            print(f"update_doc_examples: no such file: {path}", file=sys.stderr)
            return 2
        try:
            changed += refresh(path, slow=not args.no_slow)
        except ExampleError as exc:
            print(f"update_doc_examples: {exc}", file=sys.stderr)
            return 2
    print(f"{changed} example(s) updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
