// Chat at the table: messages come over the table's WebSocket, are sent by a small HTTP
// call, and are always drawn as text (a message can never become markup in the page).
import {h, t} from "./ui.js";

const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const problem = document.getElementById("chat-error");
let tableId = null;
let last = 0;  // the id of the newest message drawn (where a catch-up starts)
const drawn = new Set();  // messages may arrive out of order: two kept at one moment

/** Draw one message once, however often it arrives (socket and catch-up may overlap). */
export function add(message) {
  if (drawn.has(message.id)) return;
  drawn.add(message.id);
  last = Math.max(last, message.id);
  const who = message.seat === null || message.seat === undefined
    ? `${message.author} (${t("watching")})` : message.author;
  log.append(h("li", {"data-id": message.id}, h("strong", {class: "author"}, who), ": ",
    h("span", {class: "text"}, message.text)));
  log.scrollTop = log.scrollHeight;
  document.body.dataset.chat = String(log.children.length);
}

/** The messages missed while the socket was closed (or before the page opened). */
export async function catchUp() {
  const response = await fetch(`/api/tables/${tableId}/chat?after=${last}`).catch(() => null);
  if (response?.ok) (await response.json()).forEach(add);
}

export function start(id) {
  tableId = id;
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("chat-text");
    problem.textContent = "";
    const response = await fetch(`/api/tables/${tableId}/chat`, {method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({text: input.value})}).catch(() => null);
    if (!response) { problem.textContent = t("Connection lost: reconnecting…"); return; }
    const data = await response.json();
    if (!response.ok) {
      problem.textContent = typeof data.detail === "string" ? data.detail
        : data.detail.map((d) => d.msg).join("; ");
      return;
    }
    add(data);
    input.value = "";
  });
}
