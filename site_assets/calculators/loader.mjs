// Loaded on every page (extra_javascript). It does nothing on pages without a calculator; on a
// page with one it imports the calculator module, which loads Pyodide only when needed.
// Material's `document$` emits on the first load and after each instant navigation, so
// calculators on pages reached without a full reload get mounted too.

function mountCalculators() {
  if (!document.querySelector("[data-calculator]")) {
    return;
  }
  import("./calculator.mjs").then((module) => module.mountAll(document));
}

if (window.document$) {
  window.document$.subscribe(mountCalculators);
} else {
  mountCalculators();
}
