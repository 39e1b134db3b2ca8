"""The browser's pages: home, rules, lobby, table, statistics, replays and the score keeper.

Pages are rendered on the server from Jinja templates and brought to life by small
JavaScript modules in ``static/`` (no build step). The table page plays over the same
WebSocket as every other client and draws each frame's ``view`` with the module the game's
registration names (``Parts.renderer``, a file under ``static/``; else
``static/games/default.js``), so no game knowledge lives here. The score keeper (``/keep``)
keeps its sheets in the browser (``localStorage``), in the account too when logged in
(:mod:`~kastkopp.server.sheets_api`), and asks ``POST /api/sheets/derive`` for every number;
a service worker (``/sw.js``) keeps the page working without a network, with the offline
stand-in each sheet kind names (``SheetKind.stand_in``). The table page's chat, the
advisor's hint and the replay's positions come from :mod:`~kastkopp.server.chat`,
:mod:`~kastkopp.server.hints` and :mod:`~kastkopp.server.replays`, mounted here with the
pages.

Language: ``?lang=sv|da|en`` chooses and remembers (a cookie); otherwise the browser's
``Accept-Language`` decides; English when nothing matches (:mod:`kastkopp.server.languages`).
Texts come from the gettext catalogs in :mod:`kastkopp.locale` (``messages.po``, compiled to
``messages.mo``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from kastkopp.engine import Game, RuleError
from kastkopp.games import default_game, load, registered
from kastkopp.locale import spoken
from kastkopp.server import accounts, hints, keeper, stats
from kastkopp.server import lobby as lobby_list
from kastkopp.server.languages import LANG_COOKIE, LANGUAGES, gettext, language, translations
from kastkopp.server.sheets_api import SheetBody, derive
from kastkopp.store import SeriesTable, Store
from kastkopp.strategy import bot_label, bot_offers

HERE = Path(__file__).parent

router = APIRouter(include_in_schema=False)


@cache
def environment(lang: str) -> Environment:
    """One Jinja environment per language, its gettext installed once."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(), extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    # a game's title or a rule's help, marked in the games and translated in their catalogs
    env.filters["said"] = lambda text: said(lang, text)
    return env


def said(lang: str, text: str) -> str:
    """A text marked in the games (a title, a rule's help) in ``lang``; "" stays ""."""
    return spoken(lang, text) if text else text


def page(request: Request, template: str, status_code: int = 200,
         **context: Any) -> HTMLResponse:
    lang = language(request)
    store: Store = request.app.state.store
    with store.session() as session:
        account = accounts.account_for(session, request.cookies.get(accounts.COOKIE))
    me = {"id": account.id, "name": account.name} if account else None
    body = environment(lang).get_template(template).render(
        lang=lang, languages=LANGUAGES, me=me, path=request.url.path,
        ui=script_json(ui_strings(lang)), **context)
    response = HTMLResponse(body, status_code=status_code)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


def script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` can end it early)."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")


def N_(message: str) -> str:
    """Marks a text for the catalogs; it is translated where it is shown."""
    return message


# Words the JavaScript shows; translated here so the scripts stay language-free.
UI = [N_("Your turn"), N_("Waiting for {name}"), N_("Game over"),
      N_("Connection lost: reconnecting…"), N_("Look in the cup"), N_("Hide the cup"),
      N_("Your dice"), N_("Claim"), N_("Bid"), N_("History"), N_("Winner"), N_("Points"),
      N_("Lives"), N_("Dice"), N_("Pot"), N_("Balance"), N_("Keep"), N_("Score"), N_("Roll"),
      N_("Last round"), N_("nobody yet"), N_("Start the game"),
      N_("Fill empty seats with a bot"), N_("Join this table"), N_("Waiting for players"),
      N_("Rows"), N_("Total"), N_("Upper section"), N_("Bonus"), N_("Throw {n} of {m}"),
      N_("Click dice to keep them, then roll again or choose a row"), N_("Seat"),
      N_("Dice commitment"),
      N_("Cups revealed"), N_("Place"), N_("Round {n}"),
      N_("ones wild"), N_("Replay"), N_("Saved in this browser"),
      N_("Offline: saved in this browser, checked again when the network returns"),
      N_("Saved in your account"), N_("Not saved in your account: {reason}"), N_("Delete"),
      N_("watching"), N_("Preparing the advisor…"),
      N_("The advisor's choices, best first (expected final score)"),
      # the hint of every game: its unit and the odds behind it (static/hint.js)
      N_("The advisor's choices, best first (expected score this turn)"),
      N_("The advisor's choices, best first (lives won or lost, both playing the solved game)"),
      N_("The advisor's choices, best first (dice won or lost, both playing the solved game)"),
      N_("The advisor's choices, best first (chips won against giving up now)"),
      N_("The advisor's choices, best first (the chance each is right)"),
      N_("Chance the dice make the claim: {p}"), N_("Chance to beat it by rolling: {p}"),
      N_("Chance to make the announced hand with the throws left: {p}"),
      N_("Your share of the pot at the showdown: {p}"), N_("Chance the standing bid holds: {p}"),
      N_("Chance of finishing ahead of the leading opponent, played to win: {p}"),
      N_("The odds now; no choice to rank here"), N_("Nothing to advise here"),
      N_("The dice seed is not revealed"), N_("The dice seed does not match its commitment"),
      N_("Roll {n} is not what the seed gives"),
      N_("Every roll ({n}) is what the committed seed gives"),
      # the tables of Knack, Linka and Poker Menteur
      N_("Match, best of {n}"),
      N_("{name} wins the match"),
      N_("Next game"),
      N_("no three of a kind"),
      N_("Throw again"),
      N_("lost the double knock"),
      N_("Bot {n}"), N_("Die showing {face}"), N_("Your move"), N_("Players"), N_("Paid in"),
      N_("Left"), N_("you"), N_("Result"), N_("At the table"), N_("{name} raises {n}"),
      N_("{name} calls"), N_("{name} checks"), N_("{name} folds"), N_("{name} goes all-in"),
      N_("{name} accepts"), N_("{name} refuses"), N_("Check"), N_("Call {n}"), N_("All-in"),
      N_("Raise"), N_("Fold"), N_("Accept"), N_("Refuse"), N_("{name} loses {n}"), N_("folded"),
      N_("winner"),
      N_("{name} wins the pot of {n}"), N_("{name} shares the pot of {n}"),
      N_("{name} wins the pot of {n}: everyone else folded"),
      N_("{asker} asks to go all-in: {name} accepts or refuses"),
      N_("{name} must call {n} or fold"), N_("three of a kind ({face})"),
      N_("a pair ({face})"), N_("keeps a {face}"), N_("throws all three again"),
      N_("Throw {n}: the dice are thrown"),
      N_("{name} keeps one die or throws all three again"),
      N_("{name} is worst placed and must knock or raise (at most {n})"),
      N_("{name} is worst placed and must knock"),
      N_("{name} may ask for a double knock for {n}"),
      N_("{asker} asks {name} for a double knock for {n}"),
      N_("{name} wins the pot of {n} with three of a kind ({face})"),
      N_("{name} shares the pot of {n} with three of a kind ({face})"), N_("The table"),
      N_("{name} throws {dice}"), N_("{name} throws {dice} = {sum} and pays {n}"),
      N_("{name} throws {dice} = {sum} and wins back {n}"), N_("{name} keeps a {face}"),
      N_("{name} throws all three again"), N_("{name} knocks"),
      N_("{name} asks for a double knock"), N_("{name} does not ask for a double knock"),
      N_("Keep the {face}"), N_("Click the die to keep"), N_("Throw all three again"),
      N_("Knock"), N_("Double knock ({n})"), N_("No double knock"), N_("worst placed"),
      N_("Throw {n}"), N_("Raise limit"), N_("To call"),
      N_("{list} and {last}"), N_("{other} threw five aces: {name} may throw to match them"),
      N_("{name} calls first: announce a hand"),
      N_("{name} has thrown and must announce higher"),
      N_("{name} doubts, or throws again and announces higher"),
      N_("{name} doubted the announcement {hand}"), N_("{name} had {hand}"),
      N_("{name} announces {hand}"), N_("{name} throws {n} dice again"),
      N_("{name} doubts: the screen is lifted"), N_("{name} gives up: the five aces win"),
      N_("{name} calls first"), N_("Both made five aces: dealt again"),
      N_("{name} throws five aces and shows them"), N_("Your dice: {hand}"), N_("Hand type"),
      N_("Which {n} alike"), N_("Single die {n}"), N_("Announce"), N_("Pick up: {face}"),
      N_("Throws left: {n}"), N_("Throw {n} dice again"), N_("Click dice to pick them up"),
      N_("Doubt"), N_("Give up: the five aces win"), N_("Poker dice"),
      N_("Ordinary dice, the ace high"), N_("Dealt again after five aces: {n}"),
      N_("Dice for the first call"), N_("Announcement"), N_("Throws"),
      N_("{name}'s dice behind the screen"), N_("{name} shows five aces"), N_("Five aces"),
      N_("Last deal drawn on five aces"), N_("The screen is lifted"), N_("This game"),
      N_("nine"), N_("ten"), N_("jack"), N_("queen"), N_("king"), N_("ace"), N_("two"),
      N_("three"), N_("four"), N_("five"), N_("six"), N_("a nine"), N_("a ten"), N_("a jack"),
      N_("a queen"), N_("a king"), N_("an ace"), N_("a two"), N_("a three"), N_("a four"),
      N_("a five"), N_("a six"), N_("nines"), N_("tens"), N_("jacks"), N_("queens"),
      N_("kings"), N_("aces"), N_("twos"), N_("threes"), N_("fours"), N_("fives"), N_("sixes"),
      N_("two {faces}"), N_("three {faces}"), N_("four {faces}"), N_("five {faces}"),
      N_("nothing"), N_("one pair"), N_("two pair"), N_("three of a kind"), N_("low straight"),
      N_("high straight"), N_("full house"), N_("four of a kind"), N_("five of a kind"),
      N_("The announcement held: {name} wins, {loser} loses"),
      N_("The announcement was false: {name} wins, {loser} loses"),
      N_("Five aces: {name} wins, {loser} loses"),
      # the dice seeds each person adds
      N_("The client seed is not made of the players' seeds"),
      N_("Each person's seed, added after the commitment:"), N_("a bot adds no seed"),
      N_("waiting for a seed"), N_("Your seed"), N_("Use this seed"),
      N_("A seed is 1 to 64 letters, digits or punctuation marks"),
      N_("Revealed server seed"), N_("its SHA-256 is the commitment"),
      # Slosch and liar's dice: pickers, moves and rounds told
      N_("Announce a value"), N_("Announce {value}"), N_("Believe and roll"), N_("Bid {bid}"),
      N_("Call: lift the cup"), N_("Click the dice to keep open"), N_("Exact!"),
      N_("Fewer dice"), N_("First rank"), N_("Hand"), N_("Keep {dice}, throw the rest"),
      N_("Liar!"), N_("More dice"), N_("Open on the table"), N_("Pass the cup on"),
      N_("Player"), N_("Second rank"), N_("Slosch"), N_("Take the cup"), N_("The cup"),
      N_("The hand was not there"), N_("The hand was there"), N_("There was 1"),
      N_("There were {n}"), N_("This round"), N_("Throw all five again"),
      N_("You roll {value}"), N_("Your bid"), N_("a die"), N_("a life"), N_("a point"),
      N_("exact"), N_("holds the cup"), N_("liar"), N_("out"), N_("palifico"),
      N_("the face stays {face}"), N_("{caller} calls {call} on {name}'s bid of {bid}"),
      N_("{caller} calls {name}'s {claim}: the cup shows {dice}"),
      N_("{name} announces {value}"), N_("{name} announces {value} and lifts the cup: {dice}"),
      N_("{name} believes it and rolls"),
      N_("{name} bids {bid}"), N_("{name} comes back to the start"),
      N_("{name} has rolled and announces a value"),
      N_("{name} keeps dice open and throws the rest"),
      N_("{name} keeps {dice} open and throws the rest"),
      N_("{name} loses the round: {reason}"), N_("{name} loses {what}"),
      N_("{name} opens the bidding"), N_("{name} passes the cup on without looking"),
      N_("{name} raises the bid or calls liar"), N_("{name} takes the cup"),
      N_("{name} takes the cup or calls liar on {bid}"), N_("{name} throws all five again"),
      N_("{name} was right and keeps what they have"), N_("{name} wins the game"),
      N_("{name} wins {what} back"), N_("{n} dice"), N_("{n} dice on the table"),
      N_("{n} dice under the cup"), N_("{n} lives"), N_("{n} points"), N_("{n} × {face}"),
      N_("{name} scored {n} in {row}"),
      N_("Play again"),
      N_("Refused"), N_("Edit"),

      N_("{claimer} announced {claim}: {name} may believe it and roll, call, or pass the cup on"),
      N_("a person, invited by link"), N_("Bots (the computer plays)"),
      # around the table: the move clock, a replay before the end, a visitor's invitation
      N_("{d} d {h} h"), N_("{h} h {m} min"), N_("You have {time} for this move"),
      N_("{name} has {time} for this move"),
      N_("This game is still being played: its dice can be checked here once it is over."),
      N_("Watch the table"),
      N_("You are invited to play: write your name at the top and press “Sit down”, "
         "then “Join this table”."),
      N_("Write your name"), N_("One die under the cup"),
      N_("rolls: the dice are shown at the end")]



def ui_strings(lang: str) -> dict[str, str]:
    return {**{text: gettext(lang, text) for text in UI}, **game_words(lang)}


@cache
def game_words(lang: str) -> dict[str, str]:
    """The words every game's page needs beyond the catalogs (:meth:`Game.page_words`)."""
    return {key: word for cls in registered().values()
            for key, word in cls.page_words(lang).items()}


def game_info(lang: str) -> list[dict[str, Any]]:
    return [{"name": name, "title": said(lang, cls.title), "summary": said(lang, cls.summary),
             "players": [cls.min_players, cls.max_players],
             "default_players": cls.default_players,
             "presets": {p: said(lang, cls.rules_class.PRESET_HELP.get(p, ""))
                         for p in cls.rules_class.PRESETS},
             # each rule named by its help and its choices by their words, as the keeper does
             "rules": keeper.rule_info(cls.rules_class, lang),
             # a menu shows each bot by its label; its name is what a seat is given
             "bots": {offer: {"label": bot_label(name, offer, lang), "help": help}
                      for offer, help in bot_offers(name).items()},
             # a few lines for players, named by the game (its Parts)
             "about": gettext(lang, cls.parts.about) if cls.parts.about else "",
             "advice": has_advice(name)}
            for name, cls in sorted(registered().items())]


@cache
def has_advice(game: str) -> bool:
    """Whether the game's default rules have an advisor (the lobby offers hints then)."""
    return hints.available(load(game))


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    return page(request, "home.html", games=game_info(language(request)))


@router.get("/games/{name}", response_class=HTMLResponse)
def rules_page(name: str, request: Request) -> Response:
    games = {g["name"]: g for g in game_info(language(request))}
    if name not in games:
        return RedirectResponse("/", status_code=303)
    return page(request, "rules.html", game=games[name])


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    store: Store = request.app.state.store
    after = request.app.state.settings.abandoned_after
    ids = await asyncio.to_thread(lobby_list.listed, store, ("open", "playing"), 50, after)
    hub = request.app.state.hub
    tables = [(await hub.get(i)).summary() for i in ids]
    lang = language(request)
    chosen = request.query_params.get("game", default_game("play"))
    return page(request, "lobby.html", tables=tables, games=game_info(lang), chosen=chosen,
                games_json=script_json(game_info(lang)))


@router.get("/play/{table_id}", response_class=HTMLResponse)
async def table_page(table_id: str, request: Request) -> HTMLResponse:
    live = await request.app.state.hub.get(table_id)
    summary = drawn(live.summary(), live.game)
    summary["hints"] = hints.available(live.game) and await asyncio.to_thread(
        hints.allowed, request.app.state.store, live.id)
    summary["series"] = await asyncio.to_thread(series_of, request.app.state.store, live.id)
    summary["bot_labels"] = bot_labels(live.game.name, [seat.get("bot") for seat in
                                                        summary["seats"]], language(request))
    return page(request, "table.html", table=summary, table_json=script_json(summary),
                base_url=str(request.base_url).rstrip("/"))


def bot_labels(game: str, seated: list[str | None], lang: str) -> dict[str, str]:
    """The bots a table may seat (the lobby's offers, and those seated) by their labels in
    ``lang``, so the page names a bot as the lobby's menu did."""
    labels = {}
    for name in {*bot_offers(game), *filter(None, seated)}:
        with contextlib.suppress(RuleError):  # a bot this server does not have: its name
            labels[name] = bot_label(game, name, lang)
    return labels


def drawn(summary: dict[str, Any], game: Game) -> dict[str, Any]:
    """A table's summary with the browser module that draws its views, as the game names it."""
    return {**summary, "renderer": f"/static/{game.parts.renderer or 'games/default.js'}"}


def series_of(store: Store, table_id: str) -> str | None:
    """The match or tournament a table is a game of (the page shows its score)."""
    with store.session() as session:
        link = session.get(SeriesTable, table_id)
        return None if link is None else link.series_id


# --------------------------------------------------------------------------- statistics, replays


@router.get("/stats/{game}", response_class=HTMLResponse)
def stats_page(game: str, request: Request) -> Response:
    games = {g["name"]: g for g in game_info(language(request))}
    if game not in games:
        return RedirectResponse("/", status_code=303)
    store: Store = request.app.state.store
    return page(request, "stats.html", game=games[game], games=list(games.values()),
                seats=stats.by_seat(store, game), board=stats.leaderboard(store, game)[:50],
                ladder=stats.ladder(request.app.state.settings.ladders, game))


@router.get("/players/{name}", response_class=HTMLResponse)
def player_page(name: str, request: Request) -> HTMLResponse:
    store: Store = request.app.state.store
    games = stats.history(store, name[:40], 200)
    return page(request, "player.html", name=name[:40], games=games)


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def replay_page(table_id: str, request: Request) -> HTMLResponse:
    live = await request.app.state.hub.get(table_id)
    summary = drawn(live.summary(), live.game)
    return page(request, "replay.html", table=summary, table_json=script_json(summary))


# --------------------------------------------------------------------------- the score keeper


@router.get("/keep", response_class=HTMLResponse)
def keeper_page(request: Request) -> HTMLResponse:
    lang = language(request)
    kinds = keeper.kinds_info(lang)
    return page(request, "keeper.html", kinds=kinds,
                keeper=script_json({"kinds": kinds, "words": keeper.words(lang)}))


@router.post("/api/sheets/derive")
def derive_sheet(body: SheetBody, request: Request) -> dict[str, Any]:
    """Every number of a sheet, derived from its entries by :mod:`kastkopp.sheets`; the
    grid's words in the page's language."""
    sheet = derive(body)
    return keeper.told(sheet, sheet.to_json(), language(request))


@router.get("/sw.js")
def service_worker() -> Response:
    """The offline worker, served from the root so it may keep the score keeper's page, with
    the stand-ins the sheet kinds name written in."""
    return Response(worker_script(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@cache
def worker_script() -> str:
    script = (HERE / "static" / "sw.js").read_text(encoding="utf-8")
    return script.replace("const STAND_INS = [];",
                          f"const STAND_INS = {json.dumps(keeper.stand_ins())};", 1)
