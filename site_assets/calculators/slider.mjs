// Range sliders beside number boxes. Log sliders move through exponents: whole powers of two
// for whole-number fields such as a batch size, hundredths of a decade otherwise. This mirrors
// slider_attributes() in roofline_site/calculators/render.py, which sets the starting position.

export function sliderPosition(slider, value) {
  const low = Number(slider.min);
  const high = Number(slider.max);
  let position;
  if (slider.dataset.scale === "log2") {
    position = Math.round(Math.log2(value));
  } else if (slider.dataset.scale === "log10") {
    position = Math.round(Math.log10(value) * 100) / 100;
  } else {
    position = value;
  }
  return Math.min(high, Math.max(low, position));
}

/** The value a slider position stands for, as the text the box should show. */
export function sliderValueText(slider, field) {
  const position = Number(slider.value);
  if (slider.dataset.scale === "log2") {
    return String(2 ** position);
  }
  if (slider.dataset.scale === "log10") {
    // Three significant figures: a slider cannot point more precisely than that.
    const value = Number((10 ** position).toPrecision(3));
    return String(field.integer ? Math.round(value) : value);
  }
  return slider.value;
}
