// Liar's dice / Perudo, Common and Single Hand: your cup, each player's dice under theirs,
// the bid picker, the cups lifted with the matching dice marked, and each round in words.
import {h, t, die, dice, toolbar, seatName} from "../ui.js";
import {actionButton, cup, hearts, prompt, ranking} from "./common.js";
import {bidName, bidPicker, parseBid} from "./bids.js";

/** A history entry told in words. */
function said(frame, seat, action) {
  const name = seatName(frame, seat);
  if (action.startsWith("bid ")) return t("{name} bids {bid}", {name, bid: bidName(action)});
  if (action === "accept") return t("{name} takes the cup", {name});
  if (action === "keep none") return t("{name} throws all five again", {name});
  if (action.startsWith("keep ")) {
    return t("{name} keeps {dice} open and throws the rest", {name, dice: action.slice(5)});
  }
  return `${name}: ${action}`;
}

const lives = (v) => v.loss === "life";

function units(v, n) {
  if (lives(v)) return n === 1 ? t("a life") : t("{n} lives", {n});
  return n === 1 ? t("a die") : t("{n} dice", {n});
}

/** How the round ended: who called what on whose bid, what was there, who lost what. */
export function roundLines(frame, last) {
  const v = frame.view;
  const name = (s) => seatName(frame, s);
  const call = last.call === "calza" ? t("exact") : t("liar");
  const lines = [t("{caller} calls {call} on {name}'s bid of {bid}",
    {caller: name(last.caller), call, name: name(last.bidder), bid: bidName(`bid ${last.bid}`)})];
  if (last.actual !== undefined) {
    lines.push(last.actual === 1 ? t("There was 1") : t("There were {n}", {n: last.actual}));
  } else {
    lines.push(last.holds ? t("The hand was there") : t("The hand was not there"));
  }
  const who = name(last.seat);
  if (last.change > 0) lines.push(t("{name} loses {what}", {name: who, what: units(v, last.change)}));
  else if (last.come_back) lines.push(t("{name} comes back to the start", {name: who}));
  else if (last.change < 0) lines.push(t("{name} wins {what} back", {name: who, what: units(v, 1)}));
  else lines.push(t("{name} was right and keeps what they have", {name: who}));
  return lines;
}

export function narrate(before, frame) {
  const v = frame.view;
  const b = before?.view;
  const lines = [];
  const last = v.last_round;
  let from = b ? b.history.length : 0;
  if (b && last && b.last_round?.round !== last.round) {
    const seen = b.round === last.round ? b.history.length : 0;
    lines.push(...last.actions.slice(seen).map(([s, a]) => said(frame, s, a)));
    lines.push(...roundLines(frame, last));
    from = 0;
  }
  lines.push(...v.history.slice(from).map((e) => said(frame, e.seat, e.action)));
  if (v.outcome && !b?.outcome) {
    lines.push(t("{name} wins the game",
      {name: v.outcome.ranking[0].map((s) => seatName(frame, s)).join(", ")}));
  }
  return lines;
}

/** A cup's dice drawn with those that count for the bid marked. */
function counted(faces, last) {
  const bid = parseBid(`bid ${last.bid}`);
  return h("span", {class: "dice"}, ...faces.map((f) => {
    const match = bid.face !== undefined && (f === bid.face || (last.wild && f === 1));
    return die(f, {class: match ? "die match" : "die"});
  }));
}

function reveal(frame, last) {
  const rows = last.cup ? [h("li", {}, `${t("The cup")}: `, dice(last.cup))]
    : last.cups.map((faces, s) => (faces ? h("li", {class: s === last.seat ? "loser" : null},
      h("span", {class: "name"}, seatName(frame, s)), counted(faces, last)) : null));
  return h("section", {class: "reveal", id: "last-round", "aria-label": t("Cups revealed")},
    h("h2", {}, `${t("Round {n}", {n: last.round})} · ${t("Cups revealed")}`),
    ...roundLines(frame, last).map((line) => h("p", {}, line)),
    h("ul", {class: "cups"}, ...rows));
}

/** A player's dice under the cup: drawn as cups, how many and never their faces. */
function underCup(n) {
  const said = n === 1 ? t("One die under the cup") : t("{n} dice under the cup", {n});
  return h("span", {class: "cup-count", role: "img", "aria-label": said},
    ...Array.from({length: n}, () => h("span", {class: "hidden-die small", "aria-hidden": "true"})));
}

function playerLine(frame, s) {
  const v = frame.view;
  const single = v.hand === "single";
  const standing = !v.alive[s] ? t("out")
    : single || lives(v) ? hearts(v.stock[s]) : underCup(v.dice_counts[s]);
  const notes = [s === v.bidder && v.bid ? `${t("Bid")}: ${bidName(`bid ${v.bid}`)}` : null,
    single && s === v.holder ? t("holds the cup") : null,
    v.palifico === s ? t("palifico") : null].filter(Boolean).join(" · ");
  return h("li", {class: ["player", s === frame.to_move ? "to-move" : "", v.alive[s] ? "" : "out",
    s === frame.seat ? "me" : ""].join(" ").trim(), "data-seat": s},
  h("span", {class: "name"}, seatName(frame, s), s === frame.seat ? ` (${t("you")})` : ""),
  h("span", {class: "money"}, standing),
  notes ? h("span", {class: "hand"}, notes) : null);
}

function status(frame) {
  const v = frame.view;
  const mover = frame.to_move;
  if (frame.status === "over" || mover === null || mover === undefined) return "";
  const name = seatName(frame, mover);
  if (v.phase === "respond") {
    return t("{name} takes the cup or calls liar on {bid}", {name, bid: bidName(`bid ${v.bid}`)});
  }
  if (v.phase === "keep") return t("{name} keeps dice open and throws the rest", {name});
  return v.bid ? t("{name} raises the bid or calls liar", {name}) : t("{name} opens the bidding", {name});
}

// Single Hand: the dice of the cup picked to keep open, for the position they are picked in.
let keeping = {seq: -1, picked: []};

function keepControls(frame, send) {
  const own = frame.view.your_dice ?? [];
  if (keeping.seq !== frame.seq) keeping = {seq: frame.seq, picked: []};
  const kept = own.filter((_, i) => keeping.picked.includes(i)).sort((a, b) => a - b);
  // the legal keep of these faces, however the game orders them
  const same = (a) => a.slice(5).split(" ").map(Number).sort((x, y) => x - y).join(" ")
    === kept.join(" ");
  const action = kept.length ? frame.legal.find((a) => a.startsWith("keep ") && same(a))
    ?? `keep ${kept.join(" ")}` : "keep none";
  return [h("span", {class: "dice own-dice", "aria-label": t("Your dice")}, ...own.map((f, i) => {
    const on = keeping.picked.includes(i);
    return h("button", {type: "button", class: `die-button${on ? " kept" : ""}`, "data-index": i,
      "aria-pressed": String(on), onclick: () => {
        keeping.picked = on ? keeping.picked.filter((j) => j !== i) : [...keeping.picked, i];
        document.dispatchEvent(new Event("redraw"));
      }}, die(f));
  })), h("span", {class: "small"}, t("Click the dice to keep open")),
  h("button", {type: "button", id: "keep", "data-action": action, class: "primary",
    disabled: !frame.legal.includes(action), onclick: () => send(action)},
  kept.length ? t("Keep {dice}, throw the rest", {dice: kept.join(" ")}) : t("Throw all five again"))];
}

function controls(frame, send) {
  const v = frame.view;
  const legal = frame.legal;
  const parts = [];
  if (legal.some((a) => a.startsWith("keep "))) {
    parts.push(...keepControls(frame, send));
  } else if (v.your_dice?.length) {
    parts.push(h("div", {class: "own-dice"}, cup(v.your_dice, `${v.round}:${JSON.stringify(v.your_dice)}`)));
  }
  parts.push(bidPicker(frame, send));
  const words = {accept: t("Take the cup"), dudo: t("Liar!"), calza: t("Exact!")};
  parts.push(h("div", {class: "answers"}, ...legal.filter((a) => words[a])
    .map((a) => actionButton(a, words[a], send))));
  return toolbar(...parts);
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const rules = [v.ones_wild ? t("ones wild") : null,
    v.palifico !== null && v.palifico !== undefined ? t("palifico") : null,
    v.locked_face ? t("the face stays {face}", {face: v.locked_face}) : null].filter(Boolean);
  const ownCup = v.your_dice?.length
    ? cup(v.your_dice, `${v.round}:${JSON.stringify(v.your_dice)}`) : null;
  const parts = [
    h("p", {class: "round"}, t("Round {n}", {n: v.round}), rules.length ? ` · ${rules.join(" · ")}` : "",
      v.hand !== "single" && v.total_dice > 1
        ? ` · ${t("{n} dice on the table", {n: v.total_dice})}` : ""),
    v.outcome ? null : h("p", {class: "claim", id: "claim"}, `${t("Bid")}: `,
      v.bid ? h("strong", {}, bidName(`bid ${v.bid}`)) : t("nobody yet"),
      v.bid && v.bidder !== null ? ` (${seatName(frame, v.bidder)})` : ""),
    prompt(status(frame)),
    v.last_round && !v.history.length ? reveal(frame, v.last_round) : null,
    v.open_dice?.length ? h("p", {class: "opening"}, `${t("Open on the table")}: `, dice(v.open_dice)) : null,
    h("ul", {class: "players", "aria-label": t("Players")},
      ...frame.seats.map((_, s) => (v.shown.includes(s) ? playerLine(frame, s) : null))),
    mine ? null : ownCup,
    v.history.length ? h("ol", {class: "moves", "aria-label": t("This round")},
      ...v.history.map((e) => h("li", {}, said(frame, e.seat, e.action)))) : null,
    v.last_round && v.history.length ? reveal(frame, v.last_round) : null,
    ranking(frame),
  ];
  return {board: h("div", {class: "liars"}, ...parts), controls: mine ? controls(frame, send) : null,
    dock: true};
}
