"""What the browser tests share: the browser's paths, the two screen sizes, and
:class:`Page`, the browser at one address with a few helpers (imported by the tests as
``_browser``; the fixtures are in ``conftest.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
DESKTOP = (1280, 800)
PHONE = (390, 844)
WAIT = 60.0  # seconds for the page to settle (the first equity sample compiles kernels)


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
