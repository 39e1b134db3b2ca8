// Pieces shared by the game renderers: the cup, the history, the ranking, pots.
import {h, t, dice, seatName} from "../ui.js";

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
    h("td", {}, group.map((s) => seatName(frame, s)).join(" = ")),
    h("td", {}, group.map((s) => frame.outcome.scores[s]).join(" = "))));
  return h("table", {class: "ranking", id: "ranking"},
    h("caption", {}, t("Game over")),
    h("thead", {}, h("tr", {}, h("th", {}, t("Place")), h("th", {}, t("Winner")),
      h("th", {}, t("Points")))), h("tbody", {}, ...rows));
}

export function seatsTable(frame, columns) {
  const head = h("tr", {}, h("th", {}, t("Seat")), ...columns.map(([label]) => h("th", {}, label)));
  const rows = frame.seats.map((_, seat) => h("tr", {class: seat === frame.to_move ? "to-move" : ""},
    h("th", {scope: "row"}, seatName(frame, seat)),
    ...columns.map(([, value]) => h("td", {}, String(value(seat) ?? "")))));
  return h("table", {class: "seats-table"}, h("thead", {}, head), h("tbody", {}, ...rows));
}
