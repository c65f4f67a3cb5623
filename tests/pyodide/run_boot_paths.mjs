// Boot the pinned npm Pyodide the way the calculators' worker does (site_assets/calculators/
// boot.mjs), from a folder laid out like the site's runtime folder, in four ways, and print
// what each did as JSON on stdout:
//
//   node run_boot_paths.mjs <runtime dir> <roofline_core.<hash>.zip> <stdlib zip> <script.py> <expression>
//
// <runtime dir> holds the snapshot under its site name (it may lack one); every boot uses the
// given standard library zip (the build's trimmed one). Boots:
// - "plain": no snapshot asked for;
// - "snapshot": the snapshot, if present and made for this Pyodide and this roofline_core;
// - "other_pyodide": as if pyodide.mjs were another version (the snapshot must be refused);
// - "other_core": as if roofline_core had another hash (the snapshot must be refused);
// - "other_stdlib": as if the library zip had another hash (the snapshot must be refused);
// - "rejected": a container with the right key around bytes that are no Pyodide memory
//   (Pyodide's own check must reject it, and the boot go on the ordinary way).
// The first two evaluate <expression> after running <script.py>; the others only report. The
// "snapshot" boot leaves roofline_core's files to unpackSources() (sourcesLater, as the worker
// does) and reports whether they were there before and after that call.
import { copyFile, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { bootPyodide } from "../../site_assets/calculators/boot.mjs";
import { packSnapshot, snapshotKey } from "../../site_assets/calculators/snapshot.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const pyodideDir = path.resolve(here, "../../node_modules/pyodide") + path.sep;

const [runtimeDir, zipPath, stdlibPath, scriptPath, expression] = process.argv.slice(2);
if (!runtimeDir || !zipPath || !stdlibPath || !scriptPath || !expression) {
  console.error("usage: node run_boot_paths.mjs <runtime dir> <roofline_core zip> <stdlib zip> <script.py> <expression>");
  process.exit(2);
}

const pyodideModule = await import(pathToFileURL(pyodideDir + "pyodide.mjs").href);
const zipName = path.basename(zipPath);
const stdlibName = path.basename(stdlibPath);
const script = await readFile(scriptPath, "utf8");
const indexURL = pyodideDir;
const lockFileURL = pyodideDir + "pyodide-lock.json";

// The site's URLs map onto files: any roofline_core zip to the real one, any snapshot to the
// one in <runtime dir> (so a snapshot asked for under other hashes is the real one, stale).
async function fetchFile(url) {
  const name = path.basename(url);
  const file = name.endsWith(".zip")
    ? zipPath
    : path.join(runtimeDir, name.replace(/roofline_core\.[0-9a-f]+\.[0-9a-z]+\./, `roofline_core.${hashOf(zipName)}.${hashOf(stdlibName)}.`));
  const bytes = await readFile(file);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

// A well-formed container for this Pyodide and this roofline_core holding no Pyodide memory.
async function fetchGarbageSnapshot(url) {
  return url.endsWith(".zip") ? fetchFile(url) : packSnapshot(new Uint8Array(65_536), snapshotKey(pyodideModule.version, zipName, stdlibName));
}

function hashOf(name) {
  return /\.([0-9a-f]+)\.zip$/.exec(name)[1];
}

const SOURCES_THERE = "import os; os.path.exists('/home/pyodide/roofline_core/__init__.py')";

async function run(label, { module = pyodideModule, coreZipName = zipName, stdLibURL = stdlibPath, useSnapshot = true, evaluate = true, fetchBytes = fetchFile, sourcesLater = false }) {
  const started = Date.now();
  const { runtime, boot, refused, unpackSources } = await bootPyodide({
    pyodideModule: module,
    indexURL,
    lockFileURL,
    coreZipURL: path.join(path.dirname(zipPath), coreZipName),
    stdLibURL,
    fetchBytes,
    useSnapshot,
    sourcesLater,
  });
  const result = { label, boot, refused, boot_ms: Date.now() - started };
  if (sourcesLater) {
    const before = runtime.runPython(SOURCES_THERE);
    unpackSources();
    result.sources = [before, runtime.runPython(SOURCES_THERE)];
  }
  if (evaluate) {
    const namespace = runtime.globals.get("dict")();
    runtime.runPython(script, { globals: namespace });
    result.value = String(runtime.runPython(expression, { globals: namespace }));
    namespace.destroy();
  }
  return result;
}

async function copyAs(file, name) {
  const copy = path.join(await mkdtemp(path.join(os.tmpdir(), "stdlib-")), name);
  await copyFile(file, copy);
  return copy;
}

const results = [
  await run("plain", { useSnapshot: false }),
  await run("snapshot", { sourcesLater: true }),
  await run("other_pyodide", { module: { ...pyodideModule, version: "0.0.0-other" }, evaluate: false }),
  await run("other_core", { coreZipName: "roofline_core.000000000000.zip", evaluate: false }),
  // Another library's name, same bytes: the name is the key, so the snapshot is refused.
  await run("other_stdlib", { stdLibURL: await copyAs(stdlibPath, "python_stdlib.111111111111.zip"), evaluate: false }),
  await run("rejected", { fetchBytes: fetchGarbageSnapshot }),
];
process.stdout.write(JSON.stringify(Object.fromEntries(results.map((r) => [r.label, r]))));
