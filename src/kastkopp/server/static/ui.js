// Shared helpers: the page's translated words and small DOM builders.
const words = JSON.parse(document.getElementById("ui").textContent);

/** The translation of an English UI text, its {name} fields filled in. */
export function t(text, values = {}) {
  let out = words[text] ?? text;
  for (const [key, value] of Object.entries(values)) out = out.replace(`{${key}}`, value);
  return out;
}

/** An element with attributes and children (strings become text, never HTML). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const PIPS = {1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9]};

/** One die drawn as a die: a 3×3 grid of pips, its face named in the page's language. */
export function die(face, attrs = {}) {
  const el = h("span", {class: "die", role: "img",
    "aria-label": t("Die showing {face}", {face}), "data-face": face, ...attrs});
  for (let cell = 1; cell <= 9; cell++) {
    el.append(h("span", {class: PIPS[face]?.includes(cell) ? "pip" : "nopip"}));
  }
  return el;
}

/** A die printed with a symbol instead of pips (poker dice: 9 10 J Q K A). */
export function symbolDie(face, symbol, name, attrs = {}) {
  return h("span", {class: "die symbol", role: "img", "aria-label": t("Die showing {face}",
    {face: name}), "data-face": face, ...attrs}, h("span", {"aria-hidden": "true"}, symbol));
}

/** The box for every control a seat needs this turn: one toolbar, named. Tab reaches each
 * control; the arrow keys, Home and End move between them too, as in any toolbar. */
export function toolbar(...children) {
  return h("div", {class: "actions toolbar", id: "toolbar", role: "toolbar",
    "aria-label": t("Your move"), onkeydown: toolbarKeys}, ...children);
}

function toolbarKeys(event) {
  const keys = ["ArrowLeft", "ArrowRight", "Home", "End"];
  if (!keys.includes(event.key) || event.target.localName === "select") return;
  const items = [...event.currentTarget.querySelectorAll("button:enabled, select:enabled")];
  const at = items.indexOf(event.target);
  if (at < 0) return;
  const step = event.key === "ArrowRight" ? 1 : -1;
  const to = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1
    : (at + step + items.length) % items.length;
  items[to].focus();
  event.preventDefault();
}

/** A list of numbers to choose from and the button that sends the choice. */
export function amountPicker(label, amounts, verb, send, chosen = amounts[0]) {
  const select = h("select", {id: `choose-${verb}`, "aria-label": label},
    ...amounts.map((n) => h("option", {value: String(n), selected: n === chosen}, String(n))));
  return h("span", {class: "group"}, select, h("button", {type: "button", "data-verb": verb,
    onclick: () => send(`${verb} ${select.value}`)}, label));
}

export function dice(faces, attrs = {}) {
  return h("span", {class: "dice"}, ...faces.map((f) => die(Number(f), attrs)));
}

/** Buttons for legal actions; long lists become one choice per verb. */
export function actionControls(legal, send, skip = () => false) {
  const groups = new Map();
  for (const action of legal) {
    if (skip(action)) continue;
    const verb = action.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(action);
  }
  const box = h("div", {class: "actions"});
  for (const [verb, actions] of groups) {
    if (actions.length <= 3) {
      for (const a of actions) box.append(h("button", {type: "button", "data-action": a,
        onclick: () => send(a)}, a));
      continue;
    }
    const id = `choose-${verb}`;
    const select = h("select", {id, "aria-label": verb},
      ...actions.map((a) => h("option", {value: a}, a.slice(verb.length + 1))));
    box.append(h("span", {class: "group"}, h("label", {for: id}, verb), select,
      h("button", {type: "button", "data-verb": verb, onclick: () => send(select.value)},
        verb)));
  }
  return box;
}

/** A seat as players call it: the person's name, or "Bot 3" for a bot (bots share labels). */
export function seatName(frame, seat) {
  const label = frame.seats?.[seat];
  if (label?.startsWith("bot:")) return t("Bot {n}", {n: seat + 1});
  return label ?? `${t("Seat")} ${seat + 1}`;
}
