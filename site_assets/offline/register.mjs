// Loaded on every page: registers the site's service worker (sw.js at the site's root, made from
// site_assets/offline/sw.js), so the page a reader lands on, and every page opened after it, works
// offline. Only once the page has settled (see whenSettled): a first visit with the worker must
// cost what one without it costs, so nothing of the worker's (its install, its checks of what it
// keeps, its handling of requests) may run while the page paints or its calculators boot. The root
// is found from this file's own address (assets/roofline/offline/register.mjs), so a site under a
// sub-path registers a worker for that sub-path only.
//
// On a first visit the page loads before any worker can see its requests, so the page tells the
// worker what it used (its own address, and every file Resource Timing reports, the calculators'
// runtime included) and the worker keeps those the build listed, checked as it checks any file.

const root = new URL("../../../", import.meta.url);
// The calculators' code imports this module; once it has, the runtime's folder is known.
const RUNTIME_URLS = new URL("../calculators/runtime-urls.mjs", import.meta.url).href;
// On the offline page (503.html) the address is not the page shown: never keep it as that page.
const OFFLINE_LIST = "roofline-offline-list";

let runtime = null;

/** `urls`, plus the standard library zip once the runtime has started: the calculators' worker
 * fetches it itself, so it is in no page's Resource Timing, and every offline start needs it. */
async function withRuntimeFiles(urls) {
  if (!runtime && urls.includes(RUNTIME_URLS)) {
    runtime = import(RUNTIME_URLS)
      .then((module) => module.runtimeURLs())
      .catch(() => null);
  }
  const found = runtime ? await runtime : null;
  if (found && urls.some((url) => url.startsWith(found.indexURL))) {
    urls.push(found.stdLibURL);
  }
  return urls;
}

function keepWhatThisPageUses(ready) {
  const send = (urls) => {
    const own = urls.filter((url) => url.startsWith(root.href));
    if (own.length) {
      withRuntimeFiles(own)
        .then((all) => ready.then((registration) => registration.active?.postMessage({ type: "keep", urls: all })))
        .catch(() => {});
    }
  };
  if (!document.getElementById(OFFLINE_LIST)) {
    send([location.href]);
  }
  if ("PerformanceObserver" in window) {
    // buffered: the files loaded before this module ran come in the first call.
    new PerformanceObserver((list) => send(list.getEntries().map((entry) => entry.name))).observe({
      type: "resource",
      buffered: true,
    });
  }
}

function register() {
  navigator.serviceWorker
    .register(new URL("sw.js", root), { scope: root.pathname })
    .then(() => keepWhatThisPageUses(navigator.serviceWorker.ready))
    .catch(() => {
      // Refused (private mode, storage off): the site works the same, online only.
    });
}

// A calculator whose Python is starting (data-engine="loading") or may start soon (data-engine
// "idle": calculators start Python when the page goes idle, engine.mjs; or one not placed yet, a
// term page's summary that becomes a calculator when scrolled to, later.mjs) holds the
// registration back; past SETTLE_LIMIT_MS after load only a starting one does, so a page whose
// calculators never start (Save-Data, a reader who never scrolls to one) still registers.
const SETTLE_LIMIT_MS = 10_000;
const CHECK_AGAIN_MS = 500;

function idle(callback) {
  if ("requestIdleCallback" in window) {
    window.requestIdleCallback(callback, { timeout: 2_000 });
  } else {
    setTimeout(callback, CHECK_AGAIN_MS);
  }
}

/** Call `callback` once the page has loaded, its main thread is idle and no calculator on it is
 * starting Python or about to. */
function whenSettled(callback) {
  const loadedAt = performance.now();
  const check = () => {
    const engines = [...document.querySelectorAll("[data-calculator]")].map((root) => root.dataset.engine);
    const starting = engines.includes("loading");
    const mayStart =
      engines.some((state) => !state || state === "idle") || document.querySelector("[data-calculator-later]") !== null;
    if (starting || (mayStart && performance.now() - loadedAt < SETTLE_LIMIT_MS)) {
      setTimeout(() => idle(check), CHECK_AGAIN_MS);
    } else {
      callback();
    }
  };
  idle(check);
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  const settle = () => whenSettled(register);
  if (document.readyState === "complete") {
    settle();
  } else {
    window.addEventListener("load", settle, { once: true });
  }
}
