// Movement at the table: a die whose face changed since the last frame rolls, a result
// or reveal that is new slides in. Only what changed moves, so a redraw of the same
// position is still; with prefers-reduced-motion nothing moves at all.
const still = matchMedia("(prefers-reduced-motion: reduce)");
// key -> the face a die had when last drawn (kept while it is not drawn: one's own dice
// leave with the docked controls and come back unchanged, and do not roll for that)
let before = null;
let told = new Set();  // the texts of the results and reveals drawn last time

function dieKey(die, counts) {
  const seat = die.closest("[data-seat]")?.dataset.seat ?? "";
  const place = die.closest("#controls") ? "c" : "b";
  const group = `${place}${seat}`;
  const n = counts.get(group) ?? 0;
  counts.set(group, n + 1);
  return `${group}:${n}`;
}

/** Mark what changed in `roots` since the last call for the stylesheet to move. */
export function animate(...roots) {
  const counts = new Map();
  const faces = new Map();
  const results = new Set();
  for (const root of roots) {
    for (const die of root.querySelectorAll(".die")) {
      const key = dieKey(die, counts);
      faces.set(key, die.dataset.face);
      if (!still.matches && before && before.get(key) !== die.dataset.face) {
        die.classList.add("rolled");
      }
    }
    for (const box of root.querySelectorAll(".reveal, .result")) {
      const text = box.textContent;
      results.add(text);
      if (!still.matches && before && !told.has(text)) box.classList.add("fresh");
    }
  }
  before = new Map([...(before ?? []), ...faces]);
  told = results;
}
