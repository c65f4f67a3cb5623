// Build DOM elements from an element tree that roofline_core.view computed (in Pyodide): the
// same trees the build wrote as markup, so a live chart or table is drawn exactly like the
// prerendered one. Only copying happens here: tags, attributes and texts arrive final, and text
// goes in as text nodes, never as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The element (or text node) for `tree`: `{tag, attrs, children}` or a string.
 * @param {object|string} tree A node of roofline_core.view.nodes.
 * @param {boolean} inSvg Whether the parent is SVG (an <svg> and all inside it are SVG elements).
 */
export function draw(tree, inSvg = false) {
  if (typeof tree === "string") {
    return document.createTextNode(tree);
  }
  const svg = inSvg || tree.tag === "svg";
  const element = svg ? document.createElementNS(SVG_NS, tree.tag) : document.createElement(tree.tag);
  for (const [name, value] of Object.entries(tree.attrs)) {
    element.setAttribute(name, value);
  }
  element.append(...tree.children.map((child) => draw(child, svg)));
  return element;
}
