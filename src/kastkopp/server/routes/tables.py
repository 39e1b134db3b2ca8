"""The games on offer and the tables: the lobby, making a table, seats, seeds and the start."""

from __future__ import annotations

import asyncio
from collections.abc import Container, Hashable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from kastkopp.engine import KastkoppError
from kastkopp.games import default_game, registered
from kastkopp.server import hints
from kastkopp.server.deps import HubDep, LimiterDep, Me, SettingsDep, StoreDep, TableId, address
from kastkopp.server.lobby import listed
from kastkopp.server.service.bots import new_solve
from kastkopp.server.service.live import LiveTable, check_rules
from kastkopp.server.service.seating import seated_bot
from kastkopp.store import Account
from kastkopp.strategy import bot_offers

router = APIRouter()


class TimeControl(BaseModel):
    """No clock, live (seconds per move) or correspondence (hours or days per move)."""

    kind: str = Field(default="none", pattern="^(none|live|correspondence)$")
    seconds: int | None = Field(default=None, ge=1, le=3600)
    hours: int | None = Field(default=None, ge=1, le=24 * 60)
    days: int | None = Field(default=None, ge=1, le=60)
    on_timeout: str = Field(default="move", pattern="^(move|lose)$")

    def seconds_per_move(self) -> int | None:
        if self.kind == "live":
            return self.seconds or 60
        if self.kind == "correspondence":
            return (self.days or 0) * 86400 + (self.hours or 0) * 3600 or 86400
        return None


class CreateTable(BaseModel):
    game: str = Field(max_length=40, examples=[default_game("play")])
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, str | int | bool] = Field(default_factory=dict)
    players: int | None = Field(default=None, ge=1, le=20)
    seats: list[str | None] = Field(default_factory=list, max_length=20,
                                    description="per seat: a bot ('bot:random', with its "
                                    "budget 'bot:ismcts:sims=150') or null")
    time_control: TimeControl = Field(default_factory=TimeControl)
    client_seed: str | None = Field(default=None, max_length=64, description="refused: "
                                     "seeds are added after the table is made")
    sit: bool = Field(default=True, description="take the first free seat yourself")
    hints: bool = Field(default=True, description="players may ask the advisor for a hint "
                        "(games with an advisor)")
    pace: float | None = Field(default=None, ge=0, le=5, description="seconds before each "
                               "bot's move, so the others' moves are seen one at a time "
                               "(default: the server's pace)")


class JoinBody(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=19)
    seed: str | None = Field(default=None, description="your seed for the dice: 1 to 64 "
                             "printable characters, no spaces")


class SeedBody(BaseModel):
    seed: Any = Field(description="your seed for the dice: 1 to 64 printable characters, "
                      "no spaces", examples=["3f9a0c27d1e84b65"])


class BotBody(BaseModel):
    bot: str = Field(max_length=40, examples=["random", "ismcts:sims=150"])


class StartBody(BaseModel):
    fill: str | None = Field(default=None, max_length=40,
                             description="a bot for every empty seat")
    seed: str | None = Field(default=None, description="your own seed for the dice, if "
                             "you have not added it yet")


@router.get("/api/games", tags=["games"])
def games() -> list[dict[str, Any]]:
    return [{"name": name, "title": cls.title, "summary": cls.summary,
             "players": [cls.min_players, cls.max_players],
             "default_players": cls.default_players,
             "presets": {p: cls.rules_class.PRESET_HELP.get(p, "")
                         for p in cls.rules_class.PRESETS},
             "rules": [s.to_json() for s in cls.rules_class.specs()],
             "bots": bot_offers(name)}
            for name, cls in sorted(registered().items())]


@router.get("/api/tables", tags=["tables"])
async def lobby(hub: HubDep, store: StoreDep, settings: SettingsDep,
                status: Annotated[str, Query(pattern="^(open|playing|over)$")] = "open",
                limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
    """The tables with that status, newest first; being played, not the abandoned ones
    (nobody has moved for the server's ``--abandoned-after``)."""
    ids = await asyncio.to_thread(listed, store, (status,), limit, settings.abandoned_after)
    return [(await hub.get(i)).summary() for i in ids]


def _pending(request: Request) -> Container[Hashable]:
    """The works the server's workers are doing (asked for already: not new)."""
    workers = getattr(request.app.state, "workers", None)
    return () if workers is None else set(workers.pending)


def _asks_new_solve(body: CreateTable, pending: Container[Hashable]) -> bool:
    """Whether the table asked for has a bot needing a rule set nobody has solved (bad
    rules or bots: no, and the table's making says what is wrong)."""
    try:
        game = check_rules(body.game, body.preset, dict(body.rules), body.players)
        bots = [(seat, seated_bot(game.name, spec)) for seat, spec in enumerate(body.seats)
                if spec and seat < game.players]
    except KastkoppError:
        return False
    return new_solve(game, bots, pending)


def _seated_asks_new_solve(live: LiveTable, bot: str, seats: list[int],
                           pending: Container[Hashable]) -> bool:
    """Whether ``bot`` in ``seats`` asks for a new solve the table's bots did not already
    ask for (counted when they were seated)."""
    try:
        name = seated_bot(live.game.name, bot)
    except KastkoppError:
        return False
    seated = [(i, s.bot) for i, s in enumerate(live.seats) if s.bot is not None]
    return not new_solve(live.game, seated, pending) and \
        new_solve(live.game, [(seat, name) for seat in seats], pending)


async def _count_new_solve(limiter: LimiterDep, request: Request, me: Account,
                           asked: bool) -> None:
    """A new rule set to solve counts against the account's and the address's limit (and is
    refused, nothing changed, when either is used up)."""
    if asked:
        await limiter.new_rules(address(request), me.id)


@router.post("/api/tables", status_code=201, tags=["tables"])
async def create(body: CreateTable, hub: HubDep, store: StoreDep, me: Me,
                 limiter: LimiterDep, request: Request) -> dict[str, Any]:
    await _count_new_solve(limiter, request, me, await asyncio.to_thread(
        _asks_new_solve, body, _pending(request)))
    table_id = await asyncio.to_thread(
        hub.create, me, body.game, body.preset, dict(body.rules), body.players,
        list(body.seats), body.time_control.kind, body.time_control.seconds_per_move(),
        body.time_control.on_timeout, body.client_seed, body.sit, body.pace)
    if not body.hints:
        await asyncio.to_thread(hints.set_allowed, store, table_id, False)
    return (await hub.get(table_id)).summary()


@router.get("/api/tables/{table_id}", tags=["tables"])
async def table(table_id: TableId, hub: HubDep) -> dict[str, Any]:
    return (await hub.get(table_id)).summary()


@router.post("/api/tables/{table_id}/join", tags=["tables"])
async def join(table_id: TableId, body: JoinBody, hub: HubDep, me: Me) -> dict[str, Any]:
    return (await hub.join(table_id, me, body.seat, body.seed)).summary()


@router.post("/api/tables/{table_id}/seed", tags=["tables"])
async def seed(table_id: TableId, body: SeedBody, hub: HubDep, me: Me) -> dict[str, Any]:
    """Add your seed to the table's dice (or replace it) before the game starts: the
    dice come from the server's committed seed and every seated person's seed."""
    return (await hub.contribute(table_id, me, body.seed)).summary()


@router.post("/api/tables/{table_id}/leave", tags=["tables"])
async def leave(table_id: TableId, hub: HubDep, me: Me) -> dict[str, Any]:
    return (await hub.leave(table_id, me)).summary()


@router.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["tables"])
async def seat_bot(table_id: TableId, seat: Annotated[int, Path(ge=0, le=19)],
                   body: BotBody, hub: HubDep, me: Me, limiter: LimiterDep,
                   request: Request) -> dict[str, Any]:
    live = await hub.get(table_id)
    if live.status == "open" and live.owner_id == me.id and 0 <= seat < live.game.players \
            and live.seats[seat].empty:
        await _count_new_solve(limiter, request, me, await asyncio.to_thread(
            _seated_asks_new_solve, live, body.bot, [seat], _pending(request)))
    return (await hub.seat_bot(table_id, me, seat, body.bot)).summary()


@router.post("/api/tables/{table_id}/start", tags=["tables"])
async def start(table_id: TableId, body: StartBody, hub: HubDep, me: Me,
                limiter: LimiterDep, request: Request) -> dict[str, Any]:
    live = await hub.get(table_id)
    empty = [i for i, s in enumerate(live.seats) if s.empty]
    if body.fill and empty and live.status == "open" and live.owner_id == me.id:
        await _count_new_solve(limiter, request, me, await asyncio.to_thread(
            _seated_asks_new_solve, live, body.fill, empty, _pending(request)))
    return (await hub.start(table_id, me, body.fill, body.seed)).summary()


@router.get("/tables/{table_id}", include_in_schema=False)
async def invite(table_id: TableId, hub: HubDep) -> Response:
    """Older invitations: the table's page is the invitation now."""
    live = await hub.get(table_id)
    return RedirectResponse(f"/play/{live.id}", status_code=303)
