// Exercise the snapshot container (site_assets/calculators/snapshot.mjs) in Node and print one
// JSON object of outcomes for tests/pyodide/test_snapshot_container.py.
import { gzipSync } from "node:zlib";

import { StaleSnapshotError, openSnapshot, packSnapshot, snapshotKey } from "../../site_assets/calculators/snapshot.mjs";

const key = snapshotKey("0.28.0", "roofline_core.0123456789ab.zip", "python_stdlib.abcdef012345.zip");

// 40 pages and a ragged tail: zero pages, a page with one set byte at each end, full pages.
const memory = new Uint8Array(40 * 4096 + 1000);
memory[4096] = 7; // page 1: one byte at its start
memory[3 * 4096 - 1] = 9; // page 2: one byte at its end
for (let i = 10 * 4096; i < 13 * 4096; i++) memory[i] = (i * 31) & 0xff;
memory[memory.length - 1] = 1; // the ragged tail

const packed = packSnapshot(memory, key);
const same = (a, b) => a.length === b.length && a.every((value, index) => value === b[index]);

async function outcome(bytes, expected = key) {
  try {
    return { ok: same(await openSnapshot(bytes, expected), memory) };
  } catch (error) {
    return { refused: error instanceof StaleSnapshotError, message: String(error.message) };
  }
}

const cut = packed.slice(0, packed.length - 10);
const longer = new Uint8Array(packed.length + 4);
longer.set(packed);
const stale = snapshotKey("0.28.1", "roofline_core.0123456789ab.zip", "python_stdlib.abcdef012345.zip");

const results = {
  packedBytes: packed.length,
  memoryBytes: memory.length,
  plain: await outcome(packed),
  gzipped: await outcome(new Uint8Array(gzipSync(packed))),
  allZero: { ok: same(await openSnapshot(packSnapshot(new Uint8Array(65536), key), key), new Uint8Array(65536)) },
  stale: await outcome(packed, stale),
  cut: await outcome(cut),
  longer: await outcome(longer),
};
process.stdout.write(JSON.stringify(results));
