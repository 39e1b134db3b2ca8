// Liar Dice (Poker Menteur): your five dice behind the screen, picked up by clicking them;
// the announcement built from a hand type and its faces and shown in words; throws left;
// the screen lifted at a doubt; the result and the score.
import {h, t, die, symbolDie, toolbar, seatName} from "../ui.js";
import {actionButton, prompt, result} from "./common.js";

// What each face (1..6 as the dice fall) shows, and how the page names it.
const SYMBOLS = {poker: ["9", "T", "J", "Q", "K", "A"], ordinary: ["A", "2", "3", "4", "5", "6"]};
const PRINTED = ["9", "10", "J", "Q", "K", "A"];
const NAME = {poker: ["nine", "ten", "jack", "queen", "king", "ace"],
  ordinary: ["ace", "two", "three", "four", "five", "six"]};
const ONE = {poker: ["a nine", "a ten", "a jack", "a queen", "a king", "an ace"],
  ordinary: ["an ace", "a two", "a three", "a four", "a five", "a six"]};
const MANY = {poker: ["nines", "tens", "jacks", "queens", "kings", "aces"],
  ordinary: ["aces", "twos", "threes", "fours", "fives", "sixes"]};
const COUNT = {2: "two {faces}", 3: "three {faces}", 4: "four {faces}", 5: "five {faces}"};
const CLASSES = ["nothing", "one pair", "two pair", "three of a kind", "low straight",
  "high straight", "full house", "four of a kind", "five of a kind"];
const SHAPES = {"5": 8, "4,1": 7, "3,2": 6, "3,1,1": 3, "2,2,1": 2, "2,1,1,1": 1, "1,1,1,1,1": 0};
const REASONS = {"the announcement held": "The announcement held: {name} wins, {loser} loses",
  "the announcement was false": "The announcement was false: {name} wins, {loser} loses",
  "five aces": "Five aces: {name} wins, {loser} loses"};

/** 0 for the lowest face (9, or 2 on ordinary dice) up to 5 for the ace. */
const rank = (face, kind) => (kind === "poker" ? face - 1 : face === 1 ? 5 : face - 2);

/** A hand: its class and its groups [count, face], larger groups then higher faces first. */
function handOf(faces, kind) {
  const counts = new Map();
  for (const f of faces) counts.set(f, (counts.get(f) ?? 0) + 1);
  const groups = [...counts].map(([f, n]) => [n, f])
    .sort((a, b) => b[0] - a[0] || rank(b[1], kind) - rank(a[1], kind));
  const sorted = [...faces].sort().join("");
  const cls = sorted === "23456" ? 5 : sorted === "12345" ? 4
    : SHAPES[groups.map(([n]) => n).join(",")];
  return {cls, groups, faces: groups.map(([, f]) => f)};
}

/** A hand in the short form of the notation (``3T A Q``) read into a hand. */
function parseShort(text, kind) {
  const faces = [];
  for (const token of text.trim().split(/\s+/)) {
    const m = token.match(/^([2-5])x?(.+)$/);
    const [n, symbol] = m && SYMBOLS[kind].includes(m[2]) ? [Number(m[1]), m[2]] : [1, token];
    for (let i = 0; i < n; i++) faces.push(SYMBOLS[kind].indexOf(symbol) + 1);
  }
  return handOf(faces, kind);
}

/** A hand in words, as a player announces it, in the page's language. */
function words(hand, kind) {
  if (hand.cls === 5 || hand.cls === 4) return t(CLASSES[hand.cls]);
  const phrases = hand.groups.map(([n, f]) => (n === 1 ? t(ONE[kind][f - 1])
    : t(COUNT[n], {faces: t(MANY[kind][f - 1])})));
  if (phrases.length === 1) return phrases[0];
  return t("{list} and {last}", {list: phrases.slice(0, -1).join(", "), last: phrases.at(-1)});
}

function pokerDie(face, kind, attrs = {}) {
  return kind === "poker" ? symbolDie(face, PRINTED[face - 1], t(NAME.poker[face - 1]), attrs)
    : die(face, attrs);
}

const facesOf = (text, kind) => text.split(" ").map((s) => SYMBOLS[kind].indexOf(s) + 1);
const diceRow = (faces, kind, label) => h("span", {class: "dice", "aria-label": label},
  ...faces.map((f) => pokerDie(f, kind)));

// The player's choices this turn, kept while the page redraws: dice picked up, the hand.
let choice = {seq: -1, picked: new Set(), hand: null};

function status(frame) {
  const v = frame.view;
  const mover = frame.to_move;
  if (mover === null || mover === undefined) return "";
  const name = seatName(frame, mover);
  if (v.phase === "chase") {
    return t("{other} threw five aces: {name} may throw to match them",
      {other: seatName(frame, v.shown), name});
  }
  if (v.claim === null) return t("{name} calls first: announce a hand", {name});
  return v.thrown ? t("{name} has thrown and must announce higher", {name})
    : t("{name} doubts, or throws again and announces higher", {name});
}

function outcomeLines(frame) {
  const v = frame.view;
  if (!v.outcome) return [];
  const kind = v.dice;
  const name = (s) => seatName(frame, s);
  const lines = [];
  const doubt = [...v.history].reverse().find((e) => e.action === "doubt");
  if (doubt && v.claim) {
    lines.push(t("{name} doubted the announcement {hand}",
      {name: name(doubt.seat), hand: words(parseShort(v.claim, kind), kind)}));
    const held = v.revealed_hands[v.claimant];
    if (held) {
      lines.push(t("{name} had {hand}", {name: name(v.claimant), hand: words(parseShort(held, kind), kind)}));
    }
  }
  const text = REASONS[v.reason];
  if (text) lines.push(t(text, {name: name(v.winner), loser: name(1 - v.winner)}));
  return lines;
}

function said(frame, entry) {
  const who = seatName(frame, entry.seat);
  const a = entry.action;
  const kind = frame.view.dice;
  if (a.startsWith("announce ")) {
    return t("{name} announces {hand}", {name: who, hand: words(parseShort(a.slice(9), kind), kind)});
  }
  const count = a.match(/^reroll (\d) dice$/);
  if (count) return t("{name} throws {n} dice again", {name: who, n: count[1]});
  if (a.startsWith("reroll ")) {
    return t("{name} throws {n} dice again", {name: who, n: a.split(" ").length - 1});
  }
  if (a === "doubt") return t("{name} doubts: the screen is lifted", {name: who});
  if (a === "accept") return t("{name} gives up: the five aces win", {name: who});
  return null;
}

export function narrate(before, frame) {
  const v = frame.view;
  const b = before?.view;
  const kind = v.dice;
  const lines = [];
  if (v.caller !== null && (b?.caller ?? null) === null) {
    lines.push(t("{name} calls first", {name: seatName(frame, v.caller)}));
  }
  if (b && v.replays > b.replays) lines.push(t("Both made five aces: dealt again"));
  const from = b && b.replays === v.replays ? b.history.length : 0;
  for (const entry of v.history.slice(from)) {
    if (entry.seat === frame.seat && !entry.action.startsWith("doubt")) continue;
    const line = said(frame, entry);
    if (line) lines.push(line);
  }
  if (v.shown !== null && (b?.shown ?? null) === null) {
    lines.push(t("{name} throws five aces and shows them", {name: seatName(frame, v.shown)}));
  }
  if (v.your_faces && v.your_faces.join() !== (b?.your_faces ?? []).join() && !v.outcome) {
    lines.push(t("Your dice: {hand}", {hand: words(handOf(v.your_faces, kind), kind)}));
  }
  if (v.outcome && !b?.outcome) lines.push(...outcomeLines(frame));
  return lines;
}

/** The announcement pickers: a hand type, then the faces of its groups, in words. */
function announcer(frame, send) {
  const v = frame.view;
  const kind = v.dice;
  const legal = frame.legal.filter((a) => a.startsWith("announce "))
    .map((a) => ({action: a, ...parseShort(a.slice(9), kind)}));
  if (!legal.length) return null;
  if (!choice.hand || !legal.some((l) => l.action === choice.hand.action)) choice.hand = legal[0];
  const chosen = choice.hand;
  const redraw = () => document.dispatchEvent(new Event("redraw"));
  const inClass = legal.filter((l) => l.cls === chosen.cls);
  const classes = h("select", {id: "hand-class", "aria-label": t("Hand type")},
    ...CLASSES.map((name, cls) => h("option", {value: String(cls), selected: cls === chosen.cls,
      disabled: !legal.some((l) => l.cls === cls)}, t(name))).reverse());
  classes.addEventListener("change", () => {
    choice.hand = legal.find((l) => l.cls === Number(classes.value));
    redraw();
  });
  const groups = chosen.groups.map(([n], i) => {
    const prefix = chosen.faces.slice(0, i);
    const fits = (l, f) => prefix.every((p, j) => l.faces[j] === p) && l.faces[i] === f;
    const faces = [1, 2, 3, 4, 5, 6].sort((a, b) => rank(b, kind) - rank(a, kind));
    const select = h("select", {id: `hand-face-${i}`, class: "hand-face",
      "aria-label": n > 1 ? t("Which {n} alike", {n}) : t("Single die {n}", {n: i + 1})},
    ...faces.map((f) => h("option", {value: String(f), selected: f === chosen.faces[i],
      disabled: !inClass.some((l) => fits(l, f))},
    t(n > 1 ? MANY[kind][f - 1] : NAME[kind][f - 1]))));
    select.addEventListener("change", () => {
      choice.hand = inClass.find((l) => fits(l, Number(select.value))) ?? chosen;
      redraw();
    });
    return h("span", {class: "group"}, n > 1 ? h("span", {"aria-hidden": "true"}, `${n}×`) : null,
      select);
  });
  return h("div", {class: "announce"},
    h("div", {class: "pickers"}, classes, ...groups),
    h("div", {class: "pickers"},
      h("output", {id: "announcement", for: "hand-class"}, words(chosen, kind)),
      h("button", {type: "button", id: "announce", "data-action": chosen.action,
        onclick: () => send(chosen.action)}, t("Announce"))));
}

function controls(frame, send) {
  const v = frame.view;
  const kind = v.dice;
  const faces = [...(v.your_faces ?? [])].sort((a, b) => rank(b, kind) - rank(a, kind));
  const canReroll = frame.legal.some((a) => a.startsWith("reroll "));
  const redraw = () => document.dispatchEvent(new Event("redraw"));
  const picked = [...choice.picked].map((i) => faces[i]);
  const action = picked.length ? `reroll ${picked.sort((a, b) => rank(b, kind) - rank(a, kind))
    .map((f) => SYMBOLS[kind][f - 1]).join(" ")}` : "";
  const ownDice = h("span", {class: "dice own-dice", "aria-label": t("Your dice")},
    ...faces.map((f, i) => (canReroll
      ? h("button", {type: "button", class: `die-button ${choice.picked.has(i) ? "picked" : ""}`,
        "aria-pressed": String(choice.picked.has(i)), "data-index": i,
        "aria-label": t("Pick up: {face}", {face: t(NAME[kind][f - 1])}),
        onclick: () => { choice.picked.has(i) ? choice.picked.delete(i) : choice.picked.add(i); redraw(); }},
      pokerDie(f, kind))
      : pokerDie(f, kind))));
  const left = v.max_throws - v.throws[frame.seat];
  const row = [ownDice, h("span", {class: "small throws-left"}, t("Throws left: {n}", {n: left}))];
  if (canReroll) {
    row.push(h("button", {type: "button", id: "reroll", disabled: !frame.legal.includes(action),
      title: t("Click dice to pick them up"), onclick: () => send(action)},
    picked.length ? t("Throw {n} dice again", {n: picked.length}) : t("Throw again")));
  }
  if (frame.legal.includes("doubt")) row.push(actionButton("doubt", t("Doubt"), send));
  if (frame.legal.includes("accept")) {
    row.push(actionButton("accept", t("Give up: the five aces win"), send));
  }
  return toolbar(h("div", {class: "actions"}, ...row), announcer(frame, send));
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const kind = v.dice;
  if (choice.seq !== frame.seq) choice = {seq: frame.seq, picked: new Set(), hand: null};
  const me = frame.seat;
  const other = me === null ? null : 1 - me;
  const parts = [h("p", {class: "round"},
    kind === "poker" ? t("Poker dice") : t("Ordinary dice, the ace high"),
    v.replays ? ` · ${t("Dealt again after five aces: {n}", {n: v.replays})}` : "")];
  if (v.opening.length) {
    parts.push(h("p", {class: "opening"}, `${t("Dice for the first call")}: `,
      ...v.opening.flatMap(([a, b]) => [`${seatName(frame, 0)} `, pokerDie(facesOf(a, kind)[0], kind),
        ` ${seatName(frame, 1)} `, pokerDie(facesOf(b, kind)[0], kind), " "]),
      v.caller !== null ? `→ ${t("{name} calls first", {name: seatName(frame, v.caller)})}` : ""));
  }
  parts.push(h("p", {class: "claim", id: "claim"}, `${t("Announcement")}: `,
    v.claim ? h("strong", {}, words(parseShort(v.claim, kind), kind)) : t("nobody yet"),
    v.claim ? ` (${seatName(frame, v.claimant)}; ${v.claim})` : ""));
  parts.push(h("p", {class: "throws"}, `${t("Throws")}: `, frame.seats.map((_, s) =>
    `${seatName(frame, s)} ${v.throws[s]}/${v.max_throws}`).join(" · ")));
  parts.push(prompt(status(frame)));
  if (!v.outcome) {
    const screens = [];
    if (other !== null) {
      screens.push(h("div", {class: "screen", role: "img",
        "aria-label": t("{name}'s dice behind the screen", {name: seatName(frame, other)})},
      h("span", {"aria-hidden": "true"}, t("{name}'s dice behind the screen",
        {name: seatName(frame, other)}))));
    }
    if (v.your_faces) {
      const hand = handOf(v.your_faces, kind);
      screens.push(h("div", {class: "mine"}, h("span", {class: "label"}, `${t("Your dice")}: `),
        diceRow(hand.groups.flatMap(([n, f]) => Array(n).fill(f)), kind, t("Your dice")),
        h("span", {class: "your-hand"}, words(hand, kind))));
    }
    parts.push(h("div", {class: "screens"}, ...screens));
  }
  if (v.shown !== null && v.shown_dice) {
    parts.push(h("p", {class: "shown"}, `${t("{name} shows five aces", {name: seatName(frame, v.shown)})}: `,
      diceRow(facesOf(v.shown_dice, kind), kind, t("Five aces"))));
  }
  if (v.last_draw) {
    parts.push(h("p", {class: "small"}, `${t("Last deal drawn on five aces")}: `,
      v.last_draw.map((text, s) => `${seatName(frame, s)} ${text}`).join(" · ")));
  }
  if (v.outcome) {
    parts.push(h("section", {class: "reveal", "aria-label": t("The screen is lifted")},
      h("h2", {}, t("The screen is lifted")),
      h("ul", {}, ...v.revealed.map((text, s) => (text ? h("li", {}, `${seatName(frame, s)}: `,
        diceRow(facesOf(text, kind), kind, seatName(frame, s)), " ",
        words(parseShort(v.revealed_hands[s], kind), kind)) : null)))));
    parts.push(result(outcomeLines(frame)));
    parts.push(h("p", {class: "score", id: "score"}, `${t("This game")}: `,
      `${seatName(frame, 0)} ${v.outcome.scores[0]} – ${v.outcome.scores[1]} ${seatName(frame, 1)}`));
  }
  return {board: h("div", {class: "poker-dice"}, ...parts),
    controls: mine ? controls(frame, send) : null, dock: true};
}

