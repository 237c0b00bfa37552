"""The console examples of README.md and docs/*.md run, and print what they show.

What makes an example (the convention the docs follow):

* A fenced block opened with ```` ```console ```` is an example. Each line starting with
  ``$ `` is a command (a line ending in ``\\`` continues on the next); the lines after it,
  up to the next ``$`` line or the end of the block, are what it prints: stdout and
  stderr as they interleave. A line ``...`` stands for any number of lines, for an output
  shown abridged.
* The commands run with bash, one block at a time, in a scratch directory where
  ``tests/``, ``docs/`` and ``benchmarks/`` lead to this checkout's, with a hand store of
  their own (``CARDLAB_DB``) and stdin empty (pipe a command's input in, as a user
  would: ``printf 'c\\nf\\n' | cardlab play ...``). Commands of one block share the
  directory and the store, so a block can set up what it shows; blocks share nothing.
* An HTML comment on the line before the fence marks the block:
  ``<!-- example: slow -->`` for one that takes more than a few seconds (run under
  pytest's ``slow`` marker: CI runs it, ``-m "not slow"`` leaves it out);
  ``<!-- example: skip REASON -->`` for one that cannot run in a test (a server, a game
  at a terminal), reported as skipped with the reason.
* Commands in any other fenced block (```` ```sh ````, plain ```` ``` ````) are not
  checked, so a ``$ cardlab`` line must not appear in one.

Both sides are normalised before they are compared, for what legitimately differs
from run to run and nothing else (:data:`DROPPED`, :data:`REPLACED`): the one-line
notices of a first run that compiles kernels or builds a table, dates and times of
day, the scratch directory's path, the installed version, and spaces at line ends.
Progress bars and their ETA are drawn only at a terminal, so a pipe never sees them.

To bring the docs up to date with the commands, run them and write what they print
into the blocks (the commands and the markers stay as written):
``python scripts/update_doc_examples.py [FILE.md ...]``.
"""

from __future__ import annotations

import difflib
import itertools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINKED = ("tests", "docs", "benchmarks")  # what the commands may read, under its own name
TIMEOUT = 900  # seconds per command: a first run may compile kernels for minutes
ELLIPSIS = "..."

_FENCE = re.compile(r"^(```+|~~~+)\s*(\S*)")
_MARKER = re.compile(r"^<!--\s*example:\s*(?P<kind>\S+)\s*(?P<reason>.*?)\s*-->\s*$")
_MARKER_LIKE = re.compile(r"^<!--\s*example\b")


class ExampleError(ValueError):
    """A docs file breaks the convention of console examples."""


@dataclass(frozen=True, slots=True)
class Command:
    """One ``$`` command of an example and the output the doc shows for it."""

    line: int  # of the ``$`` in the file, from 1
    text: str  # the shell text, continuation lines included
    expected: tuple[str, ...]
    source: tuple[str, ...]  # the command's lines as written


@dataclass(frozen=True, slots=True)
class Example:
    """A ```console block: its commands, where it is, and its marker."""

    path: Path
    start: int  # line of the opening fence, from 1
    end: int  # line of the closing fence
    commands: tuple[Command, ...]
    mark: str | None = None  # "slow" or "skip"
    reason: str = ""

    @property
    def name(self) -> str:
        try:
            where = self.path.relative_to(ROOT)
        except ValueError:
            where = Path(self.path.name)
        return f"{where}:{self.start}"


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def parse(path: Path, text: str | None = None) -> list[Example]:
    """The console examples of a Markdown file (``text``: its contents, if at hand)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).split("\n")
    examples: list[Example] = []
    fence: str | None = None
    start = 0
    for number, line in enumerate(lines, 1):
        match = _FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
                start = number
                if match.group(2) == "console":
                    mark, reason = _marker(path, lines, number)
                    end = _closing(path, lines, number, fence)
                    body = lines[number:end]
                    examples.append(
                        Example(path, number, end + 1, _commands(path, body, number), mark, reason)
                    )
            elif _MARKER_LIKE.match(line):
                _check_marker_is_used(path, lines, number)
        elif line.startswith(fence) and not line[len(fence) :].strip():
            fence = None
    if fence is not None:
        raise ExampleError(f"{path.name}:{start}: a fenced block is not closed")
    return examples


def _closing(path: Path, lines: Sequence[str], opening: int, fence: str) -> int:
    for index in range(opening, len(lines)):
        if lines[index].startswith(fence) and not lines[index][len(fence) :].strip():
            return index
    raise ExampleError(f"{path.name}:{opening}: a fenced block is not closed")


def _marker(path: Path, lines: Sequence[str], fence_line: int) -> tuple[str | None, str]:
    previous = lines[fence_line - 2] if fence_line >= 2 else ""
    if not _MARKER_LIKE.match(previous):
        return None, ""
    match = _MARKER.match(previous)
    kind = match.group("kind") if match else ""
    reason = match.group("reason") if match else ""
    if kind == "slow" and not reason:
        return "slow", ""
    if kind == "skip" and reason:
        return "skip", reason
    raise ExampleError(
        f"{path.name}:{fence_line - 1}: expected '<!-- example: slow -->' or "
        f"'<!-- example: skip REASON -->', got {previous.strip()!r}"
    )


def _check_marker_is_used(path: Path, lines: Sequence[str], number: int) -> None:
    following = lines[number] if number < len(lines) else ""
    if not following.startswith(("```console", "~~~console")):
        raise ExampleError(
            f"{path.name}:{number}: an example marker must be on the line just before a "
            f"```console block"
        )


def _commands(path: Path, body: Sequence[str], fence_line: int) -> tuple[Command, ...]:
    commands: list[Command] = []
    index = 0
    while index < len(body):
        line = body[index]
        number = fence_line + 1 + index
        if not line.startswith("$ "):
            if line.strip():
                raise ExampleError(
                    f"{path.name}:{number}: output before any command in a console block "
                    f"(commands start with '$ '): {line!r}"
                )
            index += 1
            continue
        source = [line]
        while source[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            source.append(body[index])
        index += 1
        output: list[str] = []
        while index < len(body) and not body[index].startswith("$ "):
            output.append(body[index])
            index += 1
        text = "\n".join([source[0][2:], *source[1:]])
        commands.append(Command(number, text, tuple(output), tuple(source)))
    if not commands:
        raise ExampleError(f"{path.name}:{fence_line}: a console block without a command")
    return tuple(commands)


# --- running --------------------------------------------------------------------------


def _environment(scratch: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "CLICOLOR_FORCE", "TERM")
        and not k.startswith("CARDLAB_")
    }
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        CARDLAB_DB=str(scratch / "cardlab.sqlite3"),
        PYTHONUNBUFFERED="1",  # stdout and stderr interleave as written
        PYTHONIOENCODING="utf-8",
        NO_COLOR="1",
        TZ="UTC",
    )
    return env


def run(example: Example) -> list[list[str]]:
    """What each command of ``example`` prints, as lines (raw: not normalised)."""
    with tempfile.TemporaryDirectory(prefix="cardlab-doc-") as where:
        scratch = Path(where)
        for name in LINKED:
            (scratch / name).symlink_to(ROOT / name, target_is_directory=True)
        env = _environment(scratch)
        outputs = []
        for command in example.commands:
            done = subprocess.run(
                ["bash", "-c", command.text],
                cwd=scratch,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT,
                check=False,
            )
            text = done.stdout.decode("utf-8", errors="replace")
            for path in {str(scratch), os.path.realpath(scratch)}:
                text = text.replace(path + "/", "").replace(path, ".")
            outputs.append(text.split("\n"))
        return outputs


# --- comparing ------------------------------------------------------------------------

# Lines that appear on some runs only: a first run after an install (or after the
# kernels' sources change) compiles them, and a first Draw game builds its table.
DROPPED = (
    re.compile(r"^cardlab(?: web)?: preparing the .+ \(first run after install(?:, .+)?\)\.\.\.$"),
    re.compile(r"^cardlab web: the kernels are ready \(\d+ s\)$"),
)
# What differs from run to run inside a line, and what it is written as for comparing.
REPLACED = (
    (  # a date with a time of day: when a hand was played or imported
        re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?"),
        "<date>",
    ),
    (re.compile(r"\b(?:version|cardlab) " + re.escape(version("cardlab")) + r"\b"), "<version>"),
    # how long a run took: "460 iterations in 4.34 s", "seconds": 4.98
    (re.compile(r"\bin \d+(?:\.\d+)? s\b"), "in <seconds> s"),
    (re.compile(r'"seconds": \d+(?:\.\d+)?'), '"seconds": <seconds>'),
)


def normalise(lines: Sequence[str]) -> list[str]:
    """``lines`` as they are compared: :data:`DROPPED` lines left out, :data:`REPLACED`
    parts replaced, spaces at line ends and blank lines at the end removed."""
    kept = []
    for line in lines:
        line = line.rstrip()
        if any(pattern.match(line) for pattern in DROPPED):
            continue
        for pattern, replacement in REPLACED:
            line = pattern.sub(replacement, line)
        kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    return kept


def matches(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is ``expected``, where a line ``...`` of ``expected`` stands for
    any number of lines (both normalised)."""
    parts: list[list[str]] = [[]]
    for line in expected:
        if line == ELLIPSIS:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return list(expected) == list(actual)
    head, *middle, tail = parts
    if len(head) + len(tail) > len(actual):
        return False
    end = len(actual) - len(tail)
    if list(actual[: len(head)]) != head or list(actual[end:]) != tail:
        return False
    at = len(head)
    for part in middle:
        found = next(
            (i for i in range(at, end - len(part) + 1) if list(actual[i : i + len(part)]) == part),
            None,
        )
        if found is None:
            return False
        at = found + len(part)
    return True


def differences(example: Example, outputs: Sequence[Sequence[str]]) -> list[str]:
    """A diff for every command of ``example`` whose output is not the one shown."""
    found = []
    for command, output in zip(example.commands, outputs, strict=True):
        expected, actual = normalise(command.expected), normalise(output)
        if not matches(expected, actual):
            diff = difflib.unified_diff(
                expected, actual, "shown in the doc", "printed", lineterm="", n=2
            )
            found.append(
                f"{example.path.name}:{command.line}: $ {command.text}\n" + "\n".join(diff)
            )
    return found


# --- refreshing -----------------------------------------------------------------------


def refreshed(command: Command, output: Sequence[str]) -> list[str]:
    """The lines to show for ``command`` now that it printed ``output``: the lines shown
    if they still hold (so that dates and the like do not change for nothing), else the
    output as printed, without the first-run notices and line-end spaces, abridged as the
    doc abridged it (as many lines before the first ``...`` and after the last, and the
    parts shown between them that are still printed), and the blank lines the doc left
    after it."""
    if matches(normalise(command.expected), normalise(output)):
        return list(command.expected)
    lines = [line.rstrip() for line in output]
    lines = [line for line in lines if not any(p.match(line) for p in DROPPED)]
    while lines and not lines[-1]:
        lines.pop()
    shown = list(command.expected)
    gap = 0
    while shown and not shown[-1].strip():
        shown.pop()
        gap += 1
    if ELLIPSIS in shown:
        lines = _abridged(shown, lines)
    return lines + [""] * gap


def _abridged(shown: list[str], lines: list[str]) -> list[str]:
    cuts = [i for i, line in enumerate(shown) if line == ELLIPSIS]
    head, tail = cuts[0], len(shown) - 1 - cuts[-1]
    if len(lines) <= head + tail:
        return lines
    kept, at, end = lines[:head], head, len(lines) - tail
    for before, after in itertools.pairwise(cuts):
        part = shown[before + 1 : after]
        found = next(
            (i for i in range(at, end - len(part) + 1) if lines[i : i + len(part)] == part), None
        )
        if part and found is not None:
            kept += [ELLIPSIS, *part]
            at = found + len(part)
    return [*kept, ELLIPSIS, *lines[end:]]


def refresh(path: Path, *, slow: bool = True, report: bool = True) -> int:
    """Run the examples of ``path`` and write what they print into it (skipped examples,
    and slow ones unless ``slow``, stay as they are); the number of examples changed."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    changed = 0
    for example in reversed(parse(path, text)):  # from the end: line numbers stay valid
        if example.mark == "skip" or (example.mark == "slow" and not slow):
            continue
        outputs = run(example)
        body: list[str] = []
        for command, output in zip(example.commands, outputs, strict=True):
            body += [*command.source, *refreshed(command, output)]
        if body != lines[example.start : example.end - 1]:
            lines[example.start : example.end - 1] = body
            changed += 1
            if report:
                print(f"{example.name}: updated")
    if changed:
        path.write_text("\n".join(lines), encoding="utf-8")
    return changed


# --- the tests ------------------------------------------------------------------------


def _examples() -> list[object]:
    return [_param(example) for path in doc_files() for example in parse(path)]


def _param(example: Example) -> object:
    marks = {
        "slow": [pytest.mark.slow],
        "skip": [pytest.mark.skip(reason=f"{example.name}: {example.reason}")],
    }.get(example.mark or "", [])
    return pytest.param(example, id=example.name, marks=marks)


@pytest.mark.parametrize("example", _examples())
def test_example(example: Example) -> None:
    found = differences(example, run(example))
    assert not found, (
        "the docs show another output than the command prints; if the command is right, "
        f"run: python scripts/update_doc_examples.py {example.path.relative_to(ROOT)}\n\n"
        + "\n\n".join(found)
    )


def test_the_examples_are_found() -> None:
    """The parser finds the examples the docs are known to hold (a broken parser would
    pass vacuously)."""
    found = {c.text for path in doc_files() for e in parse(path) for c in e.commands}
    assert "cardlab openseven odds --cards 7" in found
    assert "cardlab replay tests/data/phh/dwan-ivey-2009.phh" in found
    assert 'cardlab openseven solve "2 3 1 5 7 4 6" --limit 4' in found
    assert len(found) >= 20


def test_no_command_hides_in_another_block() -> None:
    """A ``$ cardlab`` line outside a console block would never be checked."""
    hidden = []
    for path in doc_files():
        fence: str | None = None
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            match = _FENCE.match(line)
            if fence is None and match:
                fence = match.group(2) or "plain"
            elif fence is not None and match and not match.group(2):
                fence = None
            elif fence not in (None, "console") and line.startswith("$ "):
                hidden.append(f"{path.name}:{number} (a {fence} block): {line}")
    assert not hidden, "make these ```console blocks:\n" + "\n".join(hidden)


def test_few_examples_are_skipped_and_each_says_why() -> None:
    skipped = [e for path in doc_files() for e in parse(path) if e.mark == "skip"]
    assert all(e.reason for e in skipped)
    assert len(skipped) <= 3, "examples that cannot run: " + ", ".join(e.name for e in skipped)


# --- the machinery, on examples written here ------------------------------------------

DOC = """# A doc

<!-- example: slow -->
```console
$ echo one; echo two >&2
one
two

$ printf 'a\\nb\\nc\\nd\\n'
a
...
d
```

```sh
$ not an example
```

```console
$ echo "played 2026-12-01 22:04:09, $(pwd)/x"
played 2026-01-01 00:00:00, x
```
"""


def test_parse_reads_commands_outputs_and_markers(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    first, second = parse(doc)
    assert (first.start, first.end, first.mark, second.mark) == (4, 13, "slow", None)
    assert [c.text for c in first.commands] == [
        "echo one; echo two >&2",
        "printf 'a\\nb\\nc\\nd\\n'",
    ]
    assert first.commands[0].expected == ("one", "two", "")
    assert first.commands[1].line == 9


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<!-- example: slwo -->\n```console\n$ true\n```\n", "expected '<!-- example: slow"),
        ("<!-- example: skip -->\n```console\n$ true\n```\n", "expected '<!-- example: slow"),
        ("<!-- example: slow -->\n\n```console\n$ true\n```\n", "just before a ```console"),
        ("```console\noutput\n$ true\n```\n", "output before any command"),
        ("```console\n$ true\n", "not closed"),
    ],
)
def test_a_broken_convention_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ExampleError, match=re.escape(message)):
        parse(tmp_path / "doc.md", text)


def test_right_outputs_pass_and_a_wrong_one_is_caught(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)
    first, second = parse(doc)
    assert differences(first, run(first)) == []
    assert differences(second, run(second)) == []  # the date and the path are normalised
    wrong = DOC.replace("one\ntwo", "one\nthree")
    found = differences(parse(doc, wrong)[0], run(first))
    assert len(found) == 1 and "-three\n+two" in found[0]


def test_the_normaliser_is_narrow() -> None:
    notice = "cardlab: preparing the equity kernels (first run after install, about 60 s)..."
    assert normalise([notice, "a  ", "", ""]) == ["a"]
    assert normalise(["at 2026-12-01 22:04"]) == normalise(["at 2027-01-31 09:15"])
    assert normalise(["13/49 (26.5306%)"]) != normalise(["13/49 (26.5307%)"])
    assert normalise(["  indented"]) == ["  indented"]
    assert normalise(["took 1.5 s"]) != normalise(["took 2.5 s"])  # timings are not shown


def test_an_ellipsis_stands_for_any_lines() -> None:
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert matches(["a", "...", "c", "...", "e"], list("abcde"))
    assert not matches(["a", "...", "c", "...", "e"], list("abde"))
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a", "b"], ["a", "b", "c"])


def test_refresh_writes_the_real_output_and_keeps_the_rest(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    stale = DOC.replace("one\ntwo", "uno\ndos").replace("a\n...\nd", "z\n...")
    doc.write_text(stale.replace(", x", ", y"))
    assert refresh(doc, report=False) == 2
    text = doc.read_text()
    assert text.startswith("# A doc\n\n<!-- example: slow -->\n```console\n$ echo one;")
    assert "one\ntwo\n\n$ printf" in text  # the blank line after an output stays
    assert "$ printf 'a\\nb\\nc\\nd\\n'\na\n...\n```" in text  # abridged as before
    assert "```sh\n$ not an example\n```" in text
    assert "played 2026-12-01 22:04:09, x" in text  # the real output, the path relative
    assert refresh(doc, report=False) == 0  # now true: nothing to change
    assert refresh(doc, slow=False, report=False) == 0


def test_refresh_leaves_what_still_holds_and_keeps_the_abridged_parts(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(DOC)  # true, with a date of another day
    assert refresh(doc, report=False) == 0 and doc.read_text() == DOC
    stale = "```console\n$ seq 1 9\n1\n...\n4\n5\n...\nX\n...\n9\n```\n"
    doc.write_text(stale)
    assert refresh(doc, report=False) == 1
    assert doc.read_text() == "```console\n$ seq 1 9\n1\n...\n4\n5\n...\n9\n```\n"
