"""The review of a finished game: every decision of every seat against the best choice.

- ``GET /api/tables/{id}/review`` — the review of :func:`kastkopp.strategy.review.review`
  as JSON, and ``said``: each choice's notation in the asker's language. Only once the
  game is over: before, it would tell every seat's hidden dice.
- ``GET /review/{id}`` — the page that shows it: each seat's summary, a chart of the
  running loss, and every decision, with the position drawn by the game's own renderer.

A review may need a solved table (a Yatzy rule set, the Slosch equilibrium): that runs
in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse

from kastkopp.server import pages
from kastkopp.server.hub import Hub
from kastkopp.strategy.review import ReviewError, review, said

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]

router = APIRouter(tags=["play"])


@router.get("/api/tables/{table_id}/review")
async def table_review(table_id: TableId, request: Request) -> dict[str, Any]:
    """Every decision of a finished game, graded; refused while the game is on."""
    hub: Hub = request.app.state.hub
    live = await hub.get(table_id)
    if live.status != "over" or live.table is None:
        raise ReviewError("the game is not over; a review would show hidden dice")
    log = live.table.to_json(reveal=True)
    data = (await asyncio.to_thread(review, log)).to_json()
    # every choice named in the asker's language too (the notation stays for programs)
    words = said(live.game, [n for m in data["moments"] for n in (m.get("made"), m.get("best"))
                             if m["kind"] == "decision"], pages.language(request))
    return {"table": live.id, **data, "said": words}


@router.get("/review/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def review_page(table_id: TableId, request: Request) -> HTMLResponse:
    live = await request.app.state.hub.get(table_id)
    summary = pages.drawn(live.summary(), live.game)
    return pages.page(request, "review.html", table=summary,
                      table_json=pages.script_json(summary))
