"""The lobby's seat menus in Debian's Chromium, on a phone and a screen in each language:
every bot is offered by its label in the page's language (a budget by its value), the menu's
value stays the bot's name that the table is made with, the table's page names the bot as
the menu did, and both stay on a phone's screen. Screenshots go to
``test-artifacts/lobby-bots-*.png``."""

from __future__ import annotations

from typing import Any

import pytest

from kastkopp.strategy import bot_names
from test_web_around import PHONE, SCREEN, no_sideways_scroll, seated
from test_web_play import ARTIFACTS, browser, server

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

LABELS = {  # what the menu says for liar's dice's bots, as the catalogs have it
    "en": {"bot:random": "Random", "bot:strong": "Strong",
           "bot:ismcts:sims=200": "Searching (IS-MCTS), 200 simulations a move",
           "bot:ismcts:ms=250": "Searching (IS-MCTS), at most 250 ms a move"},
    "sv": {"bot:random": "Slumpvis", "bot:strong": "Stark",
           "bot:ismcts:sims=200": "Sökande (IS-MCTS), 200 simuleringar per drag",
           "bot:ismcts:ms=250": "Sökande (IS-MCTS), högst 250 ms per drag"},
    "da": {"bot:random": "Tilfældig", "bot:strong": "Stærk",
           "bot:ismcts:sims=200": "Søgende (IS-MCTS), 200 simuleringer pr. træk",
           "bot:ismcts:ms=250": "Søgende (IS-MCTS), højst 250 ms pr. træk"},
}


@pytest.mark.skipif("ismcts" not in bot_names("liars_dice"),
                    reason="bot:ismcts needs the openspiel extra")
@pytest.mark.parametrize(("lang", "size"), [("sv", PHONE), ("da", PHONE), ("en", PHONE),
                                            ("sv", SCREEN), ("da", SCREEN), ("en", SCREEN)])
def test_the_seat_menus_name_each_bot_in_the_players_language(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    person = seated(browser, server, "Anna", lang, size)
    page = person.page
    page.goto("/lobby?game=liars_dice")
    offered = dict(page.eval_on_selector_all(
        "#seat-1 optgroup option", "options => options.map(o => [o.value, o.textContent])"))
    assert {value: offered.get(value) for value in LABELS[lang]} == LABELS[lang]
    # no bot is left showing its name
    assert not [text for text in offered.values() if text.startswith("bot:")]
    page.select_option("#seat-1", "bot:ismcts:sims=200")
    no_sideways_scroll(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lobby-bots-{lang}-{size[0]}.png"))
    page.select_option("#pace", "0")
    page.click("#create-button")
    page.wait_for_url("**/play/*")
    table = page.url.rsplit("/", 1)[1]
    seats = page.request.get(f"/api/tables/{table}").json()["seats"]
    assert seats[1]["bot"] == "ismcts:sims=200"
    # the table names the bot as the menu did
    seat = page.locator("#seating li").nth(1)
    seat.wait_for()
    assert LABELS[lang]["bot:ismcts:sims=200"] in seat.inner_text()
    assert "ismcts:sims=200" not in page.locator("#main").inner_text()
    no_sideways_scroll(page)
    page.screenshot(path=str(ARTIFACTS / f"lobby-bots-table-{lang}-{size[0]}.png"),
                    full_page=True)
    assert person.errors == []
