// Module Web Worker: boots the self-hosted Pyodide, unpacks roofline_core into it and answers
// compute requests with roofline_core.calculators.compute's result as JSON. It holds no
// formula: every number comes from the same Python the build used.

let pyodide = null;
let calculators = null;
let dumps = null;

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "boot") {
    boot(message).then(
      () => self.postMessage({ type: "ready" }),
      (error) => self.postMessage({ type: "failed", message: describe(error) }),
    );
  } else if (message.type === "compute") {
    try {
      self.postMessage({ type: "result", id: message.id, json: compute(message.calculator, message.inputs) });
    } catch (error) {
      self.postMessage({ type: "compute-failed", id: message.id, message: describe(error) });
    }
  }
});

async function boot({ indexURL, lockFileURL, coreZipURL }) {
  // Pyodide needs absolute URLs (a relative lockFileURL fails); the page resolved them.
  const { loadPyodide } = await import(new URL("pyodide.mjs", indexURL).href);
  const [runtime, zip] = await Promise.all([loadPyodide({ indexURL, lockFileURL }), fetchBytes(coreZipURL)]);
  // A pure-Python package needs no micropip: unpack it where Python imports from.
  runtime.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
  pyodide = runtime;
  calculators = runtime.pyimport("roofline_core.calculators");
  dumps = runtime.pyimport("json").dumps;
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  // Pyodide wants a Uint8Array, not an ArrayBuffer.
  return new Uint8Array(await response.arrayBuffer());
}

function compute(calculatorId, inputs) {
  const pyInputs = pyodide.toPy(inputs);
  let result = null;
  try {
    result = calculators.compute(calculatorId, pyInputs);
    return dumps.callKwargs(result, { allow_nan: false });
  } finally {
    pyInputs.destroy();
    result?.destroy();
  }
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}
