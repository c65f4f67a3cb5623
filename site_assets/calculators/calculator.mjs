// Mount the calculators of a page: wire the prerendered form to the shared Pyodide worker.
//
// The build rendered every calculator with its results at its starting inputs
// (roofline_site/calculators/render.py); this module only moves inputs to the worker and the
// worker's answer back to the page. The answer is the result as the page shows it
// (roofline_core.view): texts, and element trees for the table and the chart. It holds no
// formula and no presentation rule.

import { currentEngine, retryEngine, startEngine, whenIdleAfterLoad } from "./engine.mjs";
import { BUILD_TOKEN } from "./runtime-urls.mjs";
import { sliderPosition, sliderValueText } from "./slider.mjs";
import { draw } from "./tree.mjs";
import { enableDownloads, pointAt } from "../downloads.mjs";
import { whenInView } from "../lazy/near-viewport.mjs";
import { citation, copyOrShow, embedCode, pythonSnippet, shareLink } from "./share.mjs";
import { PIN_PARAM, linkedInputIds, paramPrefix, readPinned, readUrlInputs, removeUrlInputs, writeUrlInputs } from "./url-state.mjs";

/** On an embed page, "Open the full page" carries the scenario shown in the frame. */
function showFullPageScenario() {
  for (const link of document.querySelectorAll("a[data-full-page-link]")) {
    link.href = link.dataset.fullPageLink + window.location.search;
  }
}

const STATUS = {
  idle: "Computed at build time by roofline_core. Live recalculation in your browser starts when you use the calculator.",
  loading: "Loading Python in your browser for live recalculation…",
  // Plain words for readers; how it runs (roofline_core in Pyodide) is told on the calculators' index page.
  live: "Live: recalculated in your browser.",
  invalid: "Fix the marked input; the results shown are for the last valid inputs.",
  // For a reader, not a developer: what they see and what to do. The technical reason goes to
  // the console.
  failed: "Showing precomputed values: live recalculation could not start. Check your connection, then retry.",
  stopped: "Showing precomputed values: Python stopped on an error it cannot recover from. Retry to start it again.",
  computeFailed: "This change could not be recalculated live; the results shown are for the last inputs that were. Retry, or change an input.",
  updating: "Updating: recalculating in your browser for the inputs shown…",
  comparing: "Comparing with the pinned scenario A…",
};

const mounted = new WeakSet();

// Reads of a model file's first bytes, at most: roofline_core doubles each (1 MiB, 2 MiB, ...)
// up to its header limit (64 MiB for GGUF), so a real header never needs this many.
const MAX_HEADER_READS = 12;
// When the header could not be read at all (Python did not start, or stopped).
const FILE_UNREAD =
  "This file's header could not be read here: live recalculation is needed for it. Retry, or paste the model's config.json instead.";

/**
 * Whether a chosen or dropped file is JSON text (a config.json) rather than a binary model file:
 * its first non-blank character is "{". A GGUF file starts with "GGUF", a safetensors shard with
 * its header's length.
 */
async function looksLikeJson(file) {
  if (/\.(gguf|safetensors)$/i.test(file.name)) {
    return false;
  }
  const start = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  const first = start.find((byte) => ![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].includes(byte));
  return first === undefined || first === 0x7b;
}

/**
 * Mount every calculator under `scope` that is not mounted yet (safe to call repeatedly). Only
 * roots the build rendered: they carry its token (runtime-urls.mjs); any other is left inert.
 */
export function mountAll(scope) {
  const roots = [...scope.querySelectorAll("[data-calculator]")].filter((root) => root.dataset.buildToken === BUILD_TOKEN);
  for (const [index, root] of roots.entries()) {
    if (!mounted.has(root)) {
      mounted.add(root);
      // 1 for the first calculator of its kind on the page, 2 for a second identical one, ...
      const occurrence = roots.slice(0, index + 1).filter((other) => other.dataset.calculator === root.dataset.calculator).length;
      new CalculatorView(root, roots.length, occurrence);
    }
  }
}

class CalculatorView {
  constructor(root, calculatorsOnPage, occurrence) {
    this.root = root;
    this.id = root.dataset.calculator;
    // The chart's SVG and PNG buttons work once this script runs (site_assets/downloads.mjs).
    enableDownloads(root);
    const island = JSON.parse(root.querySelector("[data-calculator-data]").dataset.calculatorData);
    this.definition = island.definition;
    this.fields = new Map(this.definition.inputs.map((field) => [field.id, field]));
    // Fields shown only under some choices (custom sizes, the config box): roofline_core's data.
    this.conditions = this.definition.conditions ?? {};
    // For each config box: the text last read by Python and the short code a link carries for it.
    this.configCodes = new Map();
    // For each config box, the model file being read into it (a newer file or an edit replaces it).
    this.fileReads = new Map();
    this.initial = { ...island.inputs };
    this.defaults = { ...island.defaults };
    // The line "Copy as Python" starts with: where pip gets roofline_core (roofline_site/wheel.py).
    this.install = island.install;
    // Scenarios with a preview page (a card showing their result when the link is pasted in a
    // chat or blog), by their inputs that differ from the defaults, sorted (scenario_cards.py).
    this.previews = island.previews ?? {};
    this.state = { ...island.inputs };
    // Per input, the last value Python accepted (the build's are valid) and the value it last
    // refused: a link, a pin or an embed never carries a refused value (issue 30).
    this.accepted = { ...island.inputs };
    this.refused = new Map();
    this.prefix = paramPrefix(this.id, calculatorsOnPage, occurrence);
    this.controls = new Map();
    this.sliders = new Map();
    this.errors = new Map();
    this.fieldBoxes = new Map();
    for (const id of this.fields.keys()) {
      this.fieldBoxes.set(id, root.querySelector(`[data-field="${CSS.escape(id)}"]`));
      this.controls.set(id, root.querySelector(`[name="${CSS.escape(id)}"]`));
      this.sliders.set(id, root.querySelector(`[data-slider-for="${CSS.escape(id)}"]`));
      this.errors.set(id, root.querySelector(`[data-error-for="${CSS.escape(id)}"]`));
    }
    this.outputs = [...root.querySelectorAll("[data-output]")];
    this.results = root.querySelector(".roofline-calc__results");
    this.notice = root.querySelector("[data-notice]");
    this.status = root.querySelector("[data-status]");
    this.copyButton = root.querySelector("[data-copy-link]");
    this.copyEmbedButton = root.querySelector("[data-copy-embed]");
    this.copyPythonButton = root.querySelector("[data-copy-python]");
    this.citeButton = root.querySelector("[data-copy-cite]");
    // Shown once the calculator can go live, hidden again while it has failed.
    this.pinButton = root.querySelector("[data-pin]");
    this.unpinButton = root.querySelector("[data-unpin]");
    this.compareBox = root.querySelector("[data-compare-box]");
    // A -> B of the main number, at the top of the results while comparing.
    this.compareSummaryBox = root.querySelector("[data-compare-summary-box]");
    // At the top: why live recalculation is not running, with Retry.
    this.failureBox = root.querySelector("[data-failure]");
    // Says which inputs the results are for when they are not those in the fields.
    this.resultsFor = root.querySelector("[data-results-for]");
    // The scenario line under the headline and chart: each value follows its field.
    this.scenarioValues = new Map(
      [...root.querySelectorAll("[data-scenario-for]")].map((link) => [link.dataset.scenarioFor, link.querySelector("[data-scenario-value]")]),
    );
    // Scenario A's inputs (those that differ from the defaults, as a link names them) while the
    // reader compares, else null. Python compares it with the form's inputs on every result.
    this.pinned = null;
    this.copyButtons = [this.copyButton, this.copyEmbedButton, this.copyPythonButton, this.citeButton, this.pinButton];
    this.copyFeedback = root.querySelector("[data-copy-feedback]");
    this.copyText = root.querySelector("[data-copy-text]");
    this.retryButton = root.querySelector("[data-retry]");
    this.inFlight = false;
    this.dirty = false;
    this.waiting = false;
    // The inputs the results on screen are for: the build's until a live result arrives.
    this.shownFor = { ...island.inputs };
    // Fields a paste filled, by field id: { from: the pasted field, before: the value the field
    // had before the paste }. The paste owns them until it changes or the reader edits them.
    this.pasted = new Map();
    // By pasted field: the fields its current text names that the reader has edited since.
    this.takenOver = new Map();
    // What a reader typed or chose before this module ran: the controls were already on the page.
    const early = this.earlyInputs();

    this.foldMoreInputsWhenNarrow();
    this.bind();
    const engine = currentEngine();
    this.setStatus(engine?.state === "live" ? STATUS.live : STATUS.idle);
    // The engine's state on the root, for styling and for tests: idle, loading, live, failed.
    this.root.dataset.engine = engine ? engine.state : "idle";
    if (engine) {
      // An engine that failed already reports it through wake(), after the link's values are
      // in the fields: they stay there, and the results say which inputs they are for.
      this.wake();
    }
    this.restoreFromUrl(early);
    this.showScenario();
    this.startCompactIfEmbedded();
    showFullPageScenario();
  }

  /**
   * An embed page starts compact (roofline_site's data-size): the key inputs, those the link
   * changed, the headline and the chart; "More" shows the rest. `size=full` in its link shows
   * everything from the start.
   */
  startCompactIfEmbedded() {
    const toggle = this.root.querySelector("[data-size-toggle]");
    if (!toggle) {
      return;
    }
    const more = this.root.querySelector("[data-more-inputs]");
    if (new URLSearchParams(window.location.search).get("size") === "full") {
      this.root.dataset.size = "full";
    } else if (more) {
      // Folded fields at their defaults go; those a link changed stay in view.
      more.open = true;
      for (const box of more.querySelectorAll("[data-field]")) {
        const id = box.dataset.field;
        box.toggleAttribute("data-compact-hidden", String(this.state[id]) === String(this.defaults[id]));
      }
    }
    const show = (full) => {
      this.root.dataset.size = full ? "full" : "compact";
      toggle.setAttribute("aria-expanded", String(full));
      toggle.textContent = full ? "Less: the compact view" : "More: every input, result and the table";
    };
    show(this.root.dataset.size === "full");
    toggle.addEventListener("click", () => show(this.root.dataset.size !== "full"));
    toggle.hidden = false;
  }

  /** Write each scenario input's value (a choice's label, or the box's text) in the scenario line. */
  showScenario() {
    for (const [id, value] of this.scenarioValues) {
      const field = this.fields.get(id);
      value.textContent = field.kind === "choice" ? (this.selectedChoice(id)?.label ?? this.state[id]) : this.state[id];
    }
  }

  /**
   * `{input id: value}` of the controls whose value is not the one the build wrote: typed,
   * chosen or slid before the listeners existed. A text box's or a select's default is its markup.
   */
  earlyInputs() {
    const early = {};
    for (const [id, control] of this.controls) {
      const written =
        control.tagName === "SELECT" ? ([...control.options].find((option) => option.defaultSelected) ?? control.options[0])?.value : control.defaultValue;
      const slider = this.sliders.get(id);
      if (control.value !== written) {
        early[id] = control.value;
      } else if (slider && slider.value !== slider.defaultValue) {
        early[id] = sliderValueText(slider, this.fields.get(id));
      }
    }
    return early;
  }

  // --- wiring -------------------------------------------------------------------------------

  bind() {
    for (const [id, control] of this.controls) {
      if (this.fields.get(id).kind === "choice") {
        control.addEventListener("change", () => this.onChoice(id));
      } else {
        control.addEventListener("input", () => this.onNumber(id));
      }
    }
    for (const [id, slider] of this.sliders) {
      slider?.addEventListener("input", () => this.onSlider(id));
    }
    for (const picker of this.root.querySelectorAll("input[data-file-for]")) {
      picker.addEventListener("change", () => this.onFile(picker.dataset.fileFor, picker.files[0], Number(picker.dataset.maxChars)));
    }
    for (const box of this.root.querySelectorAll("[data-drop-for]")) {
      box.addEventListener("dragover", (event) => event.preventDefault());
      box.addEventListener("drop", (event) => {
        event.preventDefault();
        const picker = box.querySelector("input[data-file-for]");
        this.onFile(box.dataset.dropFor, event.dataTransfer.files[0], Number(picker.dataset.maxChars));
      });
    }
    // Start Python on the first sign of interest (focus, a pointer, a key; an input change
    // computes, which starts it too) or once the loaded page is idle: not on scroll-into-view.
    for (const type of ["focusin", "pointerdown", "keydown"]) {
      this.root.addEventListener(type, () => this.wake());
    }
    if ("placedLater" in this.root.dataset) {
      // A term page's calculator, placed while still below the fold (later.mjs): a reader of
      // the term may never reach it, so no runtime bytes until it is on screen.
      whenInView([this.root], () => whenIdleAfterLoad(() => this.wake({ idle: true })));
    } else {
      whenIdleAfterLoad(() => this.wake({ idle: true }));
    }
    // Table rows are redrawn on every result, so listen on the root for their buttons.
    this.root.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-choose]");
      if (button && this.root.contains(button) && !button.disabled) {
        this.onChoose(button);
      }
    });
    this.copyButton.addEventListener("click", () => this.copy(this.shareAddress(), "Link"));
    this.copyEmbedButton.addEventListener("click", () =>
      this.copy(embedCode(this.root.dataset.embedCode, this.root.dataset.embedSrc, this.urlValues(this.defaults)), "Embed code"),
    );
    this.copyPythonButton.addEventListener("click", () => this.copy(pythonSnippet(this.scenario()), "Python"));
    this.citeButton.addEventListener("click", () => this.copy(citation({ ...this.scenario(), date: new Date() }), "Citation"));
    this.pinButton.addEventListener("click", () => this.pin(this.urlValues(this.defaults)));
    this.unpinButton.addEventListener("click", () => this.unpin());
    for (const button of this.copyButtons) {
      button.hidden = false;
    }
    this.retryButton.addEventListener("click", () => this.retry());
    for (const link of this.root.querySelectorAll("[data-scenario-for]")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.revealField(link.dataset.scenarioFor);
      });
    }
    this.notice.querySelector("[data-notice-dismiss]").addEventListener("click", () => {
      this.notice.hidden = true;
    });
  }

  /**
   * On a narrow screen (the layout is one column: the CSS decides, this only reads it), fold
   * "More inputs" so the answer sits right under the key inputs.
   */
  foldMoreInputsWhenNarrow() {
    const more = this.root.querySelector("[data-more-inputs]");
    const layout = this.root.querySelector(".roofline-calc__layout");
    if (more && layout && getComputedStyle(layout).gridTemplateColumns.trim().split(/\s+/).length === 1) {
      more.open = false;
    }
  }

  /** Unfold (or, in a compact embed, show) the field `id` and focus it: a scenario link's target. */
  revealField(id) {
    const box = this.fieldBoxes.get(id);
    box.removeAttribute("data-compact-hidden");
    const folded = box.closest("details:not([open])");
    if (folded) {
      folded.open = true;
    }
    this.controls.get(id).focus();
  }

  /** Start Python (once per visit); `idle`: the idle start, which no reader waits for. */
  wake({ idle = false } = {}) {
    const engine = startEngine({ readerWaiting: !idle });
    if (this.waiting) {
      return engine;
    }
    this.waiting = true;
    if (engine.state === "loading") {
      this.setStatus(STATUS.loading);
    }
    this.root.dataset.engine = engine.state;
    engine.ready.then(
      () => {
        this.root.dataset.engine = "live";
        // Live only for results of exactly the inputs shown; a pending compute says so itself.
        if (!["invalid", "computing"].includes(this.root.dataset.state) && this.showsCurrentInputs()) {
          this.setStatus(STATUS.live);
        }
      },
      () => {},
    );
    // Failing to start and failing later (a fatal error in Python) both end here; onFailed says which.
    engine.failed.then((reason) => this.onFailed(reason));
    return engine;
  }

  // --- inputs -------------------------------------------------------------------------------

  onChoice(id) {
    this.edited(id);
    this.state[id] = this.controls.get(id).value;
    this.applyFills(id, new Set());
    this.showUsedFields();
    this.changed();
  }

  /**
   * A file chosen or dropped for a config box. A config.json's text goes in the box, read as if
   * pasted; a GGUF file or a safetensors shard is read from its header only (readModelFile).
   */
  async onFile(id, file, maxChars) {
    if (!file) {
      return;
    }
    if (!(await looksLikeJson(file))) {
      await this.readModelFile(id, file);
      return;
    }
    // One character past the limit is enough for roofline_core to say the file is too large.
    const text = await file.slice(0, maxChars + 1).text();
    this.edited(id);
    this.state[id] = text;
    this.controls.get(id).value = text;
    this.changed();
  }

  /**
   * Read a model file's header in Python and show what it held under the box. Never the whole
   * file: each read is the file's first bytes (`File.slice`), as many as roofline_core asks for
   * (its first answer, for no bytes, names the first read; a long header asks for more, up to
   * the reader's limit). A GGUF file that makes a model puts its code in the box, so every
   * estimate uses the file's exact bytes; the link carries that code, not the file.
   */
  async readModelFile(id, file) {
    this.edited(id);
    const reading = {};
    this.fileReads.set(id, reading);
    this.showFileNote(id, { text: `Reading the header of ${file.name}…` });
    const engine = this.wake();
    let answer = { status: "need_more", read_bytes: 0 };
    try {
      let size = -1;
      for (let reads = 0; answer.status === "need_more" && reads <= MAX_HEADER_READS; reads++) {
        if (!(answer.read_bytes > size)) {
          throw new Error(`asked again for ${answer.read_bytes} bytes`);
        }
        size = answer.read_bytes;
        answer = await engine.readModelFile(await file.slice(0, size).arrayBuffer(), file.size, file.name);
      }
    } catch (error) {
      console.warn("roofline: reading a model file failed:", error);
      answer = { status: "error", message: FILE_UNREAD };
    }
    if (this.fileReads.get(id) !== reading) {
      return; // the reader chose another file or typed in the box meanwhile
    }
    if (answer.status === "need_more") {
      answer = { status: "error", message: FILE_UNREAD };
    }
    if (answer.status === "error") {
      this.showFileNote(id, { problem: answer.message });
      return;
    }
    if (answer.code) {
      this.state[id] = answer.code;
      this.controls.get(id).value = answer.code;
      this.changed();
    }
    this.showFileNote(id, { text: answer.summary, detail: answer.note });
  }

  /** Under the config box: what a dropped file held (`text`, `detail`), a `problem`, or nothing. */
  showFileNote(id, note) {
    const box = this.root.querySelector(`[data-file-note-for="${CSS.escape(id)}"]`);
    if (!box) {
      return;
    }
    const children = [];
    if (note) {
      children.push(note.problem ?? note.text);
      if (note.detail) {
        const detail = document.createElement("span");
        detail.textContent = note.detail;
        children.push(detail);
      }
    }
    box.replaceChildren(...children);
    box.toggleAttribute("data-problem", Boolean(note?.problem));
    box.hidden = !note;
  }

  /**
   * Show each field that matters only under some choices (a custom model's sizes under Custom,
   * the config box under "From a config.json") only then: roofline_core's conditions, as data.
   */
  showUsedFields() {
    for (const [id, condition] of Object.entries(this.conditions)) {
      this.fieldBoxes.get(id).hidden = !this.isShown(id, condition);
    }
  }

  isShown(id, condition = this.conditions[id]) {
    return !condition || condition.values.includes(this.state[condition.select]);
  }

  onNumber(id) {
    this.edited(id);
    this.state[id] = this.controls.get(id).value;
    this.syncSlider(id);
    this.changed();
  }

  onSlider(id) {
    this.edited(id);
    const text = sliderValueText(this.sliders.get(id), this.fields.get(id));
    this.controls.get(id).value = text;
    this.state[id] = text;
    this.syncSlider(id);
    this.changed();
  }

  /** Put the selected preset's numbers into the fields it fills (except those in `keep`). */
  applyFills(id, keep) {
    const choice = this.selectedChoice(id);
    for (const [target, number] of Object.entries(choice?.fills ?? {})) {
      if (!keep.has(target) && this.controls.has(target)) {
        this.edited(target);
        this.state[target] = String(number);
        this.controls.get(target).value = String(number);
        this.syncSlider(target);
      }
    }
  }

  selectedChoice(id) {
    return this.fields.get(id).choices.find((choice) => choice.value === this.state[id]) ?? null;
  }

  syncSlider(id) {
    const slider = this.sliders.get(id);
    if (!slider) {
      return;
    }
    const field = this.fields.get(id);
    const typed = Number(String(this.state[id]).trim().replace(/[,_]/g, ""));
    if (Number.isFinite(typed) && (slider.dataset.scale === "linear" || typed > 0)) {
      slider.value = String(sliderPosition(slider, typed));
    }
    slider.setAttribute("aria-valuetext", `${this.state[id]} ${field.unit || ""}`.trim());
  }

  /** Show `raw` in the control of `id`; a select keeps its option when `raw` is none of them. */
  setControl(id, raw) {
    const control = this.controls.get(id);
    if (this.fields.get(id).kind === "choice") {
      if ([...control.options].some((option) => option.value === raw)) {
        control.value = raw;
      }
    } else {
      control.value = raw;
      this.syncSlider(id);
    }
  }

  changed() {
    this.writeUrl();
    this.requestCompute();
  }

  // --- URL ----------------------------------------------------------------------------------

  restoreFromUrl(early = {}) {
    const linked = linkedInputIds(this.fields);
    const pinned = readPinned(linked, this.prefix);
    if (pinned) {
      this.showPinned(pinned);
    }
    // What the reader typed before this module ran is newer than the link the page opened with.
    const fromUrl = { ...readUrlInputs(linked, this.prefix), ...early };
    // A choice the link names that is not one of the field's (a typo, an old preset) keeps
    // the field's starting choice, with a notice; the rest of the link's scenario still applies.
    const notices = [];
    for (const [id, raw] of Object.entries(fromUrl)) {
      const field = this.fields.get(id);
      if (field.kind === "choice" && !field.choices.some((choice) => choice.value === raw) && !(id in early)) {
        delete fromUrl[id];
        removeUrlInputs([id], this.prefix);
        notices.push(`${field.label} from the link is not one of the choices (got '${raw}'); showing ${this.selectedChoice(id).label} instead.`);
      }
    }
    if (notices.length) {
      this.notice.querySelector("[data-notice-text]").textContent = notices.join(" ");
      this.notice.hidden = false;
    }
    if (!Object.keys(fromUrl).length) {
      if (pinned) {
        this.requestCompute();
      }
      return;
    }
    for (const [id, raw] of Object.entries(fromUrl)) {
      this.state[id] = raw;
      this.setControl(id, raw);
    }
    this.showUsedFields();
    // A preset named in the link fills the fields the link does not name itself.
    for (const id of Object.keys(fromUrl)) {
      if (this.fields.get(id).kind === "choice") {
        this.applyFills(id, new Set(Object.keys(fromUrl)));
      }
    }
    if (Object.keys(early).length) {
      // A link to the page names what the reader typed early, as it would had they typed later.
      this.writeUrl();
    }
    if (this.differsFromInitial() || pinned) {
      // The prerendered results are for other inputs: hide them until Python has the answer.
      this.requestCompute();
    }
  }

  writeUrl() {
    const values = this.urlValues(this.initial);
    if (this.pinned) {
      // A's inputs in one parameter, as a query string of their own: `pin=batch%3D1`.
      values[PIN_PARAM] = new URLSearchParams(this.pinned).toString();
    }
    writeUrlInputs([...this.fields.keys(), PIN_PARAM], this.prefix, values);
    showFullPageScenario();
    // Every change of the fields (typed, chosen, filled by a paste or a preset) writes the URL.
    this.showScenario();
  }

  // --- comparing ----------------------------------------------------------------------------

  /** Pin `values` (inputs as a link names them) as scenario A; the form goes on as B. */
  pin(values) {
    this.showPinned(values);
    this.writeUrl();
    this.requestCompute();
  }

  showPinned(values) {
    this.pinned = values;
    this.pinButton.textContent = "Pin these inputs as A";
    this.unpinButton.hidden = false;
    if (!this.compareBox.hasChildNodes()) {
      const waiting = document.createElement("p");
      waiting.textContent = STATUS.comparing;
      this.compareBox.replaceChildren(waiting);
    }
    this.compareBox.hidden = false;
  }

  unpin() {
    this.compareSummaryBox.hidden = true;
    this.compareSummaryBox.replaceChildren();
    this.pinned = null;
    this.pinButton.textContent = "Pin as A to compare";
    this.unpinButton.hidden = true;
    this.compareBox.hidden = true;
    this.compareBox.replaceChildren();
    this.writeUrl();
    this.pinButton.focus();
  }

  /**
   * The address "Copy link" gives: the scenario's preview page where the build made one (it
   * forwards to the same scenario), else the page's address with the scenario's query.
   */
  shareAddress() {
    if (!this.pinned) {
      const changed = Object.entries(this.urlValues(this.defaults)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const key = new URLSearchParams(changed).toString();
      if (Object.hasOwn(this.previews, key)) return this.previews[key];
    }
    return shareLink(this.root.dataset.shareUrl);
  }

  /** What "Copy as Python" and "Cite" name: the calculator, its inputs, the link, the data version. */
  scenario() {
    return {
      id: this.id,
      title: this.definition.title,
      values: this.urlValues(this.defaults),
      version: this.root.dataset.dataVersion,
      install: this.install,
      link: shareLink(this.root.dataset.shareUrl),
      inputs: this.definition.inputs,
      outputs: this.definition.outputs ?? [],
    };
  }

  /**
   * The inputs a link carries, by input id (without this page's prefix): those that differ
   * from `baseline`, the inputs the linked page starts with, so a link stays short and says
   * what the reader changed.
   */
  urlValues(baseline) {
    const values = {};
    for (const id of this.fields.keys()) {
      // A field hidden under the current choices (a custom size beside a preset) stays out.
      if (!this.isShown(id)) {
        continue;
      }
      if (this.fields.get(id).linked === false) {
        // Pasted benchmark output stays on the page: the fields it filled carry the scenario.
        continue;
      }
      if (this.fields.get(id).kind === "config") {
        // A link carries the short code of the config Python last read, never the pasted file.
        const read = this.configCodes.get(id);
        if (read && read.text === this.state[id]) {
          values[id] = read.code;
        }
        continue;
      }
      let value = this.state[id];
      if (this.refused.get(id) === String(value)) {
        // Python refused it: the link names the last value it accepted, which the results
        // still show, or leaves the input out when there was none.
        value = this.accepted[id];
        if (value === undefined) {
          continue;
        }
      }
      if (String(value) !== String(baseline[id])) {
        values[id] = value;
      }
    }
    return values;
  }

  async copy(text, what) {
    const done = await copyOrShow(text, this.copyText);
    this.copyFeedback.textContent = done === "copied" ? `${what} copied.` : `${what} selected below: copy it with Ctrl+C (⌘C).`;
    setTimeout(() => {
      this.copyFeedback.textContent = "";
    }, 4000);
  }

  differsFromInitial() {
    return !sameInputs(this.state, this.initial, this.fields.keys());
  }

  /** Whether the results on screen were computed from exactly the inputs the form shows. */
  showsCurrentInputs() {
    return sameInputs(this.state, this.shownFor, this.fields.keys());
  }

  // --- fields a paste filled ----------------------------------------------------------------

  /**
   * The reader (or a preset, or a table row) sets `id`: a field a paste filled becomes the
   * reader's, and a paste whose text changes hands back every field it filled, so the next
   * result fills only what the new text names.
   */
  edited(id) {
    const owner = this.pasted.get(id);
    if (owner) {
      this.pasted.delete(id);
      this.markPasted(id, false);
      if (!this.takenOver.has(owner.from)) {
        this.takenOver.set(owner.from, new Set());
      }
      this.takenOver.get(owner.from).add(id);
    }
    if (this.fields.get(id).kind === "paste" || this.fields.get(id).kind === "config") {
      this.releasePaste(id);
    }
    if (this.fields.get(id).kind === "config") {
      // What a dropped file held no longer describes the box once the reader changes it.
      this.fileReads.delete(id);
      this.showFileNote(id, null);
    }
  }

  /** Put back what each field filled by the paste in `from` held before it. */
  releasePaste(from) {
    this.takenOver.delete(from);
    let released = false;
    for (const [id, owner] of [...this.pasted]) {
      if (owner.from === from) {
        this.pasted.delete(id);
        this.markPasted(id, false);
        this.state[id] = owner.before;
        this.setControl(id, owner.before);
        released = true;
      }
    }
    if (released) {
      this.showUsedFields();
    }
  }

  /**
   * Write the values a paste proposes (roofline_core read and wrote them) into their boxes,
   * each marked as the paste's and remembering its earlier value. A field the same text filled
   * before and no longer names goes back; one the reader took over stays theirs. Returns
   * whether any box changed.
   */
  fillFromPaste(from, fills) {
    const kept = this.takenOver.get(from) ?? new Set();
    let changed = false;
    for (const [id, owner] of [...this.pasted]) {
      if (owner.from === from && !(id in fills)) {
        this.pasted.delete(id);
        this.markPasted(id, false);
        this.state[id] = owner.before;
        this.setControl(id, owner.before);
        changed = true;
      }
    }
    for (const [id, text] of Object.entries(fills)) {
      if (!this.controls.has(id) || kept.has(id)) {
        continue;
      }
      if (!this.pasted.has(id)) {
        this.pasted.set(id, { from, before: this.state[id] });
        this.markPasted(id, true);
      }
      if (String(this.state[id]) !== text) {
        this.state[id] = text;
        this.setControl(id, text);
        changed = true;
      }
    }
    if (changed) {
      this.showUsedFields();
    }
    return changed;
  }

  /** Show (or remove) the "from the paste" note of a field; the control is described by it. */
  markPasted(id, on) {
    const box = this.fieldBoxes.get(id);
    const control = this.controls.get(id);
    const noteId = `${control.id}-pasted`;
    let note = box.querySelector("[data-from-paste]");
    const described = (control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((part) => part && part !== noteId);
    box.classList.toggle("roofline-calc__field--pasted", on);
    if (on && !note) {
      note = document.createElement("span");
      note.className = "roofline-calc__from-paste";
      note.id = noteId;
      note.dataset.fromPaste = "";
      note.textContent = "from the paste";
      const label = box.querySelector(`label[for="${CSS.escape(control.id)}"]`);
      label.after(note);
    } else if (!on && note) {
      note.remove();
    }
    control.setAttribute("aria-describedby", (on ? [...described, noteId] : described).join(" "));
  }

  // --- computing ----------------------------------------------------------------------------

  requestCompute() {
    const engine = this.wake();
    if (engine.state === "failed") {
      return;
    }
    this.showPending();
    if (this.inFlight) {
      this.dirty = true;
      return;
    }
    this.run(engine);
  }

  run(engine) {
    this.inFlight = true;
    const sent = { ...this.state };
    engine
      .compute(this.id, sent, this.root.id, this.root.dataset.glossaryUrl, this.pinned)
      .then(
        (result) => this.apply(result, sent),
        (error) => {
          if (engine.state !== "failed") {
            console.warn(`roofline calculator ${this.id}: live calculation failed: ${error.message}`);
            this.setStatus(STATUS.computeFailed);
            this.showProblem(STATUS.computeFailed);
          }
        },
      )
      .finally(() => {
        this.inFlight = false;
        if (this.dirty && engine.state === "live") {
          this.dirty = false;
          this.run(engine);
        }
      });
  }

  /**
   * While Python computes (or starts), the results keep their values, dimmed and marked as
   * updating (the stylesheet reads data-state; assistive technology reads aria-busy).
   */
  showPending() {
    this.root.dataset.state = "computing";
    this.results.setAttribute("aria-busy", "true");
    if (this.root.dataset.engine === "live") {
      this.setStatus(STATUS.updating);
    }
  }

  /**
   * Note which of the `sent` values Python refused (`errors` by input id) and which it accepted;
   * true when it refused one not refused before, so the link must be written again without it.
   */
  judged(errors, sent) {
    let newlyRefused = false;
    for (const id of this.fields.keys()) {
      if (!(id in sent)) {
        continue;
      }
      if (errors[id]) {
        newlyRefused ||= this.refused.get(id) !== String(sent[id]);
        this.refused.set(id, String(sent[id]));
      } else {
        this.refused.delete(id);
        this.accepted[id] = sent[id];
      }
    }
    return newlyRefused;
  }

  /** Show roofline_core.view's view of a result: errors, output texts, table and chart. */
  apply(view, sent) {
    this.noteConfigs(view.configs ?? {}, sent);
    const from = view.fills_from;
    // Fills read from a paste the reader has changed since are stale: a newer result will come.
    if (from && this.controls.has(from) && sent[from] === this.state[from] && this.fillFromPaste(from, view.fills ?? {})) {
      this.writeUrl();
    }
    if (this.judged(view.errors ?? {}, sent)) {
      this.writeUrl();
    }
    if (!sameInputs(sent, this.state, this.fields.keys())) {
      // The form moved on (the reader typed, or a paste or a link's code filled it): these
      // results are for other inputs. Stay pending and compute what the form shows.
      this.showPending();
      this.dirty = true;
      return;
    }
    let invalid = false;
    for (const [id, errorEl] of this.errors) {
      const message = view.errors[id];
      const control = this.controls.get(id);
      errorEl.textContent = message ?? "";
      if (message) {
        invalid = true;
        control.setAttribute("aria-invalid", "true");
        // A field folded under "More inputs" is unfolded so its message can be read.
        const folded = control.closest("details:not([open])");
        if (folded) {
          folded.open = true;
        }
      } else {
        control.removeAttribute("aria-invalid");
      }
    }
    this.results.removeAttribute("aria-busy");
    if (invalid) {
      // The results keep the last good values (the prerendered ones if none was computed live).
      this.root.dataset.state = "invalid";
      this.setStatus(STATUS.invalid);
      return;
    }
    for (const el of this.outputs) {
      const output = view.outputs[el.dataset.output];
      if (output) {
        el.textContent = output.text;
        el.parentElement.classList.toggle("roofline-calc__output--prose", output.prose);
        const figureBox = el.parentElement.querySelector("[data-figure-for]");
        if (figureBox && output.figure) {
          figureBox.replaceChildren(draw(output.figure));
        }
        this.showParts(el.dataset.output, output.parts);
      }
    }
    const tableBox = this.root.querySelector("[data-table]");
    if (tableBox && view.table) {
      // Material wraps each table in scroll containers when the page loads: keep them, and
      // swap the box's attributes and the table's head and rows for the drawn ones.
      const drawn = draw(view.table);
      for (const [name, value] of Object.entries(view.table.attrs)) {
        tableBox.setAttribute(name, value);
      }
      // A reader who chose a row with the keyboard keeps focus on that row's button.
      const chosen = this.root.contains(document.activeElement) ? document.activeElement.closest("button[data-choose]") : null;
      tableBox.querySelector("table").replaceChildren(...drawn.querySelector("table").childNodes);
      if (chosen) {
        const again = tableBox.querySelector(
          `button[data-choose="${CSS.escape(chosen.dataset.choose)}"][data-value="${CSS.escape(chosen.dataset.value)}"]`,
        );
        again?.focus();
      }
    }
    const chartBox = this.root.querySelector("[data-chart-box]");
    if (chartBox && view.chart) {
      chartBox.replaceChildren(draw(view.chart));
    }
    // The CSV links save this result's table and chart, as roofline_core wrote them.
    pointAt(this.root.querySelector('[data-download="table-csv"]'), view.table_csv);
    pointAt(this.root.querySelector('[data-download="chart-csv"]'), view.chart_csv);
    if (this.pinned && view.compare) {
      this.compareBox.replaceChildren(draw(view.compare));
    }
    if (this.pinned && view.compare_summary) {
      this.compareSummaryBox.replaceChildren(draw(view.compare_summary));
      this.compareSummaryBox.hidden = false;
    }
    this.shownFor = sent;
    this.resultsFor.hidden = true;
    delete this.root.dataset.stale;
    this.root.dataset.state = "live";
    this.setStatus(STATUS.live);
  }

  /**
   * Remember the short code of each config Python read, and put it in the link. A box that
   * holds a link's code (not JSON) shows the fields it stands for, as JSON, instead.
   */
  /**
   * What an output's time is made of (roofline_core.view.parts), under the headline and chart,
   * or nothing: the parts shown always belong to the number shown. The build writes the box where
   * the defaults have parts; a result that brings parts to an output without one gets a new box
   * where the build would have put it, after the chart (or the headline).
   */
  showParts(id, parts) {
    let box = this.root.querySelector(`[data-parts-for="${CSS.escape(id)}"]`);
    if (!box && parts) {
      box = document.createElement("div");
      box.className = "roofline-calc__parts";
      box.dataset.partsFor = id;
      const after = this.root.querySelector("[data-chart-box]") ?? this.root.querySelector(".roofline-calc__outputs--headline");
      after.after(box);
    }
    if (!box) return;
    box.replaceChildren(...(parts ? [draw(parts)] : []));
    box.hidden = !parts;
  }

  noteConfigs(configs, sent) {
    let wrote = false;
    for (const [id, { code, text }] of Object.entries(configs)) {
      if (sent[id] !== this.state[id]) {
        continue; // the reader has typed since: a newer result will come
      }
      if (String(sent[id]).trim() === code) {
        this.state[id] = text;
        this.controls.get(id).value = text;
      }
      this.configCodes.set(id, { text: this.state[id], code });
      wrote = true;
    }
    if (wrote) {
      this.writeUrl();
    }
  }

  /** A table row's button sets its input, as if the reader had typed or chosen the value. */
  onChoose(button) {
    const id = button.dataset.choose;
    const value = button.dataset.value;
    this.edited(id);
    this.state[id] = value;
    this.setControl(id, value);
    if (this.fields.get(id).kind === "choice") {
      this.applyFills(id, new Set());
      this.showUsedFields();
    }
    this.changed();
  }

  // --- failure ------------------------------------------------------------------------------

  onFailed(reason) {
    // Without Python nothing can be recomputed. The fields keep what they hold (a link's
    // scenario, what the reader typed): resetting them would lose it. The results say which
    // inputs they are for when those are not the fields' (markStale).
    for (const [id, errorEl] of this.errors) {
      errorEl.textContent = "";
      this.controls.get(id).removeAttribute("aria-invalid");
    }
    const tableButtons = this.root.querySelectorAll("button[data-choose]");
    for (const control of [...this.controls.values(), ...this.sliders.values(), ...tableButtons]) {
      if (control) {
        control.disabled = true;
      }
    }
    this.results.removeAttribute("aria-busy");
    for (const button of [...this.copyButtons, this.unpinButton, this.compareBox, this.compareSummaryBox]) {
      button.hidden = true;
    }
    this.root.dataset.state = "failed";
    this.root.dataset.engine = "failed";
    console.warn(`roofline calculator ${this.id}: live recalculation could not start: ${reason}`);
    const stopped = currentEngine()?.fatal ? STATUS.stopped : STATUS.failed;
    this.setStatus(stopped);
    this.showProblem(stopped);
    this.markStale();
  }

  /** The notice at the top of the calculator, with its Retry: `text` says what went wrong. */
  showProblem(text) {
    this.failureBox.querySelector("[data-failure-text]").textContent = text;
    this.failureBox.hidden = false;
    this.retryButton.hidden = false;
  }

  /**
   * When the results on screen were computed for other inputs than the fields hold, say for
   * which: the build's (the page's starting inputs) or the last ones Python computed.
   */
  markStale() {
    if (this.showsCurrentInputs()) {
      return;
    }
    const differing = [...this.fields.keys()].filter((id) => this.isShown(id) && String(this.state[id]) !== String(this.shownFor[id]));
    const named = differing.map((id) => {
      const field = this.fields.get(id);
      const raw = this.shownFor[id];
      const shown = field.kind === "choice" ? (field.choices.find((choice) => choice.value === raw)?.label ?? raw) : `${raw} ${field.unit ?? ""}`.trim();
      return `${field.label} ${shown}`;
    });
    const whose = sameInputs(this.shownFor, this.initial, this.fields.keys()) ? "the page's starting inputs" : "the last inputs computed";
    this.resultsFor.textContent = `Not for the inputs shown: these results are for ${whose} (${named.join(", ")}).`;
    this.resultsFor.hidden = false;
    this.root.dataset.stale = "";
  }

  /** The reader's Retry: start the engine again if it failed, then recalculate the inputs shown. */
  retry() {
    this.retryButton.hidden = true;
    this.failureBox.hidden = true;
    if (this.root.dataset.state === "failed") {
      retryEngine();
      const tableButtons = this.root.querySelectorAll("button[data-choose]");
      for (const control of [...this.controls.values(), ...this.sliders.values(), ...tableButtons]) {
        if (control) {
          control.disabled = false;
        }
      }
      for (const button of this.copyButtons) {
        button.hidden = false;
      }
      if (this.pinned) {
        this.unpinButton.hidden = false;
        this.compareBox.hidden = false;
        this.compareSummaryBox.hidden = false;
      }
      this.waiting = false;
    }
    this.requestCompute();
  }

  setStatus(text) {
    this.status.textContent = text;
  }
}

/** Whether `a` and `b` hold the same text for every id in `ids` (the form's values are text). */
function sameInputs(a, b, ids) {
  return [...ids].every((id) => String(a[id]) === String(b[id]));
}
