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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
DESKTOP = (1280, 800)
PHONE = (390, 844)
WAIT = 60.0  # seconds for the page to settle (the first equity sample compiles kernels)

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError as exc:  # pragma: no cover - the test extra has selenium
    message = f"the browser tests need selenium (pip install -e '.[test]'): {exc}"
    raise pytest.UsageError(message) from exc


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    yield f"http://127.0.0.1:{port}"
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


class Page:
    """The browser at one address and viewport, with the few helpers the tests share."""

    def __init__(self, driver: WebDriver, base_url: str) -> None:
        self.driver = driver
        self.base_url = base_url

    def open(self, path: str, size: tuple[int, int] = DESKTOP) -> Page:
        self.resize(size)
        self.driver.get(self.base_url + path)
        self.wait_idle()
        return self

    def resize(self, size: tuple[int, int]) -> None:
        # the viewport, not the window: set it through the DevTools protocol
        width, height = size
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def wait(self, condition: Callable[[], Any], timeout: float = WAIT, what: str = "") -> Any:
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
            lambda _: condition(), message=what or "the page did not settle"
        )

    def wait_idle(self) -> None:
        """Until the page's requests are answered and drawn (cardlab.js counts them)."""
        self.wait(
            lambda: self.js(
                "return document.readyState === 'complete' && window.cardlabBusy === 0"
            ),
            what="requests still running",
        )

    def text(self, element_id: str) -> str:
        return str(self.js("return document.getElementById(arguments[0]).innerText", element_id))

    def toast(self) -> str:
        return str(
            self.js(
                "const t = document.getElementById('toast'); return t.hidden ? '' : t.innerText"
            )
        )

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        width = self.js("return window.innerWidth")
        path = SCREENSHOTS / f"{name}-{'phone' if width < 600 else 'desktop'}.png"
        # the whole page, not only the viewport
        height = self.js("return document.documentElement.scrollHeight")
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": width,
                "height": min(height, 6000),
                "deviceScaleFactor": 1,
                "mobile": width < 600,
            },
        )
        self.driver.save_screenshot(str(path))
        self.resize((width, PHONE[1] if width < 600 else DESKTOP[1]))
        return path


@pytest.fixture
def page(driver: WebDriver, base_url: str) -> Page:
    return Page(driver, base_url)
