// Module Web Worker: boots the self-hosted Pyodide (from the build's memory snapshot when it is
// cached or the link is fast, else from the trimmed, precompiled library; see boot.mjs),
// unpacks roofline_core into it and answers compute requests with the result as the page shows it (roofline_core.view's
// compute_view_json: output texts, table and chart as element trees), as JSON. It holds no
// formula and no presentation rule: both come from the same Python the build used.

import { bootPyodide } from "./boot.mjs";
import { snapshotFileName } from "./snapshot.mjs";

let pyodide = null;
let view = null;

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "boot") {
    boot(message).then(
      ({ boot: bootPath, refused }) => self.postMessage({ type: "ready", boot: bootPath, refused }),
      (error) => self.postMessage({ type: "failed", message: describe(error) }),
    );
  } else if (message.type === "compute") {
    try {
      self.postMessage({ type: "result", id: message.id, json: compute(message.calculator, message.inputs, message.domId, message.glossaryUrl) });
    } catch (error) {
      self.postMessage({ type: "compute-failed", id: message.id, message: describe(error) });
    }
  }
});

async function boot({ indexURL, lockFileURL, coreZipURL, stdLibURL, downlinkMbps }) {
  // Pyodide needs absolute URLs (a relative lockFileURL fails); the page resolved them.
  const pyodideModule = await import(new URL("pyodide.mjs", indexURL).href);
  const snapshotURL = indexURL + snapshotFileName(baseName(coreZipURL), baseName(stdLibURL));
  const useSnapshot = (await isCached(snapshotURL)) || snapshotPaysNow(downlinkMbps);
  const started = await bootPyodide({ pyodideModule, indexURL, lockFileURL, coreZipURL, stdLibURL, fetchBytes, useSnapshot });
  pyodide = started.runtime;
  view = pyodide.pyimport("roofline_core.view");
  if (!useSnapshot && !savesData()) {
    // Keep it for the next visit, once the answer is on screen and the link is free.
    setTimeout(() => fetchSnapshotBytes(snapshotURL).catch(() => {}), SNAPSHOT_PREFETCH_DELAY_MS);
  }
  return started;
}

// Compared with the ordinary boot from the trimmed, precompiled library, the snapshot saves
// about 0.5 s of CPU on a desktop (1 to 2 s on a phone) and costs about 5 MB more (gzip): it
// pays on a first visit only on a link faster than about 80 to 100 Mbit/s. The page measures
// its own downloads (engine.mjs); a browser that reports saving data or a slow link, or a page
// whose files all came from cache (no measurement), boots the ordinary way and keeps the
// snapshot for next time.
const SNAPSHOT_MIN_DOWNLINK_MBPS = 100;
const SNAPSHOT_PREFETCH_DELAY_MS = 2_000;

function snapshotPaysNow(downlinkMbps) {
  const connection = self.navigator.connection;
  if (savesData() || (connection && ["slow-2g", "2g", "3g"].includes(connection.effectiveType))) {
    return false;
  }
  return typeof downlinkMbps === "number" && downlinkMbps >= SNAPSHOT_MIN_DOWNLINK_MBPS;
}

function savesData() {
  return Boolean(self.navigator.connection?.saveData);
}

function baseName(url) {
  return url.slice(url.lastIndexOf("/") + 1);
}

async function fetchBytes(url) {
  if (url.includes(".snapshot-")) {
    return fetchSnapshotBytes(url);
  }
  return responseBytes(await fetch(url), url);
}

async function responseBytes(response, url) {
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  // Pyodide wants a Uint8Array, not an ArrayBuffer.
  return new Uint8Array(await response.arrayBuffer());
}

// The snapshot (several MB) is larger than some HTTP caches keep per entry (Chromium's
// in-memory cache of a private window keeps none this size), so the worker keeps it in Cache
// Storage itself, for the next page and the next visit. Its name carries roofline_core's hash,
// so an entry under another name is an older build's and goes.
const SNAPSHOT_CACHE = "roofline-pyodide-snapshot";

async function openSnapshotCache() {
  try {
    return "caches" in self ? await caches.open(SNAPSHOT_CACHE) : null;
  } catch {
    // Storage refused (quota, privacy settings): fetch it as any other file.
    return null;
  }
}

async function isCached(url) {
  const cache = await openSnapshotCache();
  return Boolean(cache && (await cache.match(url).catch(() => undefined)));
}

async function fetchSnapshotBytes(url) {
  const cache = await openSnapshotCache();
  const hit = cache && (await cache.match(url).catch(() => undefined));
  if (hit) {
    return responseBytes(hit, url);
  }
  const response = await fetch(url);
  if (cache && response.ok) {
    const kept = response.clone();
    cache
      .keys()
      .then((requests) => Promise.all(requests.filter((request) => request.url !== url).map((request) => cache.delete(request))))
      .then(() => cache.put(url, kept))
      .catch(() => {});
  }
  return responseBytes(response, url);
}

function compute(calculatorId, inputs, domId, glossaryUrl) {
  const pyInputs = pyodide.toPy(inputs);
  try {
    // One call, one string back: the JSON crosses into JavaScript without proxies to destroy.
    return view.compute_view_json(calculatorId, pyInputs, domId, glossaryUrl);
  } finally {
    pyInputs.destroy();
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
