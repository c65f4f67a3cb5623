// Module Web Worker: boots the self-hosted Pyodide (from the build's memory snapshot when it is
// cached or the link is fast, else from the trimmed, precompiled library; see boot.mjs),
// unpacks roofline_core into it and answers compute requests with the result as the page
// shows it (roofline_core.view's compute_view_json: output texts, table and chart as element
// trees), as JSON. It holds no
// formula and no presentation rule: both come from the same Python the build used.

import { bootPyodide } from "./boot.mjs";
import { linkAsksToWait, savesData } from "./link.mjs";
import { bootFileURLs, checkedBytes, runtimeURLs, siteCacheName } from "./runtime-urls.mjs";
import { isGzip, snapshotURL } from "./snapshot.mjs";

let pyodide = null;
let view = null;
// roofline_core's files, unpacked once the first answer has gone (boot.mjs's sourcesLater).
let unpackSources = null;

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "boot") {
    // Whatever else the message holds, the addresses come from the build's manifest alone.
    // `download`: whether to fetch the runtime's files itself (the idle start, engine.mjs); a
    // flag only, never an address.
    boot(runtimeURLs(), { download: message.download === true }).then(
      ({ boot: bootPath, refused }) => self.postMessage({ type: "ready", boot: bootPath, refused }),
      (error) => self.postMessage({ type: "failed", message: describe(error) }),
    );
  } else if (message.type === "compute" || message.type === "model-file") {
    try {
      const json = message.type === "compute" ? compute(message) : readModelFile(message);
      self.postMessage({ type: "result", id: message.id, json });
    } catch (error) {
      // After a fatal error (Pyodide marks it so) this runtime answers nothing again: the page
      // must say so and Retry must start a new worker, not ask this one again.
      const type = error?.pyodide_fatal_error ? "fatal" : "compute-failed";
      self.postMessage({ type, id: message.id, message: describe(error) });
    }
    if (unpackSources) {
      setTimeout(unpackSources, 0);
      unpackSources = null;
    }
  }
});

// For the idle start (engine.mjs): Pyodide asks for its files one after another (pyodide.mjs,
// then the lock file, then pyodide.asm.mjs, then the WebAssembly), and the boot first times the
// standard library's download (snapshotPaysNow). Started here at once, side by side, they are
// in the HTTP cache or on their way when Pyodide asks (hashed, immutable names; a second request
// for a file still arriving joins the first), without passing through the page's main thread as
// a preload hint's bytes do. Not the standard library, which is timed on its own download, nor
// pyodide.mjs, imported at once.

/** Download each of `urls` into the HTTP cache, reading the bytes away as they come. */
function startDownloads(urls) {
  for (const url of urls) {
    fetch(url)
      .then((response) => response.body?.pipeTo(new WritableStream()))
      .catch(() => {
        // Pyodide's own request reports the failure.
      });
  }
}

async function boot({ indexURL, coreZipURL, stdLibURL }, { download }) {
  // Pyodide needs absolute URLs (a relative lockFileURL fails); runtimeURLs resolved them.
  const lockFileURL = new URL("pyodide-lock.json", indexURL).href;
  const pyodideURL = new URL("pyodide.mjs", indexURL).href;
  if (download) {
    startDownloads(bootFileURLs().filter((url) => url !== stdLibURL && url !== pyodideURL));
  }
  const pyodideModule = await import(pyodideURL);
  const snapshot = snapshotURL(indexURL, coreZipURL, stdLibURL);
  const useSnapshot = (await isCached(snapshot)) || (await snapshotPaysNow(stdLibURL));
  const started = await bootPyodide({ pyodideModule, indexURL, lockFileURL, coreZipURL, stdLibURL, fetchBytes, useSnapshot, sourcesLater: true });
  pyodide = started.runtime;
  ({ unpackSources } = started);
  view = pyodide.pyimport("roofline_core.view");
  if (!useSnapshot && !savesData()) {
    // Keep it for the next visit, once the answer is on screen and the link is free.
    setTimeout(() => fetchSnapshotBytes(snapshot, { forBoot: false }).catch(() => {}), SNAPSHOT_PREFETCH_DELAY_MS);
  }
  return started;
}

// Compared with the ordinary boot from the trimmed, precompiled library, the snapshot saves
// about 0.7 s of CPU on a desktop (more on a phone) and costs about 6 MB more (gzip): on a
// first visit it pays only on a link faster than about 70 Mbit/s (benchmarks/bench_first_touch.py).
// The worker times its download of the library zip, which every boot needs and which shares
// the link with the runtime's other files (so it sees roughly half the link): at 40 Mbit/s or
// more it takes the snapshot. A reader who saves data or whose browser reports a slow link
// never gets it on a first visit; the others get it kept for next time.
const SNAPSHOT_MIN_MEASURED_MBPS = 40;
const SNAPSHOT_PREFETCH_DELAY_MS = 2_000;

async function snapshotPaysNow(stdLibURL) {
  if (linkAsksToWait()) {
    return false;
  }
  try {
    return (await downloadMbps(stdLibURL)) >= SNAPSHOT_MIN_MEASURED_MBPS;
  } catch {
    // The boot fetches it again and reports the failure.
    return false;
  }
}

/**
 * Fetch `url` (into the HTTP cache, from which Pyodide's own request for it is then served:
 * hashed, immutable names) and return the link's speed over it in Mbit/s: body bytes over the
 * time from first to last byte (Resource Timing), so the round trip does not count. 0 when it
 * came from a cache: nothing was learnt about the link.
 */
async function downloadMbps(url) {
  const response = await fetch(url);
  const bytes = (await response.arrayBuffer()).byteLength;
  const entry = performance.getEntriesByName(response.url || url).at(-1);
  if (!entry || entry.transferSize === 0) {
    return 0;
  }
  const seconds = Math.max(entry.responseEnd - entry.responseStart, 0.1) / 1000;
  return ((entry.encodedBodySize || bytes) * 8) / seconds / 1e6;
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
  return checkedBytes(url, new Uint8Array(await response.arrayBuffer()));
}

// The snapshot (several MB) is larger than some HTTP caches keep per entry (Chromium's
// in-memory cache of a private window keeps none this size), so the worker keeps it in Cache
// Storage itself, for the next page and the next visit. Its name carries roofline_core's hash,
// so an entry under another name is an older build's and goes. The cache is named by the site's
// path, and what comes out of it is checked against the build's digest like a download.
const SNAPSHOT_CACHE = siteCacheName("pyodide-snapshot");

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

/**
 * The snapshot's bytes for the boot, ungzipped as they arrive (boot.mjs's openSnapshot takes them
 * either way): gunzipping about 15 MB took as long as the download itself on a desktop
 * (about 150 ms each), so it now runs while the bytes come. With `forBoot` false (keeping it for
 * the next visit), only kept, not ungzipped.
 */
async function fetchSnapshotBytes(url, { forBoot = true } = {}) {
  const cache = await openSnapshotCache();
  const hit = cache && (await cache.match(url).catch(() => undefined));
  if (hit) {
    try {
      return (await readSnapshot(hit, url, forBoot)).bytes;
    } catch {
      // Not the build's bytes: drop them and download.
      await cache.delete(url).catch(() => {});
    }
  }
  // Checked before it is kept: only the build's bytes go into the cache.
  const { bytes, stored } = await readSnapshot(await fetch(url), url, forBoot);
  if (cache) {
    cache
      .keys()
      .then((requests) => Promise.all(requests.filter((request) => request.url !== url).map((request) => cache.delete(request))))
      .then(() => cache.put(url, new Response(stored)))
      .catch(() => {});
  }
  return bytes;
}

/**
 * A snapshot response's bytes as stored (`stored`, checked against the build's digest) and, with
 * `ungzip`, ungzipped from the same stream as it is read (`bytes`; else the stored bytes).
 */
async function readSnapshot(response, url, ungzip) {
  if (!ungzip || !response.body) {
    const stored = await responseBytes(response, url);
    return { stored, bytes: stored };
  }
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  const [toStore, toOpen] = response.body.tee();
  const opened = ungzipped(toOpen);
  // A rejection of either is reported by the await that reaches it first; keep the other quiet.
  opened.catch(() => {});
  const stored = await checkedBytes(url, new Uint8Array(await new Response(toStore).arrayBuffer()));
  return { stored, bytes: await opened };
}

/** The stream's bytes, ungzipped if they are gzip (a host may have sent them ungzipped). */
async function ungzipped(stream) {
  // Read enough to tell (isGzip), then hand those chunks on ahead of the rest.
  const reader = stream.getReader();
  const head = [];
  let length = 0;
  while (length < 3) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    head.push(value);
    length += value.length;
  }
  const rest = new ReadableStream({
    start(controller) {
      head.forEach((chunk) => controller.enqueue(chunk));
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
  });
  const gzip = isGzip(new Uint8Array(await new Blob(head).arrayBuffer()));
  return new Uint8Array(await new Response(gzip ? rest.pipeThrough(new DecompressionStream("gzip")) : rest).arrayBuffer());
}

function compute({ calculator, inputs, domId, glossaryUrl, pinned }) {
  const pyInputs = pyodide.toPy(inputs);
  // undefined, not null: Pyodide turns null into a JsNull, not None.
  const pyPinned = pinned ? pyodide.toPy(pinned) : undefined;
  try {
    // One call, one string back: the JSON crosses into JavaScript without proxies to destroy.
    return view.compute_view_json(calculator, pyInputs, domId, glossaryUrl, pyPinned);
  } finally {
    pyInputs.destroy();
    pyPinned?.destroy();
  }
}

let modelFile = null;

/** roofline_core.view.model_file's answer (JSON) for the first bytes of a dropped model file. */
function readModelFile({ buffer, size, name }) {
  modelFile ??= pyodide.pyimport("roofline_core.view.model_file");
  // A memoryview on the Python side: the reader takes any bytes-like object.
  const bytes = pyodide.toPy(new Uint8Array(buffer));
  try {
    return modelFile.model_file_json(bytes, size, String(name ?? ""));
  } finally {
    bytes.destroy?.();
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
