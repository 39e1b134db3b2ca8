// The Yatzy family: the dice to keep, and the sheet with the points each open row gives.
import {h, t, die, seatName} from "../ui.js";
import {ranking} from "./common.js";

/** A row as the sheet names it in the page's language (its key when the page has no name). */
function rowName(row) {
  const named = t(`row:${row}`);
  return named === `row:${row}` ? row : named;
}

let keep = new Set();  // positions of the dice the player means to keep
let keptFor = "";

export function render(frame, {send, mine}) {
  const v = frame.view;
  const key = `${frame.seq}`;
  if (key !== keptFor) { keep = new Set(); keptFor = key; }
  const redraw = () => document.dispatchEvent(new Event("redraw"));
  const diceRow = h("div", {class: "dice yatzy-dice", "aria-label": t("Dice")},
    ...(v.dice ?? []).map((face, i) => mine
      ? h("button", {type: "button", class: `die-button ${keep.has(i) ? "kept" : ""}`,
        "aria-pressed": String(keep.has(i)), "data-index": i,
        onclick: () => { keep.has(i) ? keep.delete(i) : keep.add(i); redraw(); }}, die(face))
      : die(face)));
  const open = (row) => v.options && row in v.options;
  const sheet = h("table", {class: "sheet", id: "sheet"},
    h("thead", {}, h("tr", {}, h("th", {}, t("Rows")),
      ...frame.seats.map((_, s) => h("th", {}, seatName(frame, s))),
      v.options ? h("th", {}, t("Score")) : null)),
    h("tbody", {}, ...v.rows.map((row, r) => h("tr", {"data-row": row},
      h("th", {scope: "row"}, rowName(row)),
      ...v.sheets.map((cells) => h("td", {}, cells[r] === null ? "" : String(cells[r]))),
      v.options ? h("td", {}, open(row) && mine
        ? h("button", {type: "button", "data-action": `score ${row}`,
          onclick: () => send(`score ${row}`)}, String(v.options[row]))
        : open(row) ? String(v.options[row]) : "") : null)),
    h("tr", {class: "sum"}, h("th", {}, t("Upper section")), ...v.upper.map((n) => h("td", {}, String(n)))),
    h("tr", {class: "sum"}, h("th", {}, t("Bonus")), ...v.bonus.map((n) => h("td", {}, String(n)))),
    h("tr", {class: "sum"}, h("th", {}, t("Total")), ...v.totals.map((n) => h("td", {}, String(n))))));
  const board = h("div", {class: "yatzy"},
    h("p", {class: "round"}, `${t("Round {n}", {n: v.round})} / ${v.rounds} · `,
      v.throw ? t("Throw {n} of {m}", {n: v.throw, m: v.throws}) : ""),
    diceRow, sheet, ranking(frame));
  let controls = null;
  if (mine) {
    const faces = [...keep].map((i) => v.dice[i]).sort((a, b) => a - b);
    const action = faces.length ? `keep ${faces.join(" ")}` : "keep";
    const can = frame.legal.includes(action);
    controls = h("div", {class: "actions"},
      h("p", {class: "small"}, t("Click dice to keep them, then roll again or choose a row")),
      h("button", {type: "button", id: "roll", disabled: !can, onclick: () => send(action)},
        `${t("Roll")}${faces.length ? ` (${t("Keep")} ${faces.join(" ")})` : ""}`));
  }
  return {board, controls};
}
