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

/** One die drawn as a die: a 3×3 grid of pips, its face as its accessible name. */
export function die(face, attrs = {}) {
  const el = h("span", {class: "die", role: "img", "aria-label": String(face),
    "data-face": face, ...attrs});
  for (let cell = 1; cell <= 9; cell++) {
    el.append(h("span", {class: PIPS[face]?.includes(cell) ? "pip" : "nopip"}));
  }
  return el;
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

export function seatName(frame, seat) {
  return frame.seats?.[seat] ?? `${t("Seat")} ${seat + 1}`;
}
