// Loaded on every page (extra_javascript). It does nothing on pages without a calculator; on a
// page with one it imports the calculator module, which loads Pyodide only when needed. A term
// page's calculators arrive as they are neared (later.mjs) and are mounted then.
// Material's `document$` emits on the first load and after each instant navigation, so
// calculators on pages reached without a full reload get mounted too.

function mountAll() {
  if (document.querySelector("[data-calculator]")) {
    startOnFirstTouch();
    import("./calculator.mjs").then((module) => module.mountAll(document));
  }
}

// A reader who touches or types into a calculator before its module has loaded and mounted
// (about 150 ms on a desktop, more on a phone) is waiting already: start Python then, as the
// mounted calculator would (calculator.mjs's wake), from engine.mjs alone, which loads well before
// the calculator's larger module graph. Once per page load; later touches are the calculator's.
let listening = false;
function startOnFirstTouch() {
  if (listening) {
    return;
  }
  listening = true;
  const SIGNS = ["focusin", "pointerdown", "keydown", "input"];
  const onSign = (event) => {
    const root = event.target instanceof Element ? event.target.closest("[data-calculator]") : null;
    if (!root) {
      return;
    }
    for (const type of SIGNS) {
      document.removeEventListener(type, onSign, true);
    }
    // Only the build's own calculators start it, as only they are mounted (calculator.mjs).
    Promise.all([import("./runtime-urls.mjs"), import("./engine.mjs")]).then(([urls, engine]) => {
      if (root.dataset.buildToken === urls.BUILD_TOKEN) {
        engine.startEngine();
      }
    });
  };
  for (const type of SIGNS) {
    document.addEventListener(type, onSign, true);
  }
}

function mountCalculators() {
  if (document.querySelector("[data-calculator-later]")) {
    import("./later.mjs").then((module) => module.loadCalculatorsWhenNear(mountAll));
  }
  mountAll();
}

if (window.document$) {
  window.document$.subscribe(mountCalculators);
} else {
  mountCalculators();
}
