"""Which tables the lobby lists: open ones, and those being played that are not abandoned.

A table being played is abandoned once nobody has moved at it for
:data:`ABANDONED_AFTER` seconds (a server setting, ``--abandoned-after`` in hours): it
leaves the lobby's list but is kept, and its link still opens it. A table with a move
clock is never abandoned: its clock moves for a seat that does not.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import func, or_, select

from kastkopp.store import GameTable, LogEvent, Store

ABANDONED_AFTER = 6 * 3600.0  # seconds: an evening's pause is not yet abandonment


def listed(store: Store, statuses: tuple[str, ...], limit: int,
           abandoned_after: float = ABANDONED_AFTER) -> list[str]:
    """The ids of the tables with one of ``statuses`` the lobby lists, newest first."""
    since = datetime.now(UTC) - timedelta(seconds=abandoned_after)
    last_move = (select(func.max(LogEvent.at)).where(LogEvent.table_id == GameTable.id)
                 .scalar_subquery())
    alive = or_(GameTable.status != "playing", GameTable.clock != "none",
                func.coalesce(last_move, GameTable.created_at) >= since)
    with store.session() as session:
        return list(session.scalars(
            select(GameTable.id).where(GameTable.status.in_(statuses), alive)
            .order_by(GameTable.created_at.desc()).limit(limit)))
