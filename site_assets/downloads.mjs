// Downloads of tables, charts and figures (roofline_site/downloads.py writes the links). The CSV
// and figure SVG links are files of the site and work without this script. Here the browser does
// what only it can: it points a calculator's CSV links at the live result's text (computed by
// roofline_core in the worker; nothing is computed here), saves a live chart as a stand-alone
// SVG, and draws any chart or figure as a PNG at twice its size, from the same SVG, on a canvas.
// The PNG's image is a blob: URL of that SVG; the CSP's img-src allows blob: for it alone.

const SVG_NS = "http://www.w3.org/2000/svg";
const PNG_SCALE = 2;
// What the site's style sheet sets on a chart's shapes and text: copied into the saved SVG as
// presentation attributes, so it looks as it does on the page, in the page's palette, anywhere.
const PAINTED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "visibility",
  "display",
];
const BUTTONS = '[data-download="chart-svg"], [data-download="chart-png"], [data-download="figure-png"]';
const pointed = new WeakMap();

/** Show the buttons this script serves inside `scope` (they are hidden in the markup). */
export function enableDownloads(scope = document) {
  for (const button of scope.querySelectorAll(BUTTONS)) {
    button.hidden = false;
  }
}

/** Point a download link at `text` (a CSV the worker returned) instead of the built file. */
export function pointAt(link, text) {
  if (!link || typeof text !== "string") {
    return;
  }
  const previous = pointed.get(link);
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  link.href = url;
  pointed.set(link, url);
  if (previous) {
    URL.revokeObjectURL(previous);
  }
}

function save(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its bytes once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function viewBoxSize(svg) {
  const box = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
  return box.length === 4 && box[2] > 0 && box[3] > 0 ? { width: box[2], height: box[3] } : null;
}

/** A chart on the page as stand-alone SVG text: its look copied from the page's style sheet. */
function chartSvgText(svg) {
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  originals.forEach((element, index) => {
    const style = getComputedStyle(element);
    for (const name of PAINTED) {
      const value = style.getPropertyValue(name);
      if (value) {
        copies[index].setAttribute(name, value);
      }
    }
    copies[index].removeAttribute("class");
  });
  const size = viewBoxSize(svg);
  copy.setAttribute("xmlns", SVG_NS);
  if (size) {
    copy.setAttribute("width", String(size.width));
    copy.setAttribute("height", String(size.height));
    // The page's background behind it, so text in the dark palette stays readable elsewhere.
    const background = document.createElementNS(SVG_NS, "rect");
    background.setAttribute("width", "100%");
    background.setAttribute("height", "100%");
    background.setAttribute("fill", getComputedStyle(svg).getPropertyValue("--md-default-bg-color").trim() || "#ffffff");
    const title = copy.querySelector(":scope > title");
    (title ? title.after.bind(title) : copy.prepend.bind(copy))(background);
  }
  return new XMLSerializer().serializeToString(copy);
}

async function pngOf(svgText) {
  const parsed = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  const size = viewBoxSize(parsed);
  if (parsed.localName !== "svg" || !size) {
    throw new Error("the drawing has no viewBox to size the picture by");
  }
  const width = Math.round(size.width * PNG_SCALE);
  const height = Math.round(size.height * PNG_SCALE);
  parsed.setAttribute("width", String(width));
  parsed.setAttribute("height", String(height));
  const url = URL.createObjectURL(
    new Blob([new XMLSerializer().serializeToString(parsed)], { type: "image/svg+xml" }),
  );
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    canvas.getContext("2d").drawImage(image, 0, 0, width, height);
    return await new Promise((resolve, reject) =>
      canvas.toBlob((png) => (png ? resolve(png) : reject(new Error("the canvas gave no PNG"))), "image/png"),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function figureSvgText(button) {
  const link = button.closest(".roofline-downloads").querySelector('[data-download="figure-svg"]');
  const response = await fetch(link.href);
  if (!response.ok) {
    throw new Error(`${link.href}: ${response.status}`);
  }
  return { text: await response.text(), stem: link.download.replace(/\.svg$/, "") };
}

async function onClick(event) {
  const button = event.target.closest?.(BUTTONS);
  if (!button) {
    return;
  }
  const kind = button.dataset.download;
  try {
    if (kind === "figure-png") {
      const { text, stem } = await figureSvgText(button);
      save(await pngOf(text), `${stem}.png`);
      return;
    }
    const calculator = button.closest("[data-calculator]");
    const chart = calculator?.querySelector("[data-chart-box] svg");
    if (!chart) {
      return;
    }
    const text = chartSvgText(chart);
    const stem = `${calculator.dataset.calculator}-chart`;
    if (kind === "chart-svg") {
      save(new Blob([text], { type: "image/svg+xml" }), `${stem}.svg`);
    } else {
      save(await pngOf(text), `${stem}.png`);
    }
  } catch (error) {
    console.warn(`roofline download: ${kind} failed: ${error.message}`);
  }
}

if (!globalThis.__rooflineDownloads) {
  // One listener for the page's life: Material's instant navigation swaps the content under it.
  globalThis.__rooflineDownloads = true;
  document.addEventListener("click", onClick);
}
if (typeof document$ !== "undefined") {
  document$.subscribe(() => enableDownloads());
} else {
  enableDownloads();
}
