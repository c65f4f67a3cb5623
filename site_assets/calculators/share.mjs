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
 * them), each beside a comment with the label the page gives its field, printing every output
 * under the page's label for it, as the page shows it. JSON string literals are Python literals.
 * It starts with the build's install line (`install`, a comment naming the wheel the site
 * publishes) and pins the data version: another installed version warns in one line on stderr.
 * @param {{id: string, title: string, values: Record<string, string>, version: string, link: string,
 *   install: string,
 *   inputs: {id: string, label: string, unit?: string, choices?: {value: string, label: string}[]}[],
 *   outputs: {id: string, label: string}[]}} scenario
 */
export function pythonSnippet({ id, title, values, version, install, link, inputs, outputs }) {
  const fields = new Map(inputs.map((field) => [field.id, field]));
  const entries = Object.entries(values).map(
    ([key, text]) => `    ${JSON.stringify(key)}: ${JSON.stringify(text)},  # ${comment(fields.get(key), text)}`,
  );
  return [
    oneLine(install),
    `# ${oneLine(title)}: Roofline Glossary, data version ${version}`,
    `# ${oneLine(link)}`,
    "from roofline_core.calculators import compute",
    "from roofline_core.version import check_data_version",
    "",
    `check_data_version(${JSON.stringify(version)})  # warns in one line if the installed data version differs`,
    entries.length ? ["inputs = {", ...entries, "}"].join("\n") : "inputs = {}  # the calculator's defaults",
    "# Each result under the name the page shows it by.",
    "labels = {",
    ...outputs.map((output) => `    ${JSON.stringify(output.id)}: ${JSON.stringify(output.label)},`),
    "}",
    `result = compute(${JSON.stringify(id)}, inputs)`,
    'for key, output in result["outputs"].items():',
    '    print(f"{labels.get(key, key)}: {output[\'text\']}")',
    "# What the main time is made of: its parts add up to it.",
    'for item in result.get("parts", {}).get("items", []):',
    '    print(f"  {item[\'phrase\']}: {item[\'text\']} ({item[\'working\']})")',
    "",
  ].join("\n");
}

/** A field's label as the page shows it ("Batch size (sequences)"; a choice's own label after it). */
function comment(field, text) {
  if (!field) {
    return "";
  }
  const label = field.unit ? `${field.label} (${field.unit})` : field.label;
  const choice = field.choices?.find((c) => c.value === text);
  return oneLine(choice ? `${label}: ${choice.label}` : label);
}

/** Text on one comment line: a line break would end the comment and start code. */
function oneLine(text) {
  return String(text).replace(/[\r\n\u2028\u2029]+/g, " ");
}

/**
 * A short citation of the scenario: site, calculator, permalink, data version, date read.
 * @param {{title: string, link: string, version: string, date: Date}} scenario
 */
export function citation({ title, link, version, date }) {
  return `Roofline Glossary, "${title}", ${link} (data version ${version}, accessed ${date.toISOString().slice(0, 10)}).`;
}
