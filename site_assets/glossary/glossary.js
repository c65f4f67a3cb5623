// Glossary in the browser: previews of linked terms, and the filter box of the index.
//
// Every link to a term carries data-glossary-term="<slug>" (added at build time). Hovering it
// with a mouse or focusing it with the keyboard shows a preview: title, category, summary and
// "Open full entry". On a touch screen the first tap shows the preview and a second tap (or
// the preview's link) follows the link. The data is glossary.json, fetched once per visit from
// the URL the page names in <meta name="roofline:glossary-json"> (written by the theme, relative
// to the page, so that a site hosted under a sub-path works).
//
// Listeners are delegated on `document`, which survives Material's instant navigation; the
// per-page parts (closing a stale preview, mounting the index filter) run on every emission of
// Material's `document$`. Text is written with textContent only.

import { placeBeside } from "./place-popover.mjs";

// Resolved once, when this module first runs: the document's URL is then the page that named
// it; instant navigation later changes the URL but never re-runs this module.
const DATA_URL = dataUrl();
const LINK_SELECTOR = "a[data-glossary-term]";
const SHOW_DELAY_MS = 150;
const HIDE_DELAY_MS = 250;

let termsPromise = null;

function dataUrl() {
  const meta = document.querySelector('meta[name="roofline:glossary-json"]');
  return meta ? new URL(meta.getAttribute("content"), document.baseURI) : null;
}

function loadTerms() {
  // One request per visit, shared by every preview (and retried if it failed).
  if (!termsPromise) {
    const request = DATA_URL ? fetch(DATA_URL) : Promise.reject(new Error('the page names no glossary.json (meta name="roofline:glossary-json")'));
    termsPromise = request
      .then((response) => {
        if (!response.ok) throw new Error(`glossary.json: HTTP ${response.status}`);
        return response.json();
      })
      .then((data) => new Map(data.terms.map((term) => [term.slug, term])))
      .catch((error) => {
        termsPromise = null;
        throw error;
      });
  }
  return termsPromise;
}

// The preview element ------------------------------------------------------------------

class Preview {
  constructor() {
    this.el = null;
    this.link = null; // the link the preview belongs to, when shown
    this.showTimer = 0;
    this.hideTimer = 0;
    this.request = 0; // increases with each show, so a late answer for an old link is dropped
  }

  element() {
    if (this.el && this.el.isConnected) return this.el;
    const el = document.createElement("div");
    el.className = "glossary-preview";
    el.id = "glossary-preview";
    el.setAttribute("role", "tooltip");
    el.hidden = true;
    const head = document.createElement("p");
    head.className = "glossary-preview__head";
    const title = document.createElement("span");
    title.className = "glossary-preview__title";
    const category = document.createElement("span");
    category.className = "glossary-tag glossary-preview__category";
    head.append(title, " ", category);
    const summary = document.createElement("p");
    summary.className = "glossary-preview__summary";
    // On a calculator's result: the term's value in the reader's current scenario.
    const here = document.createElement("p");
    here.className = "glossary-preview__here";
    here.hidden = true;
    const open = document.createElement("a");
    open.className = "glossary-preview__open";
    open.textContent = "Open full entry";
    el.append(head, summary, here, open);
    document.body.append(el);
    this.el = el;
    return el;
  }

  isShownFor(link) {
    return this.link === link && this.el !== null && !this.el.hidden;
  }

  contains(node) {
    return this.el !== null && node instanceof Node && this.el.contains(node);
  }

  scheduleShow(link) {
    clearTimeout(this.hideTimer);
    clearTimeout(this.showTimer);
    if (this.isShownFor(link)) return;
    this.showTimer = setTimeout(() => this.show(link), SHOW_DELAY_MS);
  }

  scheduleHide() {
    clearTimeout(this.showTimer);
    clearTimeout(this.hideTimer);
    this.hideTimer = setTimeout(() => this.hide(), HIDE_DELAY_MS);
  }

  cancelHide() {
    clearTimeout(this.hideTimer);
  }

  async show(link) {
    clearTimeout(this.hideTimer);
    clearTimeout(this.showTimer);
    const request = ++this.request;
    let terms;
    try {
      terms = await loadTerms();
    } catch (error) {
      console.warn("Glossary previews are unavailable:", error);
      return;
    }
    const term = terms.get(link.dataset.glossaryTerm);
    if (request !== this.request || !term || !link.isConnected) return;
    const el = this.element();
    el.querySelector(".glossary-preview__title").textContent = term.title;
    const category = el.querySelector(".glossary-preview__category");
    category.textContent = term.category;
    category.className = `glossary-tag glossary-tag--${term.category} glossary-preview__category`;
    el.querySelector(".glossary-preview__summary").textContent = term.summary;
    const here = el.querySelector(".glossary-preview__here");
    const value = scenarioValue(link);
    here.hidden = value === null;
    here.textContent = value ?? "";
    el.querySelector(".glossary-preview__open").href = link.href;
    el.setAttribute("aria-label", `${term.title}: preview`);
    if (this.link && this.link !== link) this.link.removeAttribute("aria-describedby");
    this.link = link;
    link.setAttribute("aria-describedby", el.id);
    el.hidden = false;
    this.place(link);
  }

  place(link) {
    placeBeside(this.el, link);
  }


  hide() {
    clearTimeout(this.showTimer);
    clearTimeout(this.hideTimer);
    this.request++;
    if (this.link) this.link.removeAttribute("aria-describedby");
    this.link = null;
    if (this.el) this.el.hidden = true;
  }
}

const preview = new Preview();
let lastPointerType = "mouse";
let lastPointerDownMs = -Infinity;
// A tap focuses the link before its click arrives; that focus must not count as the first tap.
const TAP_FOCUS_WINDOW_MS = 1000;

// Inputs that name a scenario in a sentence: what runs, and on what.
const SCENARIO_INPUTS = ["model", "accelerator"];

/**
 * For a term linked from a calculator's result label: "In this scenario: <the result as shown>
 * (<model>, <accelerator>)", read from the page as Python last wrote it (no number is computed
 * here). Null for any other link.
 */
function scenarioValue(link) {
  const output = link.closest(".roofline-calc__output");
  const shown = output?.querySelector("[data-output]")?.textContent.trim();
  if (!shown) return null;
  const root = link.closest("[data-calculator]");
  const names = SCENARIO_INPUTS.map((name) => root?.querySelector(`select[name="${name}"]`))
    .filter((select) => select && !select.closest("[hidden]") && select.selectedIndex >= 0)
    .map((select) => select.options[select.selectedIndex].text);
  return `In this scenario: ${shown}${names.length ? ` (${names.join(", ")})` : ""}.`;
}

function termLink(target) {
  return target instanceof Element ? target.closest(LINK_SELECTOR) : null;
}

function listen() {
  document.addEventListener("pointerdown", (event) => {
    lastPointerType = event.pointerType || "mouse";
    lastPointerDownMs = event.timeStamp;
    if (!termLink(event.target) && !preview.contains(event.target)) preview.hide();
  });

  document.addEventListener("pointerover", (event) => {
    if (event.pointerType === "touch") return; // touch is handled on click
    const link = termLink(event.target);
    if (link) preview.scheduleShow(link);
    else if (preview.contains(event.target)) preview.cancelHide();
  });

  document.addEventListener("pointerout", (event) => {
    if (event.pointerType === "touch") return;
    const from = termLink(event.target) || (preview.contains(event.target) ? preview.el : null);
    if (!from) return;
    const to = event.relatedTarget;
    if (to instanceof Node && (from.contains(to) || preview.contains(to) || (preview.link && preview.link.contains(to)))) return;
    preview.scheduleHide();
  });

  document.addEventListener("focusin", (event) => {
    const link = termLink(event.target);
    const byTap = lastPointerType === "touch" && event.timeStamp - lastPointerDownMs < TAP_FOCUS_WINDOW_MS;
    if (link && !byTap) preview.show(link);
    else if (!link && !preview.contains(event.target)) preview.hide();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && preview.link) {
      const link = preview.link;
      preview.hide();
      if (document.activeElement !== link && preview.contains(document.activeElement)) link.focus();
    }
  });

  // Capture phase: decide before Material's instant navigation (listening on the body) sees
  // the click. The first tap on a term shows its preview instead of following the link.
  document.addEventListener(
    "click",
    (event) => {
      const link = termLink(event.target);
      if (!link || lastPointerType !== "touch" || event.metaKey || event.ctrlKey) return;
      if (preview.isShownFor(link)) return; // second tap: follow the link
      event.preventDefault();
      event.stopPropagation();
      preview.show(link);
    },
    true,
  );

  window.addEventListener("resize", () => preview.hide());
}

// The index filter -----------------------------------------------------------------------

function normalise(text) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

// British and American spellings find each other: "quantisation" and "quantization", "analyse"
// and "analyze". Applied to the query and to the terms alike, after normalise(), so a word half
// typed ("quantis") matches too; the only cost is that an -is-/-iz- pair such as "prise" and
// "prize" counts as one word, which a glossary of this field does not mind.
function spelling(text) {
  return text.replace(/([iy])z/g, "$1s");
}

// Where a word is found decides an item's rank: in the title, then an alias, then the summary.
const FIELDS = ["title", "aliases", "summary"];

function fieldsOf(item, linkSelector) {
  const text = (selector) => spelling(normalise(item.querySelector(selector)?.textContent || ""));
  return {
    title: text(linkSelector),
    aliases: text(".glossary-index__aliases").replace(/^also /, ""),
    summary: text(".glossary-index__summary"),
  };
}

// The rank of an item for the query's words (lower is better), or -1 if a word is missing: each
// word counts where it is best found, and the item ranks by its weakest word. A title that starts
// with the query ranks first among titles.
function rankOf(fields, words, phrase) {
  let rank = 0;
  for (const word of words) {
    const at = FIELDS.findIndex((name) => fields[name].includes(word));
    if (at < 0) return -1;
    rank = Math.max(rank, at);
  }
  return rank * 2 + (rank === 0 && fields.title.startsWith(phrase) ? 0 : 1);
}

// The filter and the view live in the query string (?filter=cache&view=a-z), so a narrowed list
// can be shared; Material's history state is kept (instant navigation stores its own there).
function writeIndexState(filter, view) {
  const url = new URL(window.location.href);
  if (filter) url.searchParams.set("filter", filter);
  else url.searchParams.delete("filter");
  if (view === "a-z") url.searchParams.set("view", view);
  else url.searchParams.delete("view");
  window.history.replaceState(window.history.state, "", url.href);
}

// A to Z is a view of the one list: the same items move into letter groups (in the order the
// build gives) and back to their categories, so a term is never listed twice.
function letterGroups(listing, letters) {
  const container = document.createElement("div");
  container.className = "glossary-listing glossary-listing--a-z";
  container.hidden = true;
  for (const [letter] of letters) {
    const group = document.createElement("section");
    group.className = "glossary-group";
    const heading = document.createElement("h3");
    heading.textContent = letter;
    group.append(heading, document.createElement("ul"));
    container.append(group);
  }
  listing.after(container);
  return container;
}

function openSiteSearch(text) {
  // Material's search: its toggle opens the dialog, its input runs the query.
  const toggle = document.getElementById("__search");
  const query = document.querySelector('[data-md-component="search-query"]');
  if (!toggle || !query) return;
  toggle.checked = true;
  toggle.dispatchEvent(new Event("change"));
  query.value = text;
  query.dispatchEvent(new Event("input", { bubbles: true }));
  query.focus();
}

function mountFilters() {
  for (const box of document.querySelectorAll("[data-glossary-filter]")) {
    if (box.dataset.glossaryMounted === "true") continue;
    box.dataset.glossaryMounted = "true";
    const input = box.querySelector("input");
    const status = box.querySelector(".glossary-filter__status");
    const empty = box.querySelector(".glossary-filter__empty");
    const listing = document.querySelector("[data-glossary-listing]");
    const letters = JSON.parse(box.dataset.glossaryAz || "[]");
    const items = [...listing.querySelectorAll("li")];
    const home = new Map(items.map((item) => [item, item.parentElement]));
    const bySlug = new Map(items.map((item) => [item.querySelector(LINK_SELECTOR)?.dataset.glossaryTerm, item]));
    const fields = new Map(items.map((item) => [item, fieldsOf(item, LINK_SELECTOR)]));
    const alphabetical = letterGroups(listing, letters);
    // While a filter is typed in the category view, the matches leave their categories for one
    // group at the top, best match first (A to Z keeps its letters: the reader asked for that order).
    const ranked = document.createElement("section");
    ranked.className = "glossary-group glossary-group--ranked";
    const rankedHeading = document.createElement("h3");
    rankedHeading.textContent = "Best matches first";
    const rankedList = document.createElement("ol");
    ranked.append(rankedHeading, rankedList);
    listing.prepend(ranked);
    const viewButtons = [...box.querySelectorAll("[data-glossary-view]")];
    let view = "category";

    const showView = (wanted) => {
      view = wanted === "a-z" ? "a-z" : "category";
      if (view === "a-z") {
        const lists = alphabetical.querySelectorAll("ul");
        letters.forEach(([, slugs], at) => {
          for (const slug of slugs) if (bySlug.has(slug)) lists[at].append(bySlug.get(slug));
        });
      } else {
        // Back to its category, in the build's order (the order of `items`).
        for (const item of items) home.get(item).append(item);
      }
      listing.hidden = view === "a-z";
      alphabetical.hidden = view !== "a-z";
      for (const button of viewButtons) {
        button.setAttribute("aria-pressed", String(button.dataset.glossaryView === view));
      }
    };

    const apply = () => {
      const phrase = spelling(normalise(input.value));
      const words = phrase.split(" ").filter(Boolean);
      const ranks = new Map(items.map((item) => [item, words.length ? rankOf(fields.get(item), words, phrase) : 0]));
      let shown = 0;
      for (const item of items) {
        item.hidden = ranks.get(item) < 0;
        if (!item.hidden) shown += 1;
      }
      if (words.length && view === "category") {
        // Every item home first (in the build's order), then the matches into the ranked group;
        // the stable sort keeps the build's order (A to Z within a category) among equal ranks.
        for (const item of items) home.get(item).append(item);
        rankedList.append(...items.filter((item) => !item.hidden).sort((a, b) => ranks.get(a) - ranks.get(b)));
      } else if (rankedList.childElementCount) {
        showView(view);
      }
      for (const group of document.querySelectorAll(".glossary-group")) {
        group.hidden = !group.querySelector("li:not([hidden])");
      }
      if (!words.length) status.textContent = "";
      else if (!shown) status.textContent = `No term matches “${input.value.trim()}”.`;
      else status.textContent = `${shown} of ${items.length} terms match.`;
      empty.hidden = !(words.length && !shown);
    };

    input.addEventListener("input", () => {
      apply();
      writeIndexState(input.value.trim(), view);
    });
    for (const button of viewButtons) {
      button.addEventListener("click", () => {
        showView(button.dataset.glossaryView);
        apply();
        writeIndexState(input.value.trim(), view);
      });
    }
    box.querySelector("[data-glossary-clear]").addEventListener("click", () => {
      input.value = "";
      apply();
      writeIndexState("", view);
      input.focus();
    });
    box.querySelector("[data-glossary-search-site]").addEventListener("click", () => openSiteSearch(input.value.trim()));

    const params = new URLSearchParams(window.location.search);
    input.value = params.get("filter") || input.value;
    showView(params.get("view") || (window.location.hash === "#a-z" ? "a-z" : "category"));
    box.hidden = false;
    apply();
  }
}

// Start ------------------------------------------------------------------------------------

// "Copy as Python" and "Cite" on a term page's numbers (quantities.mjs): imported once, on the
// first page that has numbers, and mounted again on each such page.
let quantities = null;

function mountQuantities() {
  if (!document.querySelector(".roofline-quantity[data-quantity]")) return;
  quantities ||= import("./quantities.mjs");
  quantities
    .then((module) => module.mount())
    .catch((error) => {
      quantities = null;
      console.warn("Copying a number as Python is unavailable:", error);
    });
}

listen();
if (typeof document$ !== "undefined") {
  // Material emits on the first page and after every instant navigation.
  document$.subscribe(() => {
    preview.hide();
    mountFilters();
    mountQuantities();
  });
} else {
  mountFilters();
  mountQuantities();
}
