"""Post-game review: every decision of every seat, the best choice, and what it cost.

After a game every cup is lifted, so the review reads the whole log: each seat's decisions
with the state as it really was. What "best" means is the game's own knowledge, so each
game registers a grader next to its strategy code (in ``kastkopp.strategy.<game>_review``,
imported the first time that game is reviewed); this module knows no game by name.

A grader turns the replayed log (a list of :class:`Step`) into :class:`Moment` s:

- a decision names the choice made, the best choice and its cost in the game's own unit
  (expected points in Yatzy, lives in Slosch, ...), or only facts (``detail``: the chance
  a bid holds) where the game has no exact best;
- a roll may carry its luck: how much the dice moved the seat's expectation.

"Try again from here" (:func:`seen_at`, :func:`try_again`) sets a decision's position up
from its seat's own view and grades another choice there with the same grader.

>>> from kastkopp.engine import Table
>>> from kastkopp.games import load
>>> import random
>>> from kastkopp.engine import play_out
>>> from kastkopp.strategy import make_bot
>>> table = Table(load("knack", players=2))
>>> bots = [make_bot(table.game, "strong"), make_bot(table.game, "random")]
>>> _ = play_out(table, bots, random.Random(1))
>>> review(table.to_json()).seats[0].decisions > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kastkopp.engine import (
    LOG_FORMAT,
    Game,
    KastkoppError,
    LogError,
    State,
    forfeit_outcome,
    game_from_json,
)


class ReviewError(KastkoppError):
    """A log that cannot be reviewed (yet): the game is not over."""


@dataclass(frozen=True)
class Step:
    """One event of the log, with the state before and after it."""

    index: int  # the event's place in the log
    kind: str  # "roll", "action", "penalty" or "forfeit"
    seat: int | None
    before: State
    after: State
    action: str | None = None
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class Moment:
    """A graded decision (``kind="decision"``) or a roll's luck (``kind="roll"``)."""

    index: int
    seat: int
    kind: str
    made: str = ""
    best: str | None = None
    cost: float | None = None  # None: described, not graded
    luck: float | None = None
    # what the seat saw, as facts a page can label in its language: "dice", "to_beat",
    # "bid", "kept", "throw" (e.g. "2/3")
    situation: dict[str, str] = field(default_factory=dict)
    detail: dict[str, float] = field(default_factory=dict)

    def situation_text(self) -> str:
        """The situation in English words: ``dice 5 5 2, to_beat 43``."""
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.situation.items())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"index": self.index, "seat": self.seat, "kind": self.kind}
        if self.kind == "decision":
            data.update(made=self.made, best=self.best, cost=_round(self.cost),
                        situation=dict(self.situation))
            if self.detail:
                data["detail"] = {k: _round(v) for k, v in self.detail.items()}
        else:
            data.update(made=self.made, luck=_round(self.luck),
                        situation=dict(self.situation))
        return data


@dataclass(frozen=True)
class Graded:
    """What a grader finds: the moments, the unit, and for games with an exact account
    (Yatzy) each seat's optimal expectation at the start."""

    moments: list[Moment]
    unit: str  # "points", "lives", "chips", "chance"
    tolerance: float = 1e-9  # a cost up to this is a best choice (solver precision)
    start: list[float] | None = None
    method: str = ""  # where "best" comes from, in a few words


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    name: str
    decisions: int
    graded: int
    best: int  # graded decisions that cost nothing
    lost: float
    luck: float | None
    costliest: list[Moment]
    start: float | None
    final: float

    @property
    def accuracy(self) -> float | None:
        return self.best / self.graded if self.graded else None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "decisions": self.decisions,
                "graded": self.graded, "best": self.best, "accuracy": _round(self.accuracy),
                "lost": _round(self.lost), "luck": _round(self.luck),
                "start": _round(self.start), "final": self.final,
                "costliest": [m.to_json() for m in self.costliest]}


@dataclass(frozen=True)
class Review:
    game: str
    title: str
    names: list[str]
    unit: str
    method: str
    moments: list[Moment]
    seats: list[SeatSummary]
    log: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "seats": self.names,
                "unit": self.unit, "method": self.method,
                "summaries": [s.to_json() for s in self.seats],
                "moments": [m.to_json() for m in self.moments],
                "events": self.log.get("events", [])}


Grader = Callable[[Game, Sequence[Step]], Graded]
GraderFactory = Callable[[Game], Grader]
_GRADERS: dict[str, GraderFactory] = {}
# (game, notation, language) -> the choice in a player's words
Words = Callable[[Game, str, str], str]
_WORDS: dict[str, Words] = {}
LANGUAGES = ("sv", "da", "en")


def decisions(steps: Sequence[Step]) -> Iterator[tuple[Step, int, str, dict[str, Any]]]:
    """Each action a seat took: the step, the seat, the action's notation and the seat's view
    just before it (what the seat knew when it chose)."""
    for step in steps:
        if step.kind == "action" and step.seat is not None and step.action is not None:
            yield step, step.seat, step.action, step.before.view(step.seat)


def register_grader(game: str) -> Callable[[GraderFactory], GraderFactory]:
    """Decorator for ``(game) -> grader``: the grader of one game family."""

    def decorate(factory: GraderFactory) -> GraderFactory:
        _GRADERS[game] = factory
        return factory

    return decorate


def register_words(game: str) -> Callable[[Words], Words]:
    """Decorator for ``(game, notation, lang) -> words``: how a game's review says a choice."""

    def decorate(words: Words) -> Words:
        _WORDS[game] = words
        return words

    return decorate


def said(game: Game, notations: Iterable[str | None], lang: str) -> dict[str, str]:
    """Each choice's notation in a player's words (``keep 4 4`` → ``behåll 4 4``), as its
    game's review module says it; a game that says nothing keeps its notation."""
    game.parts.load("review")
    words = _WORDS.get(game.name)
    out: dict[str, str] = {}
    for notation in notations:
        if notation and notation not in out:
            try:
                out[notation] = words(game, notation, lang) if words and lang in LANGUAGES \
                    else notation
            except (KastkoppError, KeyError, ValueError):
                out[notation] = notation
    return out


def grader_for(game: Game) -> Grader:
    game.parts.load("review")
    if game.name not in _GRADERS:
        raise ReviewError("kastkopp cannot review {game} yet", game=game.title)
    return _GRADERS[game.name](game)


def steps_of(game: Game, events: Sequence[dict[str, Any]]) -> list[Step]:
    """The log replayed event by event, each with the state before and after; raises
    :class:`LogError` naming the first event that does not replay."""
    state = game.new_state()
    steps: list[Step] = []
    for index, event in enumerate(events):
        before = state
        try:
            kind = event["type"]
            if steps and steps[-1].kind == "forfeit":
                raise LogError("an event after a forfeit ended the game")
            if kind == "roll":
                chance = state.chance()
                if chance is None:
                    raise LogError("a roll where no dice were to be rolled")
                faces = tuple(int(f) for f in event["faces"])
                state = state.resolve(faces)
                steps.append(Step(index, kind, chance.seat, before, state, faces=faces))
            elif kind == "action":
                seat = int(event["seat"])
                if state.chance() is not None or seat != state.to_move():
                    raise LogError(f"seat {seat} acted out of turn")
                state = state.apply(str(event["action"]))
                steps.append(Step(index, kind, seat, before, state,
                                  action=str(event["action"])))
            elif kind == "penalty":
                state = state.penalty(int(event["seat"]), str(event["reason"]))
                steps.append(Step(index, kind, int(event["seat"]), before, state))
            elif kind == "forfeit":
                steps.append(Step(index, kind, int(event["seat"]), before, state))
            else:
                raise LogError(f"unknown event type {kind!r}")
        except (KastkoppError, KeyError, TypeError, ValueError) as exc:
            raise LogError(f"event {index}: {exc}") from None
    return steps


def finished(data: dict[str, Any]) -> tuple[Game, list[Step], int | None]:
    """A finished game's log replayed: the game, its steps and the seat that forfeited (if
    one did). Raises :class:`ReviewError` when the game is not over (its hidden dice would
    show) and :class:`LogError` when the log does not replay."""
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        raise LogError("this is not a kastkopp log")
    game = game_from_json(data)
    events = data.get("events")
    if not isinstance(events, list):
        raise LogError("the log has no list of events")
    steps = steps_of(game, events)
    state = steps[-1].after if steps else game.new_state()
    forfeit = next((s.seat for s in steps if s.kind == "forfeit"), None)
    if forfeit is None and not state.is_over():
        raise ReviewError("the game is not over; a review would show hidden dice")
    return game, steps, forfeit


def review(data: dict[str, Any], top: int = 3) -> Review:
    """Review a finished game's log (a :meth:`Table.to_json`); raises :class:`ReviewError`
    when the game is not over (its hidden dice would show) and :class:`LogError` when the
    log does not replay."""
    game, steps, forfeit = finished(data)
    state = steps[-1].after if steps else game.new_state()
    outcome = forfeit_outcome(game.players, forfeit) if forfeit is not None \
        else state.outcome()
    graded = grader_for(game)(game, steps)
    names = [str(s) for s in data.get("seats") or []] or [
        f"Player {i + 1}" for i in range(game.players)]
    summaries = [_summary(seat, names[seat], graded, float(outcome.scores[seat]), top)
                 for seat in range(game.players)]
    return Review(game.name, game.title, names, graded.unit, graded.method, graded.moments,
                  summaries, data)


# --------------------------------------------------------------------------- try again


@dataclass(frozen=True)
class Seen:
    """A decision's position as its seat saw it then: the seat's own view (every other cup
    closed again) and the actions it could choose from."""

    index: int
    seat: int
    view: dict[str, Any]
    legal: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "to_move": self.seat,
                "view": self.view, "legal": self.legal}


@dataclass(frozen=True)
class Attempt:
    """A choice tried again at a decision, graded by the review's own grader, beside the
    choice made in the game; ``None`` where the grader has no moment for it."""

    index: int
    seat: int
    action: str
    unit: str
    tolerance: float
    chosen: Moment | None
    made: Moment | None

    @property
    def cost(self) -> float | None:
        return self.chosen.cost if self.chosen else None

    @property
    def best(self) -> str | None:
        return (self.chosen.best if self.chosen else None) or (
            self.made.best if self.made else None)

    def to_json(self) -> dict[str, Any]:
        cost = self.cost
        return {"index": self.index, "seat": self.seat, "unit": self.unit,
                "action": self.action, "cost": _round(cost), "best": self.best,
                "is_best": cost is not None and cost <= self.tolerance,
                "made": self.made.made if self.made else None,
                "made_cost": _round(self.made.cost if self.made else None),
                "detail": {k: _round(v) for k, v in (
                    self.chosen.detail if self.chosen else {}).items()}}


def decision_at(data: dict[str, Any], index: int, seat: int
                ) -> tuple[Game, list[Step], int]:
    """The finished game, its steps, and the place among them of the decision ``seat``
    made at event ``index``; :class:`ReviewError` when there is none."""
    game, steps, _ = finished(data)
    at = next((k for k, s in enumerate(steps) if s.index == index), None)
    if at is None or steps[at].kind != "action" or steps[at].seat != seat:
        raise ReviewError("there is no decision of seat {seat} at step {step}", seat=seat,
                          step=index)
    return game, steps, at


def seen_at(data: dict[str, Any], index: int, seat: int) -> Seen:
    """The position of a decision as its seat saw it, to choose again from."""
    _, steps, at = decision_at(data, index, seat)
    before = steps[at].before
    return Seen(index, seat, before.view(seat), [str(a) for a in before.legal_actions()])


def try_again(data: dict[str, Any], index: int, seat: int, action: str) -> Attempt:
    """``action`` chosen instead at the decision ``seat`` made at event ``index``, graded
    as the review grades the game: the position is the same, only the choice differs.
    An unreadable or illegal action raises :class:`IllegalAction` with the rules' reason."""
    game, steps, at = decision_at(data, index, seat)
    step = steps[at]
    chosen = game.parse_action(action)
    after = step.before.apply(chosen)  # the rules' own refusal of an illegal choice
    text = str(chosen)
    grade = grader_for(game)
    made = grade(game, steps[:at + 1])
    again = grade(game, [*steps[:at], replace(step, after=after, action=text)])

    def moment(graded: Graded) -> Moment | None:
        return next((m for m in graded.moments
                     if m.index == index and m.kind == "decision"), None)

    return Attempt(index, seat, text, made.unit, made.tolerance, moment(again), moment(made))


def _summary(seat: int, name: str, graded: Graded, final: float, top: int) -> SeatSummary:
    mine = [m for m in graded.moments if m.seat == seat]
    decisions = [m for m in mine if m.kind == "decision"]
    costed = [m for m in decisions if m.cost is not None]
    rolls = [m.luck for m in mine if m.kind == "roll" and m.luck is not None]
    costliest = sorted((m for m in costed if m.cost and m.cost > graded.tolerance),
                       key=lambda m: -(m.cost or 0.0))[:top]
    return SeatSummary(
        seat=seat, name=name, decisions=len(decisions), graded=len(costed),
        best=sum(1 for m in costed if (m.cost or 0.0) <= graded.tolerance),
        lost=sum(m.cost or 0.0 for m in costed), luck=sum(rolls) if rolls else None,
        costliest=costliest, start=graded.start[seat] if graded.start else None, final=final)


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(float(value), digits)
