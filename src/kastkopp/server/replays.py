"""A finished game position by position, for the replay page to draw as the table did.

- ``GET /api/tables/{id}/replay`` — ``{"seats", "outcome", "steps": [{"seq", "to_move",
  "views": [view of seat 0, view of seat 1, ...]}, ...]}``: step ``i`` is the position after
  the log's first ``i`` events, seen from every seat in turn, so the page can lift every
  cup with the same renderer the table uses. Only once the game is over: before, the
  views would show dice their seats had not yet shown the others.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from kastkopp.server.hub import Hub, LiveTable, TableError

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]

router = APIRouter(tags=["play"])


def steps(live: LiveTable) -> list[dict[str, Any]]:
    """Every position of a finished table's log, seen from each seat."""
    if live.status != "over" or live.table is None:
        raise TableError("the replay opens when the game is over")
    state = live.game.new_state()
    seats = range(live.game.players)

    def step(seq: int) -> dict[str, Any]:
        return {"seq": seq, "to_move": None if state.is_over() else state.to_move(),
                "views": [state.view(s) for s in seats]}

    out = [step(0)]
    for event in live.table.events:
        if event["type"] == "roll":
            state = state.resolve(tuple(event["faces"]))
        elif event["type"] == "penalty":
            state = state.penalty(event["seat"], event["reason"])
        elif event["type"] == "action":
            state = state.apply(live.game.parse_action(str(event["action"])))
        # a forfeit ends the game where it stands: its step shows that position again
        out.append(step(len(out)))
    return out


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: TableId, request: Request) -> dict[str, Any]:
    """Every position of a finished game from every seat (the replay page draws them)."""
    hub: Hub = request.app.state.hub
    live = await hub.get(table_id)
    return {"table": live.id, "game": live.game.name,
            "seats": [s.label(i) for i, s in enumerate(live.seats)],
            "outcome": live.outcome, "forfeit_seat": live.forfeit_seat,
            "steps": await asyncio.to_thread(steps, live)}
