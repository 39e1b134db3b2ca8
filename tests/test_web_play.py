"""The browser front end, played in headless Chromium by people in separate browsers.

Debian's ``chromium`` drives these tests (``scripts/install-chromium.sh`` installs it;
``make test`` runs the script). Without it, or without the ``playwright`` package, the
tests skip — except under ``CI=true``, where that is a failure. Screenshots of every
table are saved under ``test-artifacts/``.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from kastkopp.games import game_class

# slow: every test drives a real browser (Chromium)
pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
IN_CI = os.environ.get("CI", "").lower() == "true"
TIMEOUT = 15_000  # ms for any one condition to come true


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(reason)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    """``python -m kastkopp.server`` on ``port``, once it answers.

    Without the warm-up: it would solve every standard Yatzy preset missing from the disk
    cache in the server's one worker, a core busy for minutes under the browser tests (and
    a solve lost with each module's server); a test that needs a table asks for it."""
    process = subprocess.Popen([sys.executable, "-m", "kastkopp.server", "--port", str(port),
                                "--db", str(db), "--log-level", "warning",
                                "--bot-delay", "0", "--no-warm-up"])
    deadline = time.monotonic() + 90  # a start took over 30 s at a load average of 17
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on a free port with a fresh SQLite database."""
    port = free_port()
    process = start_server(tmp_path_factory.mktemp("web") / "kastkopp.db", port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


@dataclass
class SharedChromium:
    """One Chromium for a run of browser tests one after the other, whatever their module:
    launching it costs seconds. Each test's own contexts (its people) are closed after it,
    and Chromium itself once the next test needs no browser (tests/conftest.py): while it
    runs, this thread belongs to Playwright's event loop and ``asyncio.run`` would fail."""

    playwright: Any = None
    chromium: Any = None

    def get(self, config: pytest.Config) -> Any:
        if self.chromium is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError:
                _missing("the playwright package is not installed")
            if not CHROMIUM.exists():
                _missing("no /usr/bin/chromium: run scripts/install-chromium.sh")
            self.playwright = sync_playwright().start()
            config.add_cleanup(self.close)  # an interrupted run closes it too
            self.chromium = self.playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=ARGS)
        return self.chromium

    def close(self) -> None:
        if self.chromium is not None:
            self.chromium.close()
            self.chromium = None
        if self.playwright is not None:
            self.playwright.stop()
            self.playwright = None


SHARED = SharedChromium()


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Chromium: people sit down in contexts of their own (:func:`sit`)."""
    chromium = SHARED.get(request.config)
    yield chromium
    for context in chromium.contexts:
        context.close()
    # Chromium itself is closed by conftest.pytest_runtest_teardown, which knows the test
    # this process runs next


@dataclass
class Person:
    """One person in their own browser context, with every WebSocket frame they received."""

    page: Any
    name: str
    frames: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def seat(self) -> int:
        return int(self.page.evaluate("document.body.dataset.seat"))

    def wait(self, script: str, arg: Any = None) -> Any:
        return self.page.wait_for_function(script, arg=arg, timeout=TIMEOUT).json_value()


def sit(browser: Any, server: str, name: str, lang: str = "en") -> Person:
    """A person opens the home page and sits down as a guest."""
    context = browser.new_context(base_url=server, locale=lang,
                                  viewport={"width": 900, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    person = Person(page, name)
    page.on("pageerror", lambda error: person.errors.append(str(error)))
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: person.frames.append(json.loads(payload))))
    page.goto("/")
    page.fill("#nickname", name)
    page.click("#guest-form button")
    page.wait_for_selector("#me-name")
    return person


def create_table(person: Person, game: str, seats: list[str], players: int | None = None,
                 rules: dict[str, str] | None = None, preset: str = "",
                 form: dict[str, str] | None = None) -> str:
    """The person makes a table in the lobby's form; the table's id, once the page shows it.

    ``seats`` are the others ('' a person, else a bot's name), ``rules`` house rules by name
    and ``form`` any other field of the form by its id: a menu is chosen from, a box filled,
    a checkbox set "on" or "off".

        create_table(anna, "mia", ["bot:random"], players=2,
                     form={"clock": "live", "seconds": "90", "pace": "0"})
    """
    page = person.page
    page.goto(f"/lobby?game={game}")
    if preset:
        page.select_option("#preset", preset)
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    for index, seat in enumerate(seats, start=1):
        if seat:
            page.select_option(f"#seat-{index}", seat)
    for name, value in (rules or {}).items():
        page.fill(f"#rule-{name}", value)
    for field_id, value in (form or {}).items():
        if page.locator(f"select#{field_id}").count():
            page.select_option(f"#{field_id}", value)
        elif page.locator(f"input#{field_id}[type=checkbox]").count():
            page.set_checked(f"#{field_id}", value == "on")
        else:
            page.fill(f"#{field_id}", value)
    page.click("#create-button")
    page.wait_for_url("**/play/*")
    return str(page.url.rsplit("/", 1)[1])


def join(person: Person, table: str, owner: Person) -> None:
    """The person opens the invitation, sits down, and the owner starts once they see it."""
    person.page.goto(f"/play/{table}")
    person.page.click("#join")
    person.page.wait_for_selector("#join", state="detached")
    owner.page.wait_for_selector(f"#seating li:has-text('{person.name}')")


def random_move(person: Person, rng: random.Random) -> None:
    """Click one of the offered moves: a button, or a choice from a list and its button."""
    page = person.page
    buttons = page.locator("#controls button[data-action]:enabled, "
                           "#board button[data-action]:enabled")
    groups = page.locator("#controls button[data-verb]")
    options = buttons.count() + groups.count()
    pick = rng.randrange(options)
    if pick < buttons.count():
        buttons.nth(pick).click()
        return
    verb = groups.nth(pick - buttons.count()).get_attribute("data-verb")
    select = page.locator(f"#choose-{verb}")
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    # Low bids and claims keep a random game short and full of calls.
    select.select_option(values[min(int(rng.expovariate(0.7)), len(values) - 1)])
    groups.nth(pick - buttons.count()).click()


def play_out(people: list[Person], move: Callable[[Person], None], limit: int = 600) -> None:
    """Whoever's turn it is moves, until the game is over; no sleeps, only conditions."""
    watcher = people[0]
    seq = -1
    for _ in range(limit):
        humans = [p.seat for p in people]
        state = watcher.wait("""([seq, humans]) => {
            const d = document.body.dataset;
            if (d.seq === undefined || +d.seq <= seq) return null;
            if (d.status === 'over') return 'over';
            return humans.includes(+d.toMove) && d.toMove !== '' ? [+d.seq, +d.toMove] : null;
        }""", [seq, humans])
        if state == "over":
            return
        seq, seat = state
        mover = next(p for p in people if p.seat == seat)
        mover.wait("seq => document.body.dataset.mine === 'yes' && +document.body.dataset.seq "
                   "=== seq", seq)
        move(mover)
    raise AssertionError("the game did not end")


def screenshot(person: Person, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    person.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def dice_outside_reveal(person: Person) -> list[int]:
    """Faces of the dice drawn on the table (or docked as one's own) outside the revealed
    last round."""
    return [int(f) for f in person.page.eval_on_selector_all(
        "#board .die, #controls .own-dice .die", "ds => ds.filter(d => !d.closest('.reveal'))"
        ".map(d => d.dataset.face)")]


def states(person: Person) -> list[dict[str, Any]]:
    return [f for f in person.frames if f.get("type") == "state" and "view" in f]


def frame_at(person: Person, seq: int) -> dict[str, Any]:
    """The frame of position ``seq`` among those the person's browser received."""
    for _ in range(200):
        found = [f for f in states(person) if f["seq"] == seq]
        if found:
            return found[-1]
        person.page.wait_for_timeout(10)  # the frame event is on its way from the browser
    raise AssertionError(f"no frame {seq} reached {person.name}")


def own_dice(view: dict[str, Any]) -> list[int]:
    return sorted(int(f) for f in (view.get("your_dice") or []) if str(f).isdigit())


def assert_only_own_dice_drawn(person: Person) -> None:
    """Outside the revealed last round, the only dice drawn are the person's own."""
    seq = int(person.page.evaluate("document.body.dataset.seq"))
    drawn = sorted(dice_outside_reveal(person))
    if person.page.locator(".cup.closed").count():
        assert drawn == []
    else:
        assert drawn == own_dice(frame_at(person, seq)["view"])


# --------------------------------------------------------------------------- the games


def test_two_people_play_a_full_game_of_slosch(browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    ben = sit(browser, server, "Ben")
    table = create_table(anna, "mia", [""], players=2)
    join(ben, table, anna)
    anna.page.click("#start")
    anna.wait("document.body.dataset.status === 'playing'")
    rng = random.Random(7)
    looked = {"done": False}

    def move(person: Person) -> None:
        assert_only_own_dice_drawn(person)
        if person.page.locator(".cup.closed").count():
            person.page.click(".cup-button")
            person.page.wait_for_selector(".cup.open .die")
            assert_only_own_dice_drawn(person)
            if not looked["done"]:
                screenshot(person, "slosch-table")
            looked["done"] = True
        random_move(person, rng)

    play_out([anna, ben], move)
    for person in (anna, ben):
        person.page.wait_for_selector("#ranking")
        assert person.page.locator("#status").inner_text() == "Game over"
        assert not person.errors
    assert looked["done"]
    screenshot(ben, "slosch-over")
    # Network: a seat's frames carry dice only when that seat rolled them.
    for person in (anna, ben):
        seat = person.seat
        for frame in states(person):
            view = frame["view"]
            assert view["seat"] == seat
            if "your_dice" in view:
                assert view["roller"] == seat
            if view.get("last_round") and frame["status"] == "playing":
                assert view["last_round"]["round"] < view["round"]


def test_a_finished_game_replays_with_every_roll_shown_and_counts_in_the_statistics(
        browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    table = create_table(anna, "mia", ["bot:random"], players=2)
    anna.page.click("#start")
    play_out([anna], lambda person: random_move(person, random.Random(5)))
    page = anna.page
    page.click("#replay-link")
    page.wait_for_function("document.body.dataset.verified === 'yes'")
    rolls = page.locator("#events li.roll")
    assert rolls.count() > 0
    assert rolls.locator(".die").count() == 2 * rolls.count()  # every cup shown
    total = int(page.evaluate("document.body.dataset.step"))
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.body.dataset.step") == str(total - 1)
    page.click("#first")
    assert page.locator("#events li:visible").count() == 0
    name = page.inner_text("#me-name")
    page.goto("/stats/mia")
    assert name in page.locator("#leaderboard").inner_text()
    page.goto(f"/players/{name}")
    assert page.locator(f"#history a[href='/replay/{table}']").count() == 1


def test_perudo_with_a_bot_in_the_third_seat(browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    ben = sit(browser, server, "Ben")
    table = create_table(anna, "liars_dice", ["", "bot:random"], players=3,
                         rules={"dice": "2"})
    join(ben, table, anna)
    anna.page.click("#start")
    rng = random.Random(3)
    shots = {"done": False}

    def move(person: Person) -> None:
        view = frame_at(person, int(person.page.evaluate("document.body.dataset.seq")))["view"]
        assert_only_own_dice_drawn(person)
        if person.page.locator(".cup.closed").count():
            person.page.click(".cup-button")
        person.page.wait_for_selector(".cup.open .die")
        assert_only_own_dice_drawn(person)
        if not shots["done"] and view["history"]:
            screenshot(person, "perudo-table")
            shots["done"] = True
        random_move(person, rng)

    play_out([anna, ben], move)
    for person in (anna, ben):
        person.page.wait_for_selector("#ranking")
        assert not person.errors
    screenshot(anna, "perudo-over")
    # Network: every cup revealed at the end of a round is the one its owner was sent in
    # that round, and nobody was sent another seat's cup before the reveal.
    for person in (anna, ben):
        seat = person.seat
        mine = {f["view"]["round"]: f["view"]["your_dice"] for f in states(person)
                if "your_dice" in f["view"]}
        revealed = {f["view"]["last_round"]["round"]: f["view"]["last_round"]["cups"]
                    for f in states(person) if f["view"].get("last_round")}
        assert revealed, "no round was ever revealed"
        for round_number, cups in revealed.items():
            if round_number in mine:
                assert sorted(cups[seat]) == sorted(mine[round_number])
        for frame in states(person):
            view = frame["view"]
            assert view["seat"] == seat
            text = json.dumps({k: v for k, v in view.items() if k != "last_round"})
            assert '"cups"' not in text
            if view.get("last_round") and frame["status"] == "playing":
                assert view["last_round"]["round"] < view["round"]


def test_yatzy_to_its_final_table_and_a_reload_resumes(browser: Any, server: str) -> None:
    anna = sit(browser, server, "Anna")
    create_table(anna, "yatzy", ["bot:random"], players=2)
    anna.page.click("#start")
    rng = random.Random(11)
    moves = {"n": 0}

    def move(person: Person) -> None:
        page = person.page
        moves["n"] += 1
        if moves["n"] == 5:
            before = page.locator("#sheet").inner_text()
            seq = page.evaluate("document.body.dataset.seq")
            page.reload()
            person.wait("seq => document.body.dataset.seq === seq && "
                        "document.body.dataset.mine === 'yes'", seq)
            assert page.locator("#sheet").inner_text() == before
        if moves["n"] == 8:
            screenshot(person, "yatzy-table")
        roll = page.locator("#roll")
        if roll.is_enabled() and rng.random() < 0.6:  # a throw is left
            for index in range(5):
                if rng.random() < 0.5:
                    page.click(f".die-button[data-index='{index}']")
            if not roll.is_enabled():  # keeping all five is no throw
                page.click(".die-button.kept >> nth=0")
            roll.click()
        else:
            scores = page.locator("#sheet button[data-action]")
            scores.nth(rng.randrange(scores.count())).click()

    play_out([anna], move)
    anna.page.wait_for_selector("#ranking")
    totals = anna.page.locator("#sheet tr.sum").last.inner_text()
    last = states(anna)[-1]
    assert last["status"] == "over"
    assert [str(t) for t in last["view"]["totals"]] == totals.split()[1:]
    assert all(None not in sheet for sheet in last["view"]["sheets"])
    assert not anna.errors
    screenshot(anna, "yatzy-over")


def test_a_lost_connection_shows_and_recovers_by_itself(browser: Any,
                                                       tmp_path: Path) -> None:
    port, db = free_port(), tmp_path / "kastkopp.db"
    process = start_server(db, port)
    try:
        anna = sit(browser, f"http://127.0.0.1:{port}", "Anna")
        create_table(anna, "yatzy", [], players=1)
        anna.page.click("#start")
        anna.wait("document.body.dataset.mine === 'yes'")
        anna.page.click("#roll")
        anna.wait("document.body.dataset.mine === 'yes' && +document.body.dataset.seq > 1")
        seq = int(anna.page.evaluate("document.body.dataset.seq"))
        sheet = anna.page.locator("#sheet").inner_text()
        process.kill()  # the server goes away mid-game
        process.wait()
        anna.wait("document.body.dataset.connected === 'no'")
        assert anna.page.locator("#status").inner_text() == "Connection lost: reconnecting…"
        process = start_server(db, port)
        anna.wait("document.body.dataset.connected === 'yes' && "
                  "document.body.dataset.mine === 'yes'")
        assert anna.page.locator("#status").inner_text() == "Your turn"
        assert anna.page.locator("#sheet").inner_text() == sheet
        anna.page.click("#sheet button[data-action='score chance']")
        anna.wait("seq => +document.body.dataset.seq > seq", seq)  # the move was made
        assert not anna.errors
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_every_game_without_its_own_drawing_plays_in_the_page(browser: Any,
                                                             server: str) -> None:
    games = [g for g in httpx.get(server + "/api/games").json()
             if not game_class(g["name"]).parts.renderer]
    anna = sit(browser, server, "Anna")
    rng = random.Random(2)
    for game in games:
        bots = ["bot:random"] * (max(2, game["players"][0]) - 1)
        create_table(anna, game["name"], bots, players=len(bots) + 1)
        anna.page.click("#start")
        play_out([anna], lambda person: random_move(person, rng))
        anna.page.wait_for_selector("#ranking")
        screenshot(anna, f"{game['name']}-over")
    assert not anna.errors


# --------------------------------------------------------------------------- languages


def test_the_language_follows_the_browser_and_the_switch(browser: Any, server: str) -> None:
    context = browser.new_context(base_url=server, locale="sv-SE")
    page = context.new_page()
    page.goto("/")
    assert page.locator("h1").inner_text() == "Tärningsspel från Skandinavien"
    page.select_option("#lang", "da")
    page.wait_for_url("**lang=da")
    assert page.locator("h1").inner_text() == "Terningspil fra Skandinavien"
    page.goto("/lobby")  # the choice is remembered
    assert page.locator("#create-button").inner_text() == "Opret bordet"
    page.select_option("#lang", "en")
    page.wait_for_url("**lang=en")
    assert page.locator("#create-button").inner_text() == "Create the table"
    context.close()


# --------------------------------------------------------------------------- the score keeper

# Seed 003's worked example: Anna, Ben, Cara and the cells of 13 rounds.
SEED_CELLS = ["0 1 0", "1 0 0", "0 1 0", "0 0 1", "-1 0 0", "0 1 0", "0 0 1", "0 1 0",
              "0 1 0", "0 - 1", "1 - 0", "0 - 1", "0 - 1"]


def standings(page: Any) -> list[str]:
    return page.locator("#standings li").all_inner_texts()


def add_entry(page: Any, text: str) -> None:
    count = int(page.evaluate("document.body.dataset.entries || '0'"))
    page.fill("#entry", text)
    page.click("#add")
    page.wait_for_function("n => +document.body.dataset.entries === n", arg=count + 1)


def new_liars_sheet(page: Any) -> None:
    """Open the score keeper (its offline worker ready) on a new liar's dice sheet for
    Anna, Ben and Cara, as seed 003 plays."""
    page.goto("/keep")
    page.evaluate("navigator.serviceWorker.ready")
    page.select_option("#sheet-game", "liars_dice")
    page.fill("#sheet-players", "Anna, Ben, Cara")
    page.click("#new-sheet-button")
    page.wait_for_selector("#sheet-table")


def test_the_score_keeper_fills_seed_003_and_keeps_working_offline(browser: Any,
                                                                   server: str) -> None:
    context = browser.new_context(base_url=server, locale="en")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    new_liars_sheet(page)
    for cells in SEED_CELLS:
        add_entry(page, cells)
    assert standings(page) == ["1. Anna · 4", "2. Cara · 0", "3. Ben · 0"]
    assert page.evaluate("document.body.dataset.finished") == "yes"
    # A wrong entry is refused with the reason and changes nothing.
    page.fill("#entry", "loss Zed")
    page.click("#add")
    page.wait_for_function("document.getElementById('entry-error').textContent !== ''")
    assert "Zed" in page.inner_text("#entry-error")
    assert page.evaluate("document.body.dataset.entries") == "13"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keeper-seed-003.png"), full_page=True)

    context.set_offline(True)
    page.reload()
    page.wait_for_function("document.body.dataset.online === 'no'")
    assert standings(page) == ["1. Anna · 4", "2. Cara · 0", "3. Ben · 0"]
    page.click("#undo")
    page.wait_for_function("document.body.dataset.entries === '12'")
    assert standings(page) == ["1. Anna · 4", "2. Cara · 1", "3. Ben · 0"]
    assert page.evaluate("document.body.dataset.finished") == "no"
    add_entry(page, "0 - 1")
    page.close()

    page = context.new_page()  # the tab closed and opened again, still without a network
    page.set_default_timeout(TIMEOUT)
    page.goto("/keep")
    page.wait_for_function("document.body.dataset.entries === '13'")
    assert standings(page) == ["1. Anna · 4", "2. Cara · 0", "3. Ben · 0"]
    assert page.evaluate("document.body.dataset.online") == "no"
    assert page.locator("#known-players option").count() == 3  # the players are remembered

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.body.dataset.online === 'yes'")
    assert standings(page) == ["1. Anna · 4", "2. Cara · 0", "3. Ben · 0"]
    context.close()
