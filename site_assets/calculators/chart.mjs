// Draw a roofline chart as SVG from the figure data roofline_core computed (the roof, the ridge
// and the placed points arrive as numbers). This mirrors roofline_site/calculators/chart_svg.py,
// which draws the same chart at build time: same constants, same rules, and a browser test
// compares the two drawings. Only presentation here: mapping numbers to pixels on log axes.

const SVG = "http://www.w3.org/2000/svg";
const WIDTH_PX = 640;
const HEIGHT_PX = 380;
const LEFT_PX = 64;
const RIGHT_PX = 24;
const TOP_PX = 16;
const BOTTOM_PX = 52;
const X_TITLE = "Arithmetic intensity (FLOP/byte)";
const Y_TITLE = "Attainable throughput (FLOP/s)";
const PREFIXES = { 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E" };

export function isRooflineChart(chart) {
  return Boolean(chart) && ["x_range", "y_range", "roof", "points"].every((key) => key in chart);
}

export function tickLabel(exponent) {
  if (exponent >= -3 && exponent < 3) {
    return exponent >= 0 ? String(10 ** exponent) : "0." + "0".repeat(-exponent - 1) + "1";
  }
  const base = 3 * Math.floor(exponent / 3);
  if (base in PREFIXES) {
    return `${10 ** (exponent - base)}${PREFIXES[base]}`;
  }
  return `1e${exponent}`;
}

export function chartTitle(chart) {
  const parts = chart.points.map((point) => `${point.label}: ${point.bound}-bound`);
  return "Roofline chart" + (parts.length ? ". " + parts.join("; ") : "");
}

function n(value) {
  return value.toFixed(1);
}

function element(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) {
    node.setAttribute(key, String(value));
  }
  if (text !== null) {
    node.textContent = text;
  }
  return node;
}

function labelPosition(x, y) {
  const rightSide = x < LEFT_PX + (WIDTH_PX - LEFT_PX - RIGHT_PX) * 0.6;
  return [rightSide ? x + 10 : x - 10, y < TOP_PX + 24 ? y + 20 : y - 10, rightSide ? "start" : "end"];
}

function labelled(points) {
  const highlighted = new Set(points.flatMap((point, index) => (point.highlight ? [index] : [])));
  if (highlighted.size) {
    return highlighted;
  }
  return new Set(points.length <= 3 ? points.map((_, index) => index) : []);
}

/** The chart as an <svg> element; `elementId` prefixes ids inside it. */
export function rooflineSvg(chart, elementId) {
  const plotW = WIDTH_PX - LEFT_PX - RIGHT_PX;
  const plotH = HEIGHT_PX - TOP_PX - BOTTOM_PX;
  const [xLo, xHi] = chart.x_range.map(Math.log10);
  const [yLo, yHi] = chart.y_range.map(Math.log10);
  const pxX = (value) => LEFT_PX + ((Math.log10(value) - xLo) / (xHi - xLo)) * plotW;
  const pxY = (value) => TOP_PX + plotH - ((Math.log10(value) - yLo) / (yHi - yLo)) * plotH;
  const bottom = TOP_PX + plotH;
  const right = LEFT_PX + plotW;

  const svg = element("svg", {
    class: "roofline-chart",
    viewBox: `0 0 ${WIDTH_PX} ${HEIGHT_PX}`,
    role: "img",
    "aria-labelledby": `${elementId}-title`,
    "data-chart": "roofline",
  });
  svg.append(element("title", { id: `${elementId}-title` }, chartTitle(chart)));
  const grid = element("g", { class: "roofline-chart__grid" });
  const ticks = [];
  for (let e = Math.ceil(xLo - 1e-9); e <= Math.floor(xHi + 1e-9); e++) {
    const x = n(pxX(10 ** e));
    grid.append(element("line", { x1: x, y1: TOP_PX, x2: x, y2: bottom }));
    ticks.push(element("text", { class: "roofline-chart__tick", x, y: bottom + 18, "text-anchor": "middle" }, tickLabel(e)));
  }
  for (let e = Math.ceil(yLo - 1e-9); e <= Math.floor(yHi + 1e-9); e++) {
    const y = n(pxY(10 ** e));
    grid.append(element("line", { x1: LEFT_PX, y1: y, x2: right, y2: y }));
    ticks.push(
      element("text", { class: "roofline-chart__tick", x: LEFT_PX - 8, y, "text-anchor": "end", "dominant-baseline": "middle" }, tickLabel(e)),
    );
  }
  svg.append(grid);
  svg.append(element("rect", { class: "roofline-chart__frame", x: LEFT_PX, y: TOP_PX, width: plotW, height: plotH }));
  svg.append(...ticks);
  svg.append(element("text", { class: "roofline-chart__axis-title", x: n(LEFT_PX + plotW / 2), y: HEIGHT_PX - 8, "text-anchor": "middle" }, X_TITLE));
  const middle = n(TOP_PX + plotH / 2);
  svg.append(
    element("text", { class: "roofline-chart__axis-title", x: 14, y: middle, "text-anchor": "middle", transform: `rotate(-90 14 ${middle})` }, Y_TITLE),
  );
  const roof = chart.roof.map(([x, y]) => `${n(pxX(x))} ${n(pxY(y))}`).join(" L ");
  svg.append(element("path", { class: "roofline-chart__roof", d: `M ${roof}` }));
  const ridgeX = n(pxX(chart.ridge_flop_per_byte));
  const ridgeY = n(pxY(chart.peak_flop_per_s));
  svg.append(element("line", { class: "roofline-chart__ridge", x1: ridgeX, y1: ridgeY, x2: ridgeX, y2: bottom }));
  // At the foot of the ridge line: points and their labels sit up on the roof.
  svg.append(element("text", { class: "roofline-chart__ridge-label", x: n(Number(ridgeX) + 4), y: bottom - 6, "text-anchor": "start" }, "ridge"));
  const group = element("g", { class: "roofline-chart__points" });
  const withLabels = labelled(chart.points);
  chart.points.forEach((point, index) => {
    const x = pxX(point.x);
    const y = pxY(point.y);
    let classes = `roofline-chart__point roofline-chart__point--${point.bound}`;
    if (point.highlight) {
      classes += " roofline-chart__point--highlight";
    }
    const g = element("g", { class: classes });
    const circle = element("circle", { cx: n(x), cy: n(y), r: point.highlight ? 7 : 5 });
    circle.append(element("title", {}, point.label));
    g.append(circle);
    if (withLabels.has(index)) {
      const [lx, ly, anchor] = labelPosition(x, y);
      g.append(element("text", { class: "roofline-chart__label", x: n(lx), y: n(ly), "text-anchor": anchor }, point.label));
    }
    group.append(g);
  });
  svg.append(group);
  return svg;
}
