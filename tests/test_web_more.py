"""The browser, further: score sheets kept in the account, chat at the table, the advisor's
hint, replays drawn as the table is drawn, the invite link. Headless Chromium as in
``test_web_play``; screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_web_play import (
    ARTIFACTS,
    SEED_CELLS,
    TIMEOUT,
    Person,
    add_entry,
    browser,
    create_table,
    free_port,
    new_liars_sheet,
    play_out,
    random_move,
    sit,
    standings,
    start_server,
)

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

__all__ = ["browser"]  # the fixture, shared with the other browser tests


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, solved_tarningspoker: Path
           ) -> Iterator[str]:
    """A server of this module's own, whose advisor has nothing in memory yet: only
    Tärningspoker's solved table in its cache (solved once for the whole run; the server's
    own solve of a fresh rule set is tests/server/test_no_guest_can_stall.py's)."""
    folder = tmp_path_factory.mktemp("web-more")
    (folder / "cache").mkdir()
    shutil.copy(solved_tarningspoker, folder / "cache" / solved_tarningspoker.name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KASTKOPP_CACHE", str(folder / "cache"))
        port = free_port()
        process = start_server(folder / "kastkopp.db", port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)

FINAL = ["1. Anna · 4", "2. Cara · 0", "3. Ben · 0"]
SOLVE = 120_000  # ms: a table read in a worker (and numba's first compile) on a busy machine


def account_page(browser: Any, server: str, name: str, password: str,
                 register: bool) -> Any:
    """A browser context logged in to an account (registered on first use)."""
    context = browser.new_context(base_url=server, locale="en")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    path = "/api/account/register" if register else "/api/account/login"
    response = page.request.post(path, data={"name": name, "password": password})
    assert response.ok, response.text()
    return page


def server_sheets(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("fetch('/api/sheets').then(r => r.json())"))


def test_the_score_keeper_keeps_sheets_in_the_account_and_syncs_after_working_offline(
        browser: Any, server: str) -> None:
    page = account_page(browser, server, "keeper", "correct horse", register=True)
    new_liars_sheet(page)
    for cells in SEED_CELLS[:10]:
        add_entry(page, cells)
    page.wait_for_function("document.getElementById('keeper-status').textContent"
                           " === 'Saved in your account'")
    saved = server_sheets(page)
    assert [s["entries"] for s in saved] == [10]

    # The network goes; the rest of the game is written down anyway, the tab is closed.
    page.context.set_offline(True)
    for cells in SEED_CELLS[10:]:
        add_entry(page, cells)
    assert page.evaluate("document.body.dataset.online") == "no"
    page.close()
    page = page.context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto("/keep")
    page.wait_for_function("document.body.dataset.entries === '13'")
    assert standings(page) == FINAL
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.getElementById('keeper-status').textContent"
                           " === 'Saved in your account'")
    saved = server_sheets(page)
    assert [(s["entries"], s["winner"], s["finished"]) for s in saved] == [(13, "Anna", True)]

    # Another device of the same account finds the sheet and the players.
    other = account_page(browser, server, "keeper", "correct horse", register=False)
    other.goto("/keep")
    other.wait_for_selector(f"#sheet-list li[data-sheet='{saved[0]['id']}']")
    other.click(f"#sheet-list li[data-sheet='{saved[0]['id']}'] .open-sheet")
    other.wait_for_function("document.body.dataset.entries === '13'")
    assert standings(other) == FINAL
    assert other.locator("#known-players option").count() == 3
    # Both devices change it, one of them offline: when it is back, neither change is lost.
    other.context.set_offline(True)
    other.click("#undo")
    other.wait_for_function("document.body.dataset.entries === '12'")
    for count in ("12", "11"):
        page.click("#undo")
        page.wait_for_function("n => document.body.dataset.entries === n", arg=count)
    page.wait_for_function("document.getElementById('keeper-status').textContent"
                           " === 'Saved in your account'")
    other.context.set_offline(False)
    other.evaluate("window.dispatchEvent(new Event('online'))")
    other.wait_for_function("document.body.dataset.sheets === '2'")
    other.wait_for_function("document.getElementById('keeper-status').textContent"
                            " === 'Saved in your account'")
    kept = {s["id"]: s["entries"] for s in server_sheets(other)}
    assert kept[saved[0]["id"]] == 11 and sorted(kept.values()) == [11, 12]
    assert other.evaluate("document.body.dataset.entries") == "12"  # its own copy, open
    ARTIFACTS.mkdir(exist_ok=True)
    other.screenshot(path=str(ARTIFACTS / "keeper-account.png"), full_page=True)
    # Deleting them there deletes them in the account.
    for _ in kept:
        other.click("#sheet-list li >> nth=0 >> .delete-sheet")
    other.wait_for_function("document.body.dataset.sheets === '0'")
    other.wait_for_function("fetch('/api/sheets').then(r => r.json()).then(l => !l.length)")
    # and, at its next look, on the first device too.
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.body.dataset.sheets === '0'")
    assert page.locator("#sheet").is_hidden()
    # Another account in the same browser neither takes nor deletes the first one's sheets.
    page.select_option("#sheet-game", "liars_dice")
    page.fill("#sheet-players", "Dag, Eva")
    page.click("#new-sheet-button")
    page.wait_for_selector("#sheet-table:visible")
    add_entry(page, "loss Eva")
    page.wait_for_function("document.getElementById('keeper-status').textContent"
                           " === 'Saved in your account'")
    assert page.request.post("/api/account/register",
                             data={"name": "other", "password": "battery staple"}).ok
    page.reload()
    page.wait_for_function("document.body.dataset.synced !== undefined")
    assert page.evaluate("document.body.dataset.sheets") == "1"
    assert server_sheets(page) == []
    assert page.inner_text("#keeper-status") == "Saved in this browser"
    page.context.close()
    other.context.close()


def chat(person: Person, text: str) -> None:
    count = int(person.page.evaluate("document.body.dataset.chat || '0'"))
    person.page.fill("#chat-text", text)
    person.page.click("#chat-send")
    person.wait("n => +(document.body.dataset.chat || 0) > n", count)


def test_two_people_chat_at_the_table_and_a_message_stays_text(browser: Any,
                                                               server: str) -> None:
    anna = sit(browser, server, "Anna")
    ben = sit(browser, server, "Ben")
    create_table(anna, "mia", [""], players=2)
    # Ben opens the invitation shown on Anna's page, and sits down.
    ben.page.goto(anna.page.locator("#invite").inner_text())
    ben.page.click("#join")
    anna.page.wait_for_selector(f"#seating li:has-text('{ben.name}')")
    trap = '<img src=x onerror="window.trapped=1">hej Ben'
    chat(anna, trap)
    ben.wait("document.body.dataset.chat === '1'")
    line = ben.page.locator("#chat-log li").last
    assert line.locator(".text").inner_text() == trap  # drawn as text, never as markup
    assert line.locator(".author").inner_text().startswith("Anna~")
    assert ben.page.locator("#chat-log img").count() == 0
    assert ben.page.evaluate("window.trapped") is None
    chat(ben, "hej Anna, lycka till")
    anna.wait("document.body.dataset.chat === '2'")
    assert anna.page.locator("#chat-log li .text").all_inner_texts() == \
        [trap, "hej Anna, lycka till"]
    # Too long is refused with the reason and nothing is sent.
    anna.page.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    anna.page.fill("#chat-text", "x" * 300)
    anna.page.click("#chat-send")
    anna.page.wait_for_function("document.getElementById('chat-error').textContent !== ''")
    assert "at most 280 characters" in anna.page.inner_text("#chat-error")
    # The chat is kept: a reload (or a spectator arriving) shows it again.
    ben.page.reload()
    ben.wait("document.body.dataset.chat === '2'")
    anna.page.click("#start")
    anna.wait("document.body.dataset.status === 'playing'")
    chat(anna, "nu kör vi")
    ben.wait("document.body.dataset.chat === '3'")
    ARTIFACTS.mkdir(exist_ok=True)
    ben.page.screenshot(path=str(ARTIFACTS / "chat-table.png"), full_page=True)
    assert not anna.errors and not ben.errors


def yatzy_table(person: Person, hints: bool) -> None:
    create_table(person, "yatzy", [], players=1, preset="tarningspoker",
                 form={} if hints else {"hints": "off"})
    person.page.click("#start")
    person.wait("document.body.dataset.mine === 'yes'")


def test_the_advisor_hints_on_your_own_turn_and_a_table_can_go_without(
        browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    yatzy_table(anna, hints=True)
    page = anna.page
    page.click("#hint-button")
    # the first hint waits for Tärningspoker's table, read from the cache by a worker
    page.wait_for_function("document.body.dataset.hint === 'ready'", timeout=SOLVE)
    seen = [f for f in anna.frames if f.get("type") == "state"][-1]
    choices = page.locator("#hint-choices li").evaluate_all(
        "items => items.map(li => li.dataset.choice)")
    assert 1 <= len(choices) <= 6 and set(choices) <= set(seen["legal"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "yatzy-hint.png"), full_page=True)
    # A move makes the hint stale: it goes, and the next one is for the new position.
    seq = int(page.evaluate("document.body.dataset.seq"))
    page.click("#sheet button[data-action='score chance']")
    anna.wait("seq => +document.body.dataset.seq > seq && "
              "document.body.dataset.mine === 'yes'", seq)
    assert page.locator("#hint-choices li").count() == 0
    page.click("#hint-button")
    anna.wait("document.body.dataset.hint === 'ready'")
    assert "score chance" not in page.locator("#hint-choices").inner_text()
    yatzy_table(anna, hints=False)
    assert page.locator("#hint-button").count() == 0
    assert not anna.errors


def board_faces(page: Any, seat: int) -> list[int]:
    return sorted(int(f) for f in page.eval_on_selector_all(
        f"#board [data-seat='{seat}'] .cup .die", "ds => ds.map(d => d.dataset.face)"))


def test_a_replay_is_drawn_as_the_table_with_every_cup_and_the_browser_checks_the_dice(
        browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    table = create_table(anna, "liars_dice", ["bot:random"], players=2, rules={"dice": "2"})
    anna.page.click("#start")
    rng = random.Random(8)
    play_out([anna], lambda person: random_move(person, rng))
    page = anna.page
    page.goto(f"/replay/{table}")
    page.wait_for_function("document.body.dataset.verified === 'yes'")
    assert page.inner_text("#verify").startswith("✓ Every roll (")
    log = page.evaluate(f"fetch('/api/tables/{table}/log').then(r => r.json())")
    rolls = [(n, e) for n, e in enumerate(log["events"], start=1) if e["type"] == "roll"]
    # After the first round's cups are rolled, each seat's board shows its own cup.
    page.click("#first")
    for _ in range(rolls[1][0]):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.body.dataset.step") == str(rolls[1][0])
    for _, event in rolls[:2]:
        assert board_faces(page, event["seat"]) == sorted(event["faces"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "perudo-replay.png"), full_page=True)
    page.select_option("#replay-seat", "1")
    assert page.locator("#board .replay-seat").count() == 1
    assert board_faces(page, 1) == sorted(rolls[1][1]["faces"])
    page.click("#last")
    page.wait_for_selector("#board #ranking")
    assert not anna.errors

    # A log whose dice were changed on the way is caught by the page's own check.
    def tampered(route: Any) -> None:
        data = route.fetch().json()
        first = next(e for e in data["events"] if e["type"] == "roll")
        first["faces"] = [f % 6 + 1 for f in first["faces"]]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route(f"**/api/tables/{table}/log", tampered)
    page.reload()
    page.wait_for_function("document.body.dataset.verified === 'no'")
    assert "Roll 1 is not what the seed gives" in page.inner_text("#verify")
