// A term page holds a summary of its calculator (roofline_site/calculators/later.py): its headline
// results, right without any script, and a link to the calculator's page. The calculator itself
// is a file of the build's own, from this site, named by its content; this puts it in the
// summary's place a screen before the reader reaches it, at the first touch of the summary, or at
// once when the address names a scenario or the calculator. Every summary on the page is
// replaced together, so the calculators mount once, in page order (their link parameters depend
// on it). If a file cannot be fetched, its summary and link stay.

import { whenNear } from "../lazy/near-viewport.mjs";
import { BUILD_TOKEN, sameOrigin } from "./runtime-urls.mjs";

// The build writes every calculator's file here (roofline_site/calculators/later.py).
const PARTS = new URL("./part/", import.meta.url).href;

const SUMMARIES = "section[data-calculator-later]";

/** Watch the page's summaries; once they are replaced, call `mount()`. */
export function loadCalculatorsWhenNear(mount) {
  const summaries = [...document.querySelectorAll(SUMMARIES)];
  if (summaries.length === 0) {
    return;
  }
  let started = false;
  let stopWatching = () => {};
  const start = () => {
    if (!started) {
      started = true;
      stopWatching();
      Promise.all(summaries.map(replace)).then(mount);
    }
  };
  const named = summaries.some((summary) => location.hash === `#${summary.id}`);
  if (location.search || named) {
    start();
    return;
  }
  stopWatching = whenNear(summaries, start);
  for (const summary of summaries) {
    summary.addEventListener("pointerdown", start, { once: true });
    summary.addEventListener("focusin", start, { once: true });
  }
}

async function replace(summary) {
  try {
    // Only a file of the build's own: on this site, in the calculators' folder.
    const src = sameOrigin(summary.dataset.calculatorLater, new URL(document.baseURI));
    if (!src.startsWith(PARTS) || src.slice(PARTS.length).includes("/")) {
      throw new Error(`${src} is not one of the build's calculators`);
    }
    const response = await fetch(src);
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    const part = await response.json();
    // A template parses without running anything; the HTML is the build's own calculator.
    const template = document.createElement("template");
    template.innerHTML = part.html;
    const calculator = template.content.firstElementChild;
    if (part.id !== summary.id || !calculator?.matches("section.roofline-calc[data-calculator]") || calculator.id !== summary.id) {
      throw new Error("the file is not this calculator");
    }
    if (summary.isConnected) {
      const focused = summary.contains(document.activeElement) ? document.activeElement : null;
      const placed = document.importNode(calculator, true);
      // The file is the build's own (checked above): its calculator is one to mount.
      placed.dataset.buildToken = BUILD_TOKEN;
      // Placed a screen ahead of the reader: its Python waits until it is in view (calculator.mjs).
      placed.dataset.placedLater = "";
      summary.replaceWith(placed);
      if (focused) {
        keepFocus(focused, placed);
      }
    }
  } catch (error) {
    // Offline with the file uncached, or a broken file: the summary and its link stay.
    console.warn(`roofline calculator: kept the summary of ${summary.id}: ${error.message}`);
  }
}

/** A keyboard reader inside the summary stays in place: the same term's link, else the first control. */
function keepFocus(focused, calculator) {
  const term = focused.dataset?.glossaryTerm;
  const same = term ? calculator.querySelector(`a[data-glossary-term="${CSS.escape(term)}"]`) : null;
  (same ?? calculator.querySelector("select, input, button:not([hidden]), a[href]"))?.focus();
}
