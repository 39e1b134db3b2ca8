"""Matches and tournaments for any two-player game: best of N, chouette and knockout.

Each format is a frozen value folded from its results, as a game is folded from its log:
recording a result returns a new value and changes nothing else, so standings, brackets and
who plays next are always derived, never stored. Players are named by strings.

A match is won by the first to win more than half of ``best_of`` games. The winner of a game
calls first in the next one (the first game decides it its own way, with a die roll)::

    >>> match = Match(("Anna", "Bo"), best_of=3).record("Bo")
    >>> match.opener, match.score(), match.is_over
    ('Bo', '0-1', False)
    >>> match.record("Bo").winner
    'Bo'

Chouette, for three or more: the two first in the order play, the winner stays at the table,
the loser goes to the end of the queue::

    >>> chouette = Chouette(("Anna", "Bo", "Cara")).record("Bo")
    >>> chouette.table, chouette.waiting
    (('Cara', 'Bo'), ('Anna',))

Knockout: a bracket of the next power of two, the top seeds getting the byes::

    >>> cup = Knockout(("Anna", "Bo", "Cara"))
    >>> [(p.a, p.b) for p in cup.pending()]
    [('Bo', 'Cara')]
    >>> cup.record(0, 1, "Cara").record(1, 0, "Anna").champion
    'Anna'

Playing the games is left to the caller (the command line, the server): the ``play_*``
functions take a callback that plays one game between two seated players and returns the
winner's name (``None`` for a drawn game). A game whose rules name an opening player
answers :meth:`kastkopp.engine.Game.opened_by` (Poker Menteur does); other games are played
with the opener in the first seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kastkopp.engine import Game, IllegalAction, Message, RuleError, term
from kastkopp.locale import spoken

PlayGame = Callable[[Game, tuple[str, str]], str | None]
"""Play one game of ``game`` with these two players in seats 0 and 1; the winner or None."""


def _check_names(players: Sequence[str], least: int) -> None:
    if len(players) < least:
        raise RuleError("at least {least} players are needed, not {count}", least=least,
                        count=len(players))
    if len(set(players)) != len(players):
        twice = next(p for p in players if list(players).count(p) > 1)
        raise RuleError("'{name}' is named twice; every player needs their own name",
                        name=twice)


# --------------------------------------------------------------------------- best of N


def check_best_of(best_of: int) -> None:
    """A match is best of an odd number of games (1, 3, 5, ...)."""
    if best_of < 1 or best_of % 2 == 0:
        raise RuleError("a match is best of an odd number of games, not {best_of}",
                        best_of=best_of)


@dataclass(frozen=True)
class Match:
    """Two players, best of ``best_of`` games (an odd number). ``results`` are game winners
    (``None`` for a drawn game, which is replayed and does not count)."""

    players: tuple[str, str]
    best_of: int = 3
    results: tuple[str | None, ...] = ()

    def __post_init__(self) -> None:
        _check_names(self.players, 2)
        if len(self.players) != 2:
            raise RuleError("a match is between two players, not {count}",
                            count=len(self.players))
        check_best_of(self.best_of)

    @property
    def needed(self) -> int:
        """Games a player must win: two of three, three of five."""
        return self.best_of // 2 + 1

    def wins(self) -> tuple[int, int]:
        a, b = self.players
        return self.results.count(a), self.results.count(b)

    def score(self) -> str:
        a, b = self.wins()
        return f"{a}-{b}"

    @property
    def is_over(self) -> bool:
        return max(self.wins()) >= self.needed

    @property
    def winner(self) -> str | None:
        if not self.is_over:
            return None
        a, b = self.wins()
        return self.players[0] if a > b else self.players[1]

    @property
    def loser(self) -> str | None:
        winner = self.winner
        return None if winner is None else self.other(winner)

    @property
    def opener(self) -> str | None:
        """Who calls first in the next game: the last game's winner (None: the game decides)."""
        return next((w for w in reversed(self.results) if w is not None), None)

    def other(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def record(self, winner: str | None) -> Match:
        """The match after a game won by ``winner`` (``None``: drawn)."""
        if self.is_over:
            raise IllegalAction("the match is over: {name} won {score}", name=self.winner,
                                score=self.score())
        if winner is not None and winner not in self.players:
            raise IllegalAction("'{name}' does not play in this match ({a} against {b})",
                                name=winner, a=self.players[0], b=self.players[1])
        return replace(self, results=(*self.results, winner))

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "best_of": self.best_of,
                "results": list(self.results), "score": self.score(), "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Rebuild from :meth:`to_json` (only players, best_of and results are read)."""
        a, b = (str(p) for p in data["players"])
        return cls((a, b), int(data["best_of"]),
                   tuple(None if r is None else str(r) for r in data["results"]))


def seat_for_game(game: Game, players: tuple[str, str],
                  opener: str | None) -> tuple[Game, tuple[str, str]]:
    """The game and the seating for a game that ``opener`` must open (None: as it comes)."""
    if opener is None:
        return game, players
    if opener not in players:
        raise RuleError("'{name}' does not play in this game", name=opener)
    opened = game.opened_by(players.index(opener))
    if opened is not None:
        return opened, players
    other = players[1] if opener == players[0] else players[0]
    return game, (opener, other)


def play_match(game: Game, players: tuple[str, str], best_of: int, play: PlayGame,
               max_games: int = 1000) -> Match:
    """Play a whole match, the winner of each game opening the next."""
    match = Match(players, best_of)
    for _ in range(max_games):
        if match.is_over:
            return match
        this_game, seats = seat_for_game(game, players, match.opener)
        match = match.record(play(this_game, seats))
    raise RuntimeError(f"the match was not decided in {max_games} games")


# --------------------------------------------------------------------------- the order


@dataclass(frozen=True)
class RollOff:
    """The order of play found by rolling a die each, the highest first; players with equal
    dice roll again among themselves. ``rounds`` records every roll."""

    order: tuple[str, ...]
    rounds: tuple[tuple[tuple[str, int], ...], ...] = ()


def roll_for_order(players: Sequence[str], roll: Callable[[], int]) -> RollOff:
    """Everyone rolls ``roll()`` (a die, 1-6); the highest goes first, ties roll again."""
    _check_names(players, 1)
    rounds: list[tuple[tuple[str, int], ...]] = []

    def order(group: Sequence[str]) -> list[str]:
        if len(group) == 1:
            return list(group)
        rolls = tuple((name, roll()) for name in group)
        rounds.append(rolls)
        result: list[str] = []
        for face in sorted({f for _, f in rolls}, reverse=True):
            result.extend(order([name for name, f in rolls if f == face]))
        return result

    return RollOff(tuple(order(players)), tuple(rounds))


# --------------------------------------------------------------------------- chouette


@dataclass(frozen=True)
class Standing:
    player: str
    played: int = 0
    won: int = 0
    lost: int = 0

    @property
    def points(self) -> int:
        return self.won - self.lost


@dataclass(frozen=True)
class Chouette:
    """A chouette: the first two of ``order`` play, the winner keeps his place at the table
    and the loser gives his place to the first in the queue and goes to its end.

    ``results`` are the winners of the games so far (a drawn game is replayed by the game
    itself, so every result has a winner). The winner of a game calls first in the next.
    """

    order: tuple[str, ...]
    results: tuple[str, ...] = ()
    _fold: tuple[tuple[str, str], tuple[str, ...]] = field(init=False, repr=False,
                                                            compare=False)

    def __post_init__(self) -> None:
        _check_names(self.order, 2)
        table = (self.order[0], self.order[1])
        waiting = list(self.order[2:])
        for index, winner in enumerate(self.results):
            if winner not in table:
                raise IllegalAction("game {number}: '{name}' was not at the table ({a} "
                                    "against {b})", number=index + 1, name=winner,
                                    a=table[0], b=table[1])
            seat = 1 if winner == table[0] else 0  # the loser's seat
            loser = table[seat]
            if waiting:
                newcomer = waiting.pop(0)
                waiting.append(loser)
                table = (newcomer, table[1]) if seat == 0 else (table[0], newcomer)
        object.__setattr__(self, "_fold", (table, tuple(waiting)))

    @property
    def table(self) -> tuple[str, str]:
        """The two who play the next game, in their seats."""
        return self._fold[0]

    @property
    def waiting(self) -> tuple[str, ...]:
        """The queue, next in first."""
        return self._fold[1]

    @property
    def opener(self) -> str | None:
        return self.results[-1] if self.results else None

    def record(self, winner: str) -> Chouette:
        if winner not in self.table:
            raise IllegalAction("'{name}' is not at the table ({a} against {b})",
                                name=winner, a=self.table[0], b=self.table[1])
        return replace(self, results=(*self.results, winner))

    def games(self) -> list[tuple[str, str, str]]:
        """Every game so far as (seat 0, seat 1, winner)."""
        played = []
        current = Chouette(self.order)
        for winner in self.results:
            played.append((*current.table, winner))
            current = current.record(winner)
        return played

    def standings(self) -> list[Standing]:
        """Most wins first, then fewest losses, then the order of play."""
        played = dict.fromkeys(self.order, 0)
        won = dict.fromkeys(self.order, 0)
        for a, b, winner in self.games():
            played[a] += 1
            played[b] += 1
            won[winner] += 1
        rows = [Standing(p, played[p], won[p], played[p] - won[p]) for p in self.order]
        return sorted(rows, key=lambda s: (-s.won, s.lost, self.order.index(s.player)))

    def to_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "results": list(self.results),
                "table": list(self.table), "waiting": list(self.waiting),
                "standings": [{"player": s.player, "played": s.played, "won": s.won,
                               "lost": s.lost} for s in self.standings()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Chouette:
        """Rebuild from :meth:`to_json` (only the order and the results are read)."""
        return cls(tuple(str(p) for p in data["order"]), tuple(str(r) for r in data["results"]))


def play_chouette(game: Game, order: Sequence[str], games: int, play: PlayGame) -> Chouette:
    """Play ``games`` games of a chouette (each a single game)."""
    chouette = Chouette(tuple(order))
    for _ in range(games):
        this_game, seats = seat_for_game(game, chouette.table, chouette.opener)
        winner = None
        while winner is None:  # a drawn game is played again
            winner = play(this_game, seats)
        chouette = chouette.record(winner)
    return chouette


# --------------------------------------------------------------------------- knockout


def bracket_positions(size: int) -> list[int]:
    """Seeds (1 = best) in bracket order, so that the top seeds meet as late as possible.

    >>> bracket_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        positions = [seed for s in positions for seed in (s, total - s)]
    return positions


@dataclass(frozen=True)
class Pairing:
    """One match of a bracket. ``a``/``b`` are None while not known yet; a bye is a pairing
    in the first round with one side ``None`` for good (``bye``)."""

    round: int
    slot: int
    a: str | None
    b: str | None
    winner: str | None = None
    bye: bool = False

    @property
    def playable(self) -> bool:
        return self.a is not None and self.b is not None and self.winner is None

    @property
    def loser(self) -> str | None:
        if self.winner is None or self.bye:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True)
class Knockout:
    """A knockout bracket. ``seeds`` are the players, the best seed first; the bracket is the
    next power of two and the missing places are byes for the top seeds. ``results`` map
    (round, slot) to the winner of that match (rounds and slots count from 0)."""

    seeds: tuple[str, ...]
    results: tuple[tuple[int, int, str], ...] = ()
    _rounds: tuple[tuple[Pairing, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_names(self.seeds, 2)
        won: dict[tuple[int, int], str] = {}
        for rnd, slot, name in self.results:
            if (rnd, slot) in won:
                raise IllegalAction("match {match} has two results",
                                    match=f"{rnd + 1}.{slot + 1}")
            won[(rnd, slot)] = name
        size = 1
        while size < len(self.seeds):
            size *= 2
        seeded = [self.seeds[s - 1] if s <= len(self.seeds) else None
                  for s in bracket_positions(size)]
        rounds: list[tuple[Pairing, ...]] = []
        entrants: list[str | None] = seeded
        first = True
        while len(entrants) > 1:
            pairings = []
            for slot in range(len(entrants) // 2):
                a, b = entrants[2 * slot], entrants[2 * slot + 1]
                rnd = len(rounds)
                bye = first and (a is None or b is None)
                winner: str | None = (a or b) if bye else won.pop((rnd, slot), None)
                if winner is not None and winner not in (a, b):
                    raise IllegalAction("match {match}: '{name}' does not play in it",
                                        match=f"{rnd + 1}.{slot + 1}", name=winner)
                pairings.append(Pairing(rnd, slot, a, b, winner, bye))
            rounds.append(tuple(pairings))
            entrants = [p.winner for p in pairings]
            first = False
        if won:
            (rnd, slot), _ = next(iter(won.items()))
            raise IllegalAction("match {match} is not in the bracket",
                                match=f"{rnd + 1}.{slot + 1}")
        object.__setattr__(self, "_rounds", tuple(rounds))

    @property
    def rounds(self) -> tuple[tuple[Pairing, ...], ...]:
        return self._rounds

    def round_name(self, rnd: int, lang: str | None = None) -> str:
        """``final``, ``semi-finals``, ``quarter-finals``, ``round 1``: in ``lang`` if given."""
        left = len(self._rounds) - rnd
        if left == 1:
            return spoken(lang, "final")
        if left == 2:
            return spoken(lang, "semi-finals")
        if left == 3:
            return spoken(lang, "quarter-finals")
        return spoken(lang, "round {number}", number=rnd + 1)

    def pending(self) -> list[Pairing]:
        """The matches that can be played now, earliest round first."""
        return [p for pairings in self._rounds for p in pairings if p.playable]

    def record(self, rnd: int, slot: int, winner: str) -> Knockout:
        try:
            pairing = self._rounds[rnd][slot]
        except IndexError:
            raise IllegalAction("match {match} is not in the bracket",
                                match=f"{rnd + 1}.{slot + 1}") from None
        if not pairing.playable:
            playable = [Message("{match} {a} against {b}",
                                {"match": f"{p.round + 1}.{p.slot + 1}", "a": p.a, "b": p.b})
                        for p in self.pending()] or term("none")
            if pairing.winner:
                raise IllegalAction("match {match} is decided; playable: {playable}",
                                    match=f"{rnd + 1}.{slot + 1}", playable=playable)
            raise IllegalAction("match {match} is not ready; playable: {playable}",
                                match=f"{rnd + 1}.{slot + 1}", playable=playable)
        if winner not in (pairing.a, pairing.b):
            raise IllegalAction("'{name}' does not play in match {match} ({a} against {b})",
                                name=winner, match=f"{rnd + 1}.{slot + 1}", a=pairing.a,
                                b=pairing.b)
        return replace(self, results=(*self.results, (rnd, slot, winner)))

    @property
    def champion(self) -> str | None:
        return self._rounds[-1][0].winner

    @property
    def is_over(self) -> bool:
        return self.champion is not None

    def placings(self) -> list[tuple[int, list[str]]]:
        """(place, players): the champion 1, the finalist 2, semi-final losers 3, ..."""
        places: list[tuple[int, list[str]]] = []
        if self.champion is not None:
            places.append((1, [self.champion]))
        place = 2
        for pairings in reversed(self._rounds):
            losers = [p.loser for p in pairings if p.loser is not None]
            if losers:
                places.append((place, losers))
            place += len(pairings)
        return places

    def lines(self, lang: str | None = None) -> list[str]:
        """The bracket as text, a column per round, winners carried to the right."""
        bye = spoken(lang, "(bye)")
        width = max(max(len(s) for s in self.seeds) + len(str(len(self.seeds))) + 3, len(bye))
        first = self._rounds[0]
        entrants = [name for p in first for name in (p.a, p.b)]
        rows = 2 * len(entrants) - 1
        columns = len(self._rounds) + 1
        grid = [[" " * (width + 3)] * columns for _ in range(rows)]
        positions = [2 * i for i in range(len(entrants))]
        for i, name in enumerate(entrants):
            label = bye if name is None else f"{self.seeds.index(name) + 1} {name}"
            grid[positions[i]][0] = f"{label:<{width}}"
        for rnd, pairings in enumerate(self._rounds):
            next_positions = []
            for p in pairings:
                top, bottom = positions[2 * p.slot], positions[2 * p.slot + 1]
                middle = (top + bottom) // 2
                next_positions.append(middle)
                grid[top][rnd] = grid[top][rnd].rstrip().ljust(width, "─")[:width] + "─┐ "
                grid[bottom][rnd] = grid[bottom][rnd].rstrip().ljust(width, "─")[:width] + "─┘ "
                for row in range(top + 1, bottom):
                    cell = grid[row][rnd][:width]
                    grid[row][rnd] = cell + (" ├─" if row == middle else " │ ")
                shown = p.winner or ("?" if not p.bye else "")
                grid[middle][rnd + 1] = f"{shown:<{width}}"
            positions = next_positions
        text = ["".join(row).rstrip() for row in grid]
        champion = self.champion
        text.append("")
        text.append(spoken(lang, "Champion: {name}", name=champion) if champion else
                    spoken(lang, "Next: {matches}", matches=", ".join(
                        spoken(lang, "{a} against {b} ({round})", a=p.a, b=p.b,
                               round=self.round_name(p.round, lang))
                        for p in self.pending())))
        return text

    def to_json(self) -> dict[str, Any]:
        return {"seeds": list(self.seeds), "results": [list(r) for r in self.results],
                "rounds": [[{"a": p.a, "b": p.b, "winner": p.winner, "bye": p.bye}
                            for p in pairings] for pairings in self._rounds],
                "champion": self.champion}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Knockout:
        """Rebuild from :meth:`to_json` (only the seeds and the results are read)."""
        return cls(tuple(str(p) for p in data["seeds"]),
                   tuple((int(r), int(s), str(w)) for r, s, w in data["results"]))


def play_knockout(game: Game, seeds: Sequence[str], best_of: int, play: PlayGame,
                  on_match: Callable[[Pairing, Match], None] | None = None) -> Knockout:
    """Play a whole knockout, every pairing a best-of-``best_of`` match."""
    cup = Knockout(tuple(seeds))
    while not cup.is_over:
        pairing = cup.pending()[0]
        assert pairing.a is not None and pairing.b is not None
        match = play_match(game, (pairing.a, pairing.b), best_of, play)
        assert match.winner is not None
        if on_match is not None:
            on_match(pairing, match)
        cup = cup.record(pairing.round, pairing.slot, match.winner)
    return cup
