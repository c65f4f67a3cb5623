// The site's service worker: a repeat visit works offline. Served at the site's root (sw.js) so
// that its scope is the whole site; registered by assets/roofline/offline/register.mjs.
//
// It trusts nothing it did not check (roofline_site/offline_manifest.py writes MANIFEST below):
// - it handles only the files the build listed; every other request goes to the network as if
//   there were no worker;
// - a file whose name changes with its content carries a SHA-256 digest: it comes from the
//   cache first, and its bytes are checked against the digest before they are stored and again
//   before they are served (another page on this origin can write into Cache Storage);
// - pages and the other files come from the network first, so readers get the newest build,
//   and from the cache when offline;
// - its caches are named by the site's path and the manifest's version: another site on this
//   origin never shares them, and a new build drops the old ones.
// The Pyodide memory snapshot is left to the calculators' worker, which keeps and checks it
// itself (worker.mjs); a second copy here would double several megabytes.

const MANIFEST = /*roofline:offline-manifest*/ null;

const SCOPE = new URL("./", self.location.href);
const PREFIX = `roofline:${SCOPE.pathname}:`;
const VERSION = MANIFEST ? MANIFEST.version : "none";
const PAGES = `${PREFIX}pages:${VERSION}`;
const RUNTIME = `${PREFIX}runtime:${VERSION}`;
// Names of this file's earlier versions, before caches were named by path and manifest.
const UNSCOPED = /^roofline-(pages|runtime)-v\d+$/;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => names.filter((name) => UNSCOPED.test(name) || (name.startsWith(PREFIX) && name !== PAGES && name !== RUNTIME)))
      .then((old) => Promise.all(old.map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!MANIFEST || request.method !== "GET" || request.headers.has("range")) {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) {
    return;
  }
  const path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  if (!Object.hasOwn(MANIFEST.files, path)) {
    return;
  }
  const digest = MANIFEST.files[path];
  event.respondWith(digest ? cacheFirst(request, digest) : networkFirst(request));
});

async function cacheFirst(request, digest) {
  const cache = await caches.open(RUNTIME);
  const hit = await cache.match(request);
  if (hit) {
    const checked = await verified(hit, digest);
    if (checked) {
      return checked;
    }
    // Not what the build made: never served, and gone from the cache.
    await cache.delete(request);
  }
  const response = await fetch(request);
  if (!response.ok || response.type !== "basic") {
    return response;
  }
  const checked = await verified(response, digest);
  if (!checked) {
    // A host serving other bytes under this name (a newer build, say): pass them on unkept.
    return response;
  }
  cache.put(request, checked.clone()).catch(() => {});
  return checked;
}

/** A fresh response with `response`'s bytes if they match `digest` (`sha256-<base64>`), else null. */
async function verified(response, digest) {
  const bytes = await response.clone().arrayBuffer();
  const actual = "sha256-" + base64(await crypto.subtle.digest("SHA-256", bytes));
  if (actual !== digest) {
    return null;
  }
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function base64(buffer) {
  let text = "";
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
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
