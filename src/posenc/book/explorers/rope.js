// The RoPE explorer: query position m, key position n and one pair j of a 64-dimensional query and key.
// Pair j of q turns by m·theta_j and pair j of k by n·theta_j; the dot products depend on n - m only.
// Mirrored by posenc.book.explorers.RopeExplorer.readouts().

const STATE_R = ["d", "base", "q", "k", "m", "n", "pair", "max_position"];

/** Every pair j of x turned by position·theta_j (the block-diagonal Theta_position applied to x). */
function applyRope(x, position, theta) {
  return theta.flatMap((t, j) => rotatePair(x[2 * j], x[2 * j + 1], position * t));
}

function dot(a, b) {
  return a.reduce((acc, v, c) => acc + v * b[c], 0);
}

function fmtPair([x, y]) {
  return `(${fmt(x)}, ${fmt(y)})`;
}

function drawPlane(plane, before, after) {
  const radius = Math.max(...before.map(([x, y]) => Math.hypot(x, y)), 1e-12);
  const scale = ([x, y]) => [x / radius, y / radius];
  const parts = [
    svg("circle", { cx: 0, cy: 0, r: 1, fill: "none", stroke: COLOR_GRID, "stroke-width": 0.015 }),
    svg("line", { x1: -1.25, x2: 1.25, y1: 0, y2: 0, stroke: COLOR_GRID, "stroke-width": 0.01 }),
    svg("line", { x1: 0, x2: 0, y1: -1.25, y2: 1.25, stroke: COLOR_GRID, "stroke-width": 0.01 }),
  ];
  const colors = [COLOR_Q, COLOR_K];
  const names = ["q", "k"];
  before.forEach((v, a) => parts.push(arrow(...scale(v), colors[a], true)));
  after.forEach((v, a) => {
    const [x, y] = scale(v);
    parts.push(arrow(x, y, colors[a], false));
    const r = Math.hypot(x, y) || 1;
    parts.push(svg("text", { x: x + (0.14 * x) / r, y: -y - (0.14 * y) / r, fill: colors[a], "font-size": 0.16,
      "text-anchor": "middle", "dominant-baseline": "middle", "font-weight": "bold" }, [names[a]]));
  });
  plane.replaceChildren(...parts);
}

function render({ model, el }) {
  const d = model.get("d");
  const m = slider(model, "m", "query position m", 0, model.get("max_position"));
  const n = slider(model, "n", "key position n", 0, model.get("max_position"));
  const pair = slider(model, "pair", "dimension pair j", 0, d / 2 - 1);
  const steps = [1, 5].map((step) => {
    const button = html("button", { type: "button", class: "pe-button", "data-control": `both+${step}` },
      [`Both +${step}`]);
    button.addEventListener("click", () => {
      model.set("m", model.get("m") + step);
      model.set("n", model.get("n") + step);
      model.save_changes();
    });
    return { step, button };
  });

  const plane = svg("svg", { viewBox: "-1.3 -1.3 2.6 2.6", class: "pe-plane", role: "img" });
  const planeCaption = html("figcaption", {});
  const rows = {
    theta: readout("theta", "frequency \u03b8_j"),
    angle_q: readout("angle_q", "query turns by m\u00b7\u03b8_j"),
    angle_k: readout("angle_k", "key turns by n\u00b7\u03b8_j"),
    offset: readout("offset", "offset n \u2212 m"),
    q_before: readout("q_before", "pair j of q, before"),
    k_before: readout("k_before", "pair j of k, before"),
    q_after: readout("q_after", "pair j of q, after"),
    k_after: readout("k_after", "pair j of k, after"),
    pair_dot: readout("pair_dot", "pair j dot product"),
    full_dot: readout("full_dot", "full q\u00b7k (all dimensions)"),
  };
  const root = html("div", { class: "posenc-explorer", "data-explorer": "rope" }, [
    html("p", { class: "pe-title" }, ["Rotary position embedding"]),
    html("div", { class: "pe-controls" }, [m.row, n.row, pair.row,
      html("div", { class: "pe-buttons" }, steps.map((s) => s.button))]),
    html("div", { class: "pe-panels" }, [
      html("figure", { class: "pe-figure pe-figure-square" }, [plane, planeCaption]),
      html("div", { class: "pe-readouts", "aria-live": "polite" }, Object.values(rows).map((r) => r.row)),
    ]),
  ]);

  function update() {
    const base = model.get("base");
    const q = model.get("q");
    const k = model.get("k");
    const [mm, nn, j, top] = ["m", "n", "pair", "max_position"].map((name) => model.get(name));
    const theta = frequencies(model.get("d"), base);
    const qRot = applyRope(q, mm, theta);
    const kRot = applyRope(k, nn, theta);
    const before = [[q[2 * j], q[2 * j + 1]], [k[2 * j], k[2 * j + 1]]];
    const after = [[qRot[2 * j], qRot[2 * j + 1]], [kRot[2 * j], kRot[2 * j + 1]]];

    syncSlider(m, mm, top);
    syncSlider(n, nn, top);
    syncSlider(pair, j);
    for (const { step, button } of steps) button.disabled = Math.max(mm, nn) + step > top;
    drawPlane(plane, before, after);
    plane.setAttribute("aria-label", `Pair ${j} of the query (orange) and key (blue) in the plane: dashed before `
      + `rotation, solid after turning by ${fmt(mm * theta[j], 2)} and ${fmt(nn * theta[j], 2)} radians.`);
    planeCaption.textContent = `Dashed: pair ${j} before rotation. Solid: after. The angle between q and k `
      + `changes by (n \u2212 m)\u00b7\u03b8_j = ${fmt((nn - mm) * theta[j], 3)} rad.`;
    setReadout(rows.theta.output, theta[j], `${fmt(theta[j], 6)} rad per position`);
    setReadout(rows.angle_q.output, mm * theta[j], `${fmt(mm * theta[j])} rad`);
    setReadout(rows.angle_k.output, nn * theta[j], `${fmt(nn * theta[j])} rad`);
    setReadout(rows.offset.output, nn - mm, String(nn - mm).replace("-", "\u2212"));
    setReadout(rows.q_before.output, before[0], fmtPair(before[0]));
    setReadout(rows.k_before.output, before[1], fmtPair(before[1]));
    setReadout(rows.q_after.output, after[0], fmtPair(after[0]));
    setReadout(rows.k_after.output, after[1], fmtPair(after[1]));
    setReadout(rows.pair_dot.output, dot(after[0], after[1]), fmt(dot(after[0], after[1])));
    setReadout(rows.full_dot.output, dot(qRot, kRot), fmt(dot(qRot, kRot)));
    root.dataset.state = JSON.stringify(Object.fromEntries(STATE_R.map((name) => [name, model.get(name)])));
  }

  update();
  el.append(root);
  return listen(model, STATE_R, update);
}

export default { render };
