// The Yatzy family: the dice to keep, the rows with the points each would give, and the
// sheet. On your turn the dice, Roll and the open rows are docked where a phone shows them.
import {h, t, die, toolbar, seatName} from "../ui.js";
import {ranking, signed} from "./common.js";

let keep = new Set();  // positions of the dice the player means to keep
let keptFor = "";

/** A row's name as the sheet's players write it, in the page's language. */
export function rowName(v, row) {
  const key = `row:${v.sheet}:${row}`;
  const name = t(key);
  return name === key ? row : name;
}

function diceButtons(v, redraw) {
  return h("span", {class: "dice own-dice yatzy-dice", "aria-label": t("Your dice")},
    ...(v.dice ?? []).map((face, i) => h("button", {type: "button",
      class: `die-button ${keep.has(i) ? "kept" : ""}`, "aria-pressed": String(keep.has(i)),
      "data-index": i, onclick: () => { keep.has(i) ? keep.delete(i) : keep.add(i); redraw(); }},
    die(face))));
}

function controls(frame, send) {
  const v = frame.view;
  const redraw = () => document.dispatchEvent(new Event("redraw"));
  const faces = [...keep].map((i) => v.dice[i]).sort((a, b) => a - b);
  const action = faces.length ? `keep ${faces.join(" ")}` : "keep";
  const rolls = frame.legal.some((a) => a.startsWith("keep"));
  const rows = Object.entries(v.options ?? {}).map(([row, points]) => h("button", {type: "button",
    class: "row-choice", "data-action": `score ${row}`, onclick: () => send(`score ${row}`)},
  h("span", {class: "row-name"}, rowName(v, row)), " ", h("strong", {}, String(points))));
  return toolbar(
    h("div", {class: "dice-line"}, diceButtons(v, redraw),
      // there while no throw is left too, disabled: the bar keeps its shape
      h("button", {type: "button", id: "roll", class: "primary",
        disabled: !rolls || !frame.legal.includes(action), onclick: () => send(action)},
      `${t("Roll")}${faces.length ? ` (${t("Keep")} ${faces.join(" ")})` : ""}`)),
    rows.length ? h("div", {class: "row-choices", role: "group", "aria-label": t("Score")}, ...rows)
      : null);
}

function sheet(frame, mine) {
  const v = frame.view;
  const open = (row) => v.options && row in v.options;
  const sum = (label, values) => h("tr", {class: "sum"}, h("th", {scope: "row"}, label),
    ...values.map((n) => h("td", {}, String(n))), v.options ? h("td") : null);
  return h("table", {class: "sheet", id: "sheet"},
    h("thead", {}, h("tr", {}, h("th", {}, t("Rows")),
      ...frame.seats.map((_, s) => h("th", {class: s === frame.to_move ? "to-move" : null},
        seatName(frame, s))),
      v.options ? h("th", {}, t("Score")) : null)),
    h("tbody", {}, ...v.rows.map((row, r) => h("tr", {"data-row": row},
      h("th", {scope: "row"}, rowName(v, row)),
      ...v.sheets.map((cells) => h("td", {}, cells[r] === null ? "" : String(cells[r]))),
      v.options ? h("td", {}, open(row) && mine
        ? h("button", {type: "button", "data-action": `score ${row}`, tabindex: "-1",
          onclick: () => document.querySelector(`#toolbar [data-action="score ${row}"]`)?.click()},
        String(v.options[row]))
        : open(row) ? String(v.options[row]) : "") : null)),
    sum(rowName(v, "upper"), v.upper),
    v.bonus_rule ? sum(rowName(v, "bonus"), v.bonus) : null,
    v.extras.some((n) => n) ? sum(rowName(v, "extra"), v.extra_points) : null,
    sum(rowName(v, "total"), v.totals),
    v.results ? sum(rowName(v, "result"), v.results.map((r) => signed(Math.round(r * 10) / 10)))
      : null));
}

/** What the last seat scored, in words. */
function lastLine(frame) {
  const last = frame.view.last;
  if (!last) return null;
  return h("p", {class: "last", id: "last-score"}, t("{name} scored {n} in {row}",
    {name: seatName(frame, last.seat), n: last.cell, row: rowName(frame.view, last.row)}), " ",
  h("span", {class: "dice"}, ...last.dice.map((f) => die(f, {class: "die small"}))));
}

export function narrate(before, frame) {
  const v = frame.view;
  const b = before?.view;
  const lines = [];
  const moved = v.last && (!b?.last || JSON.stringify(b.last) !== JSON.stringify(v.last));
  if (moved) {
    lines.push(t("{name} scored {n} in {row}",
      {name: seatName(frame, v.last.seat), n: v.last.cell, row: rowName(v, v.last.row)}));
  }
  if (v.outcome && !b?.outcome) {
    lines.push(t("{name} wins the game",
      {name: v.outcome.ranking[0].map((s) => seatName(frame, s)).join(", ")}));
  }
  return lines;
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const key = `${frame.seq}`;
  if (key !== keptFor) { keep = new Set(); keptFor = key; }
  const board = h("div", {class: "yatzy"},
    h("p", {class: "round"}, h("strong", {}, v.title), ` · ${t("Round {n}", {n: v.round})} / ${v.rounds}`,
      v.throw ? ` · ${t("Throw {n} of {m}", {n: v.throw, m: v.throws})}` : "",
      frame.to_move !== null && frame.to_move !== undefined && frame.status !== "over"
        ? ` · ${seatName(frame, frame.to_move)}` : ""),
    !mine && v.dice ? h("div", {class: "dice yatzy-dice", "aria-label": t("Dice")},
      ...v.dice.map((face) => die(face))) : null,
    lastLine(frame),
    h("div", {class: "sheet-box"}, sheet(frame, mine)),
    ranking(frame));
  return {board, controls: mine ? controls(frame, send) : null, dock: true};
}
