// Loaded on every page: registers the site's service worker (sw.js at the site's root, made from
// site_assets/offline/sw.js), so pages and calculators a reader has opened work again offline.
// After the page has loaded, so it never competes with the first paint. The root is found from
// this file's own address (assets/roofline/offline/register.mjs), so a site under a sub-path
// registers a worker for that sub-path only.

const root = new URL("../../../", import.meta.url);

function register() {
  navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    // Refused (private mode, storage off): the site works the same, online only.
  });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  if (document.readyState === "complete") {
    register();
  } else {
    window.addEventListener("load", register, { once: true });
  }
}
