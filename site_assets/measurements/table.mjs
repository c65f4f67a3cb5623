// The full table of "Model vs measurement": a filter box, and a scroll bar above the table.
//
// Progressive enhancement: the build writes the table whole, in its own horizontal scroller, with
// the filter box hidden; without this script every row shows and the scroll bar is the one under
// the table. With it, the box appears, and a second scroll bar sits above the table, kept in step
// with the first, so a reader can scroll sideways without first scrolling past 70 rows.

function normalise(text) {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, " ")
    .trim();
}

function mountFilter(root) {
  const box = root.querySelector(".measurements-table__filter");
  const input = root.querySelector(".measurements-table__input");
  const status = root.querySelector(".measurements-table__status");
  const rows = [...root.querySelectorAll("tbody tr")];
  if (!box || !input || !status || !rows.length) return;
  const texts = new Map(rows.map((row) => [row, normalise(row.textContent)]));
  const apply = () => {
    const words = normalise(input.value).split(" ").filter(Boolean);
    let shown = 0;
    for (const row of rows) {
      const match = words.every((word) => texts.get(row).includes(word));
      row.hidden = !match;
      if (match) shown += 1;
    }
    if (!words.length) status.textContent = "";
    else if (!shown) status.textContent = `No row matches “${input.value.trim()}”.`;
    else status.textContent = `${shown} of ${rows.length} rows match.`;
  };
  input.addEventListener("input", apply);
  box.hidden = false;
  apply();
}

function mountTopScroller(root) {
  const scroller = root.querySelector(".measurements-table__scroll");
  const table = scroller?.querySelector("table");
  if (!scroller || !table) return;
  const top = document.createElement("div");
  top.className = "measurements-table__top";
  // A second control for the same scrolling: the scroller below is the one screen readers and
  // keyboards use (it has the region's name and tabindex).
  top.setAttribute("aria-hidden", "true");
  top.tabIndex = -1;
  const spacer = document.createElement("div");
  spacer.className = "measurements-table__spacer";
  top.append(spacer);
  scroller.before(top);

  const size = () => {
    spacer.style.width = `${scroller.scrollWidth}px`;
    top.hidden = scroller.scrollWidth <= scroller.clientWidth + 1;
  };
  // Each side follows the other; the guard stops the echo of a programmatic scroll.
  let syncing = null;
  const follow = (from, to) => () => {
    if (syncing === to) {
      syncing = null;
      return;
    }
    if (to.scrollLeft !== from.scrollLeft) {
      syncing = from;
      to.scrollLeft = from.scrollLeft;
    }
  };
  top.addEventListener("scroll", follow(top, scroller), { passive: true });
  scroller.addEventListener("scroll", follow(scroller, top), { passive: true });
  new ResizeObserver(size).observe(scroller);
  new ResizeObserver(size).observe(table);
  size();
}

function mount() {
  for (const root of document.querySelectorAll("[data-measurements-table]")) {
    if (root.dataset.measurementsMounted === "true") continue;
    root.dataset.measurementsMounted = "true";
    mountFilter(root);
    mountTopScroller(root);
  }
}

if (typeof document$ !== "undefined") {
  // Material emits on the first page and after every instant navigation.
  document$.subscribe(mount);
} else {
  mount();
}
