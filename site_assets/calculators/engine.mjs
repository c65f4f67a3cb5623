import { linkAsksToWait } from "./link.mjs";
import { runtimeURLs } from "./runtime-urls.mjs";

// The one Pyodide worker of the visit. A module-level singleton: Material's instant navigation
// swaps the page's content without reloading this module, so every calculator on every page
// the reader visits talks to the same worker, and Python boots once.

// Booting takes ~3 s on a slow machine from a warm cache; a minute means the files are not
// coming (offline, blocked), and the page keeps its precomputed values.
const BOOT_TIMEOUT_MS = 60_000;

// requestIdleCallback's deadline: a page that stays busy still starts Python this long after
// load, so the first touch rarely waits for the whole download.
const IDLE_TIMEOUT_MS = 3_000;

let engine = null;

/**
 * Start the worker (once) and return the engine (`readerWaiting`: false for the idle start,
 * which no reader waits for; see createEngine): `{ready, state, compute(id, inputs, domId),
 * readModelFile(buffer, size, name)}`; `compute` resolves to roofline_core.view's view of the
 * result (for the calculator whose root element has the id `domId`), `readModelFile` to
 * roofline_core.view.model_file's answer for a dropped file's first bytes. The runtime's addresses come from the build's manifest
 * (runtime-urls.mjs), which the worker reads for itself too.
 */
export function startEngine({ readerWaiting = true } = {}) {
  if (!engine) {
    engine = createEngine(readerWaiting);
  }
  return engine;
}

/**
 * Start the engine again after it failed (a blocked download, a dropped connection): the
 * reader's Retry. An engine that is loading or live is kept, so every calculator on the page
 * may ask and they all share the one new worker.
 */
export function retryEngine() {
  if (engine?.state === "failed") {
    engine = createEngine(true);
  }
  return startEngine();
}

/** The engine if it was started, else null (nothing is loaded by asking). */
export function currentEngine() {
  return engine;
}

/**
 * Call `callback` once the page has loaded, painted, and the main thread is idle (or
 * `IDLE_TIMEOUT_MS` after that at the latest). Calculators start Python then, or on the reader's first
 * interaction if that comes sooner; never merely because a calculator scrolled into view, and
 * never by itself where the reader saves data or the link is slow (`linkAsksToWait`).
 * @param {() => void} callback
 */
export function whenIdleAfterLoad(callback) {
  if (linkAsksToWait()) {
    return;
  }
  const idle = () => {
    if ("requestIdleCallback" in window) {
      window.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
    } else {
      // Safari has no requestIdleCallback: give the page's own work a moment first.
      setTimeout(callback, 1_000);
    }
  };
  // After the next paint (a task queued from a frame callback runs once that frame is drawn),
  // so the runtime's downloads never compete with the page's first paint.
  const schedule = () => requestAnimationFrame(() => setTimeout(idle, 0));
  if (document.readyState === "complete") {
    schedule();
  } else {
    window.addEventListener("load", schedule, { once: true });
  }
}

// Files the worker fetches once it starts, relative to the runtime folder; hinted from the page
// when a reader is waiting, so they download in parallel instead of one after another (the
// worker script, then pyodide.mjs, then the rest). Not the standard library: the worker fetches
// it first thing, timing the link with it (worker.mjs).
const RUNTIME_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];

// `<link rel=preload as=fetch>` for each file, once: the browser fetches them at once into its
// HTTP cache, from which the worker's own requests are served (hashed, immutable names).
function hintRuntimeFiles(urls) {
  // Not the snapshot: the worker fetches it first thing and keeps it in Cache Storage, since
  // an HTTP cache may not keep an entry that size (a preload would then download it twice).
  const hrefs = [...RUNTIME_FILES.map((name) => new URL(name, urls.indexURL).href), urls.coreZipURL];
  for (const href of hrefs) {
    const link = document.createElement("link");
    link.rel = "preload";
    link.as = "fetch";
    link.crossOrigin = "anonymous";
    link.href = href;
    document.head.append(link);
  }
}

/**
 * The engine, its worker started. Someone must fetch the runtime's files side by side: with a
 * reader waiting (they typed or touched a calculator), the page's preload hints, the quickest
 * start; for the idle start, which no one waits for, the worker itself (worker.mjs), since a
 * preload passes every byte through the page's main thread: the 9.6 MB of WebAssembly arrived
 * there as long tasks while the reader scrolled (benchmarks/long_tasks.py), and a worker that
 * drains them itself started a waiting reader's calculator about a quarter later on this 2-core
 * machine (benchmarks/bench_first_touch.py).
 */
function createEngine(readerWaiting) {
  let urls;
  try {
    urls = runtimeURLs();
  } catch (error) {
    return failedEngine(error.message);
  }
  if (readerWaiting) {
    hintRuntimeFiles(urls);
  }
  const worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
  const pending = new Map();
  let nextId = 1;
  const self = { state: "loading", error: null, boot: null, refused: null, ready: null, failed: null, compute: null };
  // Settles with the reason whenever the engine fails: while starting, or later (a fatal error).
  let markFailed;
  self.failed = new Promise((resolve) => {
    markFailed = resolve;
  });

  self.ready = new Promise((resolve, reject) => {
    const fail = (message) => {
      clearTimeout(timer);
      if (self.state === "failed") {
        return;
      }
      self.state = "failed";
      self.error = message;
      worker.terminate();
      for (const waiter of pending.values()) {
        waiter.reject(new Error(message));
      }
      pending.clear();
      reject(new Error(message));
      markFailed(message);
    };
    const timer = setTimeout(() => fail(`Python did not start within ${BOOT_TIMEOUT_MS / 1000} s`), BOOT_TIMEOUT_MS);
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.type === "ready") {
        clearTimeout(timer);
        // "snapshot" or "plain": how Python started, for benchmarks and tests.
        self.boot = message.boot;
        // Why the snapshot was not used ("not asked for", stale, rejected), or null.
        self.refused = message.refused;
        self.state = "live";
        resolve();
      } else if (message.type === "failed") {
        fail(message.message);
      } else if (message.type === "fatal") {
        self.fatal = true;
        fail(`Python stopped after a fatal error (${message.message.split("\n")[0]})`);
      } else if (message.type === "result" || message.type === "compute-failed") {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (waiter && message.type === "result") {
          waiter.resolve(JSON.parse(message.json));
        } else if (waiter) {
          waiter.reject(new Error(message.message));
        }
      }
    });
    worker.addEventListener("error", (event) => {
      // The worker script itself could not load; the page says so in its status line.
      event.preventDefault();
      fail(event.message || "the calculator worker could not start");
    });
  });
  // Callers handle the failure through `ready`; this keeps an unobserved rejection quiet.
  self.ready.catch(() => {});

  // `pinned`: scenario A's inputs when the reader compares (the view then has `compare`), or null.
  self.compute = (calculator, inputs, domId, glossaryUrl, pinned = null) =>
    self.ready.then(
      () =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          worker.postMessage({ type: "compute", id, calculator, inputs, domId, glossaryUrl, pinned });
        }),
    );

  // The first bytes of a model file a reader dropped (an ArrayBuffer, handed over rather than
  // copied) and the file's size and name: resolves to roofline_core.view.model_file's answer.
  self.readModelFile = (buffer, size, name) =>
    self.ready.then(
      () =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          pending.set(id, { resolve, reject });
          worker.postMessage({ type: "model-file", id, buffer, size, name }, [buffer]);
        }),
    );

  worker.postMessage({ type: "boot", download: !readerWaiting });
  return self;
}

/** An engine that could not start (`message` says why), which Retry replaces. */
function failedEngine(message) {
  const ready = Promise.reject(new Error(message));
  ready.catch(() => {});
  return {
    state: "failed",
    error: message,
    boot: null,
    refused: null,
    ready,
    failed: Promise.resolve(message),
    compute: () => ready,
    readModelFile: () => ready,
  };
}
