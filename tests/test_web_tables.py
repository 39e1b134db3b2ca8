"""The tables of Knack, Linka and Poker Menteur, played in headless Chromium against bots.

At each game's largest player count, on a 390×844 phone and a 1280×800 screen, a person
plays a whole game by clicking. While it is their turn, every control of the toolbar and
their own dice lie inside the viewport; no key of the game's view shows on the page; the
round's result names the seat that lost; on the Swedish and Danish pages no toolbar text is
an English word of the catalogs; and neither the page nor the WebSocket frames ever hold
another seat's hidden dice before they are revealed (checked against the game's full log,
replayed by the library once the game is over). Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from kastkopp.engine import State, game_from_json
from kastkopp.server.pages import game_words, ui_strings
from test_web_play import (
    ARTIFACTS,
    CHROMIUM,
    TIMEOUT,
    Person,
    browser,
    create_table,
    play_out,
    server,
    states,
)

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser tests

LOCALE = Path(__file__).resolve().parent.parent / "src" / "kastkopp" / "locale"
PHONE, SCREEN = (390, 844), (1280, 800)
# Each game at both sizes; between them every game is seen in Swedish or Danish.
CASES = [("knack", 8, PHONE, "sv"), ("knack", 8, SCREEN, "en"),
         ("linka", 6, PHONE, "da"), ("linka", 6, SCREEN, "sv"),
         ("poker_dice", 2, PHONE, "en"), ("poker_dice", 2, SCREEN, "da")]


def sit_at(browser: Any, server: str, name: str, lang: str, size: tuple[int, int]) -> Person:
    """A person sits down as a guest in a browser of the given language and window size."""
    context = browser.new_context(base_url=server, locale=lang,
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


@cache
def english_words() -> frozenset[str]:
    """Words of the catalogs' English side that neither translation uses (read once: every
    browser test in Swedish or Danish asks)."""
    def words(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", "", text))}
    english: set[str] = set()
    translated: set[str] = set()
    for lang in ("sv", "da"):
        with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
            for message in read_po(file, locale=lang):
                if message.id and not str(message.id).startswith("about:"):
                    english |= words(str(message.id))
                    translated |= words(str(message.string))
        # and the words each game gives its own page (Linka's table told)
        for key, word in game_words(lang).items():
            if not key.startswith("row:"):
                english |= words(key)
                translated |= words(word)
    return frozenset(english - translated)


def visible_view_keys(page: Any, view: dict[str, Any]) -> list[str]:
    """Keys of the view (``to_move``, ``max_raise``, ``phase`` …) that the page shows."""
    text = page.locator("#main").inner_text()
    keys = [k for k in view if "_" in k] + ["phase", "asker", "claimant", "contenders",
                                            "movements", "positions", "purses"]
    return [k for k in keys if re.search(rf"\b{re.escape(k)}\b", text)]


def check_turn(person: Person, size: tuple[int, int], lang: str,
               english: frozenset[str]) -> None:
    """While it is the person's turn: controls and own dice on screen, named, translated."""
    page = person.page
    toolbar = page.locator("#controls [role=toolbar]")
    assert toolbar.count() == 1 and toolbar.get_attribute("aria-label")
    boxes = page.eval_on_selector_all(
        "#toolbar button, #toolbar select, #toolbar .die",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })")
    assert boxes and page.locator("#toolbar .own-dice .die").count()
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= size[0] + 0.5 and bottom <= size[1] + 0.5, \
            (left, top, right, bottom, size)
    labels = page.eval_on_selector_all(
        ".die", "ds => ds.map(d => [d.getAttribute('role'), d.getAttribute('aria-label')])")
    assert all(role == "img" and label and not label.isdigit() for role, label in labels)
    if lang != "en":
        words = {w.lower() for w in re.findall(r"[^\W\d_]{3,}", toolbar.inner_text())}
        assert not words & english, words & english


# --------------------------------------------------------------------------- moves


def tab_to(page: Any, selector: str) -> None:
    """Move the keyboard with the Tab key alone until it is on the control."""
    for _ in range(150):
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def press_by_keyboard(page: Any, selector: str) -> None:
    """From where the turn put the keyboard (the toolbar's first control), Tab to the
    control and press Enter."""
    assert page.evaluate("!!document.activeElement?.closest('#toolbar')")
    controls = "[...document.querySelectorAll('#toolbar button:enabled, #toolbar select:enabled')]"
    on_button = page.evaluate("document.activeElement.localName === 'button'")
    if on_button and page.evaluate(f"{controls}.length") > 1:  # the arrow keys move too
        page.keyboard.press("End")
        assert page.evaluate(f"{controls}.at(-1) === document.activeElement")
        page.keyboard.press("Home")
        assert page.evaluate(f"{controls}[0] === document.activeElement")
    tab_to(page, selector)
    page.keyboard.press("Enter")


def reroll_by_keyboard(page: Any) -> None:
    """Pick up the first die with the space bar (the keyboard stays on it) and throw it."""
    assert page.evaluate("!!document.activeElement?.closest('#toolbar')")
    tab_to(page, ".die-button[data-index='0']")
    page.keyboard.press("Space")
    page.wait_for_selector(".die-button[data-index='0'][aria-pressed='true']")
    assert page.evaluate("document.activeElement.dataset.index") == "0"
    tab_to(page, "#reroll")
    page.keyboard.press("Enter")


def click_one(page: Any, rng: random.Random, weights: dict[str, float]) -> None:
    """One of the toolbar's actions, the likelier ones as ``weights`` say."""
    buttons = page.locator("#toolbar button[data-action]:enabled, #toolbar button[data-verb]")
    choices = [(buttons.nth(i), buttons.nth(i).get_attribute("data-action")
                or buttons.nth(i).get_attribute("data-verb") or "")
               for i in range(buttons.count())]
    chosen, name = rng.choices(choices, [weights.get(n.split(" ")[0], 3.0)
                                         for _, n in choices])[0]
    if name == "raise":
        options = page.locator("#choose-raise option")
        page.select_option("#choose-raise", index=rng.randrange(min(3, options.count())))
    chosen.click()


def poker_move(page: Any, rng: random.Random) -> None:
    """Doubt now and then; else pick up dice and throw them, or announce with the pickers."""
    doubt = page.locator("#toolbar [data-action=doubt]")
    only_doubt = page.locator("#announce, #toolbar .die-button").count() == 0
    if doubt.count() and (only_doubt or rng.random() < 0.4):
        doubt.click()
        return
    dice = page.locator("#toolbar .die-button")
    if dice.count() and (page.locator("#announce").count() == 0 or rng.random() < 0.4):
        for index in rng.sample(range(dice.count()), rng.randint(1, 3)):
            dice.nth(index).click()
        reroll = page.locator("#reroll")
        if reroll.is_enabled():
            reroll.click()
            return
    if page.locator("#announce").count() == 0:
        page.click("#toolbar [data-action=accept]")
        return
    if rng.random() < 0.4:
        classes = page.locator("#hand-class option:enabled")
        page.select_option("#hand-class", classes.nth(rng.randrange(classes.count()))
                           .get_attribute("value"))
    page.click("#announce")


# --------------------------------------------------------------------------- hidden dice


def positions(log: dict[str, Any]) -> list[State]:
    """The state before every event of a finished game's full log."""
    state = game_from_json(log).new_state()
    found = [state]
    for event in log["events"]:
        if event["type"] == "roll":
            state = state.resolve(tuple(event["faces"]))
        else:
            state = state.apply(event["action"])
        found.append(state)
    return found


def hidden_of_others(state: Any, seat: int) -> dict[int, list[int]]:
    """Each other seat's dice that ``seat`` may not see in this position."""
    if state.game.name == "linka":
        return {s: list(d[1:]) for s, d in enumerate(state.own)
                if s != seat and s not in state.revealed and len(d) == 2}
    if state.game.name == "poker_dice" and state.phase != "over":
        other = 1 - seat
        dice = state.dice[other]
        return {} if dice is None or other == state.shown else {other: sorted(dice)}
    return {}


def check_hidden(person: Person, game: str, table: str, server: str,
                 drawn: list[tuple[int, dict[int, list[int]], list[int]]]) -> None:
    """Frames and page snapshots against the log: nobody else's hidden die, before the reveal."""
    log = httpx.get(f"{server}/api/tables/{table}/log").json()
    at = positions(log)
    seat = person.seat
    for frame in states(person):
        state = at[frame["seq"]]
        view = frame["view"]
        assert view["seat"] == seat
        hidden = hidden_of_others(state, seat)
        if game == "linka":
            for other in hidden:
                assert view["dice"][other] == list(state.visible(seat, other))
                assert str(other) not in view["hands"]
        if game == "poker_dice" and hidden:
            assert "revealed" not in view and "revealed_hands" not in view
            assert sorted(view.get("your_faces") or []) == sorted(state.dice[seat] or [])
    for seq, by_seat, own in drawn:
        state = at[seq]
        for other, dice in hidden_of_others(state, seat).items():
            if game == "linka":
                assert by_seat.get(other, []) == list(state.visible(seat, other))
            else:
                assert by_seat == {} and sorted(own) == sorted(state.dice[seat] or [])
                assert dice  # the opponent's dice exist and were not drawn


def snapshot(page: Any) -> tuple[dict[int, list[int]], list[int]]:
    """The dice drawn per player row, and those drawn as one's own outside the rows."""
    stray = page.eval_on_selector_all(
        "#main .die", "ds => ds.filter(d => !d.closest('#toolbar, .player, .linka-dice,"
        " .opening, .shown, .screens .mine, .reveal')).length")
    assert stray == 0  # no die is drawn anywhere else
    rows = page.eval_on_selector_all(
        ".player", "ps => ps.map(p => [+p.dataset.seat,"
        " [...p.querySelectorAll('.die')].map(d => +d.dataset.face)])")
    own = page.eval_on_selector_all(".screens .mine .die", "ds => ds.map(d => +d.dataset.face)")
    return {seat: faces for seat, faces in rows}, own


# --------------------------------------------------------------------------- the games


@pytest.mark.parametrize(("game", "players", "size", "lang"), CASES,
                         ids=[f"{g}-{w}x{h}-{lang}" for g, _, (w, h), lang in CASES])
def test_a_person_plays_a_whole_game_against_bots_by_clicking(
        browser: Any, server: str, game: str, players: int, size: tuple[int, int],
        lang: str) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no Chromium")
    person = sit_at(browser, server, "Anna", lang, size)
    page = person.page
    table = create_table(person, game, ["bot:random"] * (players - 1), players)
    page.click("#start")
    rng = random.Random(f"{game}{size}{lang}")
    english = english_words()
    words = ui_strings(lang)
    drawn: list[tuple[int, dict[int, list[int]], list[int]]] = []
    name = f"{game}-{size[0]}x{size[1]}-{lang}"
    turns = {"n": 0}
    keyed = {"reroll": False}

    def move(mover: Person) -> None:
        seq = int(page.evaluate("document.body.dataset.seq"))
        check_turn(mover, size, lang, english)
        assert not visible_view_keys(page, [f for f in states(mover) if f["seq"] <= seq][-1]
                                     ["view"])
        drawn.append((seq, *snapshot(page)))
        turns["n"] += 1
        if turns["n"] in (1, 3):
            page.screenshot(path=str(ARTIFACTS / f"tables-{name}-turn{turns['n']}.png"))
        if game == "poker_dice" and page.locator("#reroll").count() and not keyed["reroll"]:
            keyed["reroll"] = True  # dice picked up and thrown from the keyboard alone
            reroll_by_keyboard(page)
        elif turns["n"] == 1:  # the first move from the keyboard alone
            press_by_keyboard(page, "#announce" if page.locator("#announce").count()
                              else "#toolbar button[data-action]:not([data-action=fold])")
        elif game == "poker_dice":
            poker_move(page, rng)
        else:
            click_one(page, rng, {"fold": 0.3, "raise": 1.0, "double": 1.0, "refuse": 1.0})

    ARTIFACTS.mkdir(exist_ok=True)
    play_out([person], move)
    page.wait_for_selector("#result")
    page.screenshot(path=str(ARTIFACTS / f"tables-{name}-over.png"), full_page=True)
    last = states(person)[-1]
    assert last["status"] == "over"
    view = last["view"]
    lost = [1 - view["winner"]] if game == "poker_dice" else \
        [s for s, b in enumerate(view["balances"]) if b < 0]
    result = page.locator("#result").inner_text()
    for seat in lost:
        expected = person.name if seat == person.seat else \
            words["Bot {n}"].replace("{n}", str(seat + 1))
        assert expected in result, (expected, result)
    assert not visible_view_keys(page, view)
    talk = page.locator("#talk")
    assert talk.get_attribute("aria-live") == "polite"
    assert result.splitlines()[-1] in talk.inner_text()  # the result was told too
    check_hidden(person, game, table, server, drawn)
    # The replay draws every position with the same table, seen from every seat.
    page.click("#replay-link")
    page.wait_for_url("**/replay/*")
    page.wait_for_load_state()
    page.wait_for_function("document.body.dataset.verified === 'yes'")
    assert page.locator(f"#board .replay-seat .{game.replace('_', '-')}").count() == players
    page.screenshot(path=str(ARTIFACTS / f"tables-{name}-replay.png"), full_page=True)
    assert not visible_view_keys(page, view)
    assert not person.errors
    page.context.close()


def test_a_match_of_poker_menteur_is_played_game_after_game_with_its_score(
        browser: Any, server: str) -> None:
    """Best of three against a bot: each game's page shows the match's score and, once the
    game is over, the way to the next game, until the match has its winner."""
    person = sit_at(browser, server, "Anna", "sv", PHONE)
    page = person.page
    name = page.inner_text("#me-name")
    response = page.request.post("/api/series", data={
        "format": "match", "game": "poker_dice", "players": [name, "bot:random"],
        "best_of": 3})
    assert response.status == 201, response.text()
    series = response.json()
    page.goto(f"/play/{series['tables'][0]['id']}")
    rng = random.Random(5)
    words = ui_strings("sv")
    games = 0
    while games < 5:  # a drawn game is dealt again inside its table: at most 3 count
        games += 1
        page.wait_for_selector("#match-score")
        play_out([person], lambda mover: poker_move(mover.page, rng))
        page.wait_for_function("document.body.dataset.series === 'over' || "
                               "!!document.getElementById('next-game')")
        score = page.inner_text("#match-score")
        assert re.search(r"\b[0-2] – [0-2]\b", score), score
        if page.evaluate("document.body.dataset.series") == "over":
            break
        page.click("#next-game")
        page.wait_for_url("**/play/*")
        person.frames.clear()
    summary = httpx.get(f"{server}/api/series/{series['id']}").json()
    assert summary["status"] == "over" and summary["score"] in ("2-0", "2-1", "1-2", "0-2")
    winner = name if summary["winner"] == name else words["Bot {n}"].split("{")[0]
    assert winner in page.inner_text("#series")
    assert words["{name} wins the match"].replace("{name}", "").strip() in \
        page.inner_text("#series")
    page.screenshot(path=str(ARTIFACTS / "tables-poker_dice-match-390x844-sv.png"),
                    full_page=True)
    assert games >= 2 and not person.errors
    page.context.close()
