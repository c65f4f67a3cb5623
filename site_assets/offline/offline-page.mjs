// The offline page's script (site_assets/overrides/503.html loads it): lists the pages the service worker has kept,
// which it reports itself (sw.js, the "kept-pages" message), so the list holds only pages it
// checked against the build's manifest. Titles are written as text, never as markup.

const SINGULAR = "1 page is kept on this device:";

/**
 * Fill the offline page's list from the worker that controls the page.
 * @param {Document} doc
 */
export async function listKeptPages(doc) {
  const list = doc.getElementById("roofline-offline-list");
  const status = doc.getElementById("roofline-offline-status");
  const worker = navigator.serviceWorker?.controller;
  if (!list || !status || !worker) {
    return;
  }
  const pages = await new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(Array.isArray(event.data?.pages) ? event.data.pages : []);
    worker.postMessage({ type: "kept-pages" }, [channel.port2]);
  });
  const siteName = doc.querySelector('meta[property="og:site_name"]')?.content ?? "";
  const items = pages
    .map((page) => ({ href: page.url, title: shortTitle(decode(page.title), siteName) }))
    .sort((a, b) => a.title.localeCompare(b.title));
  if (!items.length) {
    return;
  }
  list.replaceChildren(
    ...items.map(({ href, title }) => {
      const item = doc.createElement("li");
      const link = doc.createElement("a");
      link.href = href;
      link.textContent = title;
      item.append(link);
      return item;
    }),
  );
  status.textContent = items.length === 1 ? SINGULAR : `${items.length} pages are kept on this device:`;
  list.hidden = false;
}

/** A `<title>`'s text as written in HTML (entities and all) as plain text. */
function decode(raw) {
  return new DOMParser().parseFromString(String(raw), "text/html").body.textContent ?? "";
}

/** "Roofline - Roofline Glossary" as "Roofline"; the home page's title, the site's name, stays. */
function shortTitle(title, siteName) {
  const suffix = ` - ${siteName}`;
  return siteName && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

listKeptPages(document);
