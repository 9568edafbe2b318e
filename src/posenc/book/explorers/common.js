// posenc explorers, shared part: the frequency ladder, angle helpers and small DOM builders.
// Every explorer's module is this file followed by its own file (see posenc/book/explorers/__init__.py),
// so the page computes everything from the widget's state; the Python side mirrors each formula.

const TAU = 2 * Math.PI;
const SVG_NS = "http://www.w3.org/2000/svg";
const COLOR_Q = "#b3450b"; // query: dark orange
const COLOR_K = "#1f5fa8"; // key: dark blue
const COLOR_INK = "#1d1d1d";
const COLOR_GRID = "#c8c8c8";

/** The ladder theta_j = base^(-2j/d), j = 0 .. d/2 - 1, in radians per position. */
function frequencies(d, base) {
  return Array.from({ length: d / 2 }, (_, j) => Math.pow(base, -(2 * j) / d));
}

/** Turn the pair (x, y) counter-clockwise by the angle a (radians). */
function rotatePair(x, y, a) {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [x * c - y * s, x * s + y * c];
}

/** Distance along the circle between the angle a and 0: min(r, 2 pi - r) with r = |a| mod 2 pi. */
function circleDistance(a) {
  const r = Math.abs(a) % TAU;
  return Math.min(r, TAU - r);
}

/** The smallest index whose value is within 1e-9 of the minimum of values (skipping index skip). */
function argminStable(values, skip) {
  let best = Infinity;
  values.forEach((v, i) => { if (i !== skip && v < best) best = v; });
  return values.findIndex((v, i) => i !== skip && v <= best + 1e-9);
}

/** An HTML element with attributes and children (strings become text). */
function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

/** An SVG element with attributes and children. */
function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** A labelled range slider bound to the integer trait `name`; returns {row, input, shown}. */
function slider(model, name, label, min, max) {
  const input = html("input", { type: "range", min, max, step: 1, "data-control": name });
  const shown = html("span", { class: "pe-slider-value", "aria-hidden": "true" });
  const row = html("label", { class: "pe-control" }, [html("span", { class: "pe-label" }, [label]), input, shown]);
  input.addEventListener("input", () => {
    model.set(name, Number(input.value));
    model.save_changes();
  });
  return { row, input, shown };
}

/** Move a slider to the model's value (after clamping its range) and show the value beside it. */
function syncSlider(control, value, max) {
  if (max !== undefined) control.input.max = String(max);
  control.input.value = String(value);
  control.shown.textContent = String(value);
}

/** A row of the readout table: a label and an <output> named `name`. */
function readout(name, label) {
  const output = html("output", { "data-readout": name });
  const row = html("div", { class: "pe-readout" }, [html("span", { class: "pe-label" }, [label]), output]);
  return { row, output };
}

/** Show `text` in a readout and keep the exact value (JSON) in data-value for tests and screen readers. */
function setReadout(output, value, text) {
  output.dataset.value = JSON.stringify(value);
  output.textContent = text;
}

/** Format a number with `digits` decimals, with a true minus sign. */
function fmt(x, digits = 3) {
  return x.toFixed(digits).replace(/^-(?=\d)/, "\u2212").replace(/^\u2212(0(?:\.0*)?)$/, "$1");
}

/** Call `update` whenever any of the named traits changes; returns the cleanup function. */
function listen(model, names, update) {
  for (const name of names) model.on(`change:${name}`, update);
  return () => { for (const name of names) model.off(`change:${name}`, update); };
}

/** An arrow from the origin to (x, y) in an SVG whose y axis points down; dashed when `dashed`. */
function arrow(x, y, color, dashed) {
  const length = Math.hypot(x, y);
  const group = svg("g", {});
  const line = svg("line", { x1: 0, y1: 0, x2: x, y2: -y, stroke: color, "stroke-width": 0.035 });
  if (dashed) line.setAttribute("stroke-dasharray", "0.08 0.06");
  group.append(line);
  if (length > 1e-9) {
    const ux = x / length;
    const uy = -y / length;
    const head = 0.12;
    const points = [
      [x, -y],
      [x - head * ux - 0.5 * head * uy, -y - head * uy + 0.5 * head * ux],
      [x - head * ux + 0.5 * head * uy, -y - head * uy - 0.5 * head * ux],
    ];
    group.append(svg("polygon", {
      points: points.map((p) => p.join(",")).join(" "),
      fill: dashed ? "none" : color,
      stroke: color,
      "stroke-width": 0.02,
    }));
  }
  return group;
}
