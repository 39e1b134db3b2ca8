"""The Hint button at every family's table in the browser: asked on one's own turn, the
odds and the ranked choices shown in the page's language inside a live region, on a phone
(390×844) and on a desktop (1280×800), without pushing the move's toolbar aside.
Screenshots go to ``test-artifacts/hint-<game>-<size>.png``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from test_web_play import ARTIFACTS, browser, create_table, random_move, server, sit  # noqa: F401

# A family each, a language each; the bot plays the other seat.
TABLES = [("mia", "sv", "lives"), ("liars_dice", "da", "chance"), ("poker_dice", "en", "chance"),
          ("knack", "sv", "chips"), ("linka", "da", "chips"), ("yatzy", "en", "points")]
ENGLISH_HEADING = "The advisor's choices, best first"
SOLVE = 120_000  # ms: a first hint may wait for a solve (Slosch's equilibrium) on a busy machine


def toolbar_top(page: Any) -> float:
    """Where the move's controls are: on the page, or on the screen when docked to it."""
    return page.evaluate("""() => {
        const controls = document.getElementById('controls');
        const docked = getComputedStyle(controls).position === 'fixed';
        return controls.getBoundingClientRect().top + (docked ? 0 : window.scrollY);
    }""")


def too_wide(page: Any) -> list[str]:
    """The elements wider than the screen."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => e.id || e.className || e.localName)""")


@pytest.mark.parametrize(("game", "lang", "unit"), TABLES)
def test_the_hint_shows_at_every_familys_table_on_a_phone_and_a_desktop(
        browser: Any, server: str, game: str, lang: str, unit: str) -> None:  # noqa: F811
    person = sit(browser, server, "Anna", lang=lang)
    page = person.page
    page.set_viewport_size({"width": 390, "height": 844})
    create_table(person, game, ["bot:random"], players=2)
    page.click("#start")
    rng = random.Random(game)
    for _ in range(12):  # until a position with something to advise (a claim to beat)
        person.wait("document.body.dataset.mine === 'yes' || "
                    "document.body.dataset.status === 'over'")
        if page.evaluate("document.body.dataset.status") == "over":
            # someone folded a pot game before a bet was weighed: another table
            create_table(person, game, ["bot:random"], players=2)
            page.click("#start")
            continue
        below = toolbar_top(page)
        wide = too_wide(page)
        assert page.get_attribute("#hint-result", "aria-live") == "polite"
        page.click("#hint-button")
        page.wait_for_function("document.body.dataset.hint === 'ready'", timeout=SOLVE)
        choices = page.locator("#hint-choices li").evaluate_all(
            "items => items.map(li => li.dataset.choice)")
        if choices or page.locator("#hint-facts li").count():
            break
        seq = int(page.evaluate("document.body.dataset.seq"))
        random_move(person, rng)
        person.wait("seq => +document.body.dataset.seq > seq", seq)
    else:
        raise AssertionError("the hint showed nothing")
    assert page.evaluate("document.body.dataset.hintUnit") == unit
    status = page.inner_text("#hint-status")
    assert status and page.locator("#hint-result #hint-status").count() == 1
    if lang != "en":
        assert ENGLISH_HEADING not in status  # translated
    frame = [f for f in person.frames if f.get("type") == "state"][-1]
    assert set(choices) <= set(frame["legal"]) and len(choices) <= 6
    # The hint sits below the move: the toolbar stays where it was, and nothing is wider
    # than the phone.
    assert toolbar_top(page) == below
    assert too_wide(page) == wide, "the hint is wider than the phone"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#hint").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"hint-{game}-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#hint").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"hint-{game}-1280x800.png"))
    assert not person.errors
