// One rule for "the reader is about to see this": a screen ahead of the viewport, so a reader
// scrolling at a normal pace never watches a swap happen. Used by the figures (their SVG replaces
// the image) and by the term pages' calculators (the whole calculator replaces its summary).
// And one for "the reader sees this": any of it inside the viewport (a term page's calculator
// starts its Python when idle only then, calculator.mjs).

const AHEAD = "100% 0px";
const IN_VIEW = "0px";

/**
 * Call `onNear(element)` once for each of `elements` as it comes within a screen of the viewport
 * (at once where IntersectionObserver is missing). Returns a function that stops watching.
 */
export function whenNear(elements, onNear) {
  return watch(elements, onNear, AHEAD);
}

/**
 * Call `onSeen(element)` once for each of `elements` as some of it enters the viewport (at once
 * where IntersectionObserver is missing). Returns a function that stops watching.
 */
export function whenInView(elements, onSeen) {
  return watch(elements, onSeen, IN_VIEW);
}

function watch(elements, onSeen, rootMargin) {
  if (!("IntersectionObserver" in window)) {
    elements.forEach(onSeen);
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          onSeen(entry.target);
        }
      }
    },
    { rootMargin },
  );
  elements.forEach((element) => observer.observe(element));
  return () => observer.disconnect();
}
