// The site's service worker: the page a reader lands on works offline from then on. Served at
// the site's root (sw.js) so that its scope is the whole site; registered by
// assets/roofline/offline/register.mjs.
//
// What it keeps: on install, the offline page (503.html) and what it loads, and the pages that
// registered it (opened before it could see their requests); then every file that a page tells
// it it used (register.mjs: the page's assets and the calculators' runtime, sent once the page
// has settled), and the pages it fetches for the pages it controls. It never holds back a
// response the page is waiting for to copy or check it: a hashed file not kept yet goes straight
// from the network to the page. An address it has not kept, offline, gets the offline page,
// which lists the pages it has (the "kept-pages" message).
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

const OFFLINE = MANIFEST && MANIFEST.offline ? MANIFEST.offline : null;
// More than any page uses: a message cannot make the worker fetch without bound.
const KEEP_LIMIT = 400;

self.addEventListener("install", (event) => {
  event.waitUntil(keepOnInstall().then(() => self.skipWaiting()));
});

async function keepOnInstall() {
  if (!MANIFEST) {
    return;
  }
  if (OFFLINE) {
    // Required: a worker without its offline page would leave unvisited addresses blank.
    const kept = await keep(
      [OFFLINE.page, ...OFFLINE.files].map((path) => new URL(path, SCOPE).href),
      { installing: true },
    );
    if (!kept.has(new URL(OFFLINE.page, SCOPE).href)) {
      throw new Error(`sw.js: could not keep ${OFFLINE.page}`);
    }
  }
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await keep(
    windows.map((client) => client.url),
    { installing: true },
  );
}

self.addEventListener("message", (event) => {
  const data = event.data;
  if (!MANIFEST || !data || typeof data !== "object") {
    return;
  }
  if (data.type === "keep" && Array.isArray(data.urls)) {
    const urls = data.urls.filter((url) => typeof url === "string").slice(0, KEEP_LIMIT);
    event.waitUntil(keep(urls));
  } else if (data.type === "kept-pages" && event.ports[0]) {
    const port = event.ports[0];
    event.waitUntil(keptPages().then((pages) => port.postMessage({ pages })));
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil(Promise.all([enableNavigationPreload(), dropOldCaches()]).then(() => self.clients.claim()));
});

/** With navigation preload the browser asks for a page while this worker is still starting,
 * instead of after: pages come from the network first, so a start-up never delays one. */
async function enableNavigationPreload() {
  if (self.registration.navigationPreload) {
    await self.registration.navigationPreload.enable().catch(() => {});
  }
}

/**
 * Delete the caches of other builds (and of the unscoped names used before). Only on activating:
 * only the newest worker activates, and a replaced one (whose own caches are gone, see ownCache)
 * must never sweep, or it would delete its successor's.
 */
async function dropOldCaches() {
  const names = await caches.keys();
  const old = names.filter((name) => UNSCOPED.test(name) || (name.startsWith(PREFIX) && name !== PAGES && name !== RUNTIME));
  await Promise.all(old.map((name) => caches.delete(name)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!MANIFEST || request.method !== "GET" || request.headers.has("range")) {
    return;
  }
  const path = scopedPath(request.url);
  if (path === null) {
    return;
  }
  if (!Object.hasOwn(MANIFEST.files, path)) {
    if (request.mode === "navigate" && OFFLINE) {
      // An address the build did not make: the network's answer, or the offline page.
      event.respondWith(
        preloadedOrFetched(request, event.preloadResponse).catch((error) => offlinePageOr(error)),
      );
    }
    return;
  }
  const digest = MANIFEST.files[path];
  event.respondWith(digest ? cacheFirst(request, digest) : networkFirst(request, event.preloadResponse));
});

/**
 * This worker's cache `name` if it still exists, else null. Install makes this worker's caches;
 * a newer build's worker deletes them when it takes over, and a late message or fetch reaching
 * this one then must not make them again (nothing would remove them).
 */
async function ownCache(name) {
  return (await caches.has(name)) ? caches.open(name) : null;
}

/** The site path of `href` if it is within the worker's scope; else null. */
function scopedPath(href) {
  let url;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) {
    return null;
  }
  return decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
}

/** The site path of `href` within the worker's scope, if the build listed it; else null. */
function listedPath(href) {
  const path = scopedPath(href);
  return path !== null && Object.hasOwn(MANIFEST.files, path) ? path : null;
}

/**
 * Keep the listed files among `hrefs` (others are ignored), each checked as a fetch would check
 * it; a file already kept is not fetched again. Resolves to the set of addresses kept.
 * @param {string[]} hrefs
 */
async function keep(hrefs, { installing = false } = {}) {
  const pages = installing ? await caches.open(PAGES) : await ownCache(PAGES);
  const runtime = installing ? await caches.open(RUNTIME) : await ownCache(RUNTIME);
  if (!pages || !runtime) {
    return new Set();
  }
  const wanted = new Map();
  for (const href of hrefs) {
    const path = listedPath(href);
    if (path !== null) {
      wanted.set(withoutQuery(href), path);
    }
  }
  const kept = new Set();
  await Promise.all(
    [...wanted].map(async ([href, path]) => {
      const digest = path === OFFLINE?.page ? OFFLINE.integrity : MANIFEST.files[path];
      const cache = MANIFEST.files[path] ? runtime : pages;
      if (await cache.match(href)) {
        kept.add(href);
        return;
      }
      try {
        // Hashed files never change under their name: the copy the page just loaded will do.
        const response = await fetch(href, { cache: MANIFEST.files[path] ? "force-cache" : "no-cache" });
        if (!response.ok || response.type !== "basic") {
          return;
        }
        const checked = digest ? await verified(response, digest) : response;
        if (checked) {
          await cache.put(href, checked);
          kept.add(href);
        }
      } catch {
        // Offline or refused: kept on a later visit.
      }
    }),
  );
  return kept;
}

/** Each kept page (not the offline or not-found page) as `{url, title}`, title as written in its HTML. */
async function keptPages() {
  const cache = await ownCache(PAGES);
  const found = [];
  if (!cache) {
    return found;
  }
  for (const request of await cache.keys()) {
    const path = listedPath(request.url);
    const page = path !== null && (path === "" || path.endsWith("/") || path.endsWith(".html"));
    if (!page || path === OFFLINE?.page || path === "404.html") {
      continue;
    }
    const response = await cache.match(request);
    const title = response ? /<title>([^<]*)<\/title>/i.exec(await response.text()) : null;
    found.push({ url: request.url, title: title ? title[1] : path });
  }
  return found;
}

/** The offline page, as kept on install and checked against its digest, or `error` thrown. */
async function offlinePageOr(error) {
  const cache = OFFLINE ? await ownCache(PAGES) : null;
  if (cache) {
    const hit = await cache.match(new URL(OFFLINE.page, SCOPE).href);
    const checked = hit ? await verified(hit, OFFLINE.integrity) : null;
    if (checked) {
      // 503: the page asked for is not here; what comes back is a page about that.
      return new Response(checked.body, { status: 503, statusText: "Offline", headers: checked.headers });
    }
  }
  throw error;
}

async function cacheFirst(request, digest) {
  const cache = await ownCache(RUNTIME);
  if (!cache) {
    return fetch(request);
  }
  const hit = await cache.match(request);
  if (hit) {
    const checked = await verified(hit, digest);
    if (checked) {
      return checked;
    }
    // Not what the build made: never served, and gone from the cache.
    await cache.delete(request);
  }
  // Not kept yet: the network's answer, passed on as it streams. Checking it here would hold
  // the page's request until the whole file had arrived and been hashed (the runtime's
  // WebAssembly compiles while it downloads); the page tells the worker what it used once it has
  // settled (register.mjs), and the file is kept, checked, then.
  return fetch(request);
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

/** The navigation preload's response when the browser made one, else the network's. */
async function preloadedOrFetched(request, preload) {
  const preloaded = preload ? await preload : undefined;
  return preloaded || fetch(request);
}

async function networkFirst(request, preload) {
  const cache = await ownCache(PAGES);
  if (!cache) {
    return preloadedOrFetched(request, preload);
  }
  // A page's query string is a calculator scenario; the page itself is the same file.
  const key = request.mode === "navigate" ? withoutQuery(request.url) : request;
  try {
    const response = await preloadedOrFetched(request, preload);
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
    if (request.mode === "navigate") {
      return offlinePageOr(error);
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
