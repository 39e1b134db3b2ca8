// The bid pickers of liar's dice: a quantity stepper and face buttons drawn as dice for a
// bid on a count, the hand and its ranks for a bid of a poker hand. Only legal bids can be
// chosen; the smallest legal raise is chosen when the turn starts.
import {h, t, die} from "../ui.js";

// The hands as the view names them, and their names in the catalogs.
const KINDS = {"pair": "one pair", "two pair": "two pair", "three": "three of a kind",
  "low straight": "low straight", "high straight": "high straight", "full house": "full house",
  "four": "four of a kind", "five": "five of a kind"};

let chosen = {seq: -1, bid: null};  // the bid being built, for the position it is built in

/** "bid 3x5" → {q: 3, face: 5}; "bid two pair 6 5" → {kind: "two pair", ranks: [6, 5]}. */
export function parseBid(action) {
  const body = action.replace(/^bid /, "");
  const count = body.match(/^(\d+)x(\d)$/);
  if (count) return {q: Number(count[1]), face: Number(count[2])};
  const kind = body.replace(/[\d ]+$/, "");
  return {kind, ranks: (body.slice(kind.length).match(/\d/g) ?? []).map(Number)};
}

/** A bid in words: "3 × fives", "full house, 4 over 2". */
export function bidName(action) {
  const bid = parseBid(action);
  if (bid.q !== undefined) return t("{n} × {face}", {n: bid.q, face: bid.face});
  const kind = KINDS[bid.kind] ? t(KINDS[bid.kind]) : bid.kind;
  return bid.ranks.length ? `${kind} ${bid.ranks.join("–")}` : kind;
}

function choose(bid) {
  chosen.bid = bid;
  document.dispatchEvent(new Event("redraw"));
}

function faceButton(face, {pressed, enabled, id, onpick}) {
  return h("button", {type: "button", class: "face-button", id, disabled: !enabled,
    "aria-pressed": String(pressed), onclick: onpick}, die(face));
}

/** The button that makes the bid chosen. */
function sendButton(bid, send) {
  return h("button", {type: "button", id: "send-bid", class: "primary", "data-action": bid,
    onclick: () => send(bid)}, t("Bid {bid}", {bid: bidName(bid)}));
}

/** Quantity − / + and the six faces; a face the quantity cannot carry is disabled. */
function countPicker(bids, send) {
  const parsed = bids.map((action) => ({action, ...parseBid(action)}));
  const now = parseBid(chosen.bid);
  const quantities = [...new Set(parsed.map((p) => p.q))].sort((a, b) => a - b);
  const faces = Math.max(6, ...parsed.map((p) => p.face));
  const at = (q, face) => parsed.find((p) => p.q === q && p.face === face);
  const move = (step) => {
    const q = quantities[quantities.indexOf(now.q) + step];
    choose((at(q, now.face) ?? parsed.find((p) => p.q === q)).action);
  };
  const index = quantities.indexOf(now.q);
  return h("div", {class: "picker", id: "bid-picker", role: "group", "aria-label": t("Your bid")},
    h("span", {class: "stepper"},
      h("button", {type: "button", id: "fewer", disabled: index <= 0,
        "aria-label": t("Fewer dice"), onclick: () => move(-1)}, "−"),
      h("output", {id: "quantity", "aria-live": "off"}, String(now.q)),
      h("button", {type: "button", id: "more", disabled: index >= quantities.length - 1,
        "aria-label": t("More dice"), onclick: () => move(1)}, "+")),
    h("span", {class: "faces"}, ...Array.from({length: faces}, (_, i) => i + 1).map((face) => {
      const bid = at(now.q, face);
      return faceButton(face, {pressed: face === now.face, enabled: Boolean(bid),
        id: `face-${face}`, onpick: () => choose(bid.action)});
    })),
    sendButton(chosen.bid, send));
}

/** The hand, its first rank and (two pair, full house) its second; only legal ones enabled. */
function handPicker(bids, send) {
  const parsed = bids.map((action) => ({action, ...parseBid(action)}));
  const now = parseBid(chosen.bid);
  const kinds = [...new Set(parsed.map((p) => p.kind))];
  const ofKind = parsed.filter((p) => p.kind === now.kind);
  const select = h("select", {id: "hand-kind", "aria-label": t("Hand"),
    onchange: () => choose(parsed.find((p) => p.kind === select.value).action)},
  ...kinds.map((kind) => h("option", {value: kind, selected: kind === now.kind},
    KINDS[kind] ? t(KINDS[kind]) : kind)));
  const rows = [];
  for (let place = 0; place < (ofKind[0]?.ranks.length ?? 0); place++) {
    const fits = (p, face) => p.ranks[place] === face
      && p.ranks.slice(0, place).every((r, i) => r === now.ranks[i]);
    rows.push(h("span", {class: "faces", role: "group",
      "aria-label": place ? t("Second rank") : t("First rank")},
    ...[2, 3, 4, 5, 6, 1].map((face) => {
      const bid = ofKind.find((p) => fits(p, face)
        && p.ranks.slice(place + 1).every((r, i) => r === now.ranks[place + 1 + i]))
        ?? ofKind.find((p) => fits(p, face));
      return faceButton(face, {pressed: now.ranks[place] === face, enabled: Boolean(bid),
        id: `rank${place}-${face}`, onpick: () => choose(bid.action)});
    })));
  }
  return h("div", {class: "picker", id: "bid-picker", role: "group", "aria-label": t("Your bid")},
    select, ...rows, sendButton(chosen.bid, send));
}

/** The picker for the legal bids of this position (null: no bid is legal). */
export function bidPicker(frame, send) {
  const bids = frame.legal.filter((a) => a.startsWith("bid "));
  if (!bids.length) return null;
  if (chosen.seq !== frame.seq || !bids.includes(chosen.bid)) chosen = {seq: frame.seq, bid: bids[0]};
  return parseBid(bids[0]).q !== undefined ? countPicker(bids, send) : handPicker(bids, send);
}
