// The site's service worker: a repeat visit works offline. Served at the site's root (sw.js) so
// that its scope is the whole site; registered by assets/roofline/offline/register.mjs.
//
// - Files whose name changes whenever their bytes do (everything under assets/pyodide/, which is
//   a folder per Pyodide version and content-hashed zips, and Material's hashed bundle, search
//   worker and style sheets, the site's one style sheet, the figures' content-named SVGs, the term pages' calculators) come
//   from the cache first: they can never be stale.
// - Everything else (pages, the site's own scripts and styles, the search index) comes from the
//   network first, so readers always get the newest build, and from the cache when offline.
// - The Pyodide memory snapshot is left to the calculators' worker, which keeps it in its own
//   Cache Storage entry (worker.mjs); a second copy here would double several megabytes.
//
// Only same-origin GET requests are handled; anything else goes to the network untouched.

const PAGES = "roofline-pages-v1";
const RUNTIME = "roofline-runtime-v1";
const IMMUTABLE = [
  /\/assets\/pyodide\//,
  /\/assets\/javascripts\/bundle\.[0-9a-f]{8}\.min\.js$/,
  /\/assets\/javascripts\/workers\/search\.[0-9a-f]{8}\.min\.js$/,
  /\/assets\/stylesheets\/[a-z]+\.[0-9a-f]{8}\.min\.css$/,
  /\/assets\/roofline\/site\.[0-9a-f]{16}\.css$/,
  /\/assets\/roofline\/figures\/svg\/figure\.[0-9a-f]{16}\.svg$/,
  /\/assets\/roofline\/calculators\/part\/calculator\.[0-9a-f]{16}\.json$/,
  /\/assets\/roofline\/numbers\/numbers\.[0-9a-f]{16}\.py$/,
];

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      // Caches of an older version of this file (not the calculators' snapshot cache).
      .then((names) => names.filter((name) => /^roofline-(pages|runtime)-/.test(name) && name !== PAGES && name !== RUNTIME))
      .then((old) => Promise.all(old.map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.includes(".snapshot-") || request.headers.has("range")) {
    return;
  }
  if (IMMUTABLE.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(networkFirst(request));
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(RUNTIME);
  const hit = await cache.match(request);
  if (hit) {
    return hit;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const kept = response.clone();
    dropOlderVersions(cache, request.url).then(() => cache.put(request, kept)).catch(() => {});
  }
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(PAGES);
  // A page's query string is a calculator scenario; the page itself is the same file.
  const key = request.mode === "navigate" ? withoutQuery(request.url) : request;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const kept = response.clone();
      cache.put(key, kept).catch(() => {});
    }
    return response;
  } catch (error) {
    const hit = await cache.match(key);
    if (hit) {
      return hit;
    }
    throw error;
  }
}

function withoutQuery(href) {
  const url = new URL(href);
  url.search = "";
  url.hash = "";
  return url.href;
}

// One entry per kind of file: a new hash or Pyodide version replaces the old one.
function family(href) {
  return new URL(href).pathname.replace(/\/assets\/pyodide\/[^/]+\//, "/assets/pyodide/*/").replace(/\.[0-9a-f]{8,}\./g, ".*.");
}

async function dropOlderVersions(cache, href) {
  const kind = family(href);
  const requests = await cache.keys();
  await Promise.all(requests.filter((old) => old.url !== href && family(old.url) === kind).map((old) => cache.delete(old)));
}
