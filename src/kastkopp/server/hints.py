"""The advisor's hint at a table: ranked choices for the seat that asks, from its own view.

- ``GET /api/tables/{id}/hint`` — ``200 {"status": "ready", "seq", "unit", "choices":
  [{"choice", "expected"}, ...], "facts": {name: chance}, "said": {choice: words}}``: the
  choices best first (``said``: each as the player would type it, in their language), each
  worth ``expected`` in ``unit`` (points, lives, dice, chips, or the chance it is right),
  and the odds of the position; or ``202 {"status": "preparing"}`` while the advisor gets
  ready (ask again in a moment)

Only a seated player may ask, only on that seat's turn, and only from that seat's view
(``state.view(seat)``, and the legal choices the seat is shown), so a hint can never tell
more than the seat may know. Which games
have an advisor is the strategy modules' business (:mod:`kastkopp.strategy.advice`); a
table's creator may turn hints off (``"hints": false`` when the table is made).

Preparing an advisor can take seconds (solving a Yatzy rule set) and is done once per
rule set in a worker process (:mod:`kastkopp.server.workers`), so the event loop keeps
serving every other table; with too many solves waiting already the answer is ``503``
with ``Retry-After``, and nothing starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse, Response

from kastkopp.engine import Game, KastkoppError, notations
from kastkopp.server.deps import LimiterDep, Me, address
from kastkopp.server.hub import Hub, LiveTable
from kastkopp.server.languages import language
from kastkopp.server.workers import Workers
from kastkopp.store import Account, Store, TableSetting
from kastkopp.strategy.advice import Advisor, advisor_for

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]

router = APIRouter(tags=["play"])


class HintError(KastkoppError):
    """No hint can be given here, and why."""


def available(game: Game) -> bool:
    """Whether the game under its rules has an advisor at all."""
    return advisor_for(game) is not None


def set_allowed(store: Store, table_id: str, allowed: bool) -> None:
    """Record the creator's choice (tables without a record allow hints)."""
    with store.session() as session:
        row = session.get(TableSetting, table_id)  # the pace may be set already
        if row is None:
            session.add(TableSetting(table_id=table_id, hints=allowed))
        else:
            row.hints = allowed


def allowed(store: Store, table_id: str) -> bool:
    with store.session() as session:
        setting = session.get(TableSetting, table_id)
        return setting is None or setting.hints


class Preparations:
    """One preparation per advisor key, in a worker process (or a thread, for an advisor
    without work for one); its failure is told once, and the next question tries again."""

    def __init__(self, workers: Workers | None = None) -> None:
        self.workers = workers
        self.tasks: dict[Hashable, asyncio.Task[None]] = {}

    def ready(self, advisor: Advisor) -> bool:
        """True once prepared; otherwise starts (or keeps waiting for) the preparation.
        Raises :class:`~kastkopp.server.workers.Busy` when the workers' queue is full."""
        if advisor.ready():
            self.tasks.pop(advisor.key, None)
            return True
        task = self.tasks.get(advisor.key)
        if task is not None and task.done():
            del self.tasks[advisor.key]
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise HintError("the advisor could not get ready: {error}", error=str(error))
            task = None  # done, and already forgotten again: prepare once more
        if task is None:
            work = advisor.work()
            if work is not None and self.workers is not None:
                task = self.workers.submit(work)
            else:
                task = asyncio.get_running_loop().create_task(
                    asyncio.to_thread(advisor.prepare))
            self.tasks[advisor.key] = task
        return False


def _preparations(request: Request) -> Preparations:
    state = request.app.state
    if not hasattr(state, "hint_preparations"):
        state.hint_preparations = Preparations(getattr(state, "workers", None))
    preparations: Preparations = state.hint_preparations
    return preparations


def _seat_asking(live: LiveTable, account: Account) -> int:
    seat = live.seat_of(account.id)
    if seat is None:
        raise HintError("hints are for the players at this table")
    if live.status != "playing" or live.table is None:
        raise HintError("hints are given while the game is played")
    if live.to_move() != seat:
        raise HintError("a hint is for your own turn; wait until it is yours")
    return seat


@router.get("/api/tables/{table_id}/hint")
async def hint(table_id: TableId, request: Request,
               me: Me, limiter: LimiterDep) -> Response:
    """The advisor's choices for your seat now, best first (202 while it gets ready)."""
    hub: Hub = request.app.state.hub
    live = await hub.get(table_id)
    advisor = advisor_for(live.game)
    if advisor is None:
        raise HintError("there is no advisor for {game} under these rules",
                        game=live.game.title)
    if not await asyncio.to_thread(allowed, request.app.state.store, live.id):
        raise HintError("this table was made without hints")
    seat = _seat_asking(live, me)
    preparations = _preparations(request)
    if not advisor.ready() and advisor.key not in preparations.tasks:
        work = advisor.work()  # a rule set nobody has solved counts against the asker
        pending = () if preparations.workers is None else preparations.workers.pending
        if work is not None and work.fresh and work.key not in pending:
            await limiter.new_rules(address(request), me.id)
    if not preparations.ready(advisor):
        return JSONResponse({"status": "preparing"}, status_code=202)
    assert live.table is not None
    seq = live.seq
    view = live.table.state.view(seat)  # the seat's own view, and nothing more
    legal = notations(live.table.state.legal_actions())  # as the seat's frame shows them
    hinted = await asyncio.to_thread(advisor.hint, view, legal)
    body: dict[str, Any] = {"status": "ready", "seq": seq, **hinted.to_json()}
    lang = language(request)  # each choice as the player would type it, in their words
    body["said"] = {c["choice"]: live.game.told_action(c["choice"], lang)
                    for c in body.get("choices", [])}
    return JSONResponse(body)
