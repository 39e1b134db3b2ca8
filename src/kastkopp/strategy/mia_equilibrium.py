"""An equilibrium of heads-up Slosch: how often to bluff, when to call, when to pass.

Two players exchange the cup until one of them lifts it. The rules are those of
:mod:`kastkopp.games.mia`: the value order and chances from
:class:`~kastkopp.games.mia.MiaRules`, and what every lift (or Mäxchen's reveal) costs whom
by playing it out on the module's own two-player table (:func:`lift_table`); nothing is
restated here.

Why the exchange splits into small games. Whenever a player believes and rolls, the old dice
are gone and nobody knows anything about the new ones except the roller. So the position
right after a roll is public and depends only on the claim that must be beaten: every such
position starts a proper subgame. The solver takes the claims from the best down and solves
each subgame with :mod:`kastkopp.strategy.cfr` — the roller's 21 possible values against a
responder who knows nothing — using the already solved values of the higher claims for
"believe and roll". The opening (any first announcement) is solved last; its value is the
first player's value of the exchange.

Payoffs are lives: the player who loses the exchange loses one life, two when Slosch was
rolled or claimed (``slosch_double``). The value is what the first roller expects the
other to lose minus what he expects to lose himself.

Decisions where the rules leave a two-player exchange open:

- Passing follows :mod:`kastkopp.games.mia`: a claim goes round unseen only once, so at a
  table of two it can be passed once, and the player it comes back to (who rolled the dice)
  must lift it or roll. ``passes`` changes that for comparison: with an even number the
  responder is the one forced at the end, passing never pays and the game is the one
  without passing; with an odd number the roller must lift his own claim (and loses if it
  is true), which makes passing a weapon. ``docs/slosch-equilibrium.md`` gives both.
- Exploitability is measured for the whole exchange: each player's best response against
  the other's equilibrium strategy, solved back through every subgame, exactly.

Usage::

    >>> from kastkopp.games.mia import MiaRules
    >>> eq = solve(MiaRules.make("maexchen"), target=1e-4)
    >>> -1 < eq.value < 1 and eq.exploitability < 1e-3
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from kastkopp.games.mia import MIA, Mia, MiaRules, chance_of, value_name
from kastkopp.strategy.cfr import Array, Decision, Leaf, Solver, build

# A continuation: what the roller of the current subgame gets when, after claim ``c``,
# the responder ("other") or the roller himself ("self") believes and rolls.
Continuation = Callable[[str, int], float]


@dataclass(frozen=True)
class Exchange:
    """One subgame: the roller (player 0) must beat ``claim`` (``None``: the opening).

    Player 0's hands are the 21 values, worst first, as :attr:`MiaRules.values` lists them;
    player 1, the responder, has one hand (he knows nothing).
    """

    rules: MiaRules
    claim: int | None
    continuation: Continuation
    passes: int = 1

    @property
    def hands(self) -> tuple[int, int]:
        return (len(self.rules.values), 1)

    def chance(self) -> Array:
        return np.array([[float(chance_of(v))] for v in self.rules.values])

    def announcements(self) -> tuple[int, ...]:
        values = self.rules.values
        return values if self.claim is None else values[self.rules.rank(self.claim) + 1:]

    def root(self) -> Hashable:
        return ("announce",)

    def expand(self, node: Hashable) -> Decision | Leaf:
        assert isinstance(node, tuple)
        if node[0] == "announce":
            return Decision(0, [(f"announce {c}", ("reveal", c)
                                 if c == MIA and self.rules.mia_reveals else ("respond", c, 0))
                                for c in self.announcements()])
        if node[0] in ("reveal", "call", "roll"):
            return Leaf(node)
        _, claim, passed = node
        mover = 1 if passed % 2 == 0 else 0
        actions: list[tuple[str, Hashable]] = [("call", ("call", claim, passed))]
        if claim != MIA:  # nothing beats Slosch: it cannot be believed
            actions.append(("roll", ("roll", claim, passed)))
        if self.rules.passing and passed < self.passes:
            actions.append(("pass", ("respond", claim, passed + 1)))
        return Decision(mover, actions)

    def payoff(self, key: Hashable) -> Array:
        """What the roller wins, for each value in the cup."""
        assert isinstance(key, tuple)
        values = self.rules.values
        kind, claim, passed = key if len(key) == 3 else (*key, 0)
        if kind == "roll":
            who = "self" if passed % 2 == 1 else "other"
            return np.full((len(values), 1), self.continuation(who, claim))
        # lifting, or the reveal: ask the Slosch module what it costs whom
        lifts = lift_table(self.rules)
        return np.array([[lifts[kind, passed % 2 == 1, claim, v]] for v in values])


@lru_cache(maxsize=32)
def lift_table(rules: MiaRules) -> dict[tuple[str, bool, int, int], float]:
    """What the roller (seat 0) wins when the cup is lifted, by the rules of
    :mod:`kastkopp.games.mia`: played out on a two-player table for every claim and every
    value in the cup, lifted by the responder or, after his pass, by the roller himself.
    With Mäxchen's reveal, a claimed Slosch is looked at at once (``reveal``)."""
    game = Mia(rules=rules, players=2)
    table: dict[tuple[str, bool, int, int], float] = {}
    for claim in rules.values:
        for value in rules.values:
            cup = (value // 10, value % 10)
            announced = game.new_state().resolve(cup).apply(f"announce {claim}")
            if announced.phase == "respond":
                lifted = [(False, announced.apply("call"))]
                if rules.passing:
                    lifted.append((True, announced.apply("pass").apply("call")))
                kind = "call"
            else:  # the claim ended the round by itself
                lifted, kind = [(False, announced)], "reveal"
            for by_roller, state in lifted:
                last = state.last_round
                cost = float(last["cost"]) if last else 0.0
                losers = last["losers"] if last else []
                table[kind, by_roller, claim, value] = -cost if 0 in losers else cost
    return table


@dataclass
class Subgame:
    claim: int | None
    solver: Solver
    value: float  # for the roller
    local_gap: float  # exploitability inside the subgame, continuations held fixed


@dataclass
class Equilibrium:
    """The solved exchange: values, the strategy of every subgame, and its quality."""

    rules: MiaRules
    passes: int
    subgames: dict[int | None, Subgame]
    value: float = 0.0
    exploitability: float = 0.0
    seconds: float = 0.0
    iterations: int = 0
    best_responses: dict[str, float] = field(default_factory=dict)

    def roller_value(self, claim: int | None) -> float:
        """The roller's value when he must beat ``claim`` (Slosch cannot be beaten)."""
        if claim == MIA:
            raise ValueError("nobody can roll to beat Slosch")
        return self.subgames[claim].value

    def announcement_policy(self, claim: int | None) -> dict[int, dict[int, float]]:
        """For each value rolled: the chance of each announcement (beating ``claim``)."""
        sub = self.subgames[claim]
        policy = sub.solver.policy(("announce",))
        values = self.rules.values
        return {v: {int(label.split()[1]): float(p[i]) for label, p in policy.items()}
                for i, v in enumerate(values)}

    def response_policy(self, claim: int | None, announced: int) -> dict[str, float]:
        """How the responder answers ``announced`` (made when ``claim`` was to be beaten)."""
        sub = self.subgames[claim]
        if ("respond", announced, 0) not in sub.solver.tree.index:
            return {}
        return {label: float(p[0])
                for label, p in sub.solver.policy(("respond", announced, 0)).items()}

    def rows(self, claim: int | None = None) -> list[dict[str, Any]]:
        """By value, worst first: how a roller who must beat ``claim`` announces it and how
        the responder answers it."""
        sub = self.subgames[claim]
        solver = sub.solver
        values = self.rules.values
        weights = np.array([float(chance_of(v)) for v in values])
        announce = solver.policy(("announce",))
        rows = []
        for i, v in enumerate(values):
            label = f"announce {v}"
            # the roller's own moves: does he tell the truth with v in the cup?
            mine = {int(k.split()[1]): float(p[i]) for k, p in announce.items()}
            bluff = sum(p for c, p in mine.items() if self.rules.rank(c) > self.rules.rank(v))
            row: dict[str, Any] = {"value": value_name(v), "truth": mine.get(v, 0.0),
                                   "bluff": bluff}
            if label in announce:
                claimed = announce[label] * weights
                total = float(claimed.sum())
                holds = np.array([self.rules.rank(u) >= self.rules.rank(v) for u in values])
                row["claimed"] = total
                # how often the claim is true, when it is ever made
                row["true"] = float(claimed[holds].sum() / total) if total > 1e-9 else None
                for action, p in self.response_policy(claim, v).items():
                    row[action] = p
            rows.append(row)
        return rows

    def to_json(self) -> dict[str, Any]:
        later = []
        for c in self.rules.values:
            if c == MIA:
                continue
            rows = self.rows(c)
            weights = np.array([float(chance_of(v)) for v in self.rules.values])
            forced = sum(w for w, v in zip(weights, self.rules.values, strict=True)
                         if self.rules.rank(v) <= self.rules.rank(c))
            bluffs = sum(w * r["bluff"] for w, r in zip(weights, rows, strict=True))
            later.append({"to_beat": value_name(c), "roller_value": self.roller_value(c),
                          "must_lie": float(forced), "bluffs": float(bluffs)})
        return {
            "game": "mia", "players": 2, "rules": self.rules.to_json(), "passes": self.passes,
            "first_player_value": self.value, "exploitability": self.exploitability,
            "seconds": self.seconds, "iterations": self.iterations,
            "opening": self.rows(None), "after_belief": later,
        }


def solve(rules: MiaRules, passes: int = 1, target: float = 1e-6,
          max_iterations: int = 20_000, variant: str = "cfr+",
          progress: Callable[[int, int], None] | None = None) -> Equilibrium:
    """Solve the heads-up exchange under ``rules``, each subgame to ``target`` lives."""
    started = time.perf_counter()
    eq = Equilibrium(rules=rules, passes=passes, subgames={})
    claims: list[int | None] = [c for c in reversed(rules.values) if c != MIA]
    claims.append(None)

    def equilibrium_continuation(who: str, claim: int) -> float:
        if claim == MIA:  # cannot happen: Slosch is never believed
            raise ValueError("Slosch cannot be believed")
        value = eq.subgames[claim].value
        return value if who == "self" else -value

    for done, claim in enumerate(claims):
        tree = build(Exchange(rules, claim, equilibrium_continuation, passes))
        solver = Solver(tree, variant=variant)
        gap = solver.solve(target, max_iterations=max_iterations, check_every=20)
        eq.subgames[claim] = Subgame(claim, solver, solver.game_value(), gap)
        eq.iterations += solver.iterations
        if progress is not None:
            progress(done + 1, len(claims))
    eq.value = eq.subgames[None].value
    roller, responder = _best_responses(eq, claims)
    eq.best_responses = {"first_player": roller, "second_player": responder}
    eq.exploitability = 0.5 * (roller + responder)
    eq.seconds = time.perf_counter() - started
    return eq


def _best_responses(eq: Equilibrium, claims: list[int | None]) -> tuple[float, float]:
    """What a best responder gets against the equilibrium, as roller and as responder,
    solved back through the subgames (so a deviation may continue in later subgames)."""
    as_roller: dict[int, float] = {}
    as_responder: dict[int, float] = {}
    result = (0.0, 0.0)
    for claim in claims:
        sub = eq.subgames[claim]
        strategy = [sub.solver.average_strategy(0), sub.solver.average_strategy(1)]

        def exploiter_rolls(who: str, c: int) -> float:
            # the exploiter is the roller here; "other" makes him the responder of c
            return as_roller[c] if who == "self" else as_responder[c]

        def exploiter_responds(who: str, c: int) -> float:
            # the exploiter responds here; in roller terms his gains are negated
            return -as_responder[c] if who == "self" else -as_roller[c]

        r = Solver(build(Exchange(eq.rules, claim, exploiter_rolls, eq.passes)))
        q = Solver(build(Exchange(eq.rules, claim, exploiter_responds, eq.passes)))
        roller = r.best_response_value(0, strategy)
        responder = q.best_response_value(1, strategy)
        if claim is None:
            result = (roller, responder)
        else:
            as_roller[claim], as_responder[claim] = roller, responder
    return result


@lru_cache(maxsize=8)
def equilibrium_for(rules: MiaRules) -> Equilibrium:
    """The solved exchange for ``rules`` as the table plays it (one pass), once per
    process: what :class:`kastkopp.strategy.mia.EquilibriumMiaBot` plays."""
    return solve(rules, target=1e-4)
