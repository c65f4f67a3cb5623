// Scenario links: the query string mirrors a calculator's inputs, so any state can be shared.
// With one calculator on the page the parameters are the input ids (`?batch=16`); with several,
// each is prefixed by its calculator (`?kv-cache.batch=16`) so they do not collide, and a second
// (third, ...) calculator of the same kind also by its position among them
// (`?kv-cache.2.batch=16`). Input ids hold no dots, so no prefix is another's parameter.

/**
 * @param {string} calculatorId The calculator's id.
 * @param {number} calculatorsOnPage How many calculators the page has.
 * @param {number} occurrence 1 for the first calculator of this id on the page, 2 for the next.
 */
export function paramPrefix(calculatorId, calculatorsOnPage, occurrence) {
  if (calculatorsOnPage <= 1) {
    return "";
  }
  return occurrence > 1 ? `${calculatorId}.${occurrence}.` : `${calculatorId}.`;
}

/**
 * The ids of the inputs a link may set: a field whose definition says `linked: false` (pasted
 * benchmark output) is never read from the query string or a pin, which links never write it
 * to (roofline_core.vocabulary.PastedText.linked; the one rule, applied here and in Python).
 * @param {Map<string, {linked?: boolean}>} fields The calculator's inputs by id.
 */
export function linkedInputIds(fields) {
  return [...fields].filter(([, field]) => field.linked !== false).map(([id]) => id);
}

/**
 * The parameter (after the calculator's prefix) that holds a pinned scenario A for comparing:
 * its inputs as a query string of their own. No input is named so (a test says).
 */
export const PIN_PARAM = "pin";

/**
 * The pinned scenario A the URL carries, `{inputId: rawString}` (untrusted text; parameters
 * that are not inputs are dropped), or null when it carries none.
 */
export function readPinned(inputIds, prefix) {
  const raw = new URLSearchParams(window.location.search).get(prefix + PIN_PARAM);
  if (raw === null) {
    return null;
  }
  const known = new Set(inputIds);
  return Object.fromEntries([...new URLSearchParams(raw)].filter(([id]) => known.has(id)));
}

/** Input values named in the current URL: `{inputId: rawString}` (untrusted text). */
export function readUrlInputs(inputIds, prefix) {
  const params = new URLSearchParams(window.location.search);
  const found = {};
  for (const id of inputIds) {
    const raw = params.get(prefix + id);
    if (raw !== null) {
      found[id] = raw;
    }
  }
  return found;
}

/**
 * Replace this calculator's parameters in the URL with `values` (other parameters stay), without
 * adding a history entry.
 */
export function writeUrlInputs(inputIds, prefix, values) {
  const url = new URL(window.location.href);
  for (const id of inputIds) {
    url.searchParams.delete(prefix + id);
  }
  for (const [id, value] of Object.entries(values)) {
    url.searchParams.set(prefix + id, value);
  }
  // Keep Material's history state (instant navigation stores its own there).
  window.history.replaceState(window.history.state, "", url.href);
}

/** Remove these inputs' parameters from the URL (other parameters stay), without a history entry. */
export function removeUrlInputs(inputIds, prefix) {
  writeUrlInputs(inputIds, prefix, {});
}
