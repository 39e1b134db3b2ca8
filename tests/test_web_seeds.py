"""The table page adds the player's seed to the dice by itself, after showing the server's
commitment, and shows every seed and, at the end, the revealed seed with its check.
Headless Chromium as in ``test_web_play``."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from kastkopp.engine import check_log
from test_web_play import (
    ARTIFACTS,
    browser,
    create_table,
    play_out,
    random_move,
    server,
    sit,
)

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests


def summary(server: str, table: str) -> dict[str, Any]:
    return dict(httpx.get(f"{server}/api/tables/{table}").json())


def test_the_browser_contributes_a_seed_by_itself(browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    ben = sit(browser, server, "Ben", lang="sv")
    table = create_table(anna, "mia", [""], players=2)
    page = anna.page
    # Anna's page adds a seed of its own making, once it shows the commitment
    page.wait_for_selector("#contributions li[data-seat='0'] code.contribution")
    mine = page.text_content("#contributions li[data-seat='0'] code")
    assert mine is not None and re.fullmatch(r"[0-9a-f]{32}", mine)
    shown = summary(server, table)
    assert page.text_content("#commitment") == shown["seed_sha256"]
    assert shown["contributions"][0]["seed"] == mine
    # Ben opens the invitation, in Swedish: his seed comes with his joining
    ben.page.goto(f"/play/{table}")
    ben.page.click("#join")
    ben.page.wait_for_selector("#contributions li[data-seat='1'] code.contribution")
    assert ben.page.text_content("label[for='seed-input']") == "Ditt frö"
    joined = summary(server, table)
    assert [c["seat"] for c in joined["contributions"]] == [0, 1]
    assert joined["contributions"][1]["seed"] != mine
    # he types a seed of his own instead; a bad one is refused and changes nothing
    ben.page.fill("#seed-input", "med mellanslag")
    ben.page.click("#seed-send")
    ben.page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "1 till 64" in ben.page.text_content("#error")
    assert summary(server, table)["contributions"] == joined["contributions"]
    ben.page.fill("#seed-input", "bens-eget-fro")
    ben.page.click("#seed-send")
    page.wait_for_selector("#contributions li[data-seat='1'] code:has-text('bens-eget-fro')")
    page.click("#start")
    anna.wait("document.body.dataset.status === 'playing'")
    rng = random.Random(3)
    play_out([anna, ben], lambda person: random_move(person, rng))
    for person in (anna, ben):
        person.page.wait_for_selector("#seed-check.ok")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-seeds.png"), full_page=True)
    log = httpx.get(f"{server}/api/tables/{table}/log").json()
    result = check_log(log)
    assert result.verified
    assert [c.seed for c in result.contributions] == [mine, "bens-eget-fro"]
    assert not anna.errors and not ben.errors
