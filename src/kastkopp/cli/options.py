"""The options several commands share, as types: the same flag, metavar and help everywhere.

    def command(preset: Preset = None, rule: HouseRules = None, as_json: AsJson = False): ...
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Preset = Annotated[str | None, typer.Option(
    "--preset", metavar="NAME", help="a named rule set ('kastkopp games' lists them)")]
HouseRules = Annotated[list[str] | None, typer.Option(
    "--rule", metavar="NAME=VALUE", help="a house rule (repeatable)")]
AsJson = Annotated[bool, typer.Option("--json", help="print JSON for programs")]
Game = Annotated[str, typer.Argument(
    metavar="GAME", help="the game ('kastkopp games' lists them)")]
TwoPlayerGame = Annotated[str | None, typer.Argument(
    metavar="GAME", show_default=False,
    help="a two-player game (default: the one whose rules describe these formats)")]
Seed = Annotated[int | None, typer.Option(
    "--seed", metavar="N", help="reproducible dice (default: secure dice)")]
LogFile = Annotated[Path, typer.Argument(
    metavar="LOG.json", help="a game's log (play --log FILE writes one)")]
Logs = Annotated[Path | None, typer.Option(
    "--logs", metavar="FOLDER", help="write every game's log to this folder")]
SheetFile = Annotated[Path, typer.Argument(metavar="FILE", help="the sheet file")]
