// Loaded on every page (extra_javascript). It does nothing on pages without a calculator; on a
// page with one it imports the calculator module, which loads Pyodide only when needed. A term
// page's calculators arrive as they are neared (later.mjs) and are mounted then.
// Material's `document$` emits on the first load and after each instant navigation, so
// calculators on pages reached without a full reload get mounted too.

function mountAll() {
  if (document.querySelector("[data-calculator]")) {
    import("./calculator.mjs").then((module) => module.mountAll(document));
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
