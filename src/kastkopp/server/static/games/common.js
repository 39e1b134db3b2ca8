// Pieces shared by the game renderers: the cup, the history, the ranking, pots.
import {h, t, dice, seatName, amountPicker} from "../ui.js";

const looked = new Map();  // round -> the player has lifted the cup this round
let revealed = false;     // a replay: the game is over, every cup may be lifted

/** Every cup drawn open from now on (the replay of a finished game). */
export function revealCups() {
  revealed = true;
}

/** Your dice under a cup: drawn into the page only once you look. */
export function cup(faces, round) {
  if (!faces || faces.length === 0) return null;
  if (revealed) {
    return h("div", {class: "cup mine open", "aria-label": t("Your dice")},
      dice(Array.isArray(faces) ? faces : [...String(faces)]));
  }
  const open = looked.get(round) ?? false;
  const button = h("button", {type: "button", class: "cup-button", "aria-pressed": String(open),
    onclick: () => { looked.set(round, !open); document.dispatchEvent(new Event("redraw")); }},
  open ? t("Hide the cup") : t("Look in the cup"));
  return h("div", {class: `cup mine ${open ? "open" : "closed"}`, "aria-label": t("Your dice")},
    open ? dice(Array.isArray(faces) ? faces : [...String(faces)])
      : h("span", {class: "cup-cover", "aria-hidden": "true"}),
    button);
}

export function history(frame, entries) {
  return h("section", {class: "history", "aria-label": t("History")},
    h("h2", {}, t("History")),
    h("ol", {}, ...entries.map((e) => h("li", {}, `${seatName(frame, e.seat)}: ${e.action}`))));
}

export function ranking(frame) {
  if (!frame.outcome) return null;
  const rows = frame.outcome.ranking.map((group, place) => h("tr", {},
    h("td", {}, String(place + 1)),
    h("td", {}, group.map((s) => seatName(frame, s)).join(", ")),
    // a shared place has one score (its seats tie on it)
    h("td", {}, [...new Set(group.map((s) => frame.outcome.scores[s]))].join(" / "))));
  return h("table", {class: "ranking", id: "ranking"},
    h("caption", {}, t("Game over")),
    h("thead", {}, h("tr", {}, h("th", {}, t("Place")), h("th", {}, t("Player")),
      h("th", {}, t("Points")))), h("tbody", {}, ...rows));
}

export function seatsTable(frame, columns) {
  const head = h("tr", {}, h("th", {}, t("Seat")), ...columns.map(([label]) => h("th", {}, label)));
  const rows = frame.seats.map((_, seat) => h("tr", {class: seat === frame.to_move ? "to-move" : ""},
    h("th", {scope: "row"}, seatName(frame, seat)),
    ...columns.map(([, value]) => {
      const cell = value(seat);
      return h("td", {}, cell instanceof Node ? cell : String(cell ?? ""));
    })));
  return h("table", {class: "seats-table"}, h("thead", {}, head), h("tbody", {}, ...rows));
}

// --------------------------------------------------------------------------- pot games

/** A signed amount of money: +6, −2, 0. */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** One line per player: name, dice, what is known of them, and their money. */
export function players(frame, fill) {
  const v = frame.view;
  return h("ul", {class: "players", "aria-label": t("Players")}, ...frame.seats.map((_, s) => {
    const p = fill(s);
    const money = frame.status === "over" || v.outcome
      ? `${t("Balance")} ${signed(v.balances[s])}`
      : [`${t("Paid in")} ${v.paid_in[s]}`,
        v.purses[s] === null ? null : `${t("Left")} ${v.purses[s]}`].filter(Boolean).join(" · ");
    return h("li", {class: ["player", s === frame.to_move ? "to-move" : "",
      v.folded.includes(s) ? "out" : "", s === frame.seat ? "me" : ""].join(" ").trim(),
    "data-seat": s},
    h("span", {class: "name"}, seatName(frame, s), s === frame.seat ? ` (${t("you")})` : ""),
    h("span", {class: "money"}, money),
    h("span", {class: "hand"}, p.dice ?? null,
      h("span", {class: "notes"}, p.notes.filter(Boolean).join(" · "))));
  }));
}

const BET_SAYS = {call: "{name} calls", check: "{name} checks", fold: "{name} folds",
  "all-in": "{name} goes all-in", accept: "{name} accepts", refuse: "{name} refuses"};

/** A betting action told in words, or null when it is none. */
export function betSaid(name, action) {
  if (action.startsWith("raise ")) return t("{name} raises {n}", {name, n: action.slice(6)});
  return BET_SAYS[action] ? t(BET_SAYS[action], {name}) : null;
}

/** A button that sends one action. */
export function actionButton(action, label, send) {
  return h("button", {type: "button", "data-action": action, onclick: () => send(action)}, label);
}

/** The betting controls the legal actions call for: check or call, raise, fold, all-in. */
export function betControls(frame, send) {
  const legal = frame.legal;
  const parts = [];
  if (legal.includes("check")) parts.push(actionButton("check", t("Check"), send));
  if (legal.includes("call")) {
    parts.push(actionButton("call", t("Call {n}", {n: frame.view.to_call}), send));
  }
  if (legal.includes("all-in")) parts.push(actionButton("all-in", t("All-in"), send));
  const raises = legal.filter((a) => a.startsWith("raise ")).map((a) => Number(a.slice(6)));
  if (raises.length) parts.push(amountPicker(t("Raise"), raises, "raise", send));
  if (legal.includes("fold")) parts.push(actionButton("fold", t("Fold"), send));
  if (legal.includes("accept")) parts.push(actionButton("accept", t("Accept"), send));
  if (legal.includes("refuse")) parts.push(actionButton("refuse", t("Refuse"), send));
  return parts;
}

/** Lives as hearts, named for a screen reader. */
export function hearts(n) {
  return h("span", {class: "hearts", role: "img", "aria-label": `${t("Lives")} ${n}`}, "♥".repeat(n));
}

/** Who the players are waiting for, and what they must do, in one line. */
export function prompt(text) {
  return text ? h("p", {class: "prompt", id: "prompt"}, text) : null;
}

/** The round's result in words, one paragraph a line. */
export function result(lines) {
  if (!lines.length) return null;
  return h("section", {class: "result", id: "result", "aria-label": t("Result")},
    h("h2", {}, t("Result")), ...lines.map((line) => h("p", {}, line)));
}

/** A line for each player who lost money: name, amount, and why. */
export function losses(frame, why) {
  const v = frame.view;
  return frame.seats.map((_, s) => s).filter((s) => v.balances[s] < 0).map((s) =>
    [t("{name} loses {n}", {name: seatName(frame, s), n: -v.balances[s]}), why(s)]
      .filter(Boolean).join(": "));
}
