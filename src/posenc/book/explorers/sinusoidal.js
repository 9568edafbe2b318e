// The sinusoidal explorer: the table PE as a heatmap, one dimension's wavelength, and the similarity
// PE(p)·PE(n)/(d/2) of the chosen position p to every position n.
// Mirrored by posenc.book.explorers.SinusoidalExplorer.readouts() and .similarity_curve().

const D_MODELS = [16, 64, 128];
const STATE_S = ["d_model", "position", "dimension", "n_positions", "base"];

/** Blue (-1) through light grey (0) to red (+1). */
function diverging(v) {
  const t = Math.max(-1, Math.min(1, v));
  const [from, to] = t < 0 ? [[247, 247, 247], [33, 102, 172]] : [[247, 247, 247], [178, 24, 43]];
  const a = Math.abs(t);
  return `rgb(${from.map((c, i) => Math.round(c + a * (to[i] - c))).join(",")})`;
}

/** Positions per full turn, with a sensible number of digits. */
function fmtPositions(x) {
  return x < 100 ? `${fmt(x, 2)} positions` : `${Math.round(x).toLocaleString("en-US")} positions`;
}

/** Row p of the table: PE(p)_{2j} = sin(p theta_j), PE(p)_{2j+1} = cos(p theta_j). */
function positionVector(p, theta) {
  return theta.flatMap((t) => [Math.sin(p * t), Math.cos(p * t)]);
}

function drawHeatmap(canvas, table, p, i) {
  const n = table.length;
  const d = table[0].length;
  const cw = Math.max(1, Math.floor(384 / d));
  const ch = 5;
  canvas.width = d * cw;
  canvas.height = n * ch;
  const ctx = canvas.getContext("2d");
  table.forEach((row, q) => row.forEach((v, c) => {
    ctx.fillStyle = diverging(v);
    ctx.fillRect(c * cw, q * ch, cw, ch);
  }));
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = COLOR_INK;
  ctx.strokeRect(i * cw + 0.75, 0.75, Math.max(cw - 1.5, 1), n * ch - 1.5);
  ctx.strokeRect(0.75, p * ch + 0.75, d * cw - 1.5, ch - 1.5);
}

function drawSimilarity(chart, curve, p, neighbour) {
  const n = curve.length;
  const [x0, x1, y0, y1] = [52, 410, 14, 178];
  const x = (q) => x0 + (q / (n - 1)) * (x1 - x0);
  const y = (s) => y0 + ((1 - s) / 2) * (y1 - y0);
  const parts = [];
  for (const s of [-1, -0.5, 0, 0.5, 1]) {
    parts.push(svg("line", { x1: x0, x2: x1, y1: y(s), y2: y(s), stroke: COLOR_GRID, "stroke-width": 1 }));
    parts.push(svg("text", { x: x0 - 6, y: y(s) + 4, "text-anchor": "end" }, [fmt(s, 1)]));
  }
  for (let q = 0; q < n; q += 8) {
    parts.push(svg("line", { x1: x(q), x2: x(q), y1: y1, y2: y1 + 4, stroke: COLOR_INK }));
    parts.push(svg("text", { x: x(q), y: y1 + 16, "text-anchor": "middle" }, [String(q)]));
  }
  parts.push(svg("text", { x: (x0 + x1) / 2, y: y1 + 34, "text-anchor": "middle" }, ["position n"]));
  parts.push(svg("text", { x: 14, y: (y0 + y1) / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${(y0 + y1) / 2})` }, ["similarity to p"]));
  parts.push(svg("polyline", {
    points: curve.map((s, q) => `${x(q).toFixed(2)},${y(s).toFixed(2)}`).join(" "),
    fill: "none", stroke: COLOR_K, "stroke-width": 2, "data-values": JSON.stringify(curve),
  }));
  parts.push(svg("circle", { cx: x(neighbour), cy: y(curve[neighbour]), r: 4, fill: "none", stroke: COLOR_Q,
    "stroke-width": 2 }));
  parts.push(svg("circle", { cx: x(p), cy: y(curve[p]), r: 5, fill: COLOR_Q }));
  chart.replaceChildren(...parts);
}

function render({ model, el }) {
  const select = html("select", { "data-control": "d_model" },
    D_MODELS.map((d) => html("option", { value: String(d) }, [String(d)])));
  select.addEventListener("change", () => { model.set("d_model", Number(select.value)); model.save_changes(); });
  const dModelRow = html("label", { class: "pe-control" }, [html("span", { class: "pe-label" }, ["d_model"]), select]);
  const position = slider(model, "position", "position p", 0, model.get("n_positions") - 1);
  const dimension = slider(model, "dimension", "dimension", 0, model.get("d_model") - 1);

  const canvas = html("canvas", { class: "pe-heatmap", role: "img" });
  const legend = html("div", { class: "pe-legend", "aria-hidden": "true" },
    [html("span", {}, ["\u22121"]), html("span", { class: "pe-legend-bar" }), html("span", {}, ["+1"])]);
  const heatCaption = html("figcaption", {});
  const chart = svg("svg", { viewBox: "0 0 420 220", class: "pe-chart", role: "img" });
  const chartCaption = html("figcaption", {});

  const theta = readout("theta", "frequency \u03b8 of this dimension");
  const wavelength = readout("wavelength", "wavelength 2\u03c0/\u03b8");
  const value = readout("value", "entry of PE(p)");
  const similarity = readout("similarity_neighbour", "similarity to the next position");

  const root = html("div", { class: "posenc-explorer", "data-explorer": "sinusoidal" }, [
    html("p", { class: "pe-title" }, ["The sinusoidal table"]),
    html("div", { class: "pe-controls" }, [dModelRow, position.row, dimension.row]),
    html("div", { class: "pe-panels" }, [
      html("figure", { class: "pe-figure" }, [canvas, legend, heatCaption]),
      html("figure", { class: "pe-figure" }, [chart, chartCaption]),
    ]),
    html("div", { class: "pe-readouts", "aria-live": "polite" },
      [theta.row, wavelength.row, value.row, similarity.row]),
  ]);

  function update() {
    const d = model.get("d_model");
    const n = model.get("n_positions");
    const base = model.get("base");
    const p = Math.min(model.get("position"), n - 1);
    const i = Math.min(model.get("dimension"), d - 1);
    if (i !== model.get("dimension")) { model.set("dimension", i); model.save_changes(); }
    const ladder = frequencies(d, base);
    const table = Array.from({ length: n }, (_, q) => positionVector(q, ladder));
    const pe = table[p];
    const curve = table.map((row) => row.reduce((acc, v, c) => acc + v * pe[c], 0) / (d / 2));
    const neighbour = p < n - 1 ? p + 1 : p - 1;
    const j = Math.floor(i / 2);
    const fn = i % 2 === 0 ? "sin" : "cos";

    select.value = String(d);
    syncSlider(position, p, n - 1);
    syncSlider(dimension, i, d - 1);
    drawHeatmap(canvas, table, p, i);
    drawSimilarity(chart, curve, p, neighbour);
    canvas.setAttribute("aria-label", `Heatmap of the sinusoidal table: ${n} positions (rows) by ${d} dimensions `
      + `(columns), blue for -1 and red for +1; row ${p} and column ${i} are outlined.`);
    heatCaption.textContent = `Rows: positions 0\u2013${n - 1}, top to bottom. Columns: dimensions 0\u2013${d - 1}, `
      + "left to right. Columns further right turn more slowly.";
    chart.setAttribute("aria-label", `Line chart of the similarity of position ${p} to every position from 0 to `
      + `${n - 1}; it is 1 at position ${p} itself.`);
    chartCaption.textContent = `PE(${p})\u00b7PE(n) / (d/2) for every n: 1 at n = ${p}, lower further away.`;
    setReadout(theta.output, ladder[j], `\u03b8_${j} = ${fmt(ladder[j], 6)} rad per position`);
    setReadout(wavelength.output, TAU / ladder[j], fmtPositions(TAU / ladder[j]));
    setReadout(value.output, pe[i], `${fn}(${p} \u00b7 \u03b8_${j}) = ${fmt(pe[i])}`);
    similarity.row.firstChild.textContent = `similarity of ${p} to ${neighbour}`;
    setReadout(similarity.output, [neighbour, curve[neighbour]], fmt(curve[neighbour]));
    root.dataset.state = JSON.stringify(Object.fromEntries(STATE_S.map((k) => [k, model.get(k)])));
  }

  update();
  el.append(root);
  return listen(model, STATE_S, update);
}

export default { render };
