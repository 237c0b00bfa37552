"""A real headless Chromium (Debian's ``chromium`` + ``chromium-driver``) driven by selenium
against the app served by uvicorn on a free loopback port.

One server and one browser per test session (per xdist worker). A missing browser is a
failure, not a skip: the README's test command installs it. Screenshots go to
``out/screenshots/`` (gitignored), kept as test artefacts.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.remote.webdriver import WebDriver
except ImportError as exc:  # pragma: no cover - the test extra has selenium
    message = f"the browser tests need selenium (pip install -e '.[test]'): {exc}"
    raise pytest.UsageError(message) from exc

from _browser import CHROMEDRIVER, CHROMIUM, DESKTOP, Page


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _warm(url: str) -> None:
    """Deal once in each game the tests open, so the compiled kernels are built (on a
    fresh machine, up to a minute or more) before any page waits on them."""
    import json
    import urllib.request

    for game in ("fesca78-holdem", "standard52-holdem", "fesca60-omaha"):
        for opponents in (1, 2):
            body = json.dumps({"game": game, "opponents": opponents, "seed": 1}).encode()
            request = urllib.request.Request(
                f"{url}/api/showdown/deals",
                data=body,
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=900) as answer:
                deal = json.load(answer)
            for _ in range(3):
                step = urllib.request.Request(
                    f"{url}/api/showdown/deals/{deal['id']}/next", data=b"{}", method="POST"
                )
                step.add_header("Content-Type", "application/json")
                with urllib.request.urlopen(step, timeout=900) as answer:
                    answer.read()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """The app served by uvicorn in a thread on 127.0.0.1 (few equity samples: fast)."""
    import uvicorn

    from cardlab.web import create_app

    port = _free_port()
    config = uvicorn.Config(
        create_app(max_games=200, equity_samples=2000),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    _warm(url)
    yield url
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def driver() -> Iterator[WebDriver]:
    """One headless Chromium for the session; fails when the browser is not installed."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            pytest.fail(
                f"{path} is missing: the browser tests need Debian's chromium and "
                "chromium-driver (apt-get install -y chromium chromium-driver)"
            )
    profile = tempfile.mkdtemp(prefix="cardlab-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
        "--lang=en-US",
    ):
        options.add_argument(arg)
    browser = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(driver: WebDriver, base_url: str) -> Page:
    return Page(driver, base_url)
