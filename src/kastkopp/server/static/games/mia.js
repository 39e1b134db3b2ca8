// Slosch / Mia: the claim passed on, your dice under the cup, lives (or points), the pot,
// the values to announce as a grid, and each round told as it happened.
import {h, t, dice, toolbar, seatName} from "../ui.js";
import {actionButton, cup, hearts, prompt, ranking, signed} from "./common.js";

// Every value, worst first, as the order of the table ranks them.
const SLOSCH = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 66, 55, 44, 33, 22, 11, 21];
const CLASSIC = [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21];

/** The order the table plays: read from the values offered when they tell (11 offered
 * and 66 not: Slosch), else from the table's rules (classic and Mäxchen: 66 the best double). */
function order(legal) {
  const offered = legal.filter((a) => a.startsWith("announce ")).map((a) => Number(a.slice(9)));
  const [eleven, sixes] = [offered.indexOf(11), offered.indexOf(66)];
  if (eleven >= 0 && (sixes < 0 || sixes < eleven)) return SLOSCH;
  if (sixes >= 0) return CLASSIC;
  const table = JSON.parse(document.getElementById("table")?.textContent ?? "{}");
  const classic = table.rules?.order === "classic"
    || (["classic", "maexchen"].includes(table.preset) && table.rules?.order !== "slosch");
  return classic ? CLASSIC : SLOSCH;
}

/** A value as players say it: 21 is Slosch, the others their two digits. */
export function valueName(value) {
  return Number(value) === 21 ? t("Slosch") : String(value);
}

/** A history entry (or the round's end) told in words. */
function said(frame, seat, action) {
  const name = seatName(frame, seat);
  if (action.startsWith("announce ")) {
    return t("{name} announces {value}", {name, value: valueName(action.slice(9))});
  }
  if (action === "roll") return t("{name} believes it and rolls", {name});
  if (action === "pass") return t("{name} passes the cup on without looking", {name});
  return `${name}: ${action}`;
}

/** What a lost round cost, in the table's unit. */
function cost(frame, n) {
  if (frame.view.points) return n === 1 ? t("a point") : t("{n} points", {n});
  return n === 1 ? t("a life") : t("{n} lives", {n});
}

/** The round's end in words: who called, what the cup showed, who lost what. */
export function roundLines(frame, last) {
  const name = (s) => seatName(frame, s);
  const lines = [];
  const claim = last.claim ? valueName(last.claim) : "—";
  if (last.penalty) {
    lines.push(t("{name} loses the round: {reason}", {name: name(last.losers[0]), reason: last.penalty}));
  } else if (last.caller !== null && last.caller !== undefined) {
    lines.push(t("{caller} calls {name}'s {claim}: the cup shows {dice}",
      {caller: name(last.caller), name: name(last.responsible), claim, dice: valueName(last.dice)}));
  } else {
    lines.push(t("{name} announces {value} and lifts the cup: {dice}",
      {name: name(last.responsible), value: claim, dice: valueName(last.dice)}));
  }
  const losers = (last.losers ?? []).map(name).join(", ");
  if (losers) lines.push(t("{name} loses {what}", {name: losers, what: cost(frame, last.cost)}));
  return lines;
}

export function narrate(before, frame) {
  const v = frame.view;
  const b = before?.view;
  const lines = [];
  const last = v.last_round;
  let from = b ? b.history.length : 0;
  if (last && (!b || b.last_round?.round !== last.round) && b) {
    // the round ended since: its moves not yet told, then how it ended
    const seen = b.round === last.round ? b.history.length : 0;
    lines.push(...last.actions.slice(seen).map(([s, a]) => said(frame, s, a)));
    lines.push(...roundLines(frame, last));
    from = 0;
  }
  lines.push(...v.history.slice(from).map((e) => said(frame, e.seat, e.action)));
  if (v.your_dice && !(b?.your_dice === v.your_dice && b.round === v.round
      && b.history.length === v.history.length)) {
    lines.push(t("You roll {value}", {value: valueName(v.your_dice)}));
  }
  if (v.outcome && !b?.outcome) {
    const first = v.outcome.ranking[0].map((s) => seatName(frame, s)).join(", ");
    lines.push(t("{name} wins the game", {name: first}));
  }
  return lines;
}

function status(frame) {
  const v = frame.view;
  const mover = frame.to_move;
  if (frame.status === "over" || mover === null || mover === undefined) return "";
  const name = seatName(frame, mover);
  if (v.phase === "announce") return t("{name} has rolled and announces a value", {name});
  if (v.claim) {
    return t("{claimer} announced {claim}: {name} may believe it and roll, call, or pass the cup on",
      {name, claimer: seatName(frame, v.responsible), claim: valueName(v.claim)});
  }
  return "";
}

function playerLine(frame, s) {
  const v = frame.view;
  const standing = v.points ? `${t("Points")} ${v.points[s]}`
    : v.alive[s] ? hearts(v.lives[s]) : t("out");
  // the stakes are paid in at the start: a balance tells something once the pot is won
  const money = v.outcome && v.balances.some((b) => b !== 0)
    ? ` · ${t("Balance")} ${signed(v.balances[s])}` : "";
  return h("li", {class: ["player", s === frame.to_move ? "to-move" : "",
    v.alive[s] ? "" : "out", s === frame.seat ? "me" : ""].join(" ").trim(), "data-seat": s},
  h("span", {class: "name"}, seatName(frame, s), s === frame.seat ? ` (${t("you")})` : ""),
  h("span", {class: "money"}, standing, money),
  s === v.responsible && v.claim ? h("span", {class: "hand"}, `${t("Claim")}: `,
    h("strong", {}, valueName(v.claim))) : null);
}

/** The values as a grid, worst first; only those above the claim can be pressed. */
function announceGrid(frame, send) {
  const legal = new Set(frame.legal);
  const mine = frame.view.your_dice ? Number(frame.view.your_dice) : null;
  return h("div", {class: "value-grid", role: "group", "aria-label": t("Announce a value")},
    ...order(frame.legal).map((value) => {
      const action = `announce ${value}`;
      return h("button", {type: "button", "data-action": action, disabled: !legal.has(action),
        class: value === mine ? "truth" : null,
        "aria-label": t("Announce {value}", {value: valueName(value)}),
        onclick: () => send(action)}, valueName(value));
    }));
}

function controls(frame, send) {
  const v = frame.view;
  const parts = [];
  if (v.your_dice) {
    parts.push(h("div", {class: "own-dice"}, cup(v.your_dice, `${v.round}:${v.history.length}:${v.your_dice}`)));
  }
  if (frame.legal.some((a) => a.startsWith("announce "))) parts.push(announceGrid(frame, send));
  const words = {roll: t("Believe and roll"), call: t("Call: lift the cup"),
    pass: t("Pass the cup on")};
  parts.push(h("div", {class: "answers"}, ...frame.legal.filter((a) => words[a])
    .map((a) => actionButton(a, words[a], send))));
  return toolbar(...parts);
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const last = v.last_round;
  // a round just ended is told first; once the next is under way, after its moves
  const told = last ? h("section", {class: "reveal", id: "last-round", "aria-label": t("Last round")},
    h("h2", {}, t("Round {n}", {n: last.round})),
    last.dice ? h("p", {class: "lifted"}, `${t("The cup")}: `, dice([...String(last.dice)])) : null,
    ...roundLines(frame, last).map((line) => h("p", {}, line))) : null;
  const fresh = !v.history.length;
  const parts = [
    h("p", {class: "round"}, t("Round {n}", {n: v.round}),
      v.pot ? h("strong", {id: "pot"}, ` · ${t("Pot")}: ${v.pot}`) : ""),
    v.outcome ? null : h("p", {class: "claim", id: "claim"}, `${t("Claim")}: `,
      v.claim ? h("strong", {}, valueName(v.claim)) : t("nobody yet"),
      v.responsible !== null && v.claim ? ` (${seatName(frame, v.responsible)})` : ""),
    prompt(status(frame)),
    fresh ? told : null,
    h("ul", {class: "players", "aria-label": t("Players")},
      ...frame.seats.map((_, s) => playerLine(frame, s))),
    // your dice stay on the board while another seat moves; on your turn they are docked
    !mine && v.your_dice ? cup(v.your_dice, `${v.round}:${v.history.length}:${v.your_dice}`) : null,
    v.history.length ? h("ol", {class: "moves", "aria-label": t("This round")},
      ...v.history.map((e) => h("li", {}, said(frame, e.seat, e.action)))) : null,
  ];
  if (!fresh) parts.push(told);
  parts.push(ranking(frame));
  return {board: h("div", {class: "mia"}, ...parts), controls: mine ? controls(frame, send) : null,
    dock: true};
}
