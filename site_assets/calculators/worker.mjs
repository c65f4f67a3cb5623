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
      self.postMessage({ type: "result", id: message.id, json: compute(message.calculator, message.inputs, message.domId) });
    } catch (error) {
      self.postMessage({ type: "compute-failed", id: message.id, message: describe(error) });
    }
  }
});

async function boot({ indexURL, lockFileURL, coreZipURL }) {
  // Pyodide needs absolute URLs (a relative lockFileURL fails); the page resolved them.
  const pyodideModule = await import(new URL("pyodide.mjs", indexURL).href);
  const started = await bootPyodide({ pyodideModule, indexURL, lockFileURL, coreZipURL, fetchBytes });
  pyodide = started.runtime;
  view = pyodide.pyimport("roofline_core.view");
  return started.boot;
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  // Pyodide wants a Uint8Array, not an ArrayBuffer.
  return new Uint8Array(await response.arrayBuffer());
}

function compute(calculatorId, inputs, domId) {
  const pyInputs = pyodide.toPy(inputs);
  try {
    // One call, one string back: the JSON crosses into JavaScript without proxies to destroy.
    return view.compute_view_json(calculatorId, pyInputs, domId);
  } finally {
    pyInputs.destroy();
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
