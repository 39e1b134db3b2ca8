"""Statistics and ratings, derived from the finished tables (nothing is typed twice).

- :func:`by_seat`: per preset and player count, how often each seat won alone and how
  often the game was drawn (a shared first place), as seed 001's server shows
  "white 49.25 %, black 49.89 %, draws 0.84 %".
- :func:`leaderboard`: openskill (Plackett–Luce, so a five-player ranking counts as one
  game, not ten duels) over every finished game in the order they ended; bots are rated
  too, as ``bot:<name>``.
- :func:`history`: a player's finished games with seat and place.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select

from kastkopp.store import Account, GameTable, Seat, Store


def _finished(store: Store, game: str | None = None) -> list[tuple[GameTable, list[str]]]:
    with store.session() as session:
        # hosted tables (Mäxchen rounds) are other servers' games, with other players
        query = select(GameTable).where(GameTable.status == "over",
                                        GameTable.source.is_(None))
        if game is not None:
            query = query.where(GameTable.game == game)
        rows = list(session.scalars(query.order_by(GameTable.finished_at, GameTable.id)))
        names: dict[str, list[str]] = {r.id: [f"seat {i + 1}" for i in range(r.players)]
                                       for r in rows}
        if rows:
            seats = session.execute(
                select(Seat.table_id, Seat.seat, Seat.bot, Account.name)
                .outerjoin(Account, Account.id == Seat.account_id)
                .where(Seat.table_id.in_(list(names))))
            for table_id, seat, bot, name in seats:
                names[table_id][seat] = f"bot:{bot}" if bot else (name or f"seat {seat + 1}")
    return [(r, names[r.id]) for r in rows if r.outcome]


def _place(ranking: list[list[int]], seat: int) -> int:
    ahead = 0
    for group in ranking:
        if seat in group:
            return ahead + 1
        ahead += len(group)
    return ahead + 1


def by_seat(store: Store, game: str) -> list[dict[str, Any]]:
    """Rows ``{preset, players, games, wins: [% per seat], draws: %}``."""
    counts: dict[tuple[str, int], list[int]] = {}
    draws: dict[tuple[str, int], int] = defaultdict(int)
    games: dict[tuple[str, int], int] = defaultdict(int)
    for row, _ in _finished(store, game):
        key = (row.preset or "default", row.players)
        wins = counts.setdefault(key, [0] * row.players)
        games[key] += 1
        first = row.outcome["ranking"][0] if row.outcome and row.outcome["ranking"] else []
        if len(first) == 1:
            wins[first[0]] += 1
        else:
            draws[key] += 1
    return [{"game": game, "preset": preset, "players": players, "games": games[key],
             "wins": [round(100 * w / games[key], 2) for w in counts[key]],
             "draws": round(100 * draws[key] / games[key], 2)}
            for key in sorted(counts) for preset, players in [key]]


def leaderboard(store: Store, game: str) -> list[dict[str, Any]]:
    """Players by openskill ordinal (mu - 3 sigma), best first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = defaultdict(int)
    for row, names in _finished(store, game):
        if row.outcome is None or len(set(names)) < len(names):
            continue  # one player in two seats is no contest
        teams = [[ratings.get(name) or model.rating(name=name)] for name in names]
        ranks = [float(_place(row.outcome["ranking"], seat)) for seat in range(len(names))]
        for name, (new,) in zip(names, model.rate(teams, ranks=ranks), strict=True):
            ratings[name] = new
            played[name] += 1
    board = [{"name": name, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
              "rating": round(r.ordinal(), 3), "games": played[name]}
             for name, r in ratings.items()]
    board.sort(key=lambda entry: (-entry["rating"], entry["name"]))
    return board


def history(store: Store, name: str, limit: int = 100) -> list[dict[str, Any]]:
    """A player's finished games, newest first."""
    entries = []
    for row, names in reversed(_finished(store)):
        for seat, who in enumerate(names):
            if who == name and row.outcome:
                entries.append({"table": row.id, "game": row.game,
                                "preset": row.preset, "players": row.players, "seat": seat,
                                "place": _place(row.outcome["ranking"], seat),
                                "opponents": [n for i, n in enumerate(names) if i != seat],
                                "finished_at": row.finished_at.isoformat()
                                if row.finished_at else None})
        if len(entries) >= limit:
            break
    return entries[:limit]
