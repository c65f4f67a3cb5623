// Range sliders beside number boxes. A log slider's stops (what each position stands for, and
// the thresholds between positions) are computed at build time by slider_stops() in
// roofline_site/calculators/render.py; here a position is only an index into them.

function stopsOf(slider) {
  if (!slider.rooflineStops) {
    slider.rooflineStops = {
      texts: JSON.parse(slider.dataset.stops),
      thresholds: JSON.parse(slider.dataset.thresholds),
    };
  }
  return slider.rooflineStops;
}

function indexOf(slider) {
  return Math.round((Number(slider.value) - Number(slider.min)) / Number(slider.step));
}

/** The slider position for a value typed in the box. */
export function sliderPosition(slider, value) {
  if (!slider.dataset.stops) {
    return Math.min(Number(slider.max), Math.max(Number(slider.min), value));
  }
  const index = stopsOf(slider).thresholds.filter((threshold) => value >= threshold).length;
  return Number(slider.min) + index * Number(slider.step);
}

/** The value a slider position stands for, as the text the box should show. */
export function sliderValueText(slider) {
  if (!slider.dataset.stops) {
    return slider.value;
  }
  return stopsOf(slider).texts[indexOf(slider)];
}
