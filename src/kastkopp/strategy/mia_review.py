"""Slosch's review.

Heads-up, every announcement and every answer is graded in lives against the solved
equilibrium of the exchange (:mod:`kastkopp.strategy.mia_equilibrium`): what the choice
made is worth, both playing the equilibrium afterwards, against the best choice there.
With more players there is no solved game; each decision shows the odds instead: the
chance that the claim handed on was beaten by the dice, and the chance of beating it by
rolling. The hint tells the same from the seat's view before the choice.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from kastkopp.engine import Action, Game, Player
from kastkopp.games.mia import MIA, MiaRules, MiaState, chance_of, parse_value, read, value_name
from kastkopp.locale import spoken
from kastkopp.strategy.advice import Advisor, Hint, ranked, register_advisor
from kastkopp.strategy.mia_equilibrium import Equilibrium, solve
from kastkopp.strategy.review import Graded, Moment, Step, register_grader, register_words
from kastkopp.strategy.work import Work

# The equilibrium is solved to this exploitability (lives); about five seconds once per rule
# set, then kept for the process. A choice this close to the best counts as the best.
TARGET = 1e-3
TOLERANCE = 0.02
_SOLVED: dict[MiaRules, Equilibrium] = {}


def equilibrium(rules: MiaRules) -> Equilibrium:
    if rules not in _SOLVED:
        _SOLVED[rules] = solve(rules, target=TARGET)
    return _SOLVED[rules]


def _node(view: Mapping[str, Any], values: Sequence[int]
          ) -> tuple[int | None, tuple[Any, ...], int]:
    """From a seat's view: the claim its exchange started from (the subgame), the
    equilibrium's public node, and the seat's hand there."""
    history = [h["action"] for h in view["history"]]
    announced = [i for i, a in enumerate(history) if a.startswith("announce")]
    mine = values.index(parse_value(view["your_dice"])) if view.get("your_dice") else 0
    if view["phase"] == "announce":
        to_beat = parse_value(view["claim"]) if view["claim"] else None
        return to_beat, ("announce",), mine
    last = announced[-1]
    to_beat = parse_value(history[announced[-2]][9:]) if len(announced) > 1 else None
    passed = sum(1 for a in history[last + 1:] if a == "pass")
    claim = parse_value(view["claim"])
    return to_beat, ("respond", claim, passed), mine if passed % 2 == 1 else 0


def _beaten(rules: MiaRules, claim: int | None, strictly: bool) -> float:
    """The chance that two dice make at least (or, ``strictly``, more than) ``claim``."""
    if claim is None:
        return 1.0
    rank = rules.rank(claim)
    return float(sum((chance_of(v) for v in rules.values
                      if rules.rank(v) > rank or (not strictly and rules.rank(v) == rank)),
                     Fraction(0)))


def odds(rules: MiaRules, view: Mapping[str, Any]) -> dict[str, float]:
    """The chance that the dice under the cup make the claim to beat, and that a roll
    beats it."""
    claim = parse_value(view["claim"]) if view.get("claim") else None
    return {"claim_beaten": _beaten(rules, claim, strictly=False),
            "beat_by_rolling": _beaten(rules, claim, strictly=True)}


def exchange_values(rules: MiaRules, view: Mapping[str, Any]) -> dict[str, float] | None:
    """Heads-up, from the seat's view: each choice's worth in lives for the seat, both
    playing the solved equilibrium afterwards (``None``: more players alive, or a position
    the equilibrium does not reach)."""
    claim = parse_value(view["claim"]) if view.get("claim") else None
    if sum(1 for a in view["alive"] if a) != 2 or (claim == MIA and view["phase"] == "announce"):
        return None
    to_beat, node, hand = _node(view, rules.values)
    sub = equilibrium(rules).subgames.get(to_beat)
    if sub is None or node not in sub.solver.tree.index:
        return None
    values = sub.solver.action_values(node, hand)
    return None if values is None else dict(values)


def grade(game: Game, steps: Sequence[Step]) -> Graded:
    rules = game.rules
    assert isinstance(rules, MiaRules)
    moments: list[Moment] = []
    for step in steps:
        before = step.before
        if step.kind != "action" or step.seat is None:
            continue
        assert isinstance(before, MiaState)
        claim = before.claim
        dice = value_name(read(before.dice)) if before.dice and before.phase == "announce" \
            else ""
        situation = {**({"dice": dice} if dice else {}),
                     **({"to_beat": value_name(claim)} if claim else {})}
        view = before.view(step.seat)
        detail = odds(rules, view)
        values = exchange_values(rules, view)
        if values is None or step.action not in values:
            moments.append(Moment(step.index, step.seat, "decision", made=step.action or "",
                                  situation=situation, detail=detail))
            continue
        # values are for the player acting; the roller of the subgame is player 0
        best = max(values, key=lambda k: values[k])
        moments.append(Moment(step.index, step.seat, "decision", made=step.action or "",
                              best=best, cost=values[best] - values[step.action],
                              situation=situation,
                              detail={**detail, "value": values[step.action]}))
    return Graded(moments, "lives", tolerance=TOLERANCE,
                  method="heads-up: the solved equilibrium of the exchange; "
                         "more players: the odds of the dice")


@register_grader("mia")
def grader(game: Game) -> Any:
    return grade


@dataclass
class EquilibriumMiaPlayer(Player):
    """Plays heads-up Slosch by the solved equilibrium, from its own view."""

    rules: MiaRules

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        to_beat, node, hand = _node(view, self.rules.values)
        policy = equilibrium(self.rules).subgames[to_beat].solver.policy(node)
        by_name = {str(a): a for a in legal}
        labels = [k for k in policy if k in by_name]
        weights = [float(policy[k][hand]) for k in labels]
        return by_name[rng.choices(labels, weights=weights)[0]]


@register_words("mia")
def words(game: Game, notation: str, lang: str) -> str:
    """``announce 43`` → ``säg 43``; ``call`` → ``lyft koppen``."""
    verb, _, rest = notation.partition(" ")
    if verb == "announce":
        return spoken(lang, "announce {claim}", claim=rest)
    return {"roll": spoken(lang, "believe it and roll"), "call": spoken(lang, "lift the cup"),
            "pass": spoken(lang, "pass the cup on unseen")}.get(notation, notation)


@dataclass
class MiaAdvisor(Advisor):
    """The odds of the claim, and heads-up each choice's worth in lives by the solved
    equilibrium (solved once per rule set, in a worker process on a server)."""

    rules: MiaRules

    @property
    def key(self) -> Hashable:
        return ("mia", self.rules)

    def ready(self) -> bool:
        return self.rules in _SOLVED

    def prepare(self) -> None:
        equilibrium(self.rules)

    def work(self) -> Work | None:
        rules = self.rules

        def keep(solved: Equilibrium) -> None:
            _SOLVED.setdefault(rules, solved)

        return Work(("mia", rules), equilibrium, (rules,), keep)

    def advise(self, view: dict[str, Any]) -> list[Any]:
        return list(self.hint(view, []).choices)

    def hint(self, view: dict[str, Any], legal: Sequence[str]) -> Hint:
        values = exchange_values(self.rules, view)
        if values is not None and legal:
            values = {k: v for k, v in values.items() if k in legal}
        facts = odds(self.rules, view) if view.get("claim") else {}  # nothing to beat yet
        return Hint("lives", ranked(values or {}), facts)


@register_advisor("mia")
def advisor(game: Game) -> Advisor:
    assert isinstance(game.rules, MiaRules)
    return MiaAdvisor(game.rules)
