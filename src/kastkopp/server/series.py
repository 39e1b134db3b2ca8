"""Matches and tournaments run on the server, with the library's formats (:mod:`kastkopp.matches`).

A series is one of

- ``match``: two players, best of ``best_of`` games, the winner of a game opening the next;
- ``chouette``: three or more, the winner stays at the table, the loser goes to the end of
  the queue, for ``games`` games;
- ``knockout``: a bracket (byes for the top seeds), every pairing a match of ``best_of``.

Players are account names or bots (``bot:random``; ``bot:random#2`` for a second one).
A registered player named by someone else is invited, not seated: the series is
``inviting`` until every one of them accepts (then ``playing``), and ``declined`` for good
once one of them declines. Guests and bots are seated as they are named.
Each game is an ordinary table of the server — same log, dice, clocks and views — that the
series creates and starts by itself, as soon as every person seated at it has added a seed
to its dice (they are sent a ``seedWanted`` event; the table page adds one by itself).
When a table ends, its winner is recorded in the library value (a drawn game is
replayed), which is stored, and the next tables are made.
Where the library leaves it to the caller, a knockout pairing is played as a match of
``best_of`` games: its tables keep the pairing's running score in their slot.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm.attributes import flag_modified

from kastkopp.dice import CommitRevealDice
from kastkopp.engine import Game
from kastkopp.matches import Chouette, Knockout, Match, check_best_of, seat_for_game
from kastkopp.server.hub import Hub, TableError, TableNotFound, check_rules
from kastkopp.server.service.seating import seated_bot
from kastkopp.store import Account, GameTable, Seat, Series, SeriesInvite, SeriesTable

FORMATS = ("match", "chouette", "knockout")
MAX_CHOUETTE_GAMES = 200
# One request makes a whole series, every table of it by itself: so at most this many
# players (a knockout of 16 plays 8 tables at once) and games at most (a chouette's
# games; a knockout's pairings times best_of).
MAX_SERIES_PLAYERS = 16
MAX_SERIES_GAMES = 200

Value = Match | Chouette | Knockout


def bot_of(label: str) -> str | None:
    """``bot:random#2`` → ``random``; an account name → ``None``."""
    if not label.startswith("bot:"):
        return None
    return label[4:].split("#", 1)[0]


def value_of(row: Series) -> Value:
    if row.format == "match":
        return Match.from_json(row.state)
    if row.format == "chouette":
        return Chouette.from_json(row.state)
    return Knockout.from_json(row.state)


def check_size(fmt: str, players: int, best_of: int) -> None:
    """Refuse a series bigger than :data:`MAX_SERIES_PLAYERS` or :data:`MAX_SERIES_GAMES`."""
    if players > MAX_SERIES_PLAYERS:
        raise TableError("a series has at most {most} players, not {given}",
                         most=MAX_SERIES_PLAYERS, given=players)
    if fmt == "knockout" and (players - 1) * best_of > MAX_SERIES_GAMES:
        raise TableError("a knockout of {players} players best of {best_of} may last "
                         "{games} games; a series lasts at most {most}",
                         players=players, best_of=best_of, games=(players - 1) * best_of,
                         most=MAX_SERIES_GAMES)


class SeriesRunner:
    """Creates series and moves them on as their tables finish."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.locks: dict[str, asyncio.Lock] = {}

    # -- creating ------------------------------------------------------------------------
    def create(self, owner: Account, fmt: str, game_name: str, preset: str | None,
               rules: dict[str, Any], players: list[str], best_of: int,
               games: int | None) -> str:
        """Check and store a new series (in a worker thread); returns its id."""
        if fmt not in FORMATS:
            raise TableError("a series is a {formats}, not '{format}'",
                             formats=", ".join(FORMATS), format=fmt)
        game = check_rules(game_name, preset, rules, 2)
        check_best_of(best_of)
        check_size(fmt, len(players), best_of)
        invited: dict[int, None] = {}  # registered players other than the owner, in order
        with self.hub.store.session() as session:
            for label in players:
                bot = bot_of(label)
                if bot is not None:
                    seated_bot(game.name, bot)  # one of the game's, within the server's caps
                    continue
                account = session.scalar(select(Account).where(Account.name == label))
                if account is None:
                    raise TableError("no player is called '{name}'", name=label)
                if not account.guest and account.id != owner.id:
                    invited[account.id] = None
        value: Value
        if fmt == "match":
            if len(players) != 2:
                raise TableError("a match is between two players, not {count}",
                                 count=len(players))
            value = Match((players[0], players[1]), best_of)
        elif fmt == "chouette":
            if len(players) < 3:
                raise TableError("a chouette needs three players or more")
            if games is None or not 1 <= games <= MAX_CHOUETTE_GAMES:
                raise TableError("say how many games the chouette lasts (1 to {most})",
                                 most=MAX_CHOUETTE_GAMES)
            value = Chouette(tuple(players))
        else:
            value = Knockout(tuple(players))
        series_id = secrets.token_urlsafe(8)[:10]
        with self.hub.store.session() as session:
            session.add(Series(id=series_id, format=fmt, game=game.name, preset=preset,
                               rules=game.rules.to_json(), best_of=best_of,
                               games=games if fmt == "chouette" else None,
                               state=value.to_json(), recorded=[],
                               status="inviting" if invited else "playing",
                               owner_id=owner.id))
            session.flush()
            session.add_all(SeriesInvite(series_id=series_id, account_id=account_id,
                                         answer="invited") for account_id in invited)
        return series_id

    # -- consent -------------------------------------------------------------------------
    def answer(self, series_id: str, account: Account, accept: bool) -> None:
        """An invited player accepts or declines (in a worker thread). The series is
        played once every invited player has accepted; one refusal cancels it."""
        with self.hub.store.session() as session:
            row = session.get(Series, series_id, with_for_update=True) \
                if len(series_id) <= 16 else None
            if row is None:
                raise TableNotFound("there is no series '{series}'", series=series_id)
            invite = session.get(SeriesInvite, (series_id, account.id))
            if invite is None:
                raise TableError("you are not invited to the series '{series}'",
                                 series=series_id)
            if invite.answer != "invited" or row.status != "inviting":
                raise TableError("the invitation to the series '{series}' is answered "
                                 "already", series=series_id)
            invite.answer = "accepted" if accept else "declined"
            session.flush()
            if not accept:
                row.status = "declined"
            elif all(i.answer == "accepted" for i in self._invites(session, series_id)):
                row.status = "playing"

    def invitations(self, account: Account) -> list[str]:
        """The series waiting for the account's answer (in a worker thread)."""
        with self.hub.store.session() as session:
            return list(session.scalars(
                select(SeriesInvite.series_id).join(Series)
                .where(SeriesInvite.account_id == account.id,
                       SeriesInvite.answer == "invited", Series.status == "inviting")
                .order_by(Series.created_at)))

    @staticmethod
    def _invites(session: Any, series_id: str) -> list[SeriesInvite]:
        return list(session.scalars(select(SeriesInvite)
                                    .where(SeriesInvite.series_id == series_id)))

    # -- moving on -----------------------------------------------------------------------
    async def advance(self, series_id: str) -> None:
        """Record finished tables and start the tables to be played now."""
        lock = self.locks.setdefault(series_id, asyncio.Lock())
        async with lock:
            new_tables = await asyncio.to_thread(self._advance, series_id)
        for table_id in new_tables:
            await self.hub.begin(table_id)

    async def table_ready(self, table_id: str) -> None:
        """Every seed of a table has come: a series table starts now."""
        if await asyncio.to_thread(self._series_of, table_id) is not None:
            await self.hub.begin(table_id)

    async def table_finished(self, table_id: str) -> None:
        series_id = await asyncio.to_thread(self._series_of, table_id)
        if series_id is not None:
            await self.advance(series_id)

    async def resume(self) -> None:
        """After a restart: every series still being played moves on where it was."""
        ids = await asyncio.to_thread(self._playing)
        for series_id in ids:
            await self.advance(series_id)

    def _playing(self) -> list[str]:
        with self.hub.store.session() as session:
            return list(session.scalars(select(Series.id).where(Series.status == "playing")))

    def _series_of(self, table_id: str) -> str | None:
        with self.hub.store.session() as session:
            link = session.get(SeriesTable, table_id)
            return None if link is None else link.series_id

    def _advance(self, series_id: str) -> list[str]:
        with self.hub.store.session() as session:
            # Locked, so two processes on one PostgreSQL never both record a game or both
            # make the next table (SQLite's single writer refuses the second instead).
            row = session.get(Series, series_id, with_for_update=True)
            if row is None or row.status != "playing":
                return []
            value = value_of(row)
            recorded = list(row.recorded)
            links = list(session.scalars(select(SeriesTable)
                                         .where(SeriesTable.series_id == series_id)))
            tables = {t.id: t for t in session.scalars(
                select(GameTable).where(GameTable.id.in_([lk.table_id for lk in links])))}
            active = []
            for link in sorted(links, key=lambda lk: lk.slot.get("n", 0)):
                table = tables[link.table_id]
                if table.status != "over":
                    active.append(link)
                    continue
                if table.id in recorded:
                    continue
                recorded.append(table.id)
                first = (table.outcome or {}).get("ranking", [[]])[0]
                if len(first) != 1:
                    continue  # a drawn game is played again
                value = self._record(value, link.slot, link.slot["players"][first[0]],
                                     links, tables)
                flag_modified(link, "slot")
            row.state, row.recorded = value.to_json(), recorded
            if self._finished(row, value):
                row.status = "over"
                return []
            game = check_rules(row.game, row.preset, dict(row.rules), 2)
            made: list[str] = []
            for slot in self._to_play(row, value, links, tables, active):
                made.append(self._make_table(session, row, game, slot, len(links) +
                                             len(made)))
            # tables still waiting for seeds are begun again (they may all have come)
            return [lk.table_id for lk in active if tables[lk.table_id].status == "open"] + made

    @staticmethod
    def _record(value: Value, slot: dict[str, Any], winner: str,
                links: list[SeriesTable], tables: dict[str, GameTable]) -> Value:
        if isinstance(value, Match):
            return value.record(winner)
        if isinstance(value, Chouette):
            return value.record(winner)
        # a knockout pairing is a match of best_of: record it once someone has won it
        a, b = (str(p) for p in slot["pairing"])
        pairing = Match((a, b), int(slot["best_of"]), tuple(slot["results"]))
        pairing = pairing.record(winner)
        slot["results"] = list(pairing.results)
        if pairing.is_over and pairing.winner is not None:
            return value.record(slot["round"], slot["slot"], pairing.winner)
        return value

    @staticmethod
    def _finished(row: Series, value: Value) -> bool:
        if isinstance(value, Chouette):
            return len(value.results) >= (row.games or 0)
        return value.is_over

    def _to_play(self, row: Series, value: Value, links: list[SeriesTable],
                 tables: dict[str, GameTable],
                 active: list[SeriesTable]) -> list[dict[str, Any]]:
        """The slots of the tables to start now (none while one is being played)."""
        if isinstance(value, Match | Chouette):
            if active:
                return []
            pair = value.players if isinstance(value, Match) else value.table
            return [{"players": list(pair), "opener": value.opener}]
        busy = {(lk.slot["round"], lk.slot["slot"]) for lk in active}
        slots = []
        for pairing in value.pending():
            if (pairing.round, pairing.slot) in busy:
                continue
            assert pairing.a is not None and pairing.b is not None
            previous = [lk.slot for lk in links
                        if (lk.slot["round"], lk.slot["slot"]) == (pairing.round, pairing.slot)]
            results: list[Any] = max((p["results"] for p in previous), key=len, default=[])
            match = Match((pairing.a, pairing.b), row.best_of,
                          tuple(None if r is None else str(r) for r in results))
            slots.append({"players": [pairing.a, pairing.b], "opener": match.opener,
                          "round": pairing.round, "slot": pairing.slot,
                          "pairing": [pairing.a, pairing.b], "best_of": row.best_of,
                          "results": list(match.results)})
        return slots

    def _make_table(self, session: Any, row: Series, game: Game, slot: dict[str, Any],
                    number: int) -> str:
        pair = (str(slot["players"][0]), str(slot["players"][1]))
        this_game, seated = seat_for_game(game, pair, slot.get("opener"))
        slot = {**slot, "players": list(seated), "n": number}
        table_id = secrets.token_urlsafe(8)[:10]
        seed = secrets.token_bytes(32)
        session.add(GameTable(id=table_id, game=this_game.name, preset=row.preset,
                              rules=this_game.rules.to_json(), players=2, status="open",
                              owner_id=row.owner_id, server_seed=seed.hex(),
                              seed_sha256=CommitRevealDice(server_seed=seed).commitment,
                              client_seed="", clock="none", seconds_per_move=None,
                              on_timeout="move"))
        session.flush()
        for index, label in enumerate(seated):
            bot = bot_of(label)
            account = None if bot else session.scalar(
                select(Account).where(Account.name == label))
            session.add(Seat(table_id=table_id, seat=index, bot=bot,
                             account_id=account.id if account is not None else None))
        session.add(SeriesTable(table_id=table_id, series_id=row.id, slot=slot))
        return table_id

    # -- showing -------------------------------------------------------------------------
    def summary(self, series_id: str) -> dict[str, Any]:
        with self.hub.store.session() as session:
            row = session.get(Series, series_id) if len(series_id) <= 16 else None
            if row is None:
                raise TableNotFound("there is no series '{series}'", series=series_id)
            links = list(session.scalars(select(SeriesTable)
                                         .where(SeriesTable.series_id == series_id)))
            status = {t.id: t.status for t in session.scalars(
                select(GameTable).where(GameTable.id.in_([lk.table_id for lk in links])))}
            value = value_of(row)
            answers = {name: answer for name, answer in session.execute(
                select(Account.name, SeriesInvite.answer).join(SeriesInvite)
                .where(SeriesInvite.series_id == series_id))}
        data: dict[str, Any] = {
            "id": row.id, "format": row.format, "game": row.game, "preset": row.preset,
            "best_of": row.best_of, "games": row.games, "status": row.status,
            "state": value.to_json(), "invitations": answers,
            "tables": [{"id": lk.table_id, "status": status.get(lk.table_id),
                        "players": lk.slot["players"]}
                       for lk in sorted(links, key=lambda lk: lk.slot.get("n", 0))]}
        if isinstance(value, Knockout):
            data["bracket"] = value.lines()
            data["champion"] = value.champion
        elif isinstance(value, Match):
            data["score"], data["winner"] = value.score(), value.winner
        return data
