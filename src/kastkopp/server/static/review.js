// A finished game reviewed: each seat's summary, the running loss of every seat as an
// inline SVG chart, and every decision with the best choice and its cost. Choosing a
// decision draws the position it was made in with the game's own renderer (every cup is
// lifted after the game).
import {h, dice} from "./ui.js";
import {revealCups} from "./games/common.js";

const table = JSON.parse(document.getElementById("table").textContent);
const words = JSON.parse(document.getElementById("review-words").textContent);
const w = (key) => words[key] ?? key;
const status = document.getElementById("review-status");
const board = document.getElementById("board");
const COLOURS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989",
  "#0969da", "#57606a"];

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
        onclick: () => pick(m.index)}, m.made),
        ` → ${m.best} (−${number(m.cost)})`))))));
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
    : m.cost > 1e-6 ? h("span", {class: "cost"}, `−${number(m.cost)} · ${w("best")}: ${m.best}`)
      : h("span", {class: "ok"}, `✓ ${w("best")}`);
  const extra = detail(m);
  return h("li", {class: "decision", id: `m${m.index}`, "data-index": m.index, tabindex: 0,
    onclick: () => pick(m.index), onkeydown: (e) => { if (e.key === "Enter") pick(m.index); }},
  who, h("strong", {}, m.made),
  Object.keys(m.situation ?? {}).length ? ` (${situation(m.situation)}) ` : " ", cost,
  extra ? h("span", {class: "small"}, ` · ${extra}`) : null);
}

const response = await fetch(`/api/tables/${table.id}/review`);
const review = await response.json();
if (!response.ok) {
  status.textContent = review.detail;
  document.body.dataset.review = "refused";
} else {
  status.textContent = w(review.method);
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
    board.replaceChildren(h("h2", {}, review.seats[seat]),
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
      renderer = await import(`./games/${table.game}.js`);
    } catch {
      renderer = await import("./games/default.js");
    }
    const first = review.summaries.flatMap((s) => s.costliest)
      .sort((a, b) => b.cost - a.cost)[0] ?? review.moments.find((m) => m.kind === "decision");
    if (first) pick(first.index);
  }
  document.body.dataset.review = "ready";
}
