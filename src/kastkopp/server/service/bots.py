"""Bots: a bot seat's move, its slow work (a solve) done by the worker processes.

A table's pace (:meth:`~kastkopp.server.service.play.Play.pace_of`) is the pause before
each bot's move, so a person sees the other seats' moves one at a time; at a pace of 0
the bots that answer at once move in the same commit as the move they answer.

Bots alone at a table move one at a time, at least :data:`BOT_PACE` seconds apart and at
least :data:`BOT_PACE_FACTOR` times as long as the last one thought: a table of ten strong
bots shares the event loop with everybody instead of playing its whole game at once. And
all the tables of bots alone together think for at most :data:`BOTS_ALONE_SHARE` of the
time: after each such move the next waits until the time it took is that share of the
time gone by, so that a guest who starts many such tables slows them, not the players.
They think in a thread, one table at a time, so that the event loop answers everybody else
while they do (a choice of ten strong liar's-dice bots takes milliseconds).

A bot's first choice after its slow work, or its cheap choice instead, is made in a
thread too: the first look-up in a just-loaded table, or the greedy Yatzy bot's first
choice under a new rule set, takes tens of milliseconds.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Container, Hashable, Iterable
from typing import Any

from kastkopp.dice import bot_rng
from kastkopp.engine import Action, Game, StaleAction
from kastkopp.server.service.live import LiveTable
from kastkopp.server.service.play import Play
from kastkopp.server.workers import Busy
from kastkopp.strategy import make_bot
from kastkopp.strategy.work import cheap_choice, work_for

log = logging.getLogger("kastkopp.server")

# Bots alone at a table move one at a time, at least this long apart and at least
# BOT_PACE_FACTOR times as long as the last one thought.
BOT_PACE = 0.02
BOT_PACE_FACTOR = 4.0
BOT_WAIT = 5.0  # seconds a bot waits for its solve before playing its cheap choice
# Of the event loop's time, what every table of bots alone may take together to think.
BOTS_ALONE_SHARE = 0.05


def timed(choose: Callable[..., Action], *args: Any) -> tuple[Action, float]:
    """A bot's choice and the processor time it took (in the thread that chose)."""
    started = time.thread_time()
    action = choose(*args)
    return action, time.thread_time() - started


class Bots(Play):
    """Bot seats that move by themselves (those that answer at once: see Play.act)."""

    bot_pace: float = BOT_PACE
    bots_alone_share: float = BOTS_ALONE_SHARE
    # when (the event loop's clock) a table of bots alone may think again, and the
    # processor seconds they have thought in all
    alone_free_at: float = 0.0
    alone_thought: float = 0.0
    _alone_lock: asyncio.Lock | None = None

    async def _bot_move(self, live: LiveTable, seq: int) -> None:
        delay = self.pace_of(live)
        alone = live.bots_only
        if alone:
            delay = max(delay, self.bot_pace, BOT_PACE_FACTOR * live.bot_thought)
        if delay:
            await asyncio.sleep(delay)
        if alone:
            await self._turn_of_bots_alone()
        if live.seq != seq or live.table is None or live.status != "playing":
            return
        seat = live.table.state.to_move()
        if seat is None or live.seats[seat].bot is None:
            return
        bot = live.bot(seat)
        slow = self.workers is not None and work_for(bot, live.table.state.view(seat)) is not None
        if slow and not await self._bot_ready(live, seq, seat):
            return  # the table moved on while the bot's solve ran
        state = live.table.state
        view, legal, rng = state.view(seat), state.legal_actions(), bot_rng(live.seed, seq)
        choose: Callable[..., Action] = bot.choose
        if slow and work_for(bot, view) is not None:
            choose = functools.partial(cheap_choice, bot)  # its solve could not be had
        if alone:
            # in a thread, one table at a time: ten bots' odds over fifty dice take
            # milliseconds, a stall for everybody were they taken on the event loop
            async with self._alone_thinking():
                await self._turn_of_bots_alone()
                action, live.bot_thought = await asyncio.to_thread(
                    timed, choose, view, legal, rng)
                self._thought_alone(live.bot_thought)
        elif bot.thinks or slow:  # a search, or a first look: the loop answers everyone
            action, live.bot_thought = await asyncio.to_thread(
                timed, choose, view, legal, rng)
        else:
            action, live.bot_thought = timed(choose, view, legal, rng)
        try:
            await self.act(live.id, None, str(action), seq, as_bot=seat)
        except StaleAction:
            return  # another process moved this bot first

    def _alone_thinking(self) -> asyncio.Lock:
        """The lock a table of bots alone holds while it thinks (this hub's own)."""
        if self._alone_lock is None:
            self._alone_lock = asyncio.Lock()
        return self._alone_lock

    async def _turn_of_bots_alone(self) -> None:
        """Wait until the tables of bots alone may think again (see :data:`BOTS_ALONE_SHARE`).
        Those woken together go one by one: the first to think sets the next time."""
        loop = asyncio.get_running_loop()
        while (wait := self.alone_free_at - loop.time()) > 0:
            await asyncio.sleep(wait)

    def _thought_alone(self, seconds: float) -> None:
        now = asyncio.get_running_loop().time()
        self.alone_free_at = max(now, self.alone_free_at) + seconds / self.bots_alone_share
        self.alone_thought += seconds

    async def _bot_ready(self, live: LiveTable, seq: int, seat: int) -> bool:
        """Have the bot's slow work done by the workers, the event loop free meanwhile.
        False if the table moved on; True also when the work could not be done (the
        queue is full, a worker failed): the bot then plays its cheap choice."""
        assert self.workers is not None and live.table is not None
        work = work_for(live.bot(seat), live.table.state.view(seat))
        if work is None:
            return True
        try:
            async with asyncio.timeout(BOT_WAIT):
                await self.workers.run(work)
        except (Busy, TimeoutError):
            pass  # the work goes on (or is refused); the bot plays its cheap choice now
        except Exception:
            log.exception("a bot's work at table %s", live.id)
        return live.seq == seq and live.table is not None and live.status == "playing"


def new_solve(game: Game, bots: Iterable[tuple[int, str]],
              pending: Container[Hashable] = ()) -> bool:
    """Whether bots (seat, name) at a table of ``game`` need a rule set solved that nobody
    has solved (nothing on disk, not a standard preset) nor is solving (``pending``, the
    workers' works): what one guest may ask for only so often
    (:meth:`~kastkopp.server.limits.Limiter.new_rules`). It looks at the disk: call it in a
    thread."""
    state = game.new_state()
    for seat, name in bots:
        work = work_for(make_bot(game, name), state.view(seat))
        if work is not None and work.fresh and work.key not in pending:
            return True
    return False
