"""``cardlab chart`` and ``cardlab report``: output shapes, bad input as one line, the
report in a real headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cli import main

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"
SHORT = f"{DECKS / 'short24.toml'}-holdem"
DUO14 = DECKS / "duo14.toml"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(list(args))
    return capsys.readouterr().out


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1
    return err


def test_chart_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "chart.png"
    out = run(capsys, "chart", "--game", SHORT, "--workers", "0", "--no-cache",
              "--format", "json", "--plot", str(png))  # fmt: skip
    data = json.loads(out)
    assert (data["game"], data["opponents"], data["exact"]) == ("short24-holdem", 1, True)
    first = data["classes"][0]
    assert set(first) >= {"hand", "combos", "equity", "se"}
    assert first["hand"] == "AA" and first["combos"] == 6
    assert Fraction(first["equity"]) > Fraction(1, 2)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chart_sampled_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run(capsys, "chart", "--game", SHORT, "--workers", "0", "--se", "0.05",
              "--top", "3", "--cache", str(tmp_path))  # fmt: skip
    assert "std. error" in out and "±" in out
    assert list(tmp_path.glob("*.json"))
    again = run(capsys, "chart", "--game", SHORT, "--workers", "0", "--se", "0.05",
                "--top", "3", "--cache", str(tmp_path))  # fmt: skip
    assert again == out


def test_omaha_and_stud_charts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "omaha.png"
    out = run(capsys, "chart", "--game", f"{DUO14}-omaha", "--workers", "0", "--no-cache",
              "--format", "json", "--plot", str(png), "--classes", "5")  # fmt: skip
    data = json.loads(out)
    assert (data["game"], data["opponents"], data["exact"]) == ("duo14-omaha", 1, True)
    assert len(data["classes"]) == 5
    assert {"hand", "combos", "equity", "se"} <= set(data["classes"][0])
    assert all(0 <= Fraction(c["equity"]) <= 1 for c in data["classes"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = run(capsys, "chart", "--game", "standard52-stud", "--workers", "0", "--no-cache",
              "--se", "0.02", "--hands", "AaAbAc, 7a3b2c")  # fmt: skip
    assert "AaAbAc" in out and "7a3b2c" in out and "±" in out
    assert out.index("AaAbAc") < out.index("7a3b2c")


def test_chart_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert "heads-up" in fails(capsys, "chart", "--opponents", "2", "--exact", "--workers", "0")
    assert "--se" in fails(capsys, "chart", "--exact", "--se", "0.01", "--workers", "0")
    assert "unknown game" in fails(capsys, "chart", "--game", "nope-holdem", "--workers", "0")
    assert "scheduler" in fails(capsys, "chart", "--workers", "0", "--scheduler", "tcp://x:1")
    assert "Omaha and Stud" in fails(capsys, "chart", "--game", "fesca42-draw", "--workers", "0")
    assert "--hands" in fails(capsys, "chart", "--classes", "2", "--hands", "AA", "--workers", "0")
    assert "'AKQ'" in fails(capsys, "chart", "--game", "standard52-stud", "--hands", "AKQ")
    assert "heads-up" in fails(capsys, "chart", "--game", "standard52-stud", "--exact", "-n", "2")
    assert "sample it" in fails(capsys, "chart", "--game", "standard52-omaha", "--exact",
                                "--classes", "1", "--workers", "0")  # fmt: skip
    assert "opponents" in fails(capsys, "chart", "--opponents", "12")
    assert ".png" in fails(capsys, "chart", "--plot", "chart.txt", "--workers", "0")
    assert ".html" in fails(capsys, "report", "--out", "report.png", "--workers", "0")


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.text(max_size=20),
    se=st.one_of(st.floats(max_value=0.0), st.just(float("nan")), st.just(float("inf"))),
    opponents=st.integers(-3, 15),
)
def test_chart_fuzz_ends_in_one_line(
    capsys: pytest.CaptureFixture[str], game: str, se: float, opponents: int
) -> None:
    for args in (
        ["chart", "--game", game, "--workers", "0", "--no-cache"],
        ["chart", "--se", repr(se), "--opponents", str(opponents), "--workers", "0"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(["standard52-stud", "standard52-omaha", f"{DUO14}-omaha", "fesca60-stud"]),
    hands=st.text(max_size=30),
    classes=st.one_of(st.integers(-5, 0).map(str), st.text(max_size=6)),
)
def test_chart_class_options_fuzz_ends_in_one_line(
    capsys: pytest.CaptureFixture[str], game: str, hands: str, classes: str
) -> None:
    for args in (
        ["chart", "--game", game, "--hands", hands + ",no-such-hand", "--workers", "0"],
        ["chart", "--game", game, "--classes", classes + "x", "--workers", "0"],
        ["chart", "--game", game, "--classes", "1", "--hands", hands, "--workers", "0"],
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(decks=st.text(max_size=20), option=st.text(max_size=20))
def test_report_fuzz_ends_in_one_line(
    capsys: pytest.CaptureFixture[str], decks: str, option: str
) -> None:
    out = Path(tempfile.gettempdir()) / "cardlab-fuzz-report.html"
    for args in (
        ["report", "--decks", decks + ",nosuchdeck", "--out", str(out)],
        ["report", "--decks", "FESCA42", "--compare-options", option + "=", "--out", str(out)],
    ):
        with pytest.raises(SystemExit) as exc:
            main(args)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1


def _open_in_chromium(url: str, screenshot: Path) -> tuple[list[dict[str, Any]], str, int]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="cardlab-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.get(url)
        images = driver.execute_script(
            "return Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0)"
            ".length"
        )
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1400, min(int(height) + 100, 8000))
        driver.save_screenshot(str(screenshot))
        return driver.get_log("browser"), driver.title, int(images)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_report_opens_in_headless_chromium(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    out = run(capsys, "report", "--decks", f"{DECKS / 'ring25.toml'},standard52",
              "--compare-options", "mixwell=off", "--workers", "0", "--no-cache",
              "--tie-samples", "20000", "--omaha-samples", "20000",
              "--out", str(page))  # fmt: skip
    assert "wrote" in out
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text and "https://" not in text and "<script" not in text
    assert "ring25 (mixwell=off)" in text and "standard52" in text
    assert "2,598,960" in text  # the standard five-card hands, counted exactly
    # the README's test command installs the browser: missing it is a failure
    assert CHROMIUM.exists() and CHROMEDRIVER.exists(), "apt-get install chromium chromium-driver"
    shot = Path(__file__).resolve().parents[2] / "out" / "screenshots" / "report.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    logs, title, images = _open_in_chromium(page.as_uri(), shot)
    assert title == "cardlab designer's report"
    # the side-by-side plot and one per deck and variant whose hands change: mixwell=off
    # changes nothing on standard52 (no Mixwell suits), so its section has no plot; and
    # the push/fold shares across the decks
    assert images == 1 + 3 + 1
    assert "mixwell=off changes nothing on standard52" in text
    assert [e for e in logs if e.get("level") in ("SEVERE", "ERROR")] == []
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_json_matches_the_exact_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(capsys, "report", "--decks", "standard52", "--workers", "0", "--no-cache",
              "--tie-samples", "5000", "--omaha-samples", "5000", "--format", "json",
              "--out", str(tmp_path / "r.html"))  # fmt: skip
    data = json.loads(out)
    deck = data["decks"][0]
    # the classic tables: high card 1,302,540 of 2,598,960; best of seven 23,294,460
    assert Fraction(deck["no_hand"]["five"]) == Fraction(1_302_540, 2_598_960)
    assert Fraction(deck["no_hand"]["seven"]) == Fraction(23_294_460, 133_784_560)
    ranges = deck["rarity_ranges"]
    assert sum(Fraction(r["share"]) for r in ranges) == 1
    assert ranges[0]["hands"] == ["one_pair", "high_card"]
    splits = deck["ties"][0]
    assert splits["game"] == "standard52-holdem"
    # suits settle equal ranks, but not two players who both play the board's five
    assert 0 < splits["with_suits"] < splits["without_suits"]


def test_interrupt_is_one_line_and_exit_130() -> None:
    code = (
        "import sys\n"
        "from cardlab.cli import main\n"
        "import cardlab.analysis.chart as c\n"
        "def boom(*a, **k):\n    raise KeyboardInterrupt\n"
        "c.chart = boom\n"
        "main(['chart', '--workers', '0'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 130
    assert done.stderr.strip().splitlines()[-1] == "cardlab: interrupted"
