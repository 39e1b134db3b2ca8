"""Statistics and ratings, derived from the finished tables (nothing is typed twice).

- :func:`by_seat`: per preset and player count, how often each seat won alone and how
  often the game was drawn (a shared first place), as the Tärningspoker site's statistics show
  "white 49.25 %, black 49.89 %, draws 0.84 %".
- :func:`leaderboard`: openskill (Plackett–Luce, so a five-player ranking counts as one
  game, not ten duels) over every finished game in the order they ended; bots are rated
  too, as ``bot:<name>`` (a second bot of the same kind at a table as ``bot:<name> 2``).
- :func:`history`: a player's finished games with seat and place.
- :func:`ladder`: the bot ladder ``kastkopp ladder GAME --out FOLDER/GAME.json`` wrote, read
  from the server's ladder folder (:func:`ladder_folder`).
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import and_, func, or_, select

from kastkopp.store import Account, GameTable, Seat, Store


def _finished(store: Store, game: str | None = None,
              after: tuple[datetime, str] | None = None,
              every: bool = False) -> list[tuple[GameTable, list[str]]]:
    """Finished tables in the order they ended (only those after ``after``, a
    ``(finished_at, id)``), each with its seats' names; with ``every`` also those
    without an outcome."""
    with store.session() as session:
        # hosted tables (Mäxchen rounds) are other servers' games, with other players
        query = select(GameTable).where(GameTable.status == "over",
                                        GameTable.source.is_(None))
        if game is not None:
            query = query.where(GameTable.game == game)
        if after is not None:
            query = query.where(or_(GameTable.finished_at > after[0],
                                    and_(GameTable.finished_at == after[0],
                                         GameTable.id > after[1])))
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
    return [(r, numbered(names[r.id])) for r in rows if every or r.outcome]


def numbered(names: list[str]) -> list[str]:
    """Bots of one kind told apart by seat (``bot:strong``, ``bot:strong 2``): each is a
    player of its own, where a person in two seats stays one name (no contest)."""
    out: list[str] = []
    for name in names:
        count = sum(1 for n in out if n == name or n.startswith(name + " "))
        out.append(f"{name} {count + 1}" if count and name.startswith("bot:") else name)
    return out


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


@dataclass
class Ratings:
    """The openskill ratings of one game, folded over its finished tables in order.

    Kept between requests: each request rates only the games finished since (``cursor``
    is the last one folded in), unless a game turns up that ended before it (another
    process's clock), when the ratings are folded again from the start.
    """

    model: Any
    ratings: dict[str, Any] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cursor: tuple[datetime, str] | None = None
    folded: int = 0  # finished tables seen (rated or not)

    def fold(self, rows: list[tuple[GameTable, list[str]]]) -> None:
        for row, names in rows:
            self.folded += 1
            if row.finished_at is not None:
                self.cursor = (row.finished_at, row.id)
            if row.outcome is None or len(set(names)) < len(names):
                continue  # one player in two seats is no contest
            teams = [[self.ratings.get(name) or self.model.rating(name=name)]
                     for name in names]
            ranks = [float(_place(row.outcome["ranking"], seat))
                     for seat in range(len(names))]
            for name, (new,) in zip(names, self.model.rate(teams, ranks=ranks), strict=True):
                self.ratings[name] = new
                self.played[name] += 1


_RATINGS: weakref.WeakKeyDictionary[Store, dict[str, Ratings]] = weakref.WeakKeyDictionary()
_RATINGS_LOCK = threading.Lock()


def _over_count(store: Store, game: str) -> int:
    with store.session() as session:
        return int(session.scalar(select(func.count()).select_from(GameTable).where(
            GameTable.status == "over", GameTable.game == game)) or 0)


def ratings_of(store: Store, game: str) -> Ratings:
    """The game's ratings brought up to date with the tables finished since last asked."""
    from openskill.models import PlackettLuce

    with _RATINGS_LOCK:
        boards = _RATINGS.setdefault(store, {})
        board = boards.get(game) or Ratings(PlackettLuce())
        new = _finished(store, game, board.cursor, every=True) if board.cursor else []
        if board.cursor is None or board.folded + len(new) != _over_count(store, game):
            board, new = Ratings(PlackettLuce()), _finished(store, game, every=True)
        board.fold(new)
        boards[game] = board
        return board


def leaderboard(store: Store, game: str) -> list[dict[str, Any]]:
    """Players by openskill ordinal (mu - 3 sigma), best first."""
    board = ratings_of(store, game)
    entries = [{"name": name, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                "rating": round(r.ordinal(), 3), "games": board.played[name]}
               for name, r in board.ratings.items()]
    entries.sort(key=lambda entry: (-entry["rating"], entry["name"]))
    return entries


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


# The ladders kastkopp comes with: those of docs/ladder.md.
LADDERS = Path(__file__).resolve().parent.parent / "ladders"


def ladder_folder(given: Path | None = None) -> Path:
    """The folder of bot ladders: ``given``, else ``KASTKOPP_LADDERS``, else the ones
    kastkopp comes with."""
    if given is not None:
        return Path(given)
    configured = os.environ.get("KASTKOPP_LADDERS")
    return Path(configured) if configured else LADDERS


def ladder(folder: Path | None, game: str) -> dict[str, Any] | None:
    """``GAME.json`` of the ladder folder (``game`` is a registered game's name), its heads-up
    tables under ``heads_up``; None when there is none or it is not a ladder of ``game``."""
    if folder is None:
        return None
    try:
        data = json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("game") != game or "ratings" not in data:
        return None
    data["heads_up"] = [_ahead(table) for table in data.get("tables", [])
                        if table["players"] == 2]
    return data


def _ahead(table: dict[str, Any]) -> dict[str, Any]:
    """A heads-up table of a ladder as the row of the bot ahead: it won more, else more often."""
    entry = max(table["results"], key=lambda result: (result["mean_payoff"], result["win_rate"]))
    against = next(bot for bot in table["bots"] if bot != entry["bot"])
    return {**entry, "against": against, "games": table["games"]}
