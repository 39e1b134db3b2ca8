// Knack: everyone's three dice in the open, the dice each keeps, the pot, who is worst
// placed and must knock or raise, the double knock, and the pot's result in words.
import {h, t, die, toolbar, amountPicker, seatName} from "../ui.js";
import {actionButton, betControls, betSaid, losses, players, prompt, result} from "./common.js";

const triple = (d) => (d.length === 3 && d[0] === d[1] && d[1] === d[2] ? d[0] : null);

/** What a player's dice amount to, in words ("" before they have chosen). */
function position(dice, kept, rerolled) {
  const face = triple(dice);
  if (face !== null) return t("three of a kind ({face})", {face});
  const paired = kept.length === 2 ? kept[0] : dice.find((f, i) => dice.indexOf(f) !== i);
  if (paired !== undefined) return t("a pair ({face})", {face: paired});
  if (kept.length === 1) return t("keeps a {face}", {face: kept[0]});
  return rerolled ? t("throws all three again") : "";
}

/** Whether a seat's last word this throw was to pick all three dice up. */
function rerolled(v, seat) {
  const last = [...v.history].reverse().find((e) => e.seat === seat);
  return last?.action === "reroll";
}

/** The three dice of a player, those left on the table marked. */
function seatDice(dice, kept) {
  const left = [...kept];
  return h("span", {class: "dice"}, ...dice.map((f) => {
    const at = left.indexOf(f);
    if (at >= 0) left.splice(at, 1);
    return die(f, {class: at >= 0 ? "die kept" : "die"});
  }));
}

function status(frame) {
  const v = frame.view;
  const name = (s) => seatName(frame, s);
  const mover = frame.to_move;
  if (v.phase === "roll") return t("Throw {n}: the dice are thrown", {n: v.throw});
  if (mover === null || mover === undefined) return "";
  switch (v.phase) {
    case "keep": return t("{name} keeps one die or throws all three again", {name: name(mover)});
    case "bet": return v.max_raise
      ? t("{name} is worst placed and must knock or raise (at most {n})",
        {name: name(mover), n: v.max_raise})
      : t("{name} is worst placed and must knock", {name: name(mover)});
    case "respond": return t("{name} must call {n} or fold", {name: name(mover), n: v.to_call});
    case "agree": return t("{asker} asks to go all-in: {name} accepts or refuses",
      {asker: name(v.asker), name: name(mover)});
    case "double": return t("{name} may ask for a double knock for {n}",
      {name: name(mover), n: v.share});
    case "answer": return t("{asker} asks {name} for a double knock for {n}",
      {asker: name(v.asker), name: name(mover), n: v.share});
    default: return "";
  }
}

/** The pot's result: who won it with what, who lost what and why. */
function outcomeLines(frame) {
  const v = frame.view;
  const name = (s) => seatName(frame, s);
  const lines = v.winners.map((s) => {
    const face = triple(v.dice[s]);
    const folded = v.folded.length === frame.seats.length - 1;
    if (face !== null) {
      return t(v.winners.length > 1 ? "{name} shares the pot of {n} with three of a kind ({face})"
        : "{name} wins the pot of {n} with three of a kind ({face})",
      {name: name(s), n: v.won, face});
    }
    return folded ? t("{name} wins the pot of {n}: everyone else folded", {name: name(s), n: v.won})
      : t("{name} wins the pot of {n}", {name: name(s), n: v.won});
  });
  if (!v.outcome) return lines;
  // the double knocks, each told as it fell
  lines.push(...v.history.filter((e) => / = \d+: /.test(e.action)).map((e) => said(frame, e)));
  const doubled = (s) => v.history.some((e) => e.seat === s && / pays \d+$/.test(e.action));
  lines.push(...losses(frame, (s) => [v.folded.includes(s) ? t("folded")
    : position(v.dice[s], v.kept[s], false) || t("no three of a kind"),
  doubled(s) ? t("lost the double knock") : null].filter(Boolean).join(", ")));
  return lines;
}

/** A history entry of the view told in words (null: nothing to tell). */
function said(frame, entry) {
  const who = entry.seat === null ? t("The table") : seatName(frame, entry.seat);
  const a = entry.action;
  let m;
  if ((m = a.match(/^throws ([1-6 ]+) = (\d+): (wins back|pays) (\d+)$/))) {
    return t(m[3] === "pays" ? "{name} throws {dice} = {sum} and pays {n}"
      : "{name} throws {dice} = {sum} and wins back {n}",
    {name: who, dice: m[1].trim(), sum: m[2], n: m[4]});
  }
  if ((m = a.match(/^throws ([1-6 ]+)$/))) return t("{name} throws {dice}", {name: who, dice: m[1]});
  if ((m = a.match(/^(wins|shares) the pot of (\d+)$/))) {
    return t(m[1] === "wins" ? "{name} wins the pot of {n}" : "{name} shares the pot of {n}",
      {name: who, n: m[2]});
  }
  if ((m = a.match(/^keep (\d)$/))) return t("{name} keeps a {face}", {name: who, face: m[1]});
  const words = {reroll: "{name} throws all three again", knock: "{name} knocks",
    double: "{name} asks for a double knock", pass: "{name} does not ask for a double knock"};
  if (words[a]) return t(words[a], {name: who});
  return betSaid(who, a);
}

export function narrate(before, frame) {
  const v = frame.view;
  const from = before ? before.view.history.length : 0;
  const lines = v.history.slice(from).map((e) => said(frame, e)).filter(Boolean);
  const told = outcomeLines(frame);
  if (v.winners.length && !before?.view?.winners.length) lines.push(...told.slice(0, v.winners.length));
  if (v.outcome && !before?.view?.outcome) {
    const moves = new Set(v.history.map((e) => said(frame, e)));  // told as they happened
    lines.push(...told.slice(v.winners.length).filter((line) => !moves.has(line)));
  }
  return lines;
}

function controls(frame, send) {
  const v = frame.view;
  const me = frame.seat;
  const legal = frame.legal;
  const mine = v.dice[me] ?? [];
  const keeps = legal.some((a) => a.startsWith("keep "));
  const diceRow = h("span", {class: "dice own-dice", "aria-label": t("Your dice")},
    ...mine.map((f) => (keeps && legal.includes(`keep ${f}`)
      ? h("button", {type: "button", class: "die-button", "data-action": `keep ${f}`,
        "aria-label": t("Keep the {face}", {face: f}), onclick: () => send(`keep ${f}`)}, die(f))
      : die(f))));
  const parts = [diceRow];
  if (keeps) parts.push(h("span", {class: "small"}, t("Click the die to keep")));
  if (legal.includes("reroll")) {
    parts.push(actionButton("reroll", t("Throw all three again"), send));
  }
  if (legal.includes("knock")) parts.push(actionButton("knock", t("Knock"), send));
  const raises = legal.filter((a) => a.startsWith("raise ")).map((a) => Number(a.slice(6)));
  if (raises.length && legal.includes("knock")) {
    parts.push(amountPicker(t("Raise"), raises, "raise", send));
  }
  if (!legal.includes("knock")) parts.push(...betControls(frame, send));
  if (legal.includes("double")) {
    parts.push(actionButton("double", t("Double knock ({n})", {n: v.share}), send));
  }
  if (legal.includes("pass")) parts.push(actionButton("pass", t("No double knock"), send));
  return toolbar(...parts);
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const notes = (s) => [
    v.folded.includes(s) ? t("folded") : position(v.dice[s], v.kept[s], rerolled(v, s)),
    s === v.worst && !v.outcome ? t("worst placed") : null,
    v.winners.includes(s) ? t("winner") : null];
  const board = h("div", {class: "knack"},
    h("p", {class: "round"}, t("Throw {n}", {n: v.throw}), " · ",
      h("strong", {id: "pot"}, `${t("Pot")}: ${v.winners.length ? v.won : v.pot}`),
      v.max_raise ? ` · ${t("Raise limit")}: ${v.max_raise}` : ""),
    prompt(status(frame)),
    players(frame, (s) => ({dice: seatDice(v.dice[s], v.kept[s]), notes: notes(s)})),
    result(outcomeLines(frame)));
  return {board, controls: mine ? controls(frame, send) : null, dock: true};
}
