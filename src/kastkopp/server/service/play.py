"""Moves: an action by a seat, checked by the engine, committed, then shown.

A move goes through :meth:`Play.act`, under the table's lock:

1. the seat must be the mover's and the sequence number the one the client saw (the
   length of the log), so a stale or repeated action is refused and changes nothing;
2. the engine previews it (an illegal action raises with the game's own message), with
   the answers of the bots that move at once (:meth:`kastkopp.engine.Table.preview`);
3. the new log events are written and committed (:class:`kastkopp.store.log_writer.LogWriter`);
4. only then is the move made the table's, acknowledged, and each watcher sent its view.

If the write fails because another process wrote that sequence number first, the table
is reloaded from the database and the action is refused as stale. A mover cancelled while
its rows are queued (the server stopping) still waits for their answer, under the lock:
rows once queued are written, and the table must hold what the log holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Any

from kastkopp.dice import bot_rng
from kastkopp.engine import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    Preview,
    StaleAction,
    State,
    Table,
    Unreadable,
    forfeit_outcome,
    term,
)
from kastkopp.server import operations
from kastkopp.server.service.broadcast import Broadcasting
from kastkopp.server.service.live import LiveTable, TableError
from kastkopp.store.log_writer import WriteConflict, event_row
from kastkopp.strategy.work import work_for

log = logging.getLogger("kastkopp.server")


class Play(Broadcasting):
    """Actions at the tables, and the forfeit a clock calls."""

    async def act(self, table_id: str, account_id: int | None, text: Any,
                  seq: Any, *, as_bot: int | None = None) -> int:
        """One action by the account's seat, seen at ``seq``. Returns the new sequence."""
        if not isinstance(text, str) or not text.strip():
            raise Unreadable("send an action in the game's notation, e.g. "
                             "{\"action\": \"call\", \"seq\": 12}")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise Unreadable("send the sequence number you saw with the action "
                             "(\"seq\": a whole number)")
        live = await self.get(table_id)
        async with live.lock:
            if live.table is None or live.status == "open":
                raise IllegalAction("the game has not started yet")
            if live.status == "over":
                raise GameOver("the game is over")
            seat = as_bot if as_bot is not None else live.seat_of(account_id)
            if seat is None:
                raise NotYourTurn("you have no seat at this table; you can only watch")
            if seq != live.seq:
                raise StaleAction("the table is at {at}, not {seq}: your action was for a "
                                  "position that has passed (or was sent twice)", at=live.seq,
                                  seq=seq)
            table = live.table
            to_move = table.state.to_move()
            if to_move != seat:
                who = term("nobody") if to_move is None else table.seats[to_move]
                raise NotYourTurn("it is not your turn; it is {who}'s", who=who)
            if as_bot is None and live.seats[seat].bot is not None:
                raise NotYourTurn("a bot plays this seat")
            # The move is taken back at once, so nobody sees it before it is committed.
            def play(table: Table) -> None:
                table.act(seat, text.strip())
                if not self.pace_of(live):
                    self._answer_by_bots(live, table)

            move = table.preview(play)
            rows = [event_row(e) for e in move.events]
            values = self._finish_values(move.state)
            written = self.writer.submit(live.id, rows, values or None)
            try:
                with operations.commit_timer():
                    await asyncio.shield(written)
            except asyncio.CancelledError:
                # Queued rows are written all the same: the table takes the move if they
                # were, so that it holds what the log holds, and the cancellation goes on.
                await asyncio.wait([written])
                if not written.cancelled() and written.exception() is None:
                    self._take(live, move, values)
                    if not self.closed:
                        self._after_change(live, drive_bots=True,
                                           events=None if values else move.events)
                raise
            except WriteConflict:
                await self._catch_up(live)
                self._broadcast(live)  # its watchers see the position that won
                raise StaleAction("another move was made first; look again") from None
            except Exception:
                log.exception("could not write table %s", live.id)
                raise IllegalAction("the move could not be saved; try again") from None
            self._take(live, move, values)
            new_seq = live.seq
        operations.acknowledged()
        self._after_change(live, drive_bots=True, events=None if values else move.events)
        return new_seq

    @staticmethod
    def _take(live: LiveTable, move: Preview, values: dict[str, Any]) -> None:
        """A committed move becomes the table's."""
        assert live.table is not None
        live.table.accept(move)
        if values:
            live.status, live.outcome = values["status"], values["outcome"]
        live.last_move_at = time.time()

    def pace_of(self, live: LiveTable) -> float:
        """Seconds before each bot's move at the table: its own pace, else the server's
        where a person sits (a series of bots alone is not slowed down for an audience)."""
        if live.pace is not None:
            return live.pace
        return 0.0 if live.bots_only else self.bot_delay

    def _answer_by_bots(self, live: LiveTable, table: Table, limit: int = 10_000) -> None:
        """Bots that move at once do so in the same commit as the move they answer.

        Not at a table of bots only (they are paced, see :meth:`_bot_move`), not a bot
        that needs slow work first (a solve), and not one that searches (``thinks``): those
        move by themselves later, the search in a thread."""
        if live.bots_only:
            return
        for _ in range(limit):
            state = table.state
            seat = state.to_move()
            if state.is_over() or seat is None or live.seats[seat].bot is None:
                return
            view, bot = state.view(seat), live.bot(seat)
            if bot.thinks or (self.workers is not None and work_for(bot, view) is not None):
                return
            rng = bot_rng(live.seed, len(table.events))
            table.act(seat, bot.choose(view, state.legal_actions(), rng))

    async def forfeit(self, live: LiveTable, seat: int) -> None:
        """The seat ran out of time and the table plays 'lose': the others win.

        The forfeit is an event of the log, so a replay of the log ends the same way."""
        table = live.table
        if table is None:
            raise TableError("the game has not started")
        move = table.preview(lambda t: t.forfeit(seat))
        outcome = dict(forfeit_outcome(live.game.players, seat).to_json())
        values = {"status": "over", "outcome": outcome, "forfeit_seat": seat,
                  "finished_at": datetime.now(UTC)}
        await self.writer.append(live.id, [event_row(e) for e in move.events], values)
        table.accept(move)
        live.status, live.outcome, live.forfeit_seat = "over", outcome, seat

    @staticmethod
    def _finish_values(state: State) -> dict[str, Any]:
        if not state.is_over():
            return {}
        return {"status": "over", "outcome": state.outcome().to_json(),
                "finished_at": datetime.now(UTC)}
