// What the reader's browser says about its link (the Network Information API), in one place for
// the page (engine.mjs: no idle start of Python) and the worker (worker.mjs: no snapshot on a
// first visit). Browsers without the API say nothing, and nothing is held back.

// Links on which a few megabytes of runtime fetched unasked cost too much (effectiveType).
const SLOW_LINKS = ["slow-2g", "2g", "3g"];

/** Whether the reader asks pages to save data. */
export function savesData() {
  return Boolean(globalThis.navigator?.connection?.saveData);
}

/** Whether the reader saves data or the browser reports a slow link. */
export function linkAsksToWait() {
  const connection = globalThis.navigator?.connection;
  return savesData() || Boolean(connection && SLOW_LINKS.includes(connection.effectiveType));
}
