// Run a Python file inside the pinned npm Pyodide with roofline_core unpacked, then print the
// string value of a Python expression on stdout.
//
//   node run_in_pyodide.mjs <roofline_core.zip> <script.py> <expression>
//
// The zip comes from roofline_site.pyodide_bundle.core_zip_bytes(), the same bytes the site
// serves, so this checks the very package the browser runs. Pyodide is loaded from the
// project's node_modules (offline; it ships no wheels and needs none).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pyodideDir = path.resolve(here, "../../node_modules/pyodide") + path.sep;

const [zipPath, scriptPath, expression] = process.argv.slice(2);
if (!zipPath || !scriptPath || !expression) {
  console.error("usage: node run_in_pyodide.mjs <roofline_core.zip> <script.py> <expression>");
  process.exit(2);
}

const { loadPyodide } = await import(pathToFileURL(pyodideDir + "pyodide.mjs").href);
// Python's own prints would mix with the JSON on stdout; send them to stderr.
const pyodide = await loadPyodide({ indexURL: pyodideDir, stdout: (line) => console.error(line) });
// Node's Buffer is not accepted by unpackArchive; a plain Uint8Array is.
pyodide.unpackArchive(new Uint8Array(await readFile(zipPath)), "zip");
const namespace = pyodide.globals.get("dict")();
pyodide.runPython(await readFile(scriptPath, "utf8"), { globals: namespace });
const result = pyodide.runPython(expression, { globals: namespace });
process.stdout.write(String(result));
