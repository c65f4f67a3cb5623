// One rule for "the reader is about to see this": a screen ahead of the viewport, so a reader
// scrolling at a normal pace never watches a swap happen. Used by the figures (their SVG replaces
// the image) and by the term pages' calculators (the whole calculator replaces its summary).

const AHEAD = "100% 0px";

/**
 * Call `onNear(element)` once for each of `elements` as it comes within a screen of the viewport
 * (at once where IntersectionObserver is missing). Returns a function that stops watching.
 */
export function whenNear(elements, onNear) {
  if (!("IntersectionObserver" in window)) {
    elements.forEach(onNear);
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          onNear(entry.target);
        }
      }
    },
    { rootMargin: AHEAD },
  );
  elements.forEach((element) => observer.observe(element));
  return () => observer.disconnect();
}
