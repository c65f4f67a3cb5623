// Make the trimmed, precompiled standard library the calculators' Pyodide boots with (run by
// the build, in Node, from roofline_site/pyodide_stdlib.py):
//
//   node make_pyodide_stdlib.mjs <pyodide package dir> <roofline_core.<hash>.zip> <out file>
//
// Pyodide's python_stdlib.zip holds the whole library as source (about 2.5 MB, 560 modules);
// the calculators use about a fifth of it, and compiling source at every boot is most of the
// boot's time. This boots the pinned Pyodide the ordinary way, does everything the worker does
// (unpack roofline_core, import all of it, compute every calculator at its defaults, with each
// choice and with each field wrong, turn a Python error into a JavaScript one), then writes a
// zip of just the modules that came from the library zip, each compiled to bytecode.
//
// Bytecode is written as unchecked hash-based .pyc (PEP 552): zipimport loads a `name.pyc`
// entry without its source and never compares it with one. Compiled at optimisation level 2
// (no docstrings or asserts: about 15 % fewer bytes; the library's behaviour does not depend on
// them), with PYTHONHASHSEED=0, fixed zip dates and sorted entries, so the same inputs give the
// same bytes.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Everything the worker makes Python do, and more: every branch that imports lazily.
const EXERCISE = `
import importlib, pkgutil
import roofline_core
for _module in pkgutil.walk_packages(roofline_core.__path__, "roofline_core."):
    importlib.import_module(_module.name)
import time
from roofline_core.calculators import CALCULATORS
from roofline_core.view import compute_view_json
# Cheapest calculator first, timed at its defaults: each choice is computed in the first
# calculator with its field, and the fleet planners take ten times as long as the others (which
# order they come in changes what is computed, not which library modules load: the zip lists
# them sorted).
_cost = {}
for _id in CALCULATORS:
    _start = time.perf_counter()
    compute_view_json(_id, {}, "x")
    _cost[_id] = time.perf_counter() - _start
_seen = set()
for _id, _calc in sorted(CALCULATORS.items(), key=lambda item: _cost[item[0]]):
    for _field in _calc.inputs:
        compute_view_json(_id, {_field.id: "\\u00e9 not valid {"}, "x")
        for _choice in getattr(_field, "choices", ()):
            # Each choice once, in the first calculator with the field: the library modules a
            # choice's branch loads do not depend on which calculator asks, and the model and
            # chip lists are shared by a dozen calculators, some of which (the fleet planners)
            # take a tenth of a second a compute.
            if (_field.id, _choice.value) in _seen:
                continue
            _seen.add((_field.id, _choice.value))
            compute_view_json(_id, {_field.id: _choice.value}, "x")
            # Compared with a pinned scenario A at the defaults, and A wrong.
            compute_view_json(_id, {_field.id: _choice.value}, "x", pinned={})
    compute_view_json(_id, {}, "x", pinned={_calc.inputs[0].id: "\u00e9 not valid {"})
`;

// Collects the library modules now loaded and returns the new zip's bytes.
const PACK = `
import marshal, sys, zipfile, io, importlib.util
_library = next(p for p in sys.path if p.endswith(".zip"))
_names = set()
for _m in list(sys.modules.values()):
    _origin = getattr(getattr(_m, "__spec__", None), "origin", None) or ""
    if _origin.startswith(_library + "/") and _origin.endswith(".py"):
        _names.add(_origin[len(_library) + 1 :])
# PEP 552 header: magic, flags (bit 0: hash-based; bit 1 clear: never checked), source hash.
_FLAGS = (1).to_bytes(4, "little")
_out = io.BytesIO()
with zipfile.ZipFile(_library) as _stock, zipfile.ZipFile(_out, "w") as _trimmed:
    for _name in sorted(_names):
        _source = _stock.read(_name)
        _code = compile(_source, _library + "/" + _name, "exec", dont_inherit=True, optimize=2)
        _pyc = importlib.util.MAGIC_NUMBER + _FLAGS + importlib.util.source_hash(_source) + marshal.dumps(_code)
        _info = zipfile.ZipInfo(_name[:-3] + ".pyc", (1980, 1, 1, 0, 0, 0))
        _info.compress_type = zipfile.ZIP_DEFLATED
        _info.external_attr = 0o644 << 16
        _trimmed.writestr(_info, _pyc, compresslevel=9)
_out.getvalue()
`;

const [pyodideDir, zipPath, outFile] = process.argv.slice(2);
if (!pyodideDir || !zipPath || !outFile) {
  console.error("usage: node make_pyodide_stdlib.mjs <pyodide package dir> <roofline_core zip> <out file>");
  process.exit(2);
}

const indexURL = path.resolve(pyodideDir) + path.sep;
const pyodideModule = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const pyodide = await pyodideModule.loadPyodide({
  indexURL,
  // Frozen sets in compiled constants are ordered by hash: one seed, the same bytecode.
  env: { PYTHONHASHSEED: "0" },
  stdout: (line) => console.error(line),
});
pyodide.unpackArchive(new Uint8Array(await readFile(zipPath)), "zip", { extractDir: "/home/pyodide" });
// What the worker itself calls (worker.mjs, boot.mjs): pyimport, toPy and a re-seed.
const view = pyodide.pyimport("roofline_core.view");
const inputs = pyodide.toPy({ intensity: "64" });
view.compute_view_json("roofline-explorer", inputs, "x");
inputs.destroy();
view.destroy();
pyodide.runPython('import sys\nif "random" in sys.modules:\n    sys.modules["random"].seed()');
pyodide.runPython(EXERCISE);
try {
  // An exception crossing into JavaScript is formatted by Python's traceback module.
  pyodide.runPython("import roofline_core.view as v\nv.compute_view_json('no such calculator', {}, 'x')");
} catch {
  // Expected.
}
const zipProxy = pyodide.runPython(PACK);
await writeFile(outFile, zipProxy.toJs());
zipProxy.destroy();
