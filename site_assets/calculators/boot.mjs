// Boot Pyodide for the calculators: from the build's memory snapshot when there is one made for
// this Pyodide and this roofline_core, else the ordinary way. Used by the worker, and by the
// tests in Node, so both run the same decision.

import { baseName, openSnapshot, snapshotKey, snapshotURL } from "./snapshot.mjs";

// After restoring, `random` (if anything imported it) would replay the build's sequence.
const RESEED = `
import sys
if "random" in sys.modules:
    sys.modules["random"].seed()
`;

/**
 * Start Pyodide with roofline_core unpacked in `/home/pyodide`.
 * @param {object} options
 * @param {{loadPyodide: Function, version: string}} options.pyodideModule The imported pyodide.mjs.
 * @param {string} options.indexURL The runtime folder, ending with `/`.
 * @param {string} options.lockFileURL
 * @param {string} options.coreZipURL Where the packed roofline_core is (`roofline_core.<hash>.zip`).
 * @param {string} options.stdLibURL Where the standard library zip is (the build's trimmed
 *   `python_stdlib.<hash>.zip`, or the npm package's own).
 * @param {(url: string) => Promise<Uint8Array>} options.fetchBytes
 * @param {boolean} [options.useSnapshot] False to skip the snapshot.
 * @param {boolean} [options.sourcesLater] Leave unpacking roofline_core's files to the caller's
 *   `unpackSources()` when Python started from the snapshot, which already holds every module
 *   imported: the files are then only for tracebacks and later imports, and unpacking them
 *   (about 50 ms on a desktop) need not delay the first answer.
 * @returns {Promise<{runtime: object, boot: "snapshot" | "plain", refused: string | null,
 *   unpackSources: () => void}>} `refused` says why a snapshot was not used (missing, made for
 *   other inputs, rejected); `unpackSources` unpacks the files once (a no-op once they are).
 */
export async function bootPyodide({ pyodideModule, indexURL, lockFileURL, coreZipURL, stdLibURL, fetchBytes, useSnapshot = true, sourcesLater = false }) {
  const zipName = baseName(coreZipURL);
  const stdlibName = baseName(stdLibURL);
  const zip = fetchBytes(coreZipURL);
  // Callers see a failed zip download through the await below; this keeps it from being
  // reported as unhandled while Pyodide boots.
  zip.catch(() => {});
  let runtime = null;
  let refused = useSnapshot ? null : "not asked for";
  if (useSnapshot) {
    // Fetched while Pyodide fetches its own files; loadPyodide awaits it before instantiating.
    const memory = fetchBytes(snapshotURL(indexURL, coreZipURL, stdLibURL)).then((bytes) =>
      openSnapshot(bytes, snapshotKey(pyodideModule.version, zipName, stdlibName)),
    );
    // loadPyodide awaits it only after its own first steps; a failure before then is handled
    // there, not reported as unhandled.
    memory.catch(() => {});
    try {
      runtime = await pyodideModule.loadPyodide({ indexURL, lockFileURL, stdLibURL, _loadSnapshot: memory });
    } catch (error) {
      // Missing, stale or rejected (Pyodide checks its own build id too): boot the ordinary way.
      refused = error && error.message ? error.message : String(error);
    }
  }
  runtime ??= await pyodideModule.loadPyodide({ indexURL, lockFileURL, stdLibURL });
  // The snapshot holds the imported modules, not the files; unpack them in both cases so that
  // any later import and every traceback find their source.
  const files = await zip;
  let unpacked = false;
  const unpackSources = () => {
    if (!unpacked) {
      unpacked = true;
      runtime.unpackArchive(files, "zip", { extractDir: "/home/pyodide" });
    }
  };
  if (refused === null) {
    runtime.runPython(RESEED);
  }
  if (refused !== null || !sourcesLater) {
    unpackSources();
  }
  return { runtime, boot: refused === null ? "snapshot" : "plain", refused, unpackSources };
}
