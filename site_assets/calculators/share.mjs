// "Copy link", "Copy embed code", "Copy as Python" and "Cite": the addresses and the data
// version come from the build (absolute, from site_url; roofline_core.version); only the
// scenario's inputs are added here.

/** The link to share: the page's published address and the current query string. */
export function shareLink(shareUrl) {
  return shareUrl + window.location.search;
}

/**
 * The embed code with the scenario in the frame's address. `template` is the build's code for
 * the embed page at `src` (roofline_site/calculators/embed.py), where `src="<src>"` appears once.
 * @param {Record<string, string>} values The calculator's own inputs (unprefixed, as on its embed page).
 */
export function embedCode(template, src, values) {
  const query = new URLSearchParams(values).toString();
  const address = query ? `${src}?${query}` : src;
  return template.replace(`src="${escapeAttribute(src)}"`, `src="${escapeAttribute(address)}"`);
}

function escapeAttribute(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Copy `text`; where the page may not (a cross-origin frame without clipboard permission, an
 * old browser), show it selected in `box` for the reader to copy. Returns what happened.
 * @returns {Promise<"copied" | "shown">}
 */
export async function copyOrShow(text, box) {
  try {
    await navigator.clipboard.writeText(text);
    box.hidden = true;
    return "copied";
  } catch {
    box.value = text;
    box.hidden = false;
    box.focus();
    box.select();
    return "shown";
  }
}

/**
 * The Python that reproduces the calculator's results: roofline_core's own `compute` call with
 * the scenario's inputs (those that differ from the calculator's defaults, as the form holds
 * them), printing every output as the page shows it. JSON string literals are Python literals.
 * @param {{id: string, title: string, values: Record<string, string>, version: string, link: string}} scenario
 */
export function pythonSnippet({ id, title, values, version, link }) {
  return [
    `# ${title}: Roofline Glossary, data version ${version}`,
    `# ${link}`,
    "from roofline_core.calculators import compute",
    "",
    `result = compute(${JSON.stringify(id)}, {${Object.entries(values)
      .map(([key, text]) => `${JSON.stringify(key)}: ${JSON.stringify(text)}`)
      .join(", ")}})`,
    'for name, output in result["outputs"].items():',
    '    print(f"{name}: {output[\'text\']}")',
    "",
  ].join("\n");
}

/**
 * A short citation of the scenario: site, calculator, permalink, data version, date read.
 * @param {{title: string, link: string, version: string, date: Date}} scenario
 */
export function citation({ title, link, version, date }) {
  return `Roofline Glossary, "${title}", ${link} (data version ${version}, accessed ${date.toISOString().slice(0, 10)}).`;
}
