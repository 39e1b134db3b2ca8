"""Matches, chouettes and knockouts: making one, invitations, and its score.

The series themselves are run by :class:`kastkopp.server.series.SeriesRunner`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from kastkopp.games import default_game
from kastkopp.server.deps import Me, SeriesDep, TableId

router = APIRouter()


class CreateSeries(BaseModel):
    """A match (two players, best of N), a chouette (three or more, N games) or a
    knockout (a bracket of matches). Players are account names or bots (``bot:random``,
    ``bot:random#2`` for a second)."""

    format: str = Field(pattern="^(match|chouette|knockout)$", examples=["match"])
    game: str = Field(max_length=40, examples=[default_game("match")])
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, str | int | bool] = Field(default_factory=dict)
    players: list[str] = Field(min_length=2, max_length=64)
    best_of: int = Field(default=1, ge=1, le=21)
    games: int | None = Field(default=None, ge=1, le=200)


@router.post("/api/series", status_code=201, tags=["series"])
async def create_series(body: CreateSeries, runner: SeriesDep, me: Me) -> dict[str, Any]:
    """Start a match, chouette or knockout: its tables are made and started as it goes.

    A registered player other than you is invited and must accept first
    (``POST /api/series/{id}/accept``); guests and bots are seated at once."""
    series_id = await asyncio.to_thread(
        runner.create, me, body.format, body.game, body.preset, dict(body.rules),
        [p.strip() for p in body.players], body.best_of, body.games)
    await runner.advance(series_id)
    return await asyncio.to_thread(runner.summary, series_id)


@router.post("/api/series/{series_id}/accept", tags=["series"])
async def accept_series(series_id: TableId, runner: SeriesDep, me: Me) -> dict[str, Any]:
    """Accept an invitation: the series starts once every invited player has."""
    await asyncio.to_thread(runner.answer, series_id, me, True)
    await runner.advance(series_id)
    return await asyncio.to_thread(runner.summary, series_id)


@router.post("/api/series/{series_id}/decline", tags=["series"])
async def decline_series(series_id: TableId, runner: SeriesDep, me: Me) -> dict[str, Any]:
    """Decline an invitation: the series is not played."""
    await asyncio.to_thread(runner.answer, series_id, me, False)
    return await asyncio.to_thread(runner.summary, series_id)


@router.get("/api/account/invitations", tags=["account"])
async def invitations(runner: SeriesDep, me: Me) -> list[dict[str, Any]]:
    """The series you are invited to and have not answered."""
    ids = await asyncio.to_thread(runner.invitations, me)
    return [await asyncio.to_thread(runner.summary, i) for i in ids]


@router.get("/api/series/{series_id}", tags=["series"])
async def series(series_id: TableId, runner: SeriesDep) -> dict[str, Any]:
    """Score, standings or bracket, and every table of the series."""
    return await asyncio.to_thread(runner.summary, series_id)
