"""The review page in the browser: a finished Yatzy game reviewed in Swedish, Danish and
English, on a phone (390×844) and a desktop (1280×800). Screenshots go to
``test-artifacts/``."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from test_web_play import ARTIFACTS, TIMEOUT, browser, server

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

HEADINGS = {"sv": "Granskning", "da": "Gennemgang", "en": "Review"}
LOST = {"sv": "Förlorat", "da": "Tabt", "en": "Lost"}


def finished_yatzy(server: str) -> str:
    """A Tärningspoker game of a random player against the greedy bot, played over HTTP."""
    rng = random.Random(5)
    with httpx.Client(base_url=server, timeout=30) as client:
        client.post("/api/account/guest", json={"nickname": "Alva"}).raise_for_status()
        table = client.post("/api/tables", json={
            "game": "yatzy", "preset": "tarningspoker", "players": 2,
            "seats": [None, "bot:greedy"]}).json()
        url = f"/api/tables/{table['id']}"
        client.post(f"{url}/start", json={"seed": "a1"}).raise_for_status()
        early = client.get(f"{url}/review")
        assert early.status_code == 400
        for _ in range(2000):
            frame = client.get(f"{url}/state").json()
            if frame["status"] == "over":
                return str(table["id"])
            if frame["legal"] and frame["to_move"] == frame["seat"]:
                client.post(f"{url}/action", json={"action": rng.choice(frame["legal"]),
                                                   "seq": frame["seq"]})
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def reviewed(server: str) -> str:
    return finished_yatzy(server)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
@pytest.mark.parametrize("lang", ["sv", "da", "en"])
def test_the_review_page_shows_every_decision_its_cost_and_the_running_loss(
        browser: Any, server: str, reviewed: str, lang: str, size: tuple[int, int]) -> None:
    width, height = size
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/review/{reviewed}?lang={lang}")
    page.wait_for_function("document.body.dataset.review === 'ready'")
    data = page.evaluate(f"fetch('/api/tables/{reviewed}/review').then(r => r.json())")
    assert page.inner_text("h1").startswith(HEADINGS[lang])
    summary = page.inner_text("#summaries")
    assert LOST[lang] in summary and "Alva" in summary
    # one line per graded decision and per roll, each seat's loss drawn as a line
    assert page.locator("#moments li").count() == len(data["moments"])
    assert page.locator("#chart svg path").count() == 2
    assert page.locator("#moments li .cost").count() == sum(
        1 for m in data["moments"] if m["kind"] == "decision" and m["cost"] > 1e-6)
    # the costliest decision is drawn on the game's own board, cups lifted
    assert page.locator("#board .die, #board table").count() > 0
    assert page.locator("#moments li.current").count() == 1
    page.locator("#moments li.decision").first.click()
    first = data["moments"][1]["index"]
    assert page.get_attribute("#moments li.current", "data-index") == str(first)
    # nothing is wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{lang}-{width}.png"), full_page=True)
    assert not errors
    context.close()
