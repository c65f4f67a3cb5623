// Where this build's Python runtime is, and the token of its calculators: only from the build's
// manifest (runtime.mjs, written by roofline_site/calculators/runtime_manifest.py), never from
// the page. A calculator root is markup, and markup that reached a page some other way could
// otherwise point the worker at another host, where the page's CSP (a <meta>) does not follow.
// Each address is resolved against the manifest's own URL and refused if it leaves that origin.

import { RUNTIME } from "./runtime.mjs";

const MANIFEST_URL = new URL("./runtime.mjs", import.meta.url);

/** The token the build's calculators carry in `data-build-token`; no other root is mounted. */
export const BUILD_TOKEN = RUNTIME.buildToken;

/**
 * Check bytes the worker fetched itself against the build's digest for that file name, if the
 * build gave one (the packed roofline_core, the snapshot).
 * @param {string} url Where the bytes came from.
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>} `bytes`, if they match.
 * @throws {Error} if they do not.
 */
export async function checkedBytes(url, bytes) {
  const name = new URL(url).pathname.split("/").at(-1);
  const expected = RUNTIME.integrity?.[name];
  if (expected) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    let text = "";
    for (const byte of digest) {
      text += String.fromCharCode(byte);
    }
    if (![expected].flat().includes(`sha256-${btoa(text)}`)) {
      throw new Error(`${name}: its bytes are not the ones this build made`);
    }
  }
  return bytes;
}

/** A Cache Storage name of this site's own: other sites on this origin never share it. */
export function siteCacheName(kind) {
  return `roofline:${new URL("../../../", MANIFEST_URL).pathname}:${kind}`;
}

/**
 * Absolute URLs of the runtime folder, the packed roofline_core and the standard library zip.
 * @returns {{indexURL: string, coreZipURL: string, stdLibURL: string}}
 * @throws {Error} if the manifest names an address on another origin.
 */
export function runtimeURLs() {
  return {
    indexURL: sameOrigin(RUNTIME.index),
    coreZipURL: sameOrigin(RUNTIME.coreZip),
    stdLibURL: sameOrigin(RUNTIME.stdLib),
  };
}

// The runtime folder's files every boot fetches, the snapshot aside (the calculators' worker
// keeps that in Cache Storage itself).
const BOOT_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];

/**
 * Absolute URLs of every file a boot fetches but the snapshot: Pyodide's own, the packed
 * roofline_core and the standard library zip. The calculators' worker downloads them side by
 * side as it starts; the offline worker keeps them once the page says they were used.
 * @returns {string[]}
 */
export function bootFileURLs() {
  const { indexURL, coreZipURL, stdLibURL } = runtimeURLs();
  return [...BOOT_FILES.map((name) => new URL(name, indexURL).href), coreZipURL, stdLibURL];
}

/**
 * `path` resolved against the manifest, if it stays on the manifest's origin.
 * @param {string} path
 * @param {URL} [base] What `path` is relative to (the manifest by default).
 */
export function sameOrigin(path, base = MANIFEST_URL) {
  const url = new URL(path, base);
  if (url.origin !== MANIFEST_URL.origin) {
    throw new Error(`refused to load from ${url.origin}: the calculators load code only from this site`);
  }
  return url.href;
}
