"""Around the browser table, in Debian's Chromium at a phone's and a screen's size: the move
clock chosen in the lobby and running on the table, the pace of the other seats' moves and
the dice rolling (still for those who ask for reduced motion), a visitor from an
invitation, unknown tables, a replay opened before the end, the statistics' words, and
Maxi Yatzy's sheet on a phone. Screenshots go to ``test-artifacts/around-*.png``."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from kastkopp.games import registered
from test_web_play import ARTIFACTS, TIMEOUT, Person, browser, create_table, server

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

PHONE, SCREEN = (390, 844), (1280, 800)
AT_ONCE = {"pace": "0"}  # the bots' moves without a pause
WORDS = {  # a few of the page's words in each language, as the catalogs have them
    "en": {"clock": "You have", "not_found": "Not found", "later": "still being played",
           "invited": "You are invited to play"},
    "sv": {"clock": "Du har", "not_found": "Hittades inte", "later": "spelas fortfarande",
           "invited": "Du är inbjuden att spela"},
    "da": {"clock": "Du har", "not_found": "Ikke fundet", "later": "stadig i gang",
           "invited": "Du er inviteret til at spille"},
}


def counted(lang: str, n: int) -> str:
    """``n`` games as the statistics say it: one game, several games."""
    one, more = {"en": ("game", "games"), "sv": ("parti", "partier"),
                 "da": ("spil", "spil")}[lang]
    return f"{n} {one if n == 1 else more}"


def seated(browser: Any, server: str, name: str, lang: str, size: tuple[int, int],
           motion: str = "no-preference") -> Person:
    """A person sits down as a guest in a browser of that language, size and motion."""
    context = browser.new_context(base_url=server, locale=lang, reduced_motion=motion,
                                  viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    person = Person(page, name)
    page.on("pageerror", lambda error: person.errors.append(str(error)))
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: person.frames.append(json.loads(payload))))
    page.goto(f"/?lang={lang}")
    page.fill("#nickname", name)
    page.click("#guest-form button")
    page.wait_for_selector("#me-name")
    return person


def start(person: Person) -> None:
    person.page.click("#start:enabled")
    person.wait("document.body.dataset.status === 'playing'")


def shot(person: Person, name: str, full: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    person.page.screenshot(path=str(ARTIFACTS / f"around-{name}.png"), full_page=full)


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize(("lang", "size"), [("sv", PHONE), ("da", SCREEN), ("en", PHONE)])
def test_a_move_clock_chosen_in_the_lobby_runs_on_the_table_as_text(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", lang, size)
    page = anna.page
    page.goto("/lobby?game=mia")
    # every control of the clock is labelled; the length is asked for as the kind needs
    assert page.locator("#seconds").is_hidden() and page.locator("#days").is_hidden()
    for control in ("clock", "seconds", "days", "on-timeout", "pace"):
        assert page.locator(f"label[for={control}]").count() == 1
    page.select_option("#clock", "correspondence")
    assert page.locator("#days").is_visible() and page.locator("#seconds").is_hidden()
    table = create_table(anna, "mia", ["bot:random"], 2, form={
        "clock": "live", "seconds": "90", "on-timeout": "lose", "pace": "0"})
    made = httpx.get(f"{server}/api/tables/{table}").json()
    assert (made["clock"], made["seconds_per_move"], made["on_timeout"]) == ("live", 90, "lose")
    start(anna)
    timer = page.locator("#clock[role=timer]")
    anna.wait("document.body.dataset.mine === 'yes'")
    text = timer.inner_text()
    assert text.startswith(WORDS[lang]["clock"]) and re.search(r"\b1:[0-3]\d\b", text), text
    # it counts down as text, and the status line still says only whose turn it is
    anna.wait("t => document.getElementById('clock').textContent !== t", text)
    assert ":" not in page.locator("#status").inner_text()
    no_sideways_scroll(page)
    shot(anna, f"clock-{lang}-{size[0]}")
    assert anna.errors == []


@pytest.mark.parametrize("size", [PHONE, SCREEN])
def test_the_others_moves_come_one_at_a_time_in_order(
        browser: Any, server: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", "en", size)
    page = anna.page
    create_table(anna, "liars_dice", ["bot:random"] * 3, 4, preset="perudo",
                 form={"pace": "0.4"})
    page.evaluate("""() => { window.seen = [];
        new MutationObserver(() => window.seen.push([+document.body.dataset.seq,
          document.body.dataset.toMove])).observe(document.body,
          {attributes: true, attributeFilter: ['data-seq']}); }""")
    start(anna)
    anna.wait("document.body.dataset.mine === 'yes'")
    first = int(page.evaluate("document.body.dataset.seq"))
    page.locator("#toolbar button.primary:enabled").first.click()
    # her move is drawn at once, with the next seat to move; then each bot's move is drawn
    # by itself, in order, until it is her turn again (or the game is over)
    anna.wait("s => +document.body.dataset.seq > s && (document.body.dataset.mine === 'yes'"
              " || document.body.dataset.status === 'over')", first)
    seen = [(seq, to_move) for seq, to_move in page.evaluate("window.seen") if seq > first]
    assert seen[0][1] == "1", seen
    seqs = [seq for seq, _ in seen]
    assert seqs == sorted(set(seqs)), seen
    assert len({to_move for _, to_move in seen}) >= 2, seen  # the bots' turns were drawn
    frames = [f["seq"] for f in anna.frames if f.get("type") == "state"]
    assert frames == sorted(frames)
    shot(anna, f"pace-{size[0]}")
    assert anna.errors == []


@pytest.mark.parametrize(("motion", "size"), [("no-preference", PHONE), ("reduce", SCREEN),
                                              ("no-preference", SCREEN), ("reduce", PHONE)])
def test_dice_roll_in_css_unless_the_player_asks_for_reduced_motion(
        browser: Any, server: str, motion: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", "en", size, motion)
    page = anna.page
    create_table(anna, "yatzy", ["bot:random"], 2, form=AT_ONCE)
    start(anna)
    anna.wait("document.body.dataset.mine === 'yes'")
    page.evaluate("""() => { window.moving = new Set();
        const look = () => document.querySelectorAll('.die').forEach((d) => {
          if (d.classList.contains('rolled')) window.moving.add(getComputedStyle(d).animationName);
        });
        new MutationObserver(look).observe(document.body, {childList: true, subtree: true}); }""")
    assert page.locator(".die.rolled").count() == 0  # the first drawing stays still
    seq = int(page.evaluate("document.body.dataset.seq"))
    page.click("#roll")
    anna.wait("s => +document.body.dataset.seq > s && document.body.dataset.mine === 'yes'", seq)
    moving = set(page.evaluate("[...window.moving]"))
    if motion == "reduce":
        assert moving == set() and page.locator(".die.rolled").count() == 0
    else:
        assert moving == {"roll"}, moving  # the dice thrown again roll; none else moves
        kept_still = page.eval_on_selector_all(
            "#board .die:not(.rolled)", "ds => ds.map(d => getComputedStyle(d).animationName)")
        assert set(kept_still) <= {"none"}
    assert anna.errors == []


@pytest.mark.parametrize(("lang", "size"), [("da", PHONE), ("en", SCREEN), ("sv", PHONE)])
def test_a_visitor_from_an_invitation_is_told_to_sit_down_and_join(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", lang, size)
    table = create_table(anna, "mia", ["bot:random", ""], 3, form=AT_ONCE)
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": size[0], "height": size[1]})
    visitor = context.new_page()
    visitor.set_default_timeout(TIMEOUT)
    visitor.goto(f"/play/{table}?lang={lang}")
    note = visitor.locator("#sit-first")
    assert note.inner_text().startswith(WORDS[lang]["invited"])
    assert note.is_visible() and visitor.locator("#join").count() == 0
    visitor.screenshot(path=str(ARTIFACTS / f"around-invited-{lang}-{size[0]}.png"))
    visitor.click("#to-name")
    assert visitor.evaluate("document.activeElement.id") == "nickname"
    visitor.keyboard.type("Bo")
    visitor.keyboard.press("Enter")
    visitor.wait_for_selector("#me-name")
    assert visitor.locator("#sit-first").count() == 0
    visitor.click("#join")
    anna.page.wait_for_selector("#seating li:has-text('Bo')")
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("sv", PHONE), ("da", SCREEN), ("en", PHONE)])
def test_an_unknown_table_is_a_page_in_the_players_language(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    person = seated(browser, server, "Anna", lang, size)
    for path in ("/play/unknown", "/replay/nosuchtable"):
        response = person.page.goto(path)
        assert response is not None and response.status == 404
        assert person.page.locator("h1").inner_text() == WORDS[lang]["not_found"]
        assert "{" not in person.page.locator("#main").inner_text()
    person.page.click("#to-lobby")
    person.page.wait_for_url("**/lobby")
    person.page.go_back()
    shot(person, f"unknown-{lang}-{size[0]}")


@pytest.mark.parametrize(("lang", "size"), [("en", PHONE), ("sv", SCREEN)])
def test_a_replay_opened_before_the_end_says_when_it_will_be_there(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", lang, size)
    table = create_table(anna, "mia", ["bot:random"], 2, form=AT_ONCE)
    start(anna)
    page = anna.page
    page.goto(f"/replay/{table}")
    anna.wait("document.body.dataset.verified === 'later'")
    said = page.locator("#verify").inner_text()
    assert WORDS[lang]["later"] in said and "✗" not in said
    assert page.locator("#verify .error").count() == 0
    assert "?" not in page.locator("#events").inner_text()  # a hidden roll is said in words
    # the step buttons draw their arrows (no glyph a font may lack)
    for button in ("#first", "#back", "#forward", "#last"):
        assert page.locator(f"{button} svg.icon").count() == 1
        assert not re.search("[⏮⏭◀▶]", page.locator(button).inner_text())
    no_sideways_scroll(page)
    shot(anna, f"replay-early-{lang}-{size[0]}")
    page.click("#verify a")
    page.wait_for_url(f"**/play/{table}")


@pytest.mark.parametrize(("lang", "size"), [("da", PHONE), ("en", SCREEN)])
def test_two_identical_bots_are_two_players_on_the_statistics_page(
        browser: Any, server: str, lang: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", lang, size)
    page = anna.page
    body = {"game": "yatzy", "players": 2, "seats": ["bot:random", "bot:random"],
            "sit": False, "pace": 0}
    made = page.evaluate("""async (body) => (await (await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json())""",
                         body)
    page.evaluate(f"fetch('/api/tables/{made['id']}/start', {{method: 'POST', "
                  "headers: {'Content-Type': 'application/json'}, body: '{}'})")
    page.goto(f"/play/{made['id']}")  # watched to its end
    anna.wait("document.body.dataset.status === 'over'")
    page.goto("/stats/yatzy")
    board = page.locator("#leaderboard").inner_text()
    assert "bot:random 2" in board
    (row,) = [r for r in httpx.get(f"{server}/api/stats/yatzy").json()
              if r["preset"] == "default" and r["players"] == 2]
    assert counted(lang, row["games"]) in page.locator(
        "table.stats[data-preset=default] caption").first.inner_text()
    no_sideways_scroll(page)
    shot(anna, f"stats-{lang}-{size[0]}", full=True)


@pytest.mark.parametrize("lang", ["sv", "da"])
def test_every_games_bot_ladder_fits_a_phone_without_scrolling_sideways(
        browser: Any, server: str, lang: str) -> None:
    """Every column of the ratings and of the heads-up results is on the screen: a rate
    and its interval on two lines, the bots named without the "bot:" of the heading's
    column (a table scrolled sideways hid the mean payoff)."""
    anna = seated(browser, server, "Anna", lang, PHONE)
    page = anna.page
    for game in registered():
        page.goto(f"/stats/{game}")
        for table in ("#ladder", "#heads-up"):
            assert page.evaluate("t => t.scrollWidth <= t.clientWidth",
                                 page.locator(table).element_handle()), (game, table)
        cell = page.locator("#heads-up tbody tr").first.locator("td").nth(3)
        rate, interval = cell.inner_text().split("\n")
        assert rate.endswith("%") and interval.startswith("(") and interval.endswith("%)")
        no_sideways_scroll(page)
    shot(anna, f"ladder-{lang}-{PHONE[0]}", full=True)


@pytest.mark.parametrize("size", [PHONE, SCREEN])
def test_maxi_yatzy_sheet_fits_and_roll_is_on_screen_at_eight_players(
        browser: Any, server: str, size: tuple[int, int]) -> None:
    anna = seated(browser, server, "Anna", "sv", size)
    page = anna.page
    create_table(anna, "yatzy", ["bot:random"] * 7, 8, preset="maxi", form=AT_ONCE)
    start(anna)
    for _ in range(2):  # a few turns, so the sheet has numbers in every column
        anna.wait("document.body.dataset.mine === 'yes'")
        page.locator("#toolbar .row-choice").first.click()
    anna.wait("document.body.dataset.mine === 'yes'")
    # still 'yes' while the row just chosen is on its way: the next turn shows the roll
    page.locator("#roll").wait_for(state="visible")
    box = page.eval_on_selector(".sheet-box", "b => [b.clientWidth, b.scrollWidth]")
    assert box[1] <= box[0], box  # no scrolling sideways inside the sheet
    no_sideways_scroll(page)
    width = size[0]
    for header in page.eval_on_selector_all(
            "#sheet thead th", "ths => ths.map(th => th.getBoundingClientRect().right)"):
        assert header <= width + 0.5
    roll = page.locator("#roll").bounding_box()
    assert roll is not None and roll["y"] >= 0 and roll["y"] + roll["height"] <= size[1] + 0.5
    shot(anna, f"maxi-8-{size[0]}")
    page.evaluate("window.scrollTo(0, document.querySelector('#sheet').offsetTop)")
    shot(anna, f"maxi-8-{size[0]}-sheet")
    assert anna.errors == []
