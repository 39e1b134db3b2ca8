// A finished game reviewed: each seat's summary, the running loss of every seat as an
// inline SVG chart, and every decision with the best choice and its cost. Choosing a
// decision draws the position it was made in with the game's own renderer (every cup is
// lifted after the game). From a costly decision "try again" opens that position as its
// seat saw it (the server sends that seat's view only) with the game's own controls, and
// shows the best choice only once a choice is made.
import {h, dice} from "./ui.js";
import {revealCups} from "./games/common.js";

const table = JSON.parse(document.getElementById("table").textContent);
const words = JSON.parse(document.getElementById("review-words").textContent);
const w = (key) => words[key] ?? key;
const status = document.getElementById("review-status");
const board = document.getElementById("board");
const COLOURS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989",
  "#0969da", "#57606a"];

let said = {};  // each choice's notation in the page's language, from the server
const say = (notation) => said[notation] ?? notation;
const number = (x, digits = 2) => x === null || x === undefined ? "—"
  : Number(x).toLocaleString(document.documentElement.lang, {maximumFractionDigits: digits});
const percent = (x) => x === null || x === undefined ? "—"
  : `${(100 * x).toLocaleString(document.documentElement.lang, {maximumFractionDigits: 1})} %`;

function summaries(review, pick) {
  const unit = w(review.unit);
  const exact = review.summaries.some((s) => s.start !== null);
  const rows = [
    [w("Decisions"), (s) => `${s.decisions}`],
    [w("Best choices"), (s) => s.graded ? `${s.best} / ${s.graded} (${percent(s.accuracy)})`
      : w("not graded")],
    [`${w("Lost")} (${unit})`, (s) => s.graded ? number(s.lost) : "—"],
  ];
  if (exact) {
    rows.push([w("Expected at the start"), (s) => number(s.start)],
      [`${w("Luck")} (${unit})`, (s) => number(s.luck)], [w("Final"), (s) => number(s.final)]);
  }
  const head = h("tr", {}, h("th", {scope: "col"}, w("Seat")),
    ...review.summaries.map((s) => h("th", {scope: "col", style: `color:${COLOURS[s.seat % 8]}`},
      s.name)));
  const body = rows.map(([label, cell]) => h("tr", {}, h("th", {scope: "row"}, label),
    ...review.summaries.map((s) => h("td", {}, cell(s)))));
  const costly = h("tr", {}, h("th", {scope: "row"}, w("Costliest")),
    ...review.summaries.map((s) => h("td", {}, h("ol", {class: "costliest"},
      ...s.costliest.map((m) => h("li", {}, h("a", {href: `#m${m.index}`,
        onclick: () => pick(m.index)}, say(m.made)),
        ` → ${say(m.best)} (−${number(m.cost)})`))))));
  return h("table", {class: "review-table"}, h("thead", {}, head), h("tbody", {}, ...body,
    costly));
}

function chart(review) {
  const seats = review.summaries.map((s) => s.seat);
  const graded = review.moments.filter((m) => m.kind === "decision" && m.cost !== null);
  const width = 640, height = 220, pad = 60;
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.append(...kids);
    return el;
  };
  const running = seats.map(() => [[0, 0]]);
  const totals = seats.map(() => 0);
  graded.forEach((m, i) => {
    totals[m.seat] += Math.max(0, m.cost);
    running[m.seat].push([i + 1, totals[m.seat]]);
  });
  const top = Math.max(1e-9, ...totals);
  const x = (i) => pad + (width - pad - 8) * i / Math.max(1, graded.length);
  const y = (v) => height - pad + 4 - (height - pad - 8) * v / top;
  const root = svg("svg", {viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": document.querySelector(".review-chart figcaption").textContent,
    class: "loss-chart", preserveAspectRatio: "xMidYMid meet"});
  root.append(svg("line", {x1: pad, y1: y(0), x2: width - 8, y2: y(0), class: "axis"}),
    svg("line", {x1: pad, y1: y(0), x2: pad, y2: y(top), class: "axis"}),
    svg("text", {x: pad - 4, y: y(top) + 4, "text-anchor": "end", class: "tick"},
      number(top, 1)),
    svg("text", {x: pad - 4, y: y(0) + 4, "text-anchor": "end", class: "tick"}, "0"),
    svg("text", {x: width - 8, y: height - 6, "text-anchor": "end", class: "tick"},
      `${w("Decision")} ${graded.length}`));
  for (const seat of seats) {
    let points = running[seat];
    points = [...points, [graded.length, totals[seat]]];
    const d = points.map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`)
      .join(" ");
    root.append(svg("path", {d, fill: "none", stroke: COLOURS[seat % 8], "stroke-width": 2.5,
      "data-seat": seat}, svg("title", {}, `${review.seats[seat]}: ${number(totals[seat])}`)));
  }
  const legend = h("p", {class: "legend"}, ...seats.map((s) => h("span", {
    style: `color:${COLOURS[s % 8]}`}, `■ ${review.seats[s]} ${number(totals[s])} ${w(review.unit)}`)));
  return [root, legend];
}

function detail(m) {
  return Object.entries(m.detail ?? {}).filter(([k]) => !["expected", "best_expected",
    "value", "worth"].includes(k))
    .map(([k, v]) => `${w(k)} ${percent(v)}`).join(" · ");
}

/** What the seat saw, each fact named in the page's language. */
function situation(facts) {
  return Object.entries(facts ?? {}).map(([key, value]) => {
    if (key === "throw") {
      const [n, m] = value.split("/");
      return w("s:throw").replace("{n}", n).replace("{m}", m);
    }
    return `${w(`s:${key}`)} ${value}`;
  }).join(", ");
}

function moment(m, review, pick) {
  const who = h("span", {class: "who", style: `color:${COLOURS[m.seat % 8]}`},
    `${review.seats[m.seat]}: `);
  if (m.kind === "roll") {
    return h("li", {class: "roll", id: `m${m.index}`, "data-index": m.index}, who,
      dice(m.made.split(" ").map(Number)),
      ` ${situation(m.situation)} · ${w("luck of the roll")} `,
      h("span", {class: m.luck < 0 ? "minus" : "plus"}, `${m.luck >= 0 ? "+" : ""}${number(m.luck)}`));
  }
  const cost = m.cost === null ? h("span", {class: "ungraded"}, w("not graded"))
    : m.cost > 1e-6 ? h("span", {class: "cost"}, `−${number(m.cost)} · ${w("best")}: ${say(m.best)}`)
      : h("span", {class: "ok"}, `✓ ${w("best")}`);
  const extra = detail(m);
  return h("li", {class: "decision", id: `m${m.index}`, "data-index": m.index, tabindex: 0,
    onclick: () => pick(m.index), onkeydown: (e) => { if (e.key === "Enter") pick(m.index); }},
  who, h("strong", {}, say(m.made)),
  Object.keys(m.situation ?? {}).length ? ` (${situation(m.situation)}) ` : " ", cost,
  extra ? h("span", {class: "small"}, ` · ${extra}`) : null);
}

/** "Try again from here": one decision's position in a dialog, chosen again. */
const tryAgain = {
  dialog: document.getElementById("try"),
  renderer: null,
  review: null,
  at: null,  // {moment, position, answer, sending, error}

  async open(m) {
    const response = await fetch(`/api/tables/${table.id}/review/try?step=${m.index}&seat=${m.seat}`);
    const position = await response.json();
    if (!response.ok) { status.textContent = position.detail; return; }
    this.at = {moment: m, position, answer: null, sending: false, error: ""};
    this.draw();
    this.dialog.showModal();
    this.firstControl()?.focus();
  },

  firstControl() {
    return this.dialog.querySelector("#try-controls button:enabled, #try-controls select:enabled,"
      + " #try-board button:enabled");
  },

  frame() {
    const {moment, position, answer, sending} = this.at;
    return {type: "state", seq: `try-${moment.index}`, status: "playing", seat: moment.seat,
      seats: this.review.seats, to_move: moment.seat, legal: answer || sending ? [] : position.legal,
      deadline: null, view: position.view, outcome: null};
  },

  draw() {
    const {moment, answer, sending, error} = this.at;
    const focused = focusKey(document.activeElement, this.dialog);
    const mine = !answer && !sending;
    const drawn = this.renderer.render(this.frame(), {send: (a) => this.choose(a), mine});
    document.getElementById("try-who").textContent = w("try:who")
      .replace("{name}", this.review.seats[moment.seat]);
    document.getElementById("try-board").replaceChildren(drawn.board);
    document.getElementById("try-controls").replaceChildren(mine && drawn.controls
      ? drawn.controls : "");
    document.getElementById("try-result").replaceChildren(...(error ? [h("p", {class: "error"},
      error)] : sending ? [h("p", {}, w("try:checking"))] : answer ? this.result(answer) : []));
    document.getElementById("try-again").hidden = !answer;
    document.body.dataset.trying = answer ? "answered" : error ? "refused" : "choosing";
    const again = focused && this.dialog.querySelector(focused);
    if (again) again.focus({preventScroll: true});
  },

  result(answer) {
    const unit = w(answer.unit);
    const verdict = answer.cost === null ? h("p", {class: "ungraded"}, w("try:ungraded"))
      : answer.is_best ? h("p", {class: "ok"}, `✓ ${w("try:best")}`)
        : h("p", {class: "cost"}, `−${number(answer.cost)} · `, w("try:cost")
          .replace("{cost}", number(answer.cost)).replace("{unit}", unit));
    const extra = detail({detail: answer.detail});
    const named = (n) => answer.said?.[n] ?? say(n);
    return [h("h3", {id: "try-verdict"}, `${w("try:yours")}: ${named(answer.action)}`), verdict,
      h("ul", {class: "try-facts"},
        answer.best ? h("li", {}, `${w("best")}: `, h("strong", {}, named(answer.best))) : null,
        answer.made ? h("li", {}, `${w("try:game")}: ${named(answer.made)}`, answer.made_cost
          ? ` (−${number(answer.made_cost)} ${unit})` : "") : null,
        extra ? h("li", {class: "small"}, extra) : null)];
  },

  async choose(action) {
    const {moment} = this.at;
    this.at.sending = true;
    this.at.error = "";
    this.draw();
    const response = await fetch(`/api/tables/${table.id}/review/try`, {method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({step: moment.index, seat: moment.seat, action})});
    const data = await response.json();
    this.at.sending = false;
    if (response.ok) this.at.answer = data;
    else this.at.error = data.detail;
    this.draw();
    document.getElementById(response.ok ? "try-again" : "try-close").focus();
  },

  again() {
    this.at.answer = null;
    this.at.error = "";
    this.draw();
    this.firstControl()?.focus();
  },
};

/** A selector that finds the same control again after a redraw (null: none). */
function focusKey(el, within) {
  if (!el || !within.contains(el)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const name of ["action", "verb", "index"]) {
    const value = el.dataset?.[name];
    if (value !== undefined) return `${el.localName}[data-${name}="${CSS.escape(value)}"]`;
  }
  return null;
}

document.getElementById("try-again").addEventListener("click", () => tryAgain.again());
document.getElementById("try-close").addEventListener("click", () => tryAgain.dialog.close());
tryAgain.dialog.addEventListener("close", () => {
  document.getElementById("try-open")?.focus();
  document.body.dataset.trying = "no";
});
// the game's renderer asks for a redraw when a die is kept or a cup looked into
document.addEventListener("redraw", () => { if (tryAgain.dialog.open) tryAgain.draw(); });

const response = await fetch(`/api/tables/${table.id}/review`);
const review = await response.json();
if (!response.ok) {
  status.textContent = review.detail;
  document.body.dataset.review = "refused";
} else {
  status.textContent = w(review.method);
  said = review.said ?? {};
  tryAgain.review = review;
  let steps = null, renderer = null;
  const pick = (index) => {
    document.querySelectorAll(".review-moments li").forEach((li) =>
      li.classList.toggle("current", Number(li.dataset.index) === index));
    if (!steps || !renderer) return;
    const position = steps[index];  // the position the decision was made in
    const seat = review.moments.find((m) => m.index === index)?.seat ?? 0;
    const frame = {type: "state", seq: index, status: "playing", seat, seats: review.seats,
      to_move: position.to_move, legal: [], deadline: null, view: position.views[seat],
      outcome: null};
    const m = review.moments.find((x) => x.index === index);
    const costly = m?.kind === "decision" && m.cost !== null && m.cost > 1e-6;
    board.replaceChildren(h("div", {class: "board-head"}, h("h2", {}, review.seats[seat]),
      costly ? h("button", {type: "button", id: "try-open", "data-index": index,
        onclick: () => tryAgain.open(m)}, w("Try again from here")) : null),
    renderer.render(frame, {send: () => {}, mine: false}).board);
  };
  document.getElementById("summaries").replaceChildren(summaries(review, pick));
  document.getElementById("chart").replaceChildren(...chart(review));
  document.getElementById("moments").replaceChildren(
    ...review.moments.map((m) => moment(m, review, pick)));
  const positions = await fetch(`/api/tables/${table.id}/replay`);
  if (positions.ok) {
    steps = (await positions.json()).steps;
    revealCups();
    try {
      renderer = await import(table.renderer);
    } catch {
      renderer = await import("./games/default.js");
    }
    const first = review.summaries.flatMap((s) => s.costliest)
      .sort((a, b) => b.cost - a.cost)[0] ?? review.moments.find((m) => m.kind === "decision");
    if (first) pick(first.index);
    tryAgain.renderer = renderer;
  }
  document.body.dataset.review = "ready";
}
