"""Open a page in a real headless Chromium (selenium + Debian's chromium-driver)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def browser_available() -> bool:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return CHROMIUM.exists() and CHROMEDRIVER.exists()


def open_page(url: str, screenshot: Path) -> tuple[list[dict[str, Any]], str, int]:
    """Load ``url``; return the console messages, the page title and the number of
    images that loaded, and save a screenshot of the whole page."""
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
        loaded = driver.execute_script(
            "return Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0)"
            ".length"
        )
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1400, min(int(height) + 100, 6000))
        driver.save_screenshot(str(screenshot))
        return driver.get_log("browser"), driver.title, int(loaded)
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
