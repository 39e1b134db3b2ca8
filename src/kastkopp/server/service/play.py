"""Moves: an action by a seat, checked by the engine, committed, then shown.

A move goes through :meth:`Play.act`, under the table's lock:

1. the seat must be the mover's and the sequence number the one the client saw (the
   length of the log), so a stale action is refused and changes nothing; a person's
   action that is already the log's at that number, by that seat (sent again: its
   answer was lost with a process or a socket), is acknowledged as it was the first
   time, with the position after that move's commit, and not made again;
2. the engine previews it (an illegal action raises with the game's own message), with
   the answers of the bots that move at once (:meth:`kastkopp.engine.Table.preview`);
3. the new log events are written and committed (:class:`kastkopp.store.log_writer.LogWriter`);
4. only then is the move made the table's, acknowledged, and each watcher sent its view.

If the write fails because another process wrote that sequence number first, the table
is reloaded from the database and the action is refused as stale, unless what was written
there is that same action by that seat (a repeat, as above). A client that saw a later
position than this process holds makes it catch up with the log first. A mover cancelled
while its rows are queued (the server stopping) still waits for their answer, under the
lock: rows once queued are written, and the table must hold what the log holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kastkopp.dice import bot_rng
from kastkopp.engine import (
    GameOver,
    IllegalAction,
    KastkoppError,
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
from kastkopp.store.log_writer import WriteConflict, commit_end, event_row
from kastkopp.strategy.work import work_for

log = logging.getLogger("kastkopp.server")


@dataclass(frozen=True)
class Acknowledgement:
    """A move's answer: the position after its commit. ``again``: the move had been made
    already, and this was it sent again (which a socket's budget of refusals counts)."""

    seq: int
    again: bool = False


class Play(Broadcasting):
    """Actions at the tables, and the forfeit a clock calls."""

    async def act(self, table_id: str, account_id: int | None, text: Any,
                  seq: Any, *, as_bot: int | None = None) -> int:
        """One action by the account's seat, seen at ``seq``. Returns the new sequence."""
        return (await self.move(table_id, account_id, text, seq, as_bot=as_bot)).seq

    async def move(self, table_id: str, account_id: int | None, text: Any,
                   seq: Any, *, as_bot: int | None = None) -> Acknowledgement:
        """One action by the account's seat, seen at ``seq``, and its acknowledgement.

        A person's action that is already the log's at ``seq`` (sent again after its
        answer was lost: a process that committed it died, a socket broke) is answered
        as it was the first time, and nothing is made twice."""
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
            seat = as_bot if as_bot is not None else live.seat_of(account_id)
            person = as_bot is None and seat is not None
            if person and seq > live.seq and live.status == "playing":
                # The client saw a position this process has not yet heard of.
                await self._catch_up_shown(live)
            done = None
            if not (person and self._made(live, seat, text, seq)):
                done = await self._commit_move(
                    live, self._check_turn(live, seat, seq, as_bot), text, person)
            new_seq = live.seq
        if done is None:  # a repeat: its answer is the first one's
            operations.acknowledged_again()
            return Acknowledgement(
                await asyncio.to_thread(commit_end, self.store, live.id, seq), again=True)
        move, values = done
        operations.acknowledged()
        self._after_change(live, drive_bots=True, events=None if values else move.events)
        return Acknowledgement(new_seq)

    @staticmethod
    def _made(live: LiveTable, seat: int | None, text: str, seq: int) -> bool:
        """Whether the log holds at ``seq`` this very action by this seat. Only the seat's
        own actions are compared, so the answer tells its player nothing it did not know."""
        table = live.table
        if table is None or seat is None or not 0 <= seq < len(table.events):
            return False
        event = table.events[seq]
        if event["type"] != "action" or event["seat"] != seat:
            return False
        try:
            action = live.game.parse_action(text.strip())
        except KastkoppError:
            return False
        return str(action) == event["action"]

    @staticmethod
    def _check_turn(live: LiveTable, seat: int | None, seq: int, as_bot: int | None) -> int:
        """The seat, if the action is its to make at ``seq``; else the refusal."""
        if live.status == "over":
            raise GameOver("the game is over")
        if seat is None:
            raise NotYourTurn("you have no seat at this table; you can only watch")
        if seq != live.seq:
            raise StaleAction("the table is at {at}, not {seq}: your action was for a "
                              "position that has passed (or was sent twice)", at=live.seq,
                              seq=seq)
        assert live.table is not None
        to_move = live.table.state.to_move()
        if to_move != seat:
            who = term("nobody") if to_move is None else live.table.seats[to_move]
            raise NotYourTurn("it is not your turn; it is {who}'s", who=who)
        if as_bot is None and live.seats[seat].bot is not None:
            raise NotYourTurn("a bot plays this seat")
        return seat

    async def _catch_up_shown(self, live: LiveTable) -> None:
        """Catch up with the log (another process moved), and tell this process's watchers
        as its announcement would have: that one, when it comes, finds nothing new."""
        before = (live.seq, live.status)
        await self._catch_up(live)
        if (live.seq, live.status) != before:
            self._after_change(live, drive_bots=False)

    async def _commit_move(self, live: LiveTable, seat: int, text: str,
                    person: bool) -> tuple[Preview, dict[str, Any]] | None:
        """Make the seat's move at the table's position, under its lock: previewed,
        committed, then the table's. The move and the table's new values; None if
        another process had committed this very move first (a person's action that
        was sent again)."""
        table = live.table
        assert table is not None

        # The move is taken back at once, so nobody sees it before it is committed.
        def play(table: Table) -> None:
            table.act(seat, text.strip())
            if not self.pace_of(live):
                self._answer_by_bots(live, table)

        seq = live.seq
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
            await self._catch_up_shown(live)  # its watchers see the position that won
            if person and self._made(live, seat, text, seq):
                return None
            raise StaleAction("another move was made first; look again") from None
        except Exception:
            log.exception("could not write table %s", live.id)
            raise IllegalAction("the move could not be saved; try again") from None
        self._take(live, move, values)
        return move, values

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
