// Figures arrive as images of their SVG files (roofline_site/figures/html.py): lazy, sized, and
// cached across pages. An image cannot read the page's CSS variables, so as each figure nears
// the viewport this puts the SVG itself in the image's place, and the palette colours it in
// light and dark. The file is the build's own, from this site; it holds no script, and the
// site's Content-Security-Policy would refuse one. If it cannot be fetched, the image stays.

import { whenNear } from "../lazy/near-viewport.mjs";

const SVG_NS = "http://www.w3.org/2000/svg";
const IMAGES = ".roofline-figure__plot > img.roofline-figure__img";
// The id prefix in every figure file; each figure on a page gets its own (data-svg-id-prefix).
const FILE_ID_PREFIX = "rfid-";

let stopWatching = () => {};

function inlineAll() {
  stopWatching();
  stopWatching = whenNear([...document.querySelectorAll(IMAGES)], inline);
}

async function inline(image) {
  const plot = image.parentElement;
  try {
    const response = await fetch(image.src);
    if (!response.ok) {
      return;
    }
    const text = (await response.text()).replaceAll(FILE_ID_PREFIX, plot.dataset.svgIdPrefix);
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    if (svg.namespaceURI !== SVG_NS || svg.localName !== "svg" || !image.isConnected) {
      return;
    }
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", image.alt);
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = plot.dataset.svgTitle;
    const desc = document.createElementNS(SVG_NS, "desc");
    desc.textContent = image.alt;
    svg.prepend(title, desc);
    image.replaceWith(document.importNode(svg, true));
    plot.dataset.inlined = "";
  } catch (error) {
    // Offline with the file uncached, or a parse error: the image keeps showing the figure.
    console.warn(`roofline figure: kept the image of ${image.src}: ${error.message}`);
  }
}

if (typeof document$ !== "undefined") {
  // Material emits on the first page and after every instant navigation.
  document$.subscribe(inlineAll);
} else {
  inlineAll();
}
