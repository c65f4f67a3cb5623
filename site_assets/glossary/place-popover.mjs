// Where a popover goes: under the text it belongs to, or above it when there is no room below;
// never past the screen's edges. Shared by the term previews (glossary.js) and the numbers'
// "Copy as Python" popover (quantities.mjs).

// Space between the text and its popover, and between a popover and the screen's edge.
const GAP_PX = 8;

/**
 * Position `popover` (absolutely positioned in the page) beside `anchor`'s first line box.
 * @param {HTMLElement} popover The popover, already shown (its size is read).
 * @param {Element} anchor The link or number it belongs to.
 */
export function placeBeside(popover, anchor) {
  const rects = anchor.getClientRects();
  const rect = rects.length ? rects[0] : anchor.getBoundingClientRect();
  const width = popover.offsetWidth;
  const height = popover.offsetHeight;
  const viewportWidth = document.documentElement.clientWidth;
  const left = Math.min(Math.max(GAP_PX, rect.left), Math.max(GAP_PX, viewportWidth - width - GAP_PX));
  const below = rect.bottom + GAP_PX;
  const fitsBelow = below + height <= window.innerHeight || rect.top - GAP_PX - height < 0;
  const top = fitsBelow ? below : rect.top - GAP_PX - height;
  popover.style.left = `${left + window.scrollX}px`;
  popover.style.top = `${top + window.scrollY}px`;
}
