// Embed pages only: tell the page that frames this one how tall its content is, so a blog can
// size the iframe to fit instead of guessing a height (docs/calculators/embedding.md shows the
// few lines the parent page needs). The height is not private, so any parent may read it.

export const HEIGHT_MESSAGE = "roofline-glossary:height";

function reportHeight() {
  // The body's height, not the document's scroll height: that is never less than the frame, so
  // a frame once sized tall (before a compact embed hid its extras) could never shrink again.
  // The embed page's style sheet keeps the body as tall as its content.
  const height = Math.max(document.body.getBoundingClientRect().height, document.body.scrollHeight);
  window.parent.postMessage({ type: HEIGHT_MESSAGE, height: Math.ceil(height) }, "*");
}

if (window.parent !== window) {
  // Folding "More inputs", a new table or an error message all change the height.
  new ResizeObserver(reportHeight).observe(document.body);
  window.addEventListener("load", reportHeight);
}
