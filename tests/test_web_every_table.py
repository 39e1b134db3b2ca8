"""Every game and preset at its largest player count, played by a person in headless Chromium.

On a 390×844 phone a person plays a whole game against random bots by clicking (the first
move of each game from the keyboard alone); on a 1280×800 screen, in another language, the
first turns of one by clicking, and the rest of their turns are sent from the page's own
session to the table's action endpoint while the page follows the game to its end (the
roomier screen checked on its first screens and its finished table, each game's every turn
on the phone). While it is their turn (on the screen, each turn clicked) every control of
the toolbar and their own dice lie inside the viewport without scrolling; no key of the
game's view is ever visible; each round's result names the seat that lost, and so does the
end. On the Swedish and Danish pages no word of the table, the toolbar or
the narration is an English word of the catalogs. In Slosch and liar's dice the page and
the WebSocket frames never hold another seat's dice before the cups are lifted; in Linka and
Poker Menteur the checks of ``test_web_tables`` run against each game's full log.
At the end, Play again opens a new table of the same game, preset, rules and bots.
Screenshots go to ``test-artifacts/``.

Games are shortened by their own house rules where one sets the start (one life, one die,
a few rounds of Mäxchen) so that every preset fits in the suite's time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from kastkopp.games import registered
from kastkopp.server.pages import ui_strings
from test_web_play import (
    ARTIFACTS,
    CHROMIUM,
    Person,
    browser,
    create_table,
    play_out,
    server,
    states,
)
from test_web_tables import (
    PHONE,
    SCREEN,
    check_hidden,
    click_one,
    english_words,
    poker_move,
    sit_at,
    snapshot,
    visible_view_keys,
)

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

# House rules that shorten a preset's game without changing how it is played.
SHORT: dict[tuple[str, str], dict[str, str]] = {
    ("mia", "slosch"): {"lives": "1"}, ("mia", "classic"): {"lives": "1"},
    ("mia", "maexchen"): {"rounds": "3"},
    **{("liars_dice", p): {"dice": "1"} for p in ("lognare", "perudo", "dudo", "common_hand")},
    ("liars_dice", "come_back"): {"dice": "2"}, ("liars_dice", "single_hand"): {"lives": "1"},
}
LANGS = ("sv", "da", "en")
SCREEN_TURNS = 6  # turns clicked on the screen before the rest are sent as requests


def cases() -> list[tuple[str, str, int, tuple[int, int], str]]:
    found = []
    for name, cls in sorted(registered().items()):
        for preset in cls.rules_class.PRESETS:
            for size in (PHONE, SCREEN):
                found.append((name, preset, cls.max_players, size, LANGS[len(found) % 3]))
    return found


CASES = cases()


def seat_label(person: Person, words: dict[str, str], seat: int) -> str:
    return person.name if seat == person.seat else words["Bot {n}"].replace("{n}", str(seat + 1))


def own_dice(game: str, view: dict[str, Any], seat: int) -> bool:
    """Whether the seat has dice of its own to see on this turn."""
    if game in ("mia", "liars_dice"):
        return bool(view.get("your_dice"))
    if game == "yatzy":
        return bool(view.get("dice"))
    return True


def check_turn(person: Person, game: str, view: dict[str, Any], size: tuple[int, int]) -> None:
    """The toolbar, named, and everything in it (own dice too) inside the viewport."""
    page = person.page
    toolbar = page.locator("#controls [role=toolbar]")
    assert toolbar.count() == 1 and toolbar.get_attribute("aria-label")
    if own_dice(game, view, person.seat):
        assert page.locator("#toolbar .own-dice .die").count(), "own dice not in the toolbar"
    boxes = page.eval_on_selector_all(
        "#toolbar button, #toolbar select, #toolbar .die",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })")
    assert boxes
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= size[0] + 0.5 and bottom <= size[1] + 0.5, \
            (left, top, right, bottom, size)
    labels = page.eval_on_selector_all(
        ".die", "ds => ds.map(d => [d.getAttribute('role'), d.getAttribute('aria-label')])")
    assert all(role == "img" and label and not label.isdigit() for role, label in labels)


# Names of games and calls, the same in every language (Linka, Poker, Palifico …).
NAMES = {"linka", "poker", "yatzy", "maxi", "yahtzee", "slosch", "mia", "knack", "perudo",
         "dudo", "menteur", "palifico"}


def english_on_page(page: Any, english: frozenset[str]) -> set[str]:
    """English words of the catalogs in the title, the table, the toolbar and the narration
    (the games' names aside, and letters inside an id such as a table's, IIB3CaN1Sv)."""
    text = page.evaluate("['main h1', '#status', '#board', '#controls', '#talk']"
                         ".map(s => document.querySelector(s)?.innerText ?? '').join(' ')")
    return {w.lower() for w in re.findall(r"\b[^\W\d_]{3,}\b", text)} & english - NAMES


def only_own_dice_drawn(person: Person, view: dict[str, Any]) -> None:
    """Slosch and liar's dice: outside the lifted cups and the pickers, only one's own dice."""
    drawn = sorted(int(f) for f in person.page.eval_on_selector_all(
        "#main .die", "ds => ds.filter(d => !d.closest('.reveal, .face-button, .opening'))"
        ".map(d => d.dataset.face)"))
    if person.page.locator(".cup.closed").count():
        assert drawn == []
    else:
        assert drawn == sorted(int(f) for f in str(view.get("your_dice") or "")
                               if f.isdigit()) or drawn == sorted(view.get("your_dice") or [])


def cups_hidden_in_frames(person: Person) -> None:
    """No frame of the person ever held another seat's cup outside a finished round."""
    seat = person.seat
    for frame in states(person):
        view = frame["view"]
        assert view["seat"] == seat
        assert "cups" not in {k for k in view if k != "last_round"}
        if view["game"] == "mia" and "your_dice" in view:
            assert view["roller"] == seat
        if view["game"] == "liars_dice" and view["hand"] == "single" and "your_dice" in view:
            assert view["holder"] == seat


def move_liars(page: Any, rng: random.Random) -> None:
    """Raise a little with the stepper and a face, or call; Single Hand keeps some dice."""
    keep = page.locator("#toolbar #keep")
    if keep.count():
        dice = page.locator("#toolbar .die-button")
        for index in rng.sample(range(dice.count()), rng.randint(0, 2)):
            dice.nth(index).click()
        page.locator("#toolbar #keep:enabled").click()
        return
    calls = page.locator("#toolbar .answers button:enabled")
    if page.locator("#bid-picker").count() == 0 or (calls.count() and rng.random() < 0.45):
        calls.nth(rng.randrange(calls.count())).click()
        return
    if rng.random() < 0.3 and page.locator("#more:enabled").count():
        page.click("#more")
    faces = page.locator("#bid-picker .face-button:enabled")
    if faces.count() and rng.random() < 0.5:
        faces.nth(rng.randrange(faces.count())).click()
    page.click("#send-bid")


def move_mia(page: Any, rng: random.Random) -> None:
    """Announce one of the lowest values allowed, or answer a claim."""
    values = page.locator("#toolbar .value-grid button:enabled")
    if values.count():
        values.nth(min(int(rng.expovariate(0.5)), values.count() - 1)).click()
        return
    answers = page.locator("#toolbar .answers button:enabled")
    answers.nth(rng.randrange(answers.count())).click()


def move_yatzy(page: Any, rng: random.Random) -> None:
    """Now and then keep a die and roll again; else score the best row offered."""
    roll = page.locator("#roll:enabled")
    if roll.count() and rng.random() < 0.25:
        page.locator("#toolbar .die-button").nth(rng.randrange(5)).click()
        if page.locator("#roll:enabled").count():
            page.click("#roll")
            return
    rows = page.locator("#toolbar .row-choice")
    texts = [rows.nth(i).locator("strong").inner_text() for i in range(rows.count())]
    points = [int(x) if x.lstrip("-").isdigit() else -1 for x in texts]  # "-": crossed out
    rows.nth(points.index(max(points))).click()


def first_by_keyboard(page: Any) -> None:
    """The first move of a game from the keyboard alone: Tab to an enabled action, Enter."""
    selector = ("#toolbar #send-bid, #toolbar .row-choice, #toolbar .value-grid button:enabled,"
                " #toolbar .answers button:enabled, #toolbar #keep:enabled,"
                " #toolbar #announce, #toolbar button[data-action]:not([data-action=fold])")
    for _ in range(120):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached a move")


def lost_names(person: Person, words: dict[str, str], game: str, view: dict[str, Any]) -> list[str]:
    """The seats that lost the round shown last (or the game), as the page names them."""
    if game == "mia":
        return [seat_label(person, words, s) for s in view["last_round"]["losers"]]
    if game == "liars_dice":
        return [seat_label(person, words, view["last_round"]["seat"])]
    if game == "poker_dice":
        return [seat_label(person, words, 1 - view["winner"])]
    if game == "yatzy":
        return [seat_label(person, words, s) for s in view["outcome"]["ranking"][-1]]
    return [seat_label(person, words, s) for s, b in enumerate(view["balances"]) if b < 0]


def play_turns(person: Person, move: Callable[[Person], None], turns: int) -> None:
    """The person moves by clicking on their first ``turns`` turns (or to the end), and the
    page has seen the last of those moves made."""
    seq = -1
    for _ in range(turns):
        state = person.wait("""([seq, seat]) => {
            const d = document.body.dataset;
            if (d.seq === undefined || +d.seq <= seq) return null;
            if (d.status === 'over') return 'over';
            return d.toMove !== '' && +d.toMove === seat && d.mine === 'yes' ? +d.seq : null;
        }""", [seq, person.seat])
        if state == "over":
            return
        seq = state
        move(person)
    person.wait("seq => document.body.dataset.status === 'over' || "
                "+document.body.dataset.seq > seq", seq)


def finish_by_requests(person: Person, table: str, rng: random.Random) -> None:
    """The person's remaining turns sent to the action endpoint from the page's session
    (random legal moves; the bots, at no pace, have answered when one returns), then the
    page has followed the game to its end."""
    request = person.page.request
    for _ in range(4000):
        frame = request.get(f"/api/tables/{table}/state").json()
        if frame["status"] == "over":
            person.wait("document.body.dataset.status === 'over'")
            return
        if frame["legal"]:
            sent = request.post(f"/api/tables/{table}/action", data={
                "action": rng.choice(frame["legal"]), "seq": frame["seq"]})
            assert sent.ok, sent.text()
        else:  # not the person's turn yet: the page shows the next position first
            person.wait("seq => +document.body.dataset.seq > seq", frame["seq"])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "preset", "players", "size", "lang"), CASES,
                         ids=[f"{g}-{p}-{w}x{h}-{lang}" for g, p, _, (w, h), lang in CASES])
def test_every_game_and_preset_played_whole_by_a_person_against_bots(
        browser: Any, server: str, game: str, preset: str, players: int,
        size: tuple[int, int], lang: str) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium")
    person = sit_at(browser, server, "Anna", lang, size)
    page = person.page
    table = create_table(person, game, ["bot:random"] * (players - 1), players,
                         rules=SHORT.get((game, preset)), preset=preset)
    page.click("#start")
    rng = random.Random(f"{game}{preset}{size}")
    english = english_words() if lang != "en" else frozenset()
    words = ui_strings(lang)
    name = f"{game}-{preset}-{size[0]}x{size[1]}-{lang}"
    turns = {"n": 0, "rounds": 0}
    drawn: list[tuple[int, dict[int, list[int]], list[int]]] = []

    def move(mover: Person) -> None:
        seq = int(page.evaluate("document.body.dataset.seq"))
        view = [f for f in states(mover) if f["seq"] <= seq][-1]["view"]
        if page.locator("#toolbar .cup.closed").count():
            page.click("#toolbar .cup-button")  # look under one's own cup
            page.wait_for_selector("#toolbar .cup.open")
        check_turn(mover, game, view, size)
        assert not visible_view_keys(page, view)
        assert not english_on_page(page, english), english_on_page(page, english)
        if game in ("mia", "liars_dice"):
            only_own_dice_drawn(mover, view)
            if view.get("last_round"):  # the round before this one, told with its loser
                told = page.locator("#last-round").inner_text()
                assert all(n in told for n in lost_names(mover, words, game, view)), told
                turns["rounds"] += 1
        if game in ("linka", "poker_dice"):
            drawn.append((seq, *snapshot(page)))
        turns["n"] += 1
        if turns["n"] == 2:
            page.screenshot(path=str(ARTIFACTS / f"every-{name}-turn.png"))
        if turns["n"] == 1:
            first_by_keyboard(page)
        elif game == "mia":
            move_mia(page, rng)
        elif game == "liars_dice":
            move_liars(page, rng)
        elif game == "yatzy":
            move_yatzy(page, rng)
        elif game == "poker_dice":
            poker_move(page, rng)
        else:
            click_one(page, rng, {"fold": 0.3, "raise": 1.0, "double": 1.0, "refuse": 1.0})

    ARTIFACTS.mkdir(exist_ok=True)
    if size == PHONE:
        play_out([person], move, limit=2000)
    else:
        play_turns(person, move, SCREEN_TURNS)
        finish_by_requests(person, table, rng)
    page.wait_for_selector("#ranking, #result")
    last = states(person)[-1]
    assert last["status"] == "over"
    view = last["view"]
    shown = page.locator("#result" if page.locator("#result").count() else "#main").inner_text()
    for loser in lost_names(person, words, game, view):
        assert loser in shown, (loser, shown)
    assert not visible_view_keys(page, view)
    assert not english_on_page(page, english), english_on_page(page, english)
    assert page.locator("#talk").get_attribute("aria-live") == "polite"
    assert page.locator("#talk li").count() > 0  # the game was told as it went
    page.screenshot(path=str(ARTIFACTS / f"every-{name}-over.png"))
    if game in ("mia", "liars_dice"):
        cups_hidden_in_frames(person)
    if game in ("linka", "poker_dice"):
        check_hidden(person, game, table, server, drawn)
    # Play again: a new table of the same game, preset, rules and bots, the person seated
    page.click("#play-again")
    page.wait_for_url(lambda url: "/play/" in url and not url.endswith(table))
    again = httpx.get(f"{server}/api/tables/{page.url.rsplit('/', 1)[1]}").json()
    before = httpx.get(f"{server}/api/tables/{table}").json()
    assert (again["game"], again["preset"], again["players"], again["rules"]) == \
        (game, preset, players, before["rules"])
    assert [s["bot"] for s in again["seats"][1:]] == ["random"] * (players - 1)
    assert again["status"] == "open" and again["seats"][0]["name"] == page.inner_text("#me-name")
    assert not person.errors
    page.context.close()
