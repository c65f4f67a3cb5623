// Embed pages only: tell the page that frames this one how tall its content is, so a blog can
// size the iframe to fit instead of guessing a height (docs/calculators/embedding.md shows the
// few lines the parent page needs). The height is not private, so any parent may read it.

export const HEIGHT_MESSAGE = "roofline-glossary:height";

function reportHeight() {
  window.parent.postMessage({ type: HEIGHT_MESSAGE, height: Math.ceil(document.documentElement.scrollHeight) }, "*");
}

if (window.parent !== window) {
  // Folding "More inputs", a new table or an error message all change the height.
  new ResizeObserver(reportHeight).observe(document.body);
  window.addEventListener("load", reportHeight);
}
