"""Statistics: wins by seat, the leaderboard, and a player's history.

The numbers are read by :mod:`kastkopp.server.stats`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from kastkopp.server import stats
from kastkopp.server.deps import StoreDep

router = APIRouter(tags=["statistics"])


@router.get("/api/stats/{game}")
def game_stats(game: Annotated[str, Path(max_length=40)],
               store: StoreDep) -> list[dict[str, Any]]:
    """Wins by seat and draws per preset and player count."""
    return stats.by_seat(store, game)


@router.get("/api/ratings/{game}")
def ratings(game: Annotated[str, Path(max_length=40)], store: StoreDep,
            limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
    """The leaderboard: openskill ratings from every finished game, multi-player aware."""
    return stats.leaderboard(store, game)[:limit]


@router.get("/api/players/{name}/history")
def history(name: Annotated[str, Path(max_length=40)], store: StoreDep,
            limit: Annotated[int, Query(ge=1, le=500)] = 100) -> list[dict[str, Any]]:
    return stats.history(store, name, limit)
