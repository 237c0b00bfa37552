"""The seat requests in two headless Chromiums: the host creates a table that approves
seats from the lobby's form, a guest asks for a seat and waits, the host approves it on
the page and the guest's page becomes the seat's; a refused guest's page says so.

Reuses the fixtures and helpers of test_web_tables_browser.py (Debian's chromium and
chromium-driver, selenium, uvicorn).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

pytest.importorskip("selenium")
pytest.importorskip("uvicorn")

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from test_web_tables_browser import _browser, base_url, text, visible, wait

pytestmark = pytest.mark.slow
__all__ = ["base_url"]  # the server fixture, used by name


@pytest.fixture(scope="module")
def two() -> Iterator[list[WebDriver]]:
    made = [_browser() for _ in range(2)]
    try:
        yield [d for d, _ in made]
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def _join(driver: WebDriver, name: str) -> None:
    wait(driver, lambda: visible(driver, "pt-join-form"), "the join form")
    field = driver.find_element(By.ID, "pt-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "pt-join-btn").click()


def test_the_host_approves_a_guest_on_the_page(base_url: str, two: list[WebDriver]) -> None:
    host, guest = two
    host.get(base_url + "/tables")
    wait(host, lambda: visible(host, "t-approve"), "the lobby's form")
    host.execute_script(
        "document.getElementById('t-seats').value = 3;"
        "document.getElementById('t-seats').dispatchEvent(new Event('input'));"
        "document.getElementById('t-approve').checked = true;"
        "document.getElementById('t-new-players').value = 'post';"
        "document.querySelectorAll('#t-bot-seats select').forEach(s => { s.value = ''; });"
    )
    host.find_element(By.ID, "t-create").click()
    wait(host, lambda: "/tables/" in host.current_url, "the new table's page")
    url = host.current_url
    _join(host, "hostess")  # the host sits down at once
    wait(host, lambda: "you are hostess" in text(host, "#pt-status"), "the host seated")
    assert host.execute_script("return document.getElementById('pt-new-players').value") == "post"
    # a guest asks, and waits
    guest.get(url)
    _join(guest, "guest")
    wait(guest, lambda: visible(guest, "pt-pending"), "the guest's waiting note")
    assert "approve" in text(guest, "#pt-pending-text")
    wait(host, lambda: "guest" in text(host, "#pt-requests"), "the host sees the request")
    host.execute_script("document.querySelector('#pt-requests button.primary').click()")
    wait(guest, lambda: "you are guest" in text(guest, "#pt-status"), "the guest seated")
    assert not visible(guest, "pt-pending")
    wait(host, lambda: not visible(host, "pt-requests-box"), "the request answered")
    assert "the host seated guest" in text(host, "#pt-notices")
    # the guest leaves and asks again: refused this time, and the page says so
    guest.execute_script("window.confirm = () => true; document.getElementById('pt-leave').click()")
    _join(guest, "guest two")
    wait(host, lambda: "guest two" in text(host, "#pt-requests"), "the second request")
    host.execute_script("document.querySelectorAll('#pt-requests button')[1].click()")
    wait(guest, lambda: "refused" in text(guest, "#pt-error"), "the guest told of the refusal")
    assert visible(guest, "pt-join-form") and not visible(guest, "pt-pending")
