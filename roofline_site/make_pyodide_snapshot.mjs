// Make the Pyodide memory snapshot the calculators' worker boots from (run by the build, in
// Node, from roofline_site/pyodide_snapshot.py):
//
//   node make_pyodide_snapshot.mjs <pyodide package dir> <roofline_core.<hash>.zip> <stdlib zip> <out dir>
//
// Boots the pinned npm Pyodide with `_makeSnapshot` and the standard library zip the site serves
// (the worker must restore with the same bytes), unpacks roofline_core where the worker
// unpacks it, imports every module and computes each calculator once at its defaults (so the
// lazily built tables are in memory too), then writes the container of snapshot.mjs, not yet
// gzipped, under snapshotFileName() without its `.gz`, and prints that name.
//
// Everything runs through runPython and returns plain values: a PyProxy held by JavaScript
// cannot be serialised into a snapshot.
import nodeCrypto from "node:crypto";
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

const [pyodideDir, zipPath, stdlibPath, outDir] = process.argv.slice(2);
if (!pyodideDir || !zipPath || !stdlibPath || !outDir) {
  console.error("usage: node make_pyodide_snapshot.mjs <pyodide package dir> <roofline_core zip> <stdlib zip> <out dir>");
  process.exit(2);
}

// The same inputs give the same bytes (reproducible builds): Emscripten takes entropy, time and
// the time zone from the host while Python starts, and they end up in the memory. Pin them for
// this process (the time zone is UTC, set by pyodide_snapshot.py),
// which exits once the snapshot is written. Python's hash seed is fixed below; the worker
// re-seeds `random` after restoring (boot.mjs).
const FIXED_EPOCH_MS = Date.UTC(2020, 0, 1);
let clockMs = 0;
let state = 0x9e3779b9;
function fillDeterministic(array) {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    // xorshift32: any fixed sequence will do; this one is not all zeros.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return array;
}
const HostDate = Date;
globalThis.Date = class extends HostDate {
  constructor(...args) {
    super(...(args.length ? args : [FIXED_EPOCH_MS + clockMs]));
  }
  static now() {
    return FIXED_EPOCH_MS + clockMs;
  }
};
performance.now = () => (clockMs += 1);
globalThis.crypto.getRandomValues = fillDeterministic;
nodeCrypto.randomFillSync = (buffer, offset = 0, size = buffer.byteLength - offset) => {
  fillDeterministic(new Uint8Array(buffer.buffer ?? buffer, (buffer.byteOffset ?? 0) + offset, size));
  return buffer;
};

const indexURL = path.resolve(pyodideDir) + path.sep;
const pyodideModule = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
// Python's prints go to stderr: stdout carries only the file name.
const pyodide = await pyodideModule.loadPyodide({
  indexURL,
  stdLibURL: path.resolve(stdlibPath),
  _makeSnapshot: true,
  // A fixed hash seed: the dictionaries in the snapshot were built with it.
  env: { PYTHONHASHSEED: "0" },
  // Else Emscripten names the program after this script's path, which differs between checkouts.
  _sysExecutable: "python",
  stdout: (line) => console.error(line),
});
// The worker unpacks into the same folder, so module paths match.
pyodide.unpackArchive(new Uint8Array(await readFile(zipPath)), "zip", { extractDir: "/home/pyodide" });
pyodide.runPython(WARM_UP);
const memory = pyodide.makeMemorySnapshot();

const zipName = path.basename(zipPath);
const stdlibName = path.basename(stdlibPath);
const name = snapshotFileName(zipName, stdlibName).replace(/\.gz$/, "");
await writeFile(path.join(outDir, name), packSnapshot(memory, snapshotKey(pyodideModule.version, zipName, stdlibName)));
process.stdout.write(name);
