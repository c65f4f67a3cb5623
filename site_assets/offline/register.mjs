// Loaded on every page: registers the site's service worker (sw.js at the site's root, made from
// site_assets/offline/sw.js), so the page a reader lands on, and every page opened after it, works
// offline. Only once the page has settled (see whenSettled): a first visit with the worker must
// cost what one without it costs, so nothing of the worker's (its install, its checks of what it
// keeps, its handling of requests) may run while the page paints or its calculators boot. The root
// is found from this file's own address (assets/roofline/offline/register.mjs), so a site under a
// sub-path registers a worker for that sub-path only.
//
// On a first visit the page loads before any worker can see its requests, so the page tells the
// worker what it used (its own address, every file Resource Timing reports, and the calculators'
// runtime once one of them is live) and the worker keeps those the build listed, checked as it
// checks any file.

const root = new URL("../../../", import.meta.url);
// Where the calculators' runtime is (the build's manifest, read through its checks).
const RUNTIME_URLS = new URL("../calculators/runtime-urls.mjs", import.meta.url).href;
// On the offline page (503.html) the address is not the page shown: never keep it as that page.
const OFFLINE_LIST = "roofline-offline-list";
// Material's search index: pages fetch it only once the reader opens search
// (search/index-on-demand.js), so it is in no page's Resource Timing. Kept from the first visit
// all the same, once the page has settled, so that search works offline as the pages do.
const SEARCH_INDEX = new URL("search/search_index.json", root).href;

let bootFiles = null;

/** Every file the calculators' runtime fetched to start (bootFileURLs), or [] if it could not
 * be read. The calculators' worker fetches them itself, so none is in the page's Resource
 * Timing; every offline start needs them. */
function runtimeFiles() {
  bootFiles ??= import(RUNTIME_URLS)
    .then((module) => module.bootFileURLs())
    .catch(() => []);
  return bootFiles;
}

function keepWhatThisPageUses(ready) {
  const send = (urls) => {
    const own = urls.filter((url) => url.startsWith(root.href));
    if (own.length) {
      ready.then((registration) => registration.active?.postMessage({ type: "keep", urls: own })).catch(() => {});
    }
  };
  send(document.getElementById(OFFLINE_LIST) ? [SEARCH_INDEX] : [location.href, SEARCH_INDEX]);
  if ("PerformanceObserver" in window) {
    // buffered: the files loaded before this module ran come in the first call.
    new PerformanceObserver((list) => send(list.getEntries().map((entry) => entry.name))).observe({
      type: "resource",
      buffered: true,
    });
  }
  // The runtime, once a calculator has it live: now, or when a reader first touches one later
  // (a calculator that waited for its reader: Save-Data, a slow link, a term page's calculator).
  const live = () => document.querySelector('[data-calculator][data-engine="live"]') !== null;
  const sendRuntime = () => runtimeFiles().then(send);
  if (live()) {
    sendRuntime();
  } else if (document.querySelector("[data-calculator], [data-calculator-later]")) {
    const watch = new MutationObserver(() => {
      if (live()) {
        watch.disconnect();
        sendRuntime();
      }
    });
    watch.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-engine"] });
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
