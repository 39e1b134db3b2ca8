"""The score keeper in headless Chromium: house rules, offline checks from the server's table,
and every word in the player's language, on a 390×844 phone and a 1280×800 screen.

- For every sheet kind a sheet is made with a preset and a changed house rule, chosen in the
  form; the sheet shows them. A value the rules do not allow is refused by the server in
  the page's language and makes no sheet.
- The help line is the sheet kind's own (a Yatzy sheet never shows the liar's-dice line).
- In Swedish and Danish no text of the keeper page is an English word of the catalogs.
- Maxi Yatzy's sheet at its largest player count does not make the page scroll sideways.
- Offline, the page's own check of a Yatzy-family entry — reading the table the page
  stored — agrees with :mod:`kastkopp.sheets` on every row for every throw (252 multisets
  of five dice, 462 of six), every rule set, and the stored table is the server's.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from kastkopp.engine import IllegalAction, KastkoppError
from kastkopp.games.liars_dice import LiarsRules
from kastkopp.games.yatzy import YatzyRules
from kastkopp.server.keeper import kinds_info
from kastkopp.sheets import Sheet
from kastkopp.sheets.yatzy import scores_table, text
from test_web_play import ARTIFACTS, CHROMIUM, TIMEOUT, browser, server
from test_web_tables import LOCALE, PHONE, SCREEN, english_words

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

pytestmark = pytest.mark.slow

# One entry each kind's sheet accepts, with Anna and Ben at the table.
ENTRIES = {"knack": "Anna 3 Ben 3 won Ben", "linka": "Anna 3 Ben 3 won Ben",
           "liars_dice": "loss Ben", "mia": "loss Ben", "poker_dice": "Anna",
           "yatzy": "Anna fours 4 4 4 1 2"}
# Names of games and players, the same in every language.
NAMES = {"anna", "ben", "yatzy", "maxi", "yahtzee", "slosch", "mia", "knack", "linka", "perudo",
         "dudo", "poker", "menteur", "palifico"}
CASES = [(PHONE, "sv"), (SCREEN, "sv"), (PHONE, "da"), (SCREEN, "da"), (PHONE, "en"),
         (SCREEN, "en")]


def open_keeper(browser: Any, server: str, size: tuple[int, int], lang: str) -> Any:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium")
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"/keep?lang={lang}")
    page.wait_for_function("document.body.dataset.tables === 'ready'")
    return page


def changed_rule(kind: dict[str, Any], preset: str) -> tuple[dict[str, Any], int, int]:
    """The kind's first whole-number rule with a bound: a value it allows that differs from
    the preset's, and one over the bound."""
    rule = next(r for r in kind["rules"] if r["type"] == "int" and r["max"] is not None)
    base = kind["preset_rules"].get(preset, {}).get(rule["name"], rule["default"])
    return rule, base + 1 if base < rule["max"] else base - 1, rule["max"] + 1


def sheets(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.sheets"))


def keeper_english() -> frozenset[str]:
    """The catalogs' English words (:func:`english_words`) that no Swedish or Danish text of
    the error catalogs uses either: the keeper shows the games' rule help and refusals from
    those ("aldrig over starten" is Danish, "all-in" Swedish and Danish)."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", "", text))}
    shared: set[str] = set()
    for lang in ("sv", "da"):
        with (LOCALE / lang / "LC_MESSAGES" / "errors.po").open("rb") as file:
            for message in read_po(file, locale=lang):
                if message.id:
                    shared |= words(str(message.string))
    return english_words() - shared


def english_on_page(page: Any, english: frozenset[str]) -> set[str]:
    """English words of the catalogs in the page's main part, each with the line it is in."""
    found = set()
    for line in page.locator("main").inner_text().splitlines():
        words = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", line)} & english - NAMES
        found |= {f"{word} ({line.strip()[:80]})" for word in words}
    return found


@pytest.mark.parametrize(("size", "lang"), CASES, ids=[f"{w}x{h}-{lang}" for (w, h), lang in CASES])
def test_house_rules_help_and_words_of_every_sheet_kind(browser: Any, server: str,
                                                        size: tuple[int, int], lang: str) -> None:
    page = open_keeper(browser, server, size, lang)
    english = keeper_english() if lang != "en" else frozenset()
    words = json.loads(page.inner_text("#keeper-data"))
    liars_help = next(k["help"] for k in kinds_info(lang) if k["game"] == "liars_dice")
    tag = f"{lang}-{size[0]}x{size[1]}"
    for kind in kinds_info(lang):
        game = kind["game"]
        preset = list(kind["presets"])[-1]
        rule, good, bad = changed_rule(kind, preset)
        page.select_option("#sheet-game", game)
        if page.locator("#house-rules").get_attribute("open") is None:
            page.click("#house-rules summary")
        page.select_option("#sheet-preset", preset)
        page.fill("#sheet-players", "Anna, Ben")
        # A value the rule does not allow: the server refuses it in the page's language.
        page.fill(f"#sheet-rule-{rule['name']}", str(bad))
        before = sheets(page)
        page.click("#new-sheet-button")
        page.wait_for_function("document.getElementById('new-sheet-error').textContent !== ''")
        refusal = page.inner_text("#new-sheet-error")
        assert str(bad) in refusal and sheets(page) == before
        assert ("must be" in refusal) == (lang == "en"), refusal
        if english:
            assert not english_on_page(page, english), (game, english_on_page(page, english))
        page.screenshot(path=str(ARTIFACTS / f"keeper-{tag}-{game}-rules.png"), full_page=True)
        # An allowed one makes the sheet, which shows its preset and the changed rule.
        page.fill(f"#sheet-rule-{rule['name']}", str(good))
        page.click("#new-sheet-button")
        page.wait_for_function("([n, game]) => +document.body.dataset.sheets === n"
                               " && document.body.dataset.kind === game", arg=[before + 1, game])
        page.wait_for_selector("#sheet-table:visible")
        assert page.inner_text("#new-sheet-error") == ""
        line = page.inner_text("#sheet-rules-line")
        assert kind["presets"][preset] in line and f"{rule['help']}: {good}" in line, line
        help_line = page.inner_text("#entry-help")
        assert help_line == kind["help"]
        assert (help_line == liars_help) == (game == "liars_dice")
        page.fill("#entry", ENTRIES[game])
        page.click("#add")
        page.wait_for_function("document.body.dataset.entries === '1'")
        assert page.inner_text("#entry-error") == ""
        saved = page.evaluate("JSON.parse(localStorage['kastkopp.sheets'])")
        current = saved[page.evaluate("localStorage['kastkopp.current']")]["sheet"]
        assert current["preset"] == preset and current["rules"] == {rule["name"]: good}
        if english:
            assert not english_on_page(page, english), (game, english_on_page(page, english))
        page.screenshot(path=str(ARTIFACTS / f"keeper-{tag}-{game}.png"), full_page=True)
    assert set(words) == {"kinds", "words"}
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "sv"), (SCREEN, "da"), (PHONE, "en")],
                         ids=["390x844-sv", "1280x800-da", "390x844-en"])
def test_maxi_yatzy_at_its_largest_player_count_does_not_scroll_sideways(
        browser: Any, server: str, size: tuple[int, int], lang: str) -> None:
    page = open_keeper(browser, server, size, lang)
    page.select_option("#sheet-game", "yatzy")
    page.click("#house-rules summary")
    page.select_option("#sheet-preset", "maxi")
    names = ["Anna", "Ben", "Cara", "Dag", "Eva", "Finn", "Gun", "Hans"]
    page.fill("#sheet-players", ", ".join(names))
    page.click("#new-sheet-button")
    page.wait_for_selector("#sheet-table:visible")
    for entry in ("Anna fours 4 4 4 1 2 6", "Hans maxi yatzy 6 6 6 6 6 6",
                  "Eva chance 6 6 6 5 5 4"):
        count = int(page.evaluate("document.body.dataset.entries"))
        page.fill("#entry", entry)
        page.click("#add")
        page.wait_for_function("n => +document.body.dataset.entries === n", arg=count + 1)
    assert page.locator("#house-rules").get_attribute("open") is None  # the form steps aside
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth,"
                         " document.getElementById('sheet-table').getBoundingClientRect().right]")
    page.screenshot(path=str(ARTIFACTS / f"keeper-{lang}-{size[0]}x{size[1]}-maxi-8.png"),
                    full_page=True)
    assert wide[0] <= wide[1] and wide[2] <= wide[1], wide
    assert "100" in page.inner_text("#sheet-table")  # Maxi Yatzy's top row
    page.context.close()


def server_says(sheet: Sheet, entry: str) -> str:
    """What kastkopp.sheets writes for the entry on an empty sheet, or its refusal."""
    try:
        fill = sheet.parse(entry)
        cell, _ = sheet.kind._cell(fill, dict.fromkeys(sheet.rules.rows), sheet.rules,  # type: ignore[attr-defined]
                                   sheet, {})
        return text(cell)
    except KastkoppError as exc:
        return "! " + str(IllegalAction("entry {number} ({entry}): {reason}", number=1,
                                        entry=entry, reason=exc.message))


PAGE_SAYS = """async ({preset, entries}) => {
  const keeper = await import('/static/keeper.js');
  const out = [];
  for (const entry of entries) {
    try {
      const derived = await keeper.standIn({game: 'yatzy', preset, rules: {},
        players: ['Anna'], entries: [entry]});
      out.push(derived.table.slice(1).map((row) => row[1]).find((c) => c !== null) ?? null);
    } catch (problem) {
      out.push('! ' + problem.message);
    }
  }
  return out;
}"""


def test_offline_the_page_and_the_sheets_agree_on_every_row_of_every_throw(
        browser: Any, server: str) -> None:
    page = open_keeper(browser, server, PHONE, "en")
    page.context.set_offline(True)
    for preset in YatzyRules.PRESETS:
        sheet = Sheet.new("yatzy", ["Anna"], preset)
        table = scores_table(sheet.rules)  # type: ignore[arg-type]
        stored = page.evaluate("url => JSON.parse(localStorage['kastkopp.offline'])[url]",
                               f"/api/sheets/offline/yatzy?preset={preset}")
        assert stored == json.loads(json.dumps(table))
        entries = [f"Anna {row} {throw}" for row in table["rows"] for throw in table["throws"]]
        if "first" in table["scores"]:
            entries += [f"{entry} first" for entry in entries]
        entries += [f"Anna {row} {points}" for row in table["rows"]
                    for points in [*range(-20, 61), "-"]]
        said = page.evaluate(PAGE_SAYS, {"preset": preset, "entries": entries})
        expected = [server_says(sheet, entry) for entry in entries]
        wrong = [(e, p, s) for e, p, s in zip(entries, said, expected, strict=True) if p != s]
        assert not wrong, (preset, len(wrong), wrong[:5])
    page.context.close()


def test_offline_a_liars_dice_sheet_is_worked_out_in_the_language_and_its_rules(
        browser: Any, server: str) -> None:
    page = open_keeper(browser, server, PHONE, "sv")
    page.select_option("#sheet-game", "liars_dice")
    page.click("#house-rules summary")
    page.select_option("#sheet-preset", "single_hand")  # lives, not dice
    page.fill("#sheet-players", "Anna, Ben")
    page.click("#new-sheet-button")
    page.wait_for_selector("#sheet-table:visible")
    page.context.set_offline(True)
    page.fill("#entry", "förlust Ben")
    page.click("#add")
    page.wait_for_function("document.body.dataset.entries === '1'")
    assert page.evaluate("document.body.dataset.online") == "no"
    header = page.locator("#sheet-table thead").inner_text().split()
    start = LiarsRules.make("single_hand").start
    assert header == ["Omgång", "Anna", "Ben", "Anna", "liv", "Ben", "liv"]
    assert page.locator("#sheet-table tbody tr").inner_text().split() == \
        ["1", "0", "1", str(start), str(start - 1)]
    page.fill("#entry", "förlust Zed")
    page.click("#add")
    page.wait_for_function("document.getElementById('entry-error').textContent !== ''")
    assert "Zed" in page.inner_text("#entry-error")
    assert not english_on_page(page, keeper_english())
    page.screenshot(path=str(ARTIFACTS / "keeper-sv-390x844-liars-offline.png"), full_page=True)
    page.context.close()
