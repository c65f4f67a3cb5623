// The search index, fetched when the reader opens search instead of as every page loads.
//
// Material for MkDocs 9.8.1 requests search/search_index.json as soon as its bundle runs (its
// bundle: `document.forms.namedItem("search") ? requestJSON(".../search_index.json")`), and its
// worker then builds the index: about 180 kB (gzip) and a few hundred ms of a phone's CPU on
// every page, for the few readers who search, and half of all bytes before a reader's first
// interaction (benchmarks/bench_first_touch.py). Material has no setting for this, so this
// classic script, which runs just before the bundle (overrides/main.html), holds back the
// sending of that one request (Material makes it with XMLHttpRequest) until the reader is about
// to search: pressing on or focusing the search box, the search toggle (a label click, or
// Material's keys "/", "s" and "f", which check it and focus the box), or an address with a
// search query (`?q=`, for which Material opens search). Every other request passes untouched.
(() => {
  const INDEX = "search/search_index.json";
  const config = document.getElementById("__config");
  const form = document.forms.namedItem("search");
  if (!config || !form) {
    return;
  }
  let indexURL;
  try {
    // As Material resolves it: its base against the page, then the index against that.
    indexURL = new URL(INDEX, new URL(JSON.parse(config.textContent).base, location.href)).href;
  } catch {
    return; // Not Material's configuration: leave requests as they are.
  }

  let release;
  const opened = new Promise((resolve) => {
    release = resolve;
  });
  const toggle = document.getElementById("__search");
  const targets = [
    [form, "focusin"],
    [form, "pointerdown"],
    [toggle, "change"],
    [document, "keydown"],
  ].filter(([target]) => target);
  // Material's own search keys, and only where it takes them: not while typing into a field.
  const SEARCH_KEYS = new Set(["/", "s", "S", "f", "F"]);
  const typing = (element) => element instanceof HTMLElement && (element.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName));
  function onSign(event) {
    if (event.type === "keydown" && (!SEARCH_KEYS.has(event.key) || typing(event.target))) {
      return;
    }
    release();
    for (const [target, type] of targets) {
      target.removeEventListener(type, onSign, true);
    }
  }
  for (const [target, type] of targets) {
    target.addEventListener(type, onSign, true);
  }
  if (new URLSearchParams(location.search).has("q")) {
    release();
  }

  const requested = new WeakMap();
  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function openNoting(method, url, ...rest) {
    requested.set(this, new URL(String(url), location.href).href);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function sendHoldingSearchIndex(...body) {
    if (requested.get(this) === indexURL) {
      opened.then(() => send.apply(this, body));
      return undefined;
    }
    return send.apply(this, body);
  };
})();
