// Make the Pyodide memory snapshot the calculators' worker boots from (run by the build, in
// Node, from roofline_site/pyodide_snapshot.py):
//
//   node make_pyodide_snapshot.mjs <pyodide package dir> <roofline_core.<hash>.zip> <out dir>
//
// Boots the pinned npm Pyodide with `_makeSnapshot`, unpacks roofline_core where the worker
// unpacks it, imports every module and computes each calculator once at its defaults (so the
// lazily built tables are in memory too), then writes the container of snapshot.mjs, not yet
// gzipped, under snapshotFileName() without its `.gz`, and prints that name.
//
// Everything runs through runPython and returns plain values: a PyProxy held by JavaScript
// cannot be serialised into a snapshot.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { packSnapshot, snapshotFileName, snapshotKey } from "../site_assets/calculators/snapshot.mjs";

// Run before the snapshot: import all of roofline_core and warm every calculator.
const WARM_UP = `
import importlib, pkgutil
import roofline_core
for module in pkgutil.walk_packages(roofline_core.__path__, "roofline_core."):
    importlib.import_module(module.name)
from roofline_core.calculators import CALCULATORS
from roofline_core.view import compute_view_json
for calculator_id in CALCULATORS:
    compute_view_json(calculator_id, {}, "warm-up")
del importlib, pkgutil, module, calculator_id
`;

const [pyodideDir, zipPath, outDir] = process.argv.slice(2);
if (!pyodideDir || !zipPath || !outDir) {
  console.error("usage: node make_pyodide_snapshot.mjs <pyodide package dir> <roofline_core zip> <out dir>");
  process.exit(2);
}

const indexURL = path.resolve(pyodideDir) + path.sep;
const pyodideModule = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
// Python's prints go to stderr: stdout carries only the file name.
const pyodide = await pyodideModule.loadPyodide({
  indexURL,
  _makeSnapshot: true,
  // A fixed hash seed: the dictionaries in the snapshot were built with it.
  env: { PYTHONHASHSEED: "0" },
  stdout: (line) => console.error(line),
});
// The worker unpacks into the same folder, so module paths match.
pyodide.unpackArchive(new Uint8Array(await readFile(zipPath)), "zip", { extractDir: "/home/pyodide" });
pyodide.runPython(WARM_UP);
const memory = pyodide.makeMemorySnapshot();

const zipName = path.basename(zipPath);
const name = snapshotFileName(zipName).replace(/\.gz$/, "");
await writeFile(path.join(outDir, name), packSnapshot(memory, snapshotKey(pyodideModule.version, zipName)));
process.stdout.write(name);
