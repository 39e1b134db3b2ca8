"""The score keeper in headless Chromium: an entry written offline that the rules refuse
once the server sees it never locks the sheet.

Offline the page checks a Yatzy-family entry from the table the server published for the
sheet's rules (a Fives of 31 is refused at once). A sheet made offline under house rules
the page has no table for keeps what is written, and back online the server refuses the
Fives of 31. The sheet stays open, drawn without that entry, which is marked with the
reason; it can be edited (back into the entry field) or undone, and the sheet then reaches
the account. The same holds after the page is opened again.
"""

from __future__ import annotations

from typing import Any

import pytest

from test_web_play import CHROMIUM, TIMEOUT, browser, server

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

SAVED = "document.getElementById('keeper-status').textContent === 'Saved in your account'"


def account(browser: Any, server: str, name: str, lang: str = "en") -> Any:
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    response = page.request.post("/api/account/register",
                                 data={"name": name, "password": "correct horse"})
    assert response.ok, response.text()
    return page


def write(page: Any, entry: str) -> None:
    count = int(page.evaluate("document.body.dataset.entries"))
    page.fill("#entry", entry)
    page.click("#add")
    page.wait_for_function("n => +document.body.dataset.entries === n", arg=count + 1)


def new_sheet(page: Any, preset: str, rules: dict[str, str]) -> None:
    page.select_option("#sheet-game", "yatzy")
    if page.locator("#house-rules").get_attribute("open") is None:
        page.click("#house-rules summary")
    page.select_option("#sheet-preset", preset)
    for name, value in rules.items():
        page.fill(f"#sheet-rule-{name}", value)
    page.fill("#sheet-players", "Anna, Ben")
    count = int(page.evaluate("document.body.dataset.sheets"))
    page.click("#new-sheet-button")
    page.wait_for_function("n => +document.body.dataset.sheets === n", arg=count + 1)
    page.wait_for_selector("#sheet:visible")
    # The list is drawn before the new sheet is: until it is, the entries counted are the
    # last sheet's, and the next entry would be waited for at the wrong count.
    page.wait_for_function("document.body.dataset.entries === '0'")


def test_an_entry_refused_after_an_offline_spell_is_marked_and_can_be_edited_or_undone(
        browser: Any, server: str) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium")
    page = account(browser, server, "offline-keeper")
    page.goto("/keep")
    page.wait_for_function("document.body.dataset.tables === 'ready'")
    new_sheet(page, "terningspoker", {})
    write(page, "Anna sixes 6 6 6 6 6")  # two sixes over three: 12
    page.wait_for_function(SAVED)
    page.context.set_offline(True)
    page.fill("#entry", "Anna fives 31")  # checked in the page from the server's table
    page.click("#add")
    page.wait_for_function("document.getElementById('entry-error').textContent !== ''")
    assert "31 is not a possible score in Fives" in page.inner_text("#entry-error")
    page.fill("#entry", "Anna pair 3 3 1 2 5")  # and the order of the rows
    page.click("#add")
    page.wait_for_function("document.getElementById('entry-error').textContent"
                           ".includes('upper part is filled first')")
    assert page.evaluate("document.body.dataset.entries") == "1"
    # A sheet made offline under house rules the page has no table for keeps what is
    # written; back online the server refuses the Fives of 31.
    new_sheet(page, "yatzy", {"bonus": "40"})
    write(page, "Anna fours 4 4 4 1 2")
    write(page, "Anna fives 31")
    assert page.evaluate("document.body.dataset.online") == "no"
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#refused:visible")
    assert page.inner_text("#refused .refused-entry") == "Anna fives 31"
    assert page.locator("#sheet").is_visible() and page.locator("#sheet-table").is_visible()
    assert page.locator("#undo").is_enabled()
    assert "12" in page.inner_text("#sheet-table")  # the sheet as it was before the entry
    # Opened again, the sheet is still there to mend: edit puts the entry back to be typed.
    page.reload()
    page.wait_for_selector("#refused:visible")
    assert page.locator("#sheet").is_visible()
    page.click("#edit-refused")
    page.wait_for_selector("#refused", state="hidden")
    assert page.input_value("#entry") == "Anna fives 31"
    assert page.evaluate("document.body.dataset.entries") == "1"
    page.fill("#entry", "Anna fives 15")
    page.click("#add")
    page.wait_for_function("+document.body.dataset.entries === 2")
    page.wait_for_function(SAVED)
    saved = page.evaluate("fetch('/api/sheets').then(r => r.json())")
    assert sorted(s["entries"] for s in saved) == [1, 2]
    # Undo mends it too.
    page.context.set_offline(True)
    new_sheet(page, "yatzy", {"bonus": "41"})
    write(page, "Ben sixes 7")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_selector("#refused:visible")
    page.click("#undo")
    page.wait_for_selector("#refused", state="hidden")
    page.wait_for_function(SAVED)
    assert sorted(s["entries"] for s in page.evaluate("fetch('/api/sheets').then(r => r.json())")) \
        == [0, 1, 2]
    page.context.close()
