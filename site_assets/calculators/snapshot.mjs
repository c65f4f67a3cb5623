// The Pyodide memory snapshot's container, shared by the build (Node, which writes it) and the
// worker (which reads it): its file name and the key that says what it was made from.
//
// A memory snapshot is Pyodide's whole WebAssembly memory taken after `import roofline_core`
// (loadPyodide's `_makeSnapshot` option and `makeMemorySnapshot()`; restored with `_loadSnapshot`).
// It is only valid for the Pyodide build and the roofline_core that made it, so the bytes carry
// a key and a reader refuses any other.
//
// Layout: MAGIC (8 bytes), the key's JSON length (uint32, little-endian), the key as UTF-8 JSON,
// then the snapshot. The file is gzipped by the build; `openSnapshot` also takes it already
// decompressed (a host that serves it with `Content-Encoding: gzip`).

const MAGIC = "RGSNAP1\n";

// Bumped whenever what the build runs before taking the snapshot changes, so that a cached
// snapshot made by an older recipe is never fetched under the same name.
export const SNAPSHOT_FORMAT = 2;

/** The error `openSnapshot` throws for a snapshot made from other inputs. */
export class StaleSnapshotError extends Error {}

/**
 * What a snapshot must have been made from.
 * @param {string} pyodideVersion The version of the pyodide.mjs that will restore it.
 * @param {string} coreZipName The packed roofline_core's file name (`roofline_core.<hash>.zip`).
 * @param {string} stdlibName The standard library zip's file name (`python_stdlib.<hash>.zip`,
 *   or the stock `python_stdlib.zip`): the snapshot holds zipimport's directory of it.
 * @returns {{format: number, pyodide: string, roofline_core: string, stdlib: string}}
 */
export function snapshotKey(pyodideVersion, coreZipName, stdlibName) {
  return { format: SNAPSHOT_FORMAT, pyodide: pyodideVersion, roofline_core: coreHash(coreZipName), stdlib: stdlibHash(stdlibName) };
}

/**
 * The snapshot's file name, beside the runtime files (whose folder is named by Pyodide's
 * version): `roofline_core.<hash>.<stdlib hash>.snapshot-<format>.gz`.
 * @param {string} coreZipName
 * @param {string} stdlibName
 */
export function snapshotFileName(coreZipName, stdlibName) {
  return `roofline_core.${coreHash(coreZipName)}.${stdlibHash(stdlibName)}.snapshot-${SNAPSHOT_FORMAT}.gz`;
}

/**
 * Where the snapshot for these files is: beside the runtime files, under `snapshotFileName`.
 * @param {string} indexURL The runtime folder, ending with `/`.
 * @param {string} coreZipURL
 * @param {string} stdLibURL
 */
export function snapshotURL(indexURL, coreZipURL, stdLibURL) {
  return indexURL + snapshotFileName(baseName(coreZipURL), baseName(stdLibURL));
}

/** The last segment of a URL or path: the file name the keys are read from. */
export function baseName(url) {
  return url.slice(url.lastIndexOf("/") + 1);
}

function coreHash(coreZipName) {
  const match = /roofline_core\.([0-9a-f]+)\.zip$/.exec(coreZipName);
  if (!match) {
    throw new Error(`${coreZipName}: not a packed roofline_core name (roofline_core.<hash>.zip)`);
  }
  return match[1];
}

function stdlibHash(stdlibName) {
  if (stdlibName === "python_stdlib.zip") {
    return "stock";
  }
  const match = /python_stdlib\.([0-9a-f]+)\.zip$/.exec(stdlibName);
  if (!match) {
    throw new Error(`${stdlibName}: not a standard library zip name (python_stdlib.<hash>.zip)`);
  }
  return match[1];
}

/**
 * The container's bytes (not yet gzipped).
 * @param {Uint8Array} memory What `pyodide.makeMemorySnapshot()` returned.
 * @param {object} key From `snapshotKey`.
 */
export function packSnapshot(memory, key) {
  const header = new TextEncoder().encode(JSON.stringify(key));
  const out = new Uint8Array(MAGIC.length + 4 + header.length + memory.length);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, header.length, true);
  out.set(header, MAGIC.length + 4);
  out.set(memory, MAGIC.length + 4 + header.length);
  return out;
}

/**
 * The memory snapshot inside `bytes` (gzipped or not), if it was made from `expected`.
 * @param {Uint8Array} bytes
 * @param {object} expected From `snapshotKey`.
 * @returns {Promise<Uint8Array>}
 * @throws {StaleSnapshotError} when it is not a snapshot container or its key differs.
 */
export async function openSnapshot(bytes, expected) {
  const data = isGzip(bytes) ? await gunzip(bytes) : bytes;
  const magic = new TextDecoder().decode(data.subarray(0, MAGIC.length));
  if (magic !== MAGIC) {
    throw new StaleSnapshotError("not a roofline_core snapshot");
  }
  const length = new DataView(data.buffer, data.byteOffset).getUint32(MAGIC.length, true);
  const start = MAGIC.length + 4;
  const key = JSON.parse(new TextDecoder().decode(data.subarray(start, start + length)));
  for (const name of Object.keys(expected)) {
    if (key[name] !== expected[name]) {
      throw new StaleSnapshotError(`snapshot made for ${name} ${key[name]}, not ${expected[name]}`);
    }
  }
  // Pyodide reads the memory as 32-bit words, so hand it an aligned copy.
  return data.slice(start + length);
}

function isGzip(bytes) {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
