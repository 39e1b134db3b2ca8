""""Try again from here": a decision of a finished game, set up again for its seat.

- ``GET /api/tables/{id}/review/try?step=N&seat=S`` — the position of the decision seat
  ``S`` made at event ``N``, as that seat saw it then: ``{"index", "seat", "to_move",
  "view", "legal"}``. Only the seat's own view: every other cup is closed again, though
  the game is over.
- ``POST /api/tables/{id}/review/try`` with ``{"step": N, "seat": S, "action": "..."}`` —
  that choice graded by the review's own grader (:func:`kastkopp.strategy.review.try_again`):
  ``{"action", "cost", "best", "is_best", "made", "made_cost", "unit", "detail", "said"}``
  (``said``: those choices in the asker's language).

Only once the game is over, as the review. A choice that cannot be read or that the rules
refuse there gets the rules' reason in the asker's language (``400``); nothing is kept,
so nothing changes.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request

from kastkopp.engine import Game
from kastkopp.server import pages
from kastkopp.server.hub import Hub
from kastkopp.strategy.review import ReviewError, said, seen_at, try_again

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
# Read here rather than by FastAPI, so that a wrong one is refused in the asker's language.
Number = Annotated[str | None, Query(max_length=12)]

router = APIRouter(tags=["play"])


async def finished_log(hub: Hub, table_id: str) -> tuple[Game, dict[str, Any]]:
    """The game and the whole log of a finished table; refused while the game is on."""
    live = await hub.get(table_id)
    if live.status != "over" or live.table is None:
        raise ReviewError("the game is not over; a review would show hidden dice")
    return live.game, live.table.to_json(reveal=True)


def number(value: Any, most: int) -> int | None:
    """A whole number from 0 to ``most`` (JSON's or a query's), else ``None``."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most:
        return value
    return None


def read_decision(step: Any, seat: Any) -> tuple[int, int]:
    """Which decision: the event it was in the log and the seat that made it."""
    at, who = number(step, 1_000_000), number(seat, 63)
    if at is None:
        raise ReviewError("the step is the number of the decision's event in the log")
    if who is None:
        raise ReviewError("the seat is a number, 0 for the first")
    return at, who


def read_try(body: Any) -> tuple[int, int, str]:
    """The step, seat and action of a request to try again, or the reason it is unreadable."""
    if not isinstance(body, dict):
        raise ReviewError("send the step, the seat and the action to try, e.g. "
                          "{example}", example='{"step": 12, "seat": 0, "action": "dudo"}')
    step, seat = read_decision(body.get("step"), body.get("seat"))
    action = body.get("action")
    if not isinstance(action, str) or not 0 < len(action.strip()) <= 120:
        raise ReviewError("the action is the game's notation of a choice, at most 120 "
                          "letters")
    return step, seat, action.strip()


@router.get("/api/tables/{table_id}/review/try")
async def position(table_id: TableId, request: Request, step: Number = None,
                   seat: Number = None) -> dict[str, Any]:
    """A decision's position from its seat's own view, to choose again."""
    at, who = read_decision(step, seat)
    _, log = await finished_log(request.app.state.hub, table_id)
    seen = await asyncio.to_thread(seen_at, log, at, who)
    return {"table": table_id, **seen.to_json()}


@router.post("/api/tables/{table_id}/review/try")
async def attempt(table_id: TableId, request: Request,
                  body: Annotated[Any, Body()] = None) -> dict[str, Any]:
    """Another choice at a decision, graded as the review grades; the game is unchanged."""
    step, seat, action = read_try(body)
    game, log = await finished_log(request.app.state.hub, table_id)
    tried = await asyncio.to_thread(try_again, log, step, seat, action)
    words = said(game, [tried.action, tried.best, tried.made.made if tried.made else None],
                 pages.language(request))
    return {"table": table_id, **tried.to_json(), "said": words}
