"""In the browser, an illegal move is explained in the page's language.

The page only offers legal moves, so the test plays the part of a garbled connection: it
sits between the page and the server (Playwright's WebSocket routing) and turns the page's
next move into one the rules refuse. The refusal must reach the page in Swedish.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from test_web_play import browser, create_table, screenshot, server, sit  # noqa: F401

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

SWEDISH_REFUSAL = "det finns bara 5 tärningar att spara"


def test_an_illegal_move_on_the_swedish_table_page_is_explained_in_swedish(
        browser: Any, server: str) -> None:  # noqa: F811
    anna = sit(browser, server, "Anna", lang="sv-SE")
    sent: list[dict[str, Any]] = []
    garble = {"next": False}

    def route(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def outgoing(message: str | bytes) -> None:
            data = json.loads(message)
            if garble["next"] and "action" in data:
                garble["next"] = False
                data["action"] = "keep 6 6 6 6 6 6"  # six dice kept from five
            sent.append(data)
            to_server.send(json.dumps(data))

        ws.on_message(outgoing)

    anna.page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws"), route)
    create_table(anna, "yatzy", [], players=1)
    page = anna.page
    assert page.locator("html").get_attribute("lang") == "sv"
    page.click("#start")
    anna.wait("document.body.dataset.mine === 'yes'")
    seq = int(page.evaluate("document.body.dataset.seq"))
    garble["next"] = True
    page.click("#roll")
    page.wait_for_function("text => document.getElementById('error').textContent === text",
                           arg=SWEDISH_REFUSAL)
    assert sent[-1]["action"] == "keep 6 6 6 6 6 6"
    assert int(page.evaluate("document.body.dataset.seq")) == seq  # nothing changed
    screenshot(anna, "yatzy-refusal-sv")
    page.click("#roll")  # the same move, ungarbled, is made
    anna.wait("seq => +document.body.dataset.seq > seq", seq)
    assert page.locator("#error").inner_text() == ""
    assert not anna.errors
