"""Score sheets kept on the server for a logged-in account, and the players it remembers.

The browser's score keeper keeps every sheet in ``localStorage`` and, when its person is
logged in (a guest too), saves each one here as well. Only what was typed is stored — the
game, its rules, the players and the entries; every number is derived again by
:mod:`kastkopp.sheets` on every save and every read, so an impossible entry is refused
with its reason and nothing is saved.

- ``GET /api/sheets`` — the account's sheets, newest first, with their standings
- ``GET /api/sheets/{id}`` — one sheet: what was typed and everything derived from it
- ``PUT /api/sheets/{id}`` — save (create or replace); ``base_revision`` is the revision the
  browser last saw, and a save over a newer revision is refused (409) with the server's copy
- ``DELETE /api/sheets/{id}``
- ``GET /api/sheets/offline/{game}?preset=…&RULE=…`` — what the page needs to check the
  kind's entries without a network (a Yatzy-family sheet: every row's score of every
  throw), computed by :mod:`kastkopp.sheets` for those rules; cacheable
- ``GET /api/account/players``, ``PUT /api/account/players {"names"}`` — remembered names
  (every save remembers its sheet's players too), ``DELETE /api/account/players/{name}``
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kastkopp.engine import IllegalAction, KastkoppError, Message, NotFound, RuleError, term
from kastkopp.games import default_game
from kastkopp.server.deps import Me
from kastkopp.sheets import Sheet, kind_for, kinds
from kastkopp.store import Account, KnownPlayer, ScoreSheet, Store
from kastkopp.store.models import now

MAX_SHEETS = 500  # per account: plenty for a family's evenings, and a bound on abuse
MAX_PLAYERS_KNOWN = 200

SheetId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]

router = APIRouter(tags=["sheets"])


class SheetBody(BaseModel):
    """A score sheet as the browser keeps it: the entries as typed, nothing derived."""

    game: str = Field(max_length=40, examples=[default_game("play")])
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, str | int | bool] = Field(default_factory=dict)
    # none or too many: the sheet's kind refuses them, saying how many it seats
    players: list[str] = Field(max_length=20)
    entries: list[str] = Field(default_factory=list, max_length=2000)


class SavedSheet(SheetBody):
    base_revision: int | None = Field(
        default=None, ge=0, description="the revision this copy was made from (none: new)")


class Names(BaseModel):
    names: list[str] = Field(max_length=50)


def derive(body: SheetBody) -> Sheet:
    """The sheet the body describes, every entry checked; raises naming the first bad one."""
    try:
        sheet = Sheet.new(body.game, [p.strip() for p in body.players], body.preset,
                          **{k: str(v).lower() if isinstance(v, bool) else str(v)
                             for k, v in body.rules.items()})
    except RuleError as exc:
        raise rule_told(exc, body.game) from None
    for number, entry in enumerate(body.entries, start=1):
        try:
            sheet = sheet.add(entry)
        except KastkoppError as exc:
            raise IllegalAction("entry {number} ({entry}): {reason}", number=number,
                                entry=entry, reason=exc.message) from None
    return sheet


def rule_told(exc: RuleError, game: str) -> RuleError:
    """A refused house rule named as the page names it (by its help, in the player's
    language), not by the key a terminal types."""
    name = exc.message.params.get("name")
    specs = {s.name: s for s in kind_for(game).rules_class().specs()} \
        if game in kinds() else {}
    if not isinstance(name, str) or name not in specs:
        return exc
    return RuleError(Message(exc.message.template,
                             {**exc.message.params, "name": Message(specs[name].help)}))


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _typed(row: ScoreSheet) -> dict[str, Any]:
    return {"game": row.game, "preset": row.preset, "rules": row.rules,
            "players": row.players, "entries": row.entries}


def _out(row: ScoreSheet, sheet: Sheet | None = None) -> dict[str, Any]:
    """A stored sheet with everything derived from it."""
    if sheet is None:
        sheet = derive(SheetBody(**_typed(row)))
    return {"id": row.sheet_id, "revision": row.revision,
            "updated_at": row.updated_at.isoformat(), "sheet": _typed(row),
            "derived": sheet.to_json()}


def _row(session: Session, account: Account, sheet_id: str) -> ScoreSheet | None:
    return session.scalars(select(ScoreSheet).where(
        ScoreSheet.account_id == account.id, ScoreSheet.sheet_id == sheet_id)).first()


def _remember(session: Session, account: Account, names: list[str]) -> None:
    known = set(session.scalars(select(KnownPlayer.name)
                                .where(KnownPlayer.account_id == account.id)))
    for name in dict.fromkeys(n.strip()[:40] for n in names):
        if name and name not in known and len(known) < MAX_PLAYERS_KNOWN:
            session.add(KnownPlayer(account_id=account.id, name=name))
            known.add(name)


@router.get("/api/sheets")
def list_sheets(request: Request, me: Me) -> list[dict[str, Any]]:
    """The account's sheets, newest first: players, standings, whether finished."""
    with _store(request).session() as session:
        rows = session.scalars(select(ScoreSheet).where(ScoreSheet.account_id == me.id)
                               .order_by(ScoreSheet.updated_at.desc())).all()
        listed = []
        for row in rows:
            derived = _out(row)["derived"]
            listed.append({"id": row.sheet_id, "revision": row.revision,
                           "updated_at": row.updated_at.isoformat(), "game": row.game,
                           "players": row.players, "entries": len(row.entries),
                           "finished": derived["finished"], "winner": derived["winner"]})
        return listed


@router.get("/api/sheets/offline/{game}")
def offline_table(game: Annotated[str, Path(max_length=40)], request: Request) -> Response:
    """The kind's offline table for a preset and house rules given as query parameters."""
    # ``lang`` chooses the answer's language; as a rule it only names the rows
    params = {k: v for k, v in request.query_params.items() if k not in ("preset", "lang")}
    preset = request.query_params.get("preset") or None
    kind = kind_for(game)
    rules = kind.rules_class().make(
        preset, **dict(kind.rule_name(k, v) for k, v in params.items()))
    table = kind.offline(rules)
    if table is None:
        raise NotFound("a {kind} sheet has nothing to check offline", kind=term(kind.title))
    return JSONResponse(table, headers={"Cache-Control": "public, max-age=86400"})


@router.get("/api/sheets/{sheet_id}")
def get_sheet(sheet_id: SheetId, request: Request, me: Me) -> dict[str, Any]:
    with _store(request).session() as session:
        row = _row(session, me, sheet_id)
        if row is None:
            raise HTTPException(404, f"there is no sheet '{sheet_id}' in your account")
        return _out(row)


@router.put("/api/sheets/{sheet_id}")
def put_sheet(sheet_id: SheetId, body: SavedSheet, request: Request, me: Me) -> Response:
    """Save a sheet. Its entries are checked again here; a refused one saves nothing."""
    typed = SheetBody(**body.model_dump(exclude={"base_revision"}))
    sheet = derive(typed)  # before touching the database: a bad sheet changes nothing
    try:
        with _store(request).session() as session:
            row = _row(session, me, sheet_id)
            if row is None:
                count = session.scalar(select(func.count()).select_from(ScoreSheet)
                                       .where(ScoreSheet.account_id == me.id)) or 0
                if count >= MAX_SHEETS:
                    raise IllegalAction("an account keeps at most {count} sheets; delete "
                                        "some old ones first", count=MAX_SHEETS)
                row = ScoreSheet(account_id=me.id, sheet_id=sheet_id, revision=0)
                session.add(row)
            elif body.base_revision is not None and body.base_revision != row.revision:
                # Saved from another device since this copy was made: keep both, lose nothing.
                return JSONResponse(status_code=409, content={
                    "detail": f"the sheet was changed elsewhere (revision {row.revision}, "
                              f"this copy is from {body.base_revision})",
                    "current": _out(row)})
            row.game, row.preset, row.rules = typed.game, typed.preset, dict(typed.rules)
            row.players, row.entries = [p.strip() for p in typed.players], list(typed.entries)
            row.revision += 1
            row.updated_at = now()
            _remember(session, me, row.players)
            session.flush()
            return JSONResponse(_out(row, sheet))
    except IntegrityError:
        # The same new sheet saved from two devices at one moment: the other was first.
        with _store(request).session() as session:
            row = _row(session, me, sheet_id)
            return JSONResponse(status_code=409, content={
                "detail": "the sheet was saved elsewhere at the same moment",
                "current": None if row is None else _out(row)})


@router.delete("/api/sheets/{sheet_id}")
def delete_sheet(sheet_id: SheetId, request: Request, me: Me) -> dict[str, bool]:
    with _store(request).session() as session:
        gone = session.execute(delete(ScoreSheet).where(
            ScoreSheet.account_id == me.id, ScoreSheet.sheet_id == sheet_id))
        if not getattr(gone, "rowcount", 0):
            raise HTTPException(404, f"there is no sheet '{sheet_id}' in your account")
    return {"ok": True}


@router.get("/api/account/players")
def known_players(request: Request, me: Me) -> list[str]:
    """The names this account has written on its sheets, in alphabetical order."""
    with _store(request).session() as session:
        return list(session.scalars(select(KnownPlayer.name)
                                    .where(KnownPlayer.account_id == me.id)
                                    .order_by(KnownPlayer.name)))


@router.put("/api/account/players")
def remember_players(body: Names, request: Request, me: Me) -> list[str]:
    with _store(request).session() as session:
        _remember(session, me, body.names)
    return known_players(request, me)


@router.delete("/api/account/players/{name}")
def forget_player(name: Annotated[str, Path(max_length=40)], request: Request,
                  me: Me) -> list[str]:
    with _store(request).session() as session:
        session.execute(delete(KnownPlayer).where(KnownPlayer.account_id == me.id,
                                                  KnownPlayer.name == name))
    return known_players(request, me)
