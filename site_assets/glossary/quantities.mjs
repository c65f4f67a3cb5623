// "Copy as Python" and "Cite" on each number of a term page.
//
// The build wraps every number it computed in <span class="roofline-quantity" data-quantity="N">
// and writes the page's numbers as one Python script (assets/roofline/numbers/numbers.<hash>.py:
// "# N: <text>" then the print line of number N), linked from the page's "Reproduce the numbers
// on this page" section with one citation for the page (roofline_site/glossary/reproduce.py).
// This module only copies that text: clicking a number, or pressing Enter or Space on it, opens
// a small popover with the number's snippet and two buttons; opening the section lists every
// number with its snippet (item #roofline-numbers-N). The script is fetched once per page, when
// first needed. Without JavaScript the section's link is the way to the same text.
//
// A number that is a time (or a rate, one over a time) also shows what it is made of: a stacked
// bar of its parts and the equation with their working, above the snippet. The build lays them
// out as element trees in a second file (roofline_site/glossary/number_parts.py), named by the
// script link's data-parts and fetched with the script; this module only draws the trees.
//
// Imported by glossary.js on pages that have numbers; listeners are delegated on `document`
// once, and mount() runs after every page load and instant navigation.

import { copyOrShow } from "../calculators/share.mjs";
import { draw } from "../calculators/tree.mjs";
import { placeBeside } from "./place-popover.mjs";

const NUMBER = ".roofline-quantity[data-quantity]";
const SECTION_ID = "roofline-numbers";
const ITEM_PREFIX = `${SECTION_ID}-`;
const SCRIPT_LINK = ".roofline-reproduce__script";
const FEEDBACK_MS = 4000;
// The script's lines every number's snippet starts with (roofline_site/glossary/reproduce.py).
const SETUP_LINE = /^(?:# pip install |from |check_data_version\()/;
const UNAVAILABLE = "The Python for this number could not be loaded. The link under “Reproduce the numbers on this page” has it.";

let popover = null; // { el, parts, code, status, box, link, snippet }
let current = null; // the number the popover is shown for
const scriptFile = { entry: null }; // { href, promise }: the current page's script, fetched once
const partsFile = { entry: null }; // { href, promise }: the current page's parts, fetched once

/**
 * The numbers of a page's script, by index: { text, python }, where python is the script's
 * set-up (its install line, imports and data-version check) and the number's print line: a
 * snippet that runs on its own and says where to get roofline_core.
 */
export function parseNumbersScript(text) {
  const lines = text.split("\n");
  const imports = lines.filter((line) => SETUP_LINE.test(line)).join("\n");
  const numbers = [];
  for (let at = 0; at + 1 < lines.length; at += 1) {
    const label = /^# (\d+): (.*)$/.exec(lines[at]);
    if (label && lines[at + 1].startsWith("print(")) {
      numbers[Number(label[1])] = { text: label[2], python: `${imports}\n${lines[at + 1]}` };
    }
  }
  return numbers;
}

/**
 * ``read(response)`` of the file at ``url``, fetched once while ``cache`` holds it (the page's
 * script and its parts each have one), or null if it cannot be fetched. A failed fetch is tried
 * again next time (the reader may be back online).
 */
function fetchOnce(cache, url, read) {
  if (!cache.entry || cache.entry.href !== url) {
    const promise = fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${response.status} for ${url}`);
      return read(response);
    });
    const entry = { href: url, promise };
    cache.entry = entry;
    promise.catch(() => {
      if (cache.entry === entry) cache.entry = null;
    });
  }
  return cache.entry.promise.catch(() => null);
}

/** This page's numbers (see parseNumbersScript), or null without a script or if it cannot be fetched. */
function pageNumbers() {
  const link = document.querySelector(SCRIPT_LINK);
  if (!link) return Promise.resolve(null);
  return fetchOnce(scriptFile, link.href, async (response) => parseNumbersScript(await response.text()));
}

/**
 * This page's numbers' parts: { "<N>": element tree } for the numbers that have them; an empty
 * object for a page without (its script link names no file); null if the file cannot be fetched.
 */
function pageParts() {
  const href = document.querySelector(SCRIPT_LINK)?.dataset.parts;
  if (!href) return Promise.resolve({});
  return fetchOnce(partsFile, new URL(href, document.baseURI).href, async (response) => (await response.json()).parts);
}

/** List every number with its snippet in the section, once (items #roofline-numbers-N). */
async function fillSection() {
  const section = document.getElementById(SECTION_ID);
  if (!section || section.querySelector(".roofline-reproduce__list")) return section;
  const numbers = await pageNumbers();
  if (!numbers || section.querySelector(".roofline-reproduce__list")) return section;
  const list = document.createElement("ol");
  list.className = "roofline-reproduce__list";
  numbers.forEach((number, index) => {
    const item = document.createElement("li");
    item.id = ITEM_PREFIX + index;
    const text = document.createElement("p");
    text.textContent = number.text;
    const pre = document.createElement("pre");
    const code = document.createElement("code");
    code.textContent = number.python;
    pre.append(code);
    item.append(text, pre);
    list.append(item);
  });
  // Under the paragraph with the script's link, before the citation.
  const intro = section.querySelector(SCRIPT_LINK).closest("p");
  if (intro) intro.after(list);
  else section.append(list);
  return section;
}

/** Open the section at number `index`'s item (or at its top) and scroll there. */
async function openSectionAt(index) {
  const section = document.getElementById(SECTION_ID);
  if (!section) return;
  section.open = true;
  await fillSection();
  (document.getElementById(ITEM_PREFIX + index) ?? section).scrollIntoView();
}

/** Make this page's numbers operable: focusable buttons that open the popover. */
export function mount() {
  hide();
  const hasScript = document.querySelector(SCRIPT_LINK) !== null;
  for (const number of document.querySelectorAll(NUMBER)) {
    // No script on this page, or a number that is a link's text (a click must follow the
    // link): leave it as text; the page's section still lists it.
    if (!hasScript || number.closest("a")) continue;
    number.tabIndex = 0;
    number.setAttribute("role", "button");
    number.setAttribute("aria-haspopup", "dialog");
    number.setAttribute("aria-expanded", "false");
  }
  openLinkedItem();
}

/** A link to one number's item (#roofline-numbers-N) lands on it, once it is listed. */
function openLinkedItem() {
  const target = location.hash.slice(1);
  if (target.startsWith(ITEM_PREFIX)) openSectionAt(target.slice(ITEM_PREFIX.length));
}

function numberOf(target) {
  const number = target instanceof Element ? target.closest(NUMBER) : null;
  return number && number.getAttribute("role") === "button" ? number : null;
}

function element() {
  if (popover && popover.el.isConnected) return popover;
  const el = document.createElement("div");
  el.className = "roofline-quantity-popover";
  el.id = "roofline-quantity-popover";
  el.setAttribute("role", "dialog");
  el.hidden = true;
  // What the number is made of, when it has parts (drawn in show()).
  const parts = document.createElement("div");
  parts.className = "roofline-quantity-popover__parts";
  parts.hidden = true;
  const pre = document.createElement("pre");
  // A long line scrolls sideways: focusable, so a keyboard can scroll it too.
  pre.tabIndex = 0;
  const code = document.createElement("code");
  pre.append(code);
  const actions = document.createElement("p");
  actions.className = "roofline-quantity-popover__actions";
  const python = button("Copy as Python", "python");
  const cite = button("Cite", "cite");
  const link = document.createElement("a");
  link.textContent = "All numbers on this page";
  actions.append(python, cite, link);
  const status = document.createElement("p");
  status.className = "roofline-quantity-popover__status";
  status.setAttribute("role", "status");
  // Where the page may not write to the clipboard: the text, selected, to copy by hand.
  const box = document.createElement("textarea");
  box.readOnly = true;
  box.hidden = true;
  box.rows = 4;
  box.setAttribute("aria-label", "Text to copy");
  el.append(parts, pre, actions, status, box);
  document.body.append(el);
  popover = { el, parts, code, status, box, link, snippet: null };
  return popover;
}

function button(text, what) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "roofline-quantity-popover__button";
  el.dataset.copy = what;
  el.textContent = text;
  return el;
}

async function show(number) {
  const cite = document.querySelector(".roofline-reproduce__cite");
  const index = number.dataset.quantity;
  const p = element();
  if (current && current !== number) current.setAttribute("aria-expanded", "false");
  current = number;
  p.code.textContent = "…";
  p.snippet = null;
  p.parts.replaceChildren();
  p.parts.hidden = true;
  p.el.querySelector('[data-copy="cite"]').hidden = !cite;
  p.link.href = `#${ITEM_PREFIX}${index}`;
  p.status.textContent = "";
  p.box.hidden = true;
  p.el.setAttribute("aria-label", `${number.textContent.trim()}: reproduce or cite`);
  number.setAttribute("aria-expanded", "true");
  number.setAttribute("aria-controls", p.el.id);
  p.el.hidden = false;
  placeBeside(p.el, number);
  const [numbers, parts] = await Promise.all([pageNumbers(), pageParts()]);
  if (current !== number) return; // the reader has moved on
  const tree = parts?.[index];
  if (tree) {
    p.parts.replaceChildren(draw(tree));
    p.parts.hidden = false;
  }
  p.snippet = numbers?.[Number(index)]?.python ?? null;
  p.code.textContent = p.snippet ?? UNAVAILABLE;
  placeBeside(p.el, number);
}

function hide() {
  if (current) current.setAttribute("aria-expanded", "false");
  current = null;
  if (popover) popover.el.hidden = true;
}

function isOpen() {
  return current !== null && popover !== null && !popover.el.hidden;
}

async function copy(what) {
  const p = popover;
  const label = what === "python" ? "Python" : "Citation";
  if (what === "python" && !p.snippet) {
    p.status.textContent = p.code.textContent === "…" ? "The Python is still loading." : UNAVAILABLE;
    return;
  }
  const text = what === "python" ? p.snippet + "\n" : document.querySelector(".roofline-reproduce__cite").textContent;
  const done = await copyOrShow(text, p.box);
  p.status.textContent = done === "copied" ? `${label} copied.` : `${label} selected below: copy it with Ctrl+C (⌘C).`;
  setTimeout(() => {
    p.status.textContent = "";
  }, FEEDBACK_MS);
}

function toggle(number) {
  if (current === number && isOpen()) hide();
  else show(number);
}

document.addEventListener("click", (event) => {
  const number = numberOf(event.target);
  if (number) {
    toggle(number);
    return;
  }
  if (!isOpen()) return;
  const target = event.target instanceof Element ? event.target : null;
  const copyButton = target?.closest(".roofline-quantity-popover [data-copy]");
  if (copyButton) {
    copy(copyButton.dataset.copy);
  } else if (target && target === popover.link) {
    // The section is collapsed and its items are made on demand: open it, list them, go there.
    event.preventDefault();
    history.pushState(null, "", popover.link.hash);
    openSectionAt(popover.link.hash.slice(1 + ITEM_PREFIX.length));
    hide();
  } else if (!popover.el.contains(target)) {
    hide();
  }
});

document.addEventListener("keydown", (event) => {
  const number = numberOf(event.target);
  if (number && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault(); // Space would scroll the page
    toggle(number);
    if (isOpen()) popover.el.querySelector("button").focus();
  } else if (event.key === "Escape" && isOpen()) {
    const back = current;
    hide();
    back.focus();
  }
});

// Leaving the popover and its number with Tab closes it, as a click elsewhere does.
document.addEventListener("focusin", (event) => {
  if (isOpen() && !popover.el.contains(event.target) && event.target !== current) hide();
});

window.addEventListener("resize", hide);
window.addEventListener("hashchange", openLinkedItem);

// Opening the section lists the numbers ("toggle" does not bubble: listen while it descends).
document.addEventListener(
  "toggle",
  (event) => {
    if (event.target instanceof HTMLDetailsElement && event.target.id === SECTION_ID && event.target.open) fillSection();
  },
  true,
);
