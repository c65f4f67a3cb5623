// "Copy as Python" and "Cite" on each number of a term page.
//
// The build wraps every number it computed in <span class="roofline-quantity" data-quantity="N">
// and writes, in the page's "Reproduce the numbers on this page" section, item
// #roofline-numbers-N with the Python that prints it, and one citation for the page
// (roofline_site/glossary/reproduce.py). This module only copies that text: clicking a number,
// or pressing Enter or Space on it, opens a small popover with the snippet and two buttons.
// Without JavaScript the section itself is the way to the same text.
//
// Imported by glossary.js on pages that have numbers; listeners are delegated on `document`
// once, and mount() runs after every page load and instant navigation.

import { copyOrShow } from "../calculators/share.mjs";
import { placeBeside } from "./place-popover.mjs";

const NUMBER = ".roofline-quantity[data-quantity]";
const ITEM_PREFIX = "roofline-numbers-";
const FEEDBACK_MS = 4000;

let popover = null; // { el, code, status, box, link }
let current = null; // the number the popover is shown for

/** Make this page's numbers operable: focusable buttons that open the popover. */
export function mount() {
  hide();
  for (const number of document.querySelectorAll(NUMBER)) {
    // No snippet on this page for it, or a number that is a link's text (a click must follow
    // the link): leave it as text; the page's section still lists it.
    if (!item(number) || number.closest("a")) continue;
    number.tabIndex = 0;
    number.setAttribute("role", "button");
    number.setAttribute("aria-haspopup", "dialog");
    number.setAttribute("aria-expanded", "false");
  }
}

function item(number) {
  return document.getElementById(ITEM_PREFIX + number.dataset.quantity);
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
  const pre = document.createElement("pre");
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
  el.append(pre, actions, status, box);
  document.body.append(el);
  popover = { el, code, status, box, link };
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

function show(number) {
  const source = item(number);
  const cite = document.querySelector(".roofline-reproduce__cite");
  if (!source) return;
  const p = element();
  if (current && current !== number) current.setAttribute("aria-expanded", "false");
  current = number;
  p.code.textContent = source.querySelector("code").textContent.trimEnd();
  p.el.querySelector('[data-copy="cite"]').hidden = !cite;
  p.link.href = `#${source.id}`;
  p.status.textContent = "";
  p.box.hidden = true;
  p.el.setAttribute("aria-label", `${number.textContent.trim()}: reproduce or cite`);
  number.setAttribute("aria-expanded", "true");
  number.setAttribute("aria-controls", p.el.id);
  p.el.hidden = false;
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
  const text = what === "python" ? p.code.textContent + "\n" : document.querySelector(".roofline-reproduce__cite").textContent;
  const label = what === "python" ? "Python" : "Citation";
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
    // The section is collapsed: open it so the link lands on the number's item.
    document.getElementById(popover.link.hash.slice(1))?.closest("details")?.setAttribute("open", "");
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
