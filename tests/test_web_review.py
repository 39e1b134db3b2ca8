"""The review page in the browser: a finished game reviewed in Swedish, Danish and English,
on a phone (390×844) and a desktop (1280×800), and "try again from here" on its costliest
decision, by mouse and by keyboard. Yatzy and a bluffing game (heads-up liar's dice). Screenshots
go to ``test-artifacts/``."""

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
TRY = {"sv": "Försök igen härifrån", "da": "Prøv igen herfra", "en": "Try again from here"}
BEST = {"sv": "Det bästa valet", "da": "Det bedste valg", "en": "The best choice"}
# English words of the dialog that must not be left in a Swedish or Danish page
ENGLISH = ["Try again", "Your choice", "best choice", "Close", "Choose again", "In the game",
           "view before", "three-kind", "small-straight", "full-house", "bid ", "score ",
           "keep "]


def play_over_http(server: str, body: dict[str, Any], seed: int) -> str:
    """A table of a random player against the given bots, played over HTTP to the end."""
    rng = random.Random(seed)
    with httpx.Client(base_url=server, timeout=30) as client:
        client.post("/api/account/guest", json={"nickname": "Alva"}).raise_for_status()
        table = client.post("/api/tables", json=body).json()
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


def finished_yatzy(server: str) -> str:
    """A Tärningspoker game of a random player against the greedy bot."""
    return play_over_http(server, {"game": "yatzy", "preset": "tarningspoker", "players": 2,
                                   "seats": [None, "bot:greedy"]}, 5)


def finished_liars(server: str) -> str:
    """Heads-up liar's dice, a die each, against the equilibrium bot, with a costly choice."""
    for seed in range(12):
        table = play_over_http(server, {"game": "liars_dice", "preset": "lognare",
                                        "players": 2, "rules": {"dice": 1},
                                        "seats": [None, "bot:strong"]}, seed)
        review = httpx.get(f"{server}/api/tables/{table}/review", timeout=30).json()
        if any(s["costliest"] for s in review["summaries"]):
            return table
    raise AssertionError("no costly choice in 12 games")


@pytest.fixture(scope="module")
def reviewed(server: str) -> dict[str, str]:
    return {"yatzy": finished_yatzy(server), "liars_dice": finished_liars(server)}


def choose(page: Any, action: str) -> None:
    """Make ``action`` with the game's own controls in the try-again dialog."""
    dialog = page.locator("#try")
    button = dialog.locator(f'button[data-action="{action}"]')
    if button.count():
        button.first.click()
        return
    verb = action.split(" ")[0]
    if verb == "bid" and dialog.locator("#bid-picker #quantity").count():
        # liar's dice: the stepper to the quantity, the face, then the bid button
        quantity, face = (int(n) for n in action.split(" ")[1].split("x"))
        for _ in range(60):
            shown = int(dialog.locator("#quantity").inner_text())
            if shown == quantity:
                break
            dialog.locator("#more" if shown < quantity else "#fewer").click()
        dialog.locator(f"#face-{face}").click()
        assert dialog.locator("#send-bid").get_attribute("data-action") == action
        dialog.locator("#send-bid").click()
        return
    select = dialog.locator(f"select#choose-{verb}")
    if select.count():
        select.select_option(action)
        dialog.locator(f'button[data-verb="{verb}"]').click()
        return
    assert verb == "keep", action  # Yatzy: click the dice to keep, then roll
    faces = [int(f) for f in action.split()[1:]]
    dice = dialog.locator("button.die-button")  # the dice are in the toolbar
    taken: set[int] = set()
    for face in faces:
        for i in range(dice.count()):
            if i not in taken and int(dice.nth(i).locator(".die").get_attribute(
                    "data-face") or 0) == face:
                taken.add(i)
                dice.nth(i).click()
                break
    assert len(taken) == len(faces), (action, dice.count())  # every die to keep was found
    dialog.locator("#roll").click()


def inside(page: Any, selector: str, width: int, height: int) -> None:
    """Every element ``selector`` finds lies within the viewport (a phone's screen)."""
    for box in page.locator(selector).evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().toJSON())"):
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (selector, box)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
@pytest.mark.parametrize("lang", ["sv", "da", "en"])
@pytest.mark.parametrize("game", ["yatzy", "liars_dice"])
def test_the_review_page_and_trying_again_from_the_costliest_decision(
        browser: Any, server: str, reviewed: dict[str, str], game: str, lang: str,
        size: tuple[int, int]) -> None:
    table = reviewed[game]
    width, height = size
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/review/{table}?lang={lang}")
    # a review may wait for a solve on a busy machine
    page.wait_for_function("document.body.dataset.review === 'ready'", timeout=4 * TIMEOUT)
    data = page.evaluate(f"fetch('/api/tables/{table}/review').then(r => r.json())")
    assert page.inner_text("h1").startswith(HEADINGS[lang])
    summary = page.inner_text("#summaries")
    assert LOST[lang] in summary and "Alva" in summary
    # one line per graded decision and per roll, each seat's loss drawn as a line
    assert page.locator("#moments li").count() == len(data["moments"])
    assert page.locator("#chart svg path").count() == 2
    assert page.locator("#moments li .cost").count() == sum(
        1 for m in data["moments"] if m["kind"] == "decision" and (m["cost"] or 0) > 1e-6)
    # the costliest decision is drawn on the game's own board, cups lifted
    costliest = max((m for s in data["summaries"] for m in s["costliest"]),
                    key=lambda m: m["cost"])
    assert page.get_attribute("#moments li.current", "data-index") == str(costliest["index"])
    assert page.locator("#board .die, #board table").count() > 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{game}-{lang}-{width}.png"), full_page=True)

    # try again from the costliest decision: by keyboard on the desktop, by mouse on a phone
    opener = page.locator("#try-open")
    assert opener.inner_text() == TRY[lang]
    if width > 1000:
        opener.focus()
        page.keyboard.press("Enter")
    else:
        opener.click()
    page.wait_for_function("document.body.dataset.trying === 'choosing'")
    dialog = page.locator("#try")
    assert dialog.is_visible()
    # the first of the game's controls has the keyboard; nothing tells the answer yet
    assert page.evaluate("document.getElementById('try').contains(document.activeElement)")
    assert page.inner_text("#try-result") == ""
    assert data["seats"][costliest["seat"]] in page.inner_text("#try-who") or \
        data["seats"][costliest["seat"]].startswith("bot:")
    inside(page, "#try .try-buttons button:visible, #try-controls button:visible", width,
           height)
    choose(page, costliest["made"])  # the same choice again: the same cost
    page.wait_for_function("document.body.dataset.trying === 'answered'")
    assert page.locator("#try-result .cost").count() == 1
    shown = page.inner_text("#try-result")
    assert data["said"][costliest["best"]] in shown  # the best choice, in the page's words
    page.screenshot(path=str(ARTIFACTS / f"review-try-{game}-{lang}-{width}.png"))
    page.click("#try-again")
    page.wait_for_function("document.body.dataset.trying === 'choosing'")
    choose(page, costliest["best"])
    page.wait_for_function("document.body.dataset.trying === 'answered'")
    assert BEST[lang] in page.inner_text("#try-result .ok")
    text = page.inner_text("#try")
    if lang != "en":
        assert not [word for word in ENGLISH if word in text], text
        assert data["said"][costliest["best"]] != costliest["best"]  # worded, not notation
    inside(page, "#try .try-buttons button:visible", width, height)
    page.screenshot(path=str(ARTIFACTS / f"review-best-{game}-{lang}-{width}.png"))
    page.keyboard.press("Escape")  # closes the dialog, the keyboard back on its button
    page.wait_for_function("!document.getElementById('try').open")
    assert page.evaluate("document.activeElement.id") == "try-open"
    # nothing is wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not errors
    context.close()
