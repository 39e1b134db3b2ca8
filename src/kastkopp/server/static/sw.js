// The score keeper without a network: its page and scripts come from this cache when the
// network does not answer. Everything else goes to the network as usual.
const CACHE = "kastkopp-keeper-3";
// The sheet kinds' stand-ins (keeper.js imports them offline): the server writes them in.
const STAND_INS = [];
const SHELL = ["/keep", "/static/keeper.js", "/static/ui.js", "/static/account.js",
  "/static/kastkopp.css", "/static/manifest.json", ...STAND_INS];
// The tables the server publishes for checking entries offline (one per rule set).
const TABLES = "/api/sheets/offline/";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  const isTable = url.pathname.startsWith(TABLES);
  const isShell = url.pathname === "/keep" || SHELL.includes(url.pathname) || isTable;
  if (!isShell) return;
  // Network first, so a fresh page wins; the cached copy when offline.
  const key = url.pathname === "/keep" ? "/keep" : isTable ? url.pathname + url.search
    : event.request;
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key)));
});
