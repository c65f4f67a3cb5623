// Module Web Worker: boots the self-hosted Pyodide (from the build's memory snapshot when it
// fits, see boot.mjs), unpacks roofline_core into it and answers
// compute requests with the result as the page shows it (roofline_core.view's
// compute_view_json: output texts, table and chart as element trees), as JSON. It holds no
// formula and no presentation rule: both come from the same Python the build used.

import { bootPyodide } from "./boot.mjs";

let pyodide = null;
let view = null;

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "boot") {
    boot(message).then(
      (bootPath) => self.postMessage({ type: "ready", boot: bootPath }),
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

async function boot({ indexURL, lockFileURL, coreZipURL }) {
  // Pyodide needs absolute URLs (a relative lockFileURL fails); the page resolved them.
  const pyodideModule = await import(new URL("pyodide.mjs", indexURL).href);
  const started = await bootPyodide({ pyodideModule, indexURL, lockFileURL, coreZipURL, fetchBytes, useSnapshot: snapshotPays() });
  pyodide = started.runtime;
  view = pyodide.pyimport("roofline_core.view");
  return started.boot;
}

// The snapshot adds about 6.7 MB (gzip) to a first visit and saves seconds of CPU: worth it
// unless the reader asked to save data or the browser reports a slow link (Network Information
// API, Chromium only; elsewhere the snapshot is used).
function snapshotPays() {
  const connection = self.navigator.connection;
  return !(connection && (connection.saveData || ["slow-2g", "2g", "3g"].includes(connection.effectiveType)));
}

async function fetchBytes(url) {
  if (url.includes(".snapshot-") && "caches" in self) {
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

async function fetchSnapshotBytes(url) {
  let cache = null;
  try {
    cache = await caches.open(SNAPSHOT_CACHE);
    const hit = await cache.match(url);
    if (hit) {
      return responseBytes(hit, url);
    }
  } catch {
    // Storage refused (quota, privacy settings): fetch it as any other file.
    cache = null;
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
