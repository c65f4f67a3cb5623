// The Pyodide memory snapshot's container, shared by the build (Node, which writes it) and the
// worker (which reads it): its file name and the key that says what it was made from.
//
// A memory snapshot is Pyodide's whole WebAssembly memory taken after `import roofline_core`
// (loadPyodide's `_makeSnapshot` option and `makeMemorySnapshot()`; restored with `_loadSnapshot`).
// It is only valid for the Pyodide build and the roofline_core that made it, so the bytes carry
// a key and a reader refuses any other.
//
// Layout (integers are uint32, little-endian): MAGIC (8 bytes), the key's JSON length, the key as
// UTF-8 JSON, the memory's length, the number of extents, each extent's offset and length, then
// the extents' bytes in that order. Every byte outside the extents is zero: about half of the
// 31 MB memory is whole pages of zeros, and leaving them out halves what the reader must gunzip
// (the longest step of a boot from the snapshot), while the file barely shrinks (gzip already
// squeezed the zeros). The file is gzipped by the build; `openSnapshot` also takes it already
// decompressed (a host that serves it with `Content-Encoding: gzip`).

const MAGIC = "RGSNAP1\n";

// Bumped whenever what the build runs before taking the snapshot changes, so that a cached
// snapshot made by an older recipe is never fetched under the same name.
export const SNAPSHOT_FORMAT = 3;

// Zero runs are dropped in whole pages of this size (a WebAssembly memory is whole 64 KiB pages).
const ZERO_PAGE_BYTES = 4096;

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
  const extents = nonZeroExtents(memory);
  const header = new TextEncoder().encode(JSON.stringify(key));
  const tableStart = MAGIC.length + 4 + header.length;
  const dataStart = tableStart + 8 + extents.length * 8;
  const dataBytes = extents.reduce((sum, [, length]) => sum + length, 0);
  const out = new Uint8Array(dataStart + dataBytes);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(MAGIC.length, header.length, true);
  out.set(header, MAGIC.length + 4);
  view.setUint32(tableStart, memory.length, true);
  view.setUint32(tableStart + 4, extents.length, true);
  let at = dataStart;
  extents.forEach(([offset, length], index) => {
    view.setUint32(tableStart + 8 + index * 8, offset, true);
    view.setUint32(tableStart + 12 + index * 8, length, true);
    out.set(memory.subarray(offset, offset + length), at);
    at += length;
  });
  return out;
}

/** [offset, length] of each run of `memory` that is not whole zero pages, in order. */
function nonZeroExtents(memory) {
  const extents = [];
  let start = -1;
  for (let page = 0; page < memory.length; page += ZERO_PAGE_BYTES) {
    const end = Math.min(page + ZERO_PAGE_BYTES, memory.length);
    const zero = isZero(memory, page, end);
    if (!zero && start < 0) {
      start = page;
    } else if (zero && start >= 0) {
      extents.push([start, page - start]);
      start = -1;
    }
  }
  if (start >= 0) {
    extents.push([start, memory.length - start]);
  }
  return extents;
}

function isZero(bytes, start, end) {
  for (let i = start; i < end; i++) {
    if (bytes[i] !== 0) {
      return false;
    }
  }
  return true;
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
  return unpackMemory(data, start + length);
}

/** The memory laid out from the extents table at `at` (a fresh, zeroed, aligned array). */
function unpackMemory(data, at) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (at + 8 > data.length) {
    throw new StaleSnapshotError("snapshot cut short");
  }
  const memory = new Uint8Array(view.getUint32(at, true));
  const count = view.getUint32(at + 4, true);
  let source = at + 8 + count * 8;
  if (source > data.length) {
    throw new StaleSnapshotError("snapshot cut short");
  }
  for (let index = 0; index < count; index++) {
    const offset = view.getUint32(at + 8 + index * 8, true);
    const length = view.getUint32(at + 12 + index * 8, true);
    if (source + length > data.length || offset + length > memory.length) {
      throw new StaleSnapshotError("snapshot extents do not fit");
    }
    memory.set(data.subarray(source, source + length), offset);
    source += length;
  }
  if (source !== data.length) {
    throw new StaleSnapshotError("snapshot has bytes beyond its extents");
  }
  return memory;
}

/** Whether `bytes` start as a gzip stream does (its two magic bytes). */
export function isGzip(bytes) {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
