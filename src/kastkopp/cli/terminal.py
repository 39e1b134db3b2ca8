"""Playing at the terminal: the board in the player's language, the narrator who tells the
whole table what happens, and the person at the keyboard.

Loaded by the commands that play (``play`` and the match formats), never by ``--help``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import typer

from kastkopp.cli.support import (
    clear_for_hand_over,
    confirm,
    console,
    escape,
    language,
    say,
    tell,
)
from kastkopp.engine import Action, Game, IllegalAction, Player, Table


def board(game: Game, view: Mapping[str, Any], names: Sequence[str]) -> str:
    """A view as the game draws it, in the player's language when it is not English."""
    lang = language()
    return game.render(view if lang == "en" else {**view, "lang": lang}, names)


def told(game: Game, text: str) -> str:
    """An action's notation in the player's language, in words the game reads back."""
    return game.told_action(text, language())


def public_text(action: Action, table: Table, seat: int) -> str:
    """How ``seat``'s action reads to the others: its public form, never hidden dice.

    An action that knows its public form says it; otherwise the table's public record
    (the public view's history, which the game words for every seat) does.
    """
    public = getattr(action, "public", None)
    if callable(public):
        return str(public())
    history = table.state.view(None).get("history") or []
    last = history[-1] if history else None
    if isinstance(last, dict) and last.get("seat") == seat:
        return str(last.get("action"))
    return str(action)


class Narrator:
    """Everything the whole table may know, told as it happens and kept for the hot seat.

    Each action is told in its public form; when a round ends, its result is told from the
    public view (who called, what the cups showed, who lost what). In the hot seat each
    person is told, after the hand-over clears the screen, what happened since their turn.
    """

    def __init__(self, table: Table, people: Sequence[int], hot_seat: bool) -> None:
        self.table, self.names, self.hot_seat = table, table.seats, hot_seat
        self.people = set(people)
        self.told: list[str] = []
        self.seen = {seat: 0 for seat in people}
        self.last_round = table.state.view(None).get("last_round")

    def __call__(self, seat: int, action: Action) -> None:
        if seat in self.people:
            self.seen[seat] = len(self.told)
        if seat not in self.people or self.hot_seat:
            text = told(self.table.game, public_text(action, self.table, seat))
            self.tell(f"[dim]{escape(self.names[seat])}:[/] {escape(text)}")
        view = self.table.state.view(None)
        last = view.get("last_round")
        if last is not None and last != self.last_round and not self.table.is_over():
            # the public board at a round's start opens with how the last round ended
            self.tell(escape(board(self.table.game, {**view, "history": []}, self.names)))
        self.last_round = last

    def tell(self, text: str) -> None:
        self.told.append(text)
        console.print(text, highlight=False)

    def catch_up(self, seat: int) -> None:
        """After a hand-over: what this person missed while the others played."""
        missed = self.told[self.seen.get(seat, 0):]
        if missed:
            console.print(say("Since your last turn:"), highlight=False)
            for text in missed:
                console.print(text, highlight=False)
        self.seen[seat] = len(self.told)


class TerminalPlayer(Player):
    """A person at the keyboard, seeing only their own seat's view."""

    def __init__(self, table: Table, seat: int, hot_seat: bool,
                 narrator: Narrator | None = None) -> None:
        self.table, self.game, self.seat = table, table.game, seat
        self.names, self.hot_seat = table.seats, hot_seat
        self.narrator = narrator

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        name = self.names[self.seat]
        if self.hot_seat:
            console.rule()
            typer.prompt(say("Pass the dice to {name} and press Enter", name=name), default="",
                         show_default=False, prompt_suffix=" ")
            clear_for_hand_over()
            if self.narrator is not None:
                self.narrator.catch_up(self.seat)
        console.rule(say("{name}'s turn", name=name))
        console.print(board(self.game, view, self.names), highlight=False)
        options = [told(self.game, str(a)) for a in legal]
        shown = options if len(options) <= 12 else [*options[:10], "…", options[-1]]
        console.print("[dim]" + escape(say("legal: {actions}   (? lists all, quit stops)",
                                           actions=", ".join(shown))) + "[/]",
                      highlight=False)
        while True:
            text = typer.prompt(f"{name}")
            if text.strip() == "?":
                console.print(", ".join(options), highlight=False)
                continue
            if text.strip().lower() in {"quit", "exit"}:
                raise typer.Exit(1)
            try:
                action = self.game.parse_action(text)
            except IllegalAction as exc:
                console.print(f"[red]{escape(self._unreadable(text, exc))}[/]",
                              highlight=False)
                continue
            if action in legal:
                if self._confirmed(view, action):
                    return action
                continue
            console.print(f"[red]{escape(self._why_not(action))}[/]", highlight=False)

    def _confirmed(self, view: dict[str, Any], action: Action) -> bool:
        """Writing nothing in a row while another would score is asked about first.

        A view that offers ``options`` (what writing in each row gives now) and an action that
        names its ``row`` are all this needs to know of the game.
        """
        options = view.get("options")
        row = getattr(action, "row", None)
        if not isinstance(options, dict) or row not in options or options[row] not in (0, "-"):
            return True
        better = {r: v for r, v in options.items() if isinstance(v, int) and v > 0}
        if not better:
            return True
        best = sorted(better.items(), key=lambda item: -item[1])[:3]
        offer = ", ".join(f"{r} {v}" for r, v in best)
        return confirm(say("{action} scores {points} here (instead: {offer}). Write it?",
                           action=told(self.game, str(action)), points=options[row],
                           offer=offer))

    def _unreadable(self, text: str, error: IllegalAction) -> str:
        """The state may explain unreadable text better (what would be legal instead)."""
        try:
            self.table.state.apply(text)
        except IllegalAction as exc:
            return tell(exc)
        return tell(error)

    def _why_not(self, action: Action) -> str:
        """Ask the rules why: applying to the real state explains best (and changes nothing)."""
        try:
            self.table.state.apply(action)
        except IllegalAction as exc:
            return tell(exc)
        return say("'{action}' is not possible now", action=told(self.game, str(action)))

def pick(question: str, options: Sequence[str], default: str) -> str:
    console.print(f"{question}: " + ", ".join(f"[cyan]{o}[/]" for o in options))
    while True:
        answer = typer.prompt(question, default=default).strip()
        if answer in options:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        console.print("[red]" + escape(say("choose one of: {options}",
                                           options=", ".join(options))) + "[/]")

