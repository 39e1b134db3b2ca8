// Linka: the two linka dice, every open die, your hidden die under the cup, the betting,
// the pot, the cups lifted at the showdown and the pot's result in words.
import {h, t, die, dice, toolbar, seatName} from "../ui.js";
import {betControls, betSaid, losses, players, prompt, result} from "./common.js";

// The hands as the view names them, each a text of the catalogs.
const HANDS = new Set(["the linka dice exactly", "both linka dice", "the linka sum",
  "the high linka die", "the low linka die"]);

/** A hand's name from the view, in the page's language. */
export function handName(name) {
  if (!name) return "";
  const nothing = name.match(/^nothing \(sum (\d+)\)$/);
  if (nothing) return t("nothing (sum {n})", {n: nothing[1]});
  return HANDS.has(name) ? t(name) : name;
}

/** A die that lies under another player's cup: drawn as a cup, its face unknown. */
function hiddenDie() {
  return h("span", {class: "hidden-die", role: "img", "aria-label": t("A hidden die under the cup")});
}

function seatDice(frame, s) {
  const v = frame.view;
  const own = v.dice[s];
  if (!own.length) return null;
  const shown = s === frame.seat || String(s) in v.hands;
  const thrown = !["linka", "open", "replay linka", "replay dice"].includes(v.phase);
  if (s === frame.seat && own.length === 2 && !(String(s) in v.hands)) {
    return h("span", {class: "dice"}, die(own[0]),
      h("span", {class: "under-cup", title: t("Your hidden die: only you see it")},
        die(own[1], {"aria-label": t("Your hidden die: {face}", {face: own[1]})})));
  }
  if (shown || !thrown || v.folded.includes(s)) return dice(own);
  return h("span", {class: "dice"}, die(own[0]), hiddenDie());
}

function status(frame) {
  const v = frame.view;
  const mover = frame.to_move;
  if (["linka", "replay linka"].includes(v.phase)) return t("The linka dice are thrown");
  if (["open", "hidden", "replay dice"].includes(v.phase)) return t("Everyone throws their dice");
  if (mover === null || mover === undefined) return "";
  const name = seatName(frame, mover);
  if (v.phase === "agree") {
    return t("{asker} asks to go all-in: {name} accepts or refuses",
      {asker: seatName(frame, v.asker), name});
  }
  if (v.to_call === 0) {
    return v.max_raise ? t("{name} checks, raises (at most {n}) or folds", {name, n: v.max_raise})
      : t("{name} checks or folds", {name});
  }
  return v.max_raise
    ? t("{name} must call {owed}, raise (at most {n}) or fold", {name, owed: v.to_call, n: v.max_raise})
    : t("{name} must call {n} or fold", {name, n: v.to_call});
}

/** The hand a seat showed last (at the last showdown it took part in). */
function lastHand(v, s) {
  for (const deal of [...v.deals].reverse()) {
    if (deal.hands[String(s)]) return handName(deal.hands[String(s)]);
  }
  return "";
}

function outcomeLines(frame) {
  const v = frame.view;
  if (!v.outcome) return [];
  const lines = v.winners.map((s) => {
    const name = seatName(frame, s);
    if (v.folded.length === frame.seats.length - 1) {
      return t("{name} wins the pot of {n}: everyone else folded", {name, n: v.won});
    }
    const verb = v.winners.length > 1 ? "{name} shares the pot of {n} with {hand}"
      : "{name} wins the pot of {n} with {hand}";
    return t(verb, {name, n: v.won, hand: lastHand(v, s)});
  });
  lines.push(...losses(frame, (s) => (v.folded.includes(s) ? t("folded") : lastHand(v, s))));
  return lines;
}

function dealText(frame, deal) {
  return Object.entries(deal.dice).map(([s, d]) =>
    `${seatName(frame, Number(s))} ${d.join(" ")} (${handName(deal.hands[s])})`).join(" · ");
}

export function narrate(before, frame) {
  const v = frame.view;
  const b = before?.view;
  const lines = [];
  const sameDeal = b && b.deal === v.deal;
  if (v.linka.length && !(sameDeal && b.linka.length)) {
    lines.push(t("The linka dice: {a} and {b} (sum {s})",
      {a: v.linka[0], b: v.linka[1], s: v.linka[0] + v.linka[1]}));
  }
  v.dice.forEach((d, s) => {
    const had = sameDeal ? b.dice[s].length : 0;
    if (d.length && !had && s !== frame.seat) {
      lines.push(d.length === 2 ? t("{name} throws {a} and {b}", {name: seatName(frame, s), a: d[0], b: d[1]})
        : t("{name} throws {face} open", {name: seatName(frame, s), face: d[0]}));
    }
  });
  const mine = v.dice[frame.seat] ?? [];
  const hadMine = sameDeal ? b.dice[frame.seat]?.length ?? 0 : 0;
  if (frame.seat !== null && mine.length > hadMine) {
    lines.push(mine.length === 2 && hadMine === 1
      ? t("Your hidden die: {face}", {face: mine[1]}) : t("You throw {dice}", {dice: mine.join(" ")}));
  }
  const from = b ? b.history.length : 0;
  for (const entry of v.history.slice(from)) {
    const line = betSaid(seatName(frame, entry.seat), entry.action);
    if (line) lines.push(line);
  }
  for (const deal of v.deals.slice(b ? b.deals.length : 0)) {
    lines.push(`${t("The cups are lifted")}: ${dealText(frame, deal)}`);
  }
  if (v.deal > 1 && !sameDeal && !v.outcome) {
    lines.push(t("Equal hands play again: {names}",
      {names: v.contenders.map((s) => seatName(frame, s)).join(", ")}));
  }
  if (v.outcome && !b?.outcome) lines.push(...outcomeLines(frame));
  return lines;
}

function controls(frame, send) {
  const own = frame.view.dice[frame.seat] ?? [];
  return toolbar(h("span", {class: "dice own-dice", "aria-label": t("Your dice")},
    own[0] ? die(own[0]) : null,
    own[1] ? h("span", {class: "under-cup"}, die(own[1],
      {"aria-label": t("Your hidden die: {face}", {face: own[1]})})) : null),
  ...betControls(frame, send));
}

export function render(frame, {send, mine}) {
  const v = frame.view;
  const notes = (s) => [
    s === v.dealer ? t("dealer") : null,
    v.folded.includes(s) ? t("folded") : null,
    v.raised.includes(s) && !v.outcome ? t("has raised") : null,
    String(s) in v.hands ? handName(v.hands[String(s)]) : null,
    v.winners.includes(s) ? t("winner") : null];
  const linka = v.linka.length
    ? h("div", {class: "linka-dice", id: "linka"}, h("span", {class: "label"}, t("Linka dice")),
      dice(v.linka), h("span", {}, `${t("Linka sum")} ${v.linka[0] + v.linka[1]}`))
    : null;
  const past = v.deals.length
    ? h("section", {class: "reveal", "aria-label": t("Cups revealed")},
      h("h2", {}, t("Cups revealed")),
      h("ol", {}, ...v.deals.map((deal) => h("li", {},
        `${t("Linka dice")} ${deal.linka.join(" ")}: `, dealText(frame, deal)))))
    : null;
  const board = h("div", {class: "linka"},
    h("p", {class: "round"}, v.deal > 1 ? `${t("Deal {n}: equal hands play again", {n: v.deal})} · ` : "",
      h("strong", {id: "pot"}, `${t("Pot")}: ${v.outcome ? v.won : v.pot}`)),
    linka,
    prompt(status(frame)),
    v.your_hand && !v.outcome ? h("p", {class: "your-hand"}, `${t("Your hand")}: `,
      h("strong", {}, handName(v.your_hand))) : null,
    players(frame, (s) => ({dice: seatDice(frame, s), notes: notes(s)})),
    result(outcomeLines(frame)),
    past);
  return {board, controls: mine ? controls(frame, send) : null, dock: true};
}
