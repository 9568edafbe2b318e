// The clock explorer: RoPE's d/2 hands, hand j turning theta_j radians per position. One hand alone
// aliases (positions a full turn apart land together); all the hands together keep positions apart.
// Mirrored by posenc.book.explorers.ClockExplorer.readouts().

const STATE_C = ["d", "base", "hand", "position", "n_positions"];
const MAX_POSITIONS = 64;

/** The reading of a hand at the angle a >= 0: a mod 2 pi, in [0, 2 pi). */
function turnAngle(a) {
  return a % TAU;
}

/** Where a position sits on one hand: its angle position·theta, the radius growing with it to keep the labels apart. */
function dialPoint(q, theta, count) {
  const a = q * theta;
  const r = 0.42 + (0.58 * q) / Math.max(count - 1, 1);
  return [r * Math.cos(a), -r * Math.sin(a)];
}

function drawHand(dial, theta, count, p, near) {
  const parts = [svg("circle", { cx: 0, cy: 0, r: 1, fill: "none", stroke: COLOR_GRID, "stroke-width": 0.015 })];
  const ray = (q, color, dashed) => {
    const a = q * theta;
    const line = svg("line", { x1: 0, y1: 0, x2: 1.08 * Math.cos(a), y2: -1.08 * Math.sin(a), stroke: color,
      "stroke-width": 0.025 });
    if (dashed) line.setAttribute("stroke-dasharray", "0.06 0.04");
    return line;
  };
  parts.push(ray(near, COLOR_K, true), ray(p, COLOR_Q, false));
  for (let q = 0; q < count; q++) {
    const [x, y] = dialPoint(q, theta, count);
    const special = q === p || q === near;
    const fill = q === p ? COLOR_Q : q === near ? COLOR_K : "#6b6b6b";
    parts.push(svg("circle", { cx: x, cy: y, r: special ? 0.05 : 0.032, fill }));
    if (count <= 24 || special || q % 8 === 0) {
      const r = Math.hypot(x, y) || 1;
      parts.push(svg("text", { x: x + (0.13 * x) / r, y: y + (0.13 * y) / r, "font-size": special ? 0.16 : 0.12,
        fill: special ? fill : COLOR_INK, "text-anchor": "middle", "dominant-baseline": "middle" }, [String(q)]));
    }
  }
  dial.replaceChildren(...parts);
}

function drawClock(clock, ladder, p, hand) {
  const last = Math.max(ladder.length - 1, 1);
  const parts = [svg("circle", { cx: 0, cy: 0, r: 1.05, fill: "none", stroke: COLOR_GRID, "stroke-width": 0.015 })];
  ladder.forEach((t, j) => {
    if (j === hand) return;
    const length = 1 - (0.65 * j) / last;
    parts.push(svg("line", { x1: 0, y1: 0, x2: length * Math.cos(p * t), y2: -length * Math.sin(p * t),
      stroke: j / last < 0.5 ? COLOR_Q : COLOR_K, "stroke-opacity": 0.35 + 0.5 * (1 - j / last),
      "stroke-width": 0.02 }));
  });
  const length = 1 - (0.65 * hand) / last;
  const a = p * ladder[hand];
  parts.push(svg("line", { x1: 0, y1: 0, x2: length * Math.cos(a), y2: -length * Math.sin(a), stroke: COLOR_INK,
    "stroke-width": 0.05 }));
  parts.push(svg("circle", { cx: 0, cy: 0, r: 0.04, fill: COLOR_INK }));
  clock.replaceChildren(...parts);
}

function render({ model, el }) {
  const d = model.get("d");
  const hand = slider(model, "hand", "hand j", 0, d / 2 - 1);
  const count = slider(model, "n_positions", "positions shown", 2, MAX_POSITIONS);
  const position = slider(model, "position", "position p", 0, model.get("n_positions") - 1);
  const dial = svg("svg", { viewBox: "-1.3 -1.3 2.6 2.6", class: "pe-plane", role: "img" });
  const dialCaption = html("figcaption", {});
  const clock = svg("svg", { viewBox: "-1.15 -1.15 2.3 2.3", class: "pe-plane", role: "img" });
  const clockCaption = html("figcaption", {});
  const verdict = html("p", { class: "pe-verdict", "aria-live": "polite" });
  const rows = {
    theta: readout("theta", "speed \u03b8_j of this hand"),
    period: readout("period", "one full turn 2\u03c0/\u03b8_j"),
    angle: readout("angle", "angle of p on this hand"),
    nearest_on_hand: readout("nearest_on_hand", "nearest position on this hand"),
    nearest_on_clock: readout("nearest_on_clock", "nearest position on all hands"),
  };
  const root = html("div", { class: "posenc-explorer", "data-explorer": "clock" }, [
    html("p", { class: "pe-title" }, ["A clock with many hands"]),
    html("div", { class: "pe-controls" }, [hand.row, count.row, position.row]),
    html("div", { class: "pe-panels" }, [
      html("figure", { class: "pe-figure pe-figure-square" }, [dial, dialCaption]),
      html("figure", { class: "pe-figure pe-figure-square" }, [clock, clockCaption]),
    ]),
    verdict,
    html("div", { class: "pe-readouts", "aria-live": "polite" }, Object.values(rows).map((r) => r.row)),
  ]);

  function update() {
    const ladder = frequencies(model.get("d"), model.get("base"));
    const j = model.get("hand");
    const n = model.get("n_positions");
    const p = Math.min(model.get("position"), n - 1);
    if (p !== model.get("position")) { model.set("position", p); model.save_changes(); }
    const theta = ladder[j];
    const positions = Array.from({ length: n }, (_, q) => q);
    const gaps = positions.map((q) => circleDistance((q - p) * theta));
    const distances = positions.map((q) => Math.sqrt(ladder.reduce(
      (acc, t) => acc + circleDistance((q - p) * t) ** 2, 0)));
    const near = argminStable(gaps, p);
    const nearAll = argminStable(distances, p);
    const aliased = Math.abs(near - p) !== 1;

    syncSlider(hand, j);
    syncSlider(count, n);
    syncSlider(position, p, n - 1);
    drawHand(dial, theta, n, p, near);
    drawClock(clock, ladder, p, j);
    dial.setAttribute("aria-label", `Positions 0 to ${n - 1} placed on hand ${j} at the angles n times `
      + `${fmt(theta, 4)} radians; position ${p} and its nearest position ${near} are highlighted.`);
    dialCaption.textContent = `Hand ${j}: position n sits at the angle n\u00b7\u03b8_${j}. Only the angle counts; `
      + "the distance from the centre grows with n just to keep the labels apart.";
    clock.setAttribute("aria-label", `All ${ladder.length} hands of the clock at position ${p}; hand ${j} is `
      + "drawn in black.");
    clockCaption.textContent = `All ${ladder.length} hands at position ${p}. Hand 0 (longest) turns fastest; `
      + `hand ${j} is black.`;
    root.dataset.aliased = String(aliased);
    verdict.textContent = aliased
      ? `Aliasing: on hand ${j}, position ${near} lands closer to ${p} than a neighbouring position does.`
      : `No aliasing on hand ${j} among these positions: the nearest one to ${p} is a neighbour.`;
    setReadout(rows.theta.output, theta, `${fmt(theta, 6)} rad per position`);
    setReadout(rows.period.output, TAU / theta, `${fmt(TAU / theta, 2)} positions`);
    setReadout(rows.angle.output, turnAngle(p * theta), `${fmt(turnAngle(p * theta))} rad`);
    setReadout(rows.nearest_on_hand.output, [near, gaps[near]], `${near} (${fmt(gaps[near])} rad apart)`);
    setReadout(rows.nearest_on_clock.output, [nearAll, distances[nearAll]],
      `${nearAll} (distance ${fmt(distances[nearAll])})`);
    root.dataset.state = JSON.stringify(Object.fromEntries(STATE_C.map((name) => [name, model.get(name)])));
  }

  update();
  el.append(root);
  return listen(model, STATE_C, update);
}

export default { render };
