// "Copy link" and "Copy embed code": the addresses come from the build (absolute, from
// site_url); only the scenario's query string is added here.

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
