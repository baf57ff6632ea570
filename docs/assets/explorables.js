// Explorable figures. A page prints each one as its static SVG plus the data
// the library computed (attention_docs.figures.explorables). This module
// replaces the static figure on screen by one the reader can move; without
// JavaScript, and in print, the static figure stays. The arithmetic below
// repeats the library's, and the browser tests check it against the library's
// reference results, read back from the data-* attributes set here.

const NS = "http://www.w3.org/2000/svg";

function node(name, attributes = {}, parent = null, text = "") {
  const element = /^(svg|g|path|circle|line|rect|text|title|polygon)$/.test(name)
    ? document.createElementNS(NS, name)
    : document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text) element.textContent = text;
  if (parent) parent.append(element);
  return element;
}

// Each item of a list ("A 0.587") in its own first-strong isolate, so that in a
// right-to-left sentence the items follow the sentence's order, not one
// left-to-right run of them all.
const isolated = (items) => items.map((item) => "\u2068" + item + "\u2069");

// Text: "{name}" fields filled in; in a language whose labels space Chinese
// from Latin letters and digits (data.spaced), spaced as the library's labels
// are (labels.space_han_and_latin).
function fill(template, fields, spaced) {
  const text = template.replace(/\{(\w+)\}/g, (_, key) => fields[key]);
  if (!spaced) return text;
  return text
    .replace(/([\u4e00-\u9fff])([A-Za-z0-9(])/g, "$1 $2")
    .replace(/([A-Za-z0-9)])([\u4e00-\u9fff])/g, "$1 $2");
}

const number = (value, digits) => value.toFixed(digits).replace(/^-(?=.*[1-9])/, "\u2212").replace(/^-/, "");

// ---- arithmetic: the library's, step for step -------------------------------

const LOG_KERNEL = {
  gaussian: (u) => -0.5 * u * u,
  boxcar: (u) => (Math.abs(u) <= 1 ? 0 : -Infinity),
  epanechnikov: (u) => (Math.abs(u) <= 1 ? Math.log(0.75 * (1 - u * u)) : -Infinity),
};

const normalise = (weights) => {
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
};

// pooling.nadaraya_watson for one query: a max-shifted softmax of log K, and
// the nearest keys' values when no key has a positive kernel value.
export function nadarayaWatson(keys, values, query, kernel, h) {
  const scores = keys.map((key) => LOG_KERNEL[kernel]((query - key) / h));
  const top = Math.max(...scores);
  let weights;
  const reached = top > -Infinity;
  if (reached) {
    weights = scores.map((score) => Math.exp(score - top));
  } else {
    const distances = keys.map((key) => Math.abs(query - key));
    const nearest = Math.min(...distances);
    weights = distances.map((d) => (d === nearest ? 1 : 0));
  }
  weights = normalise(weights);
  const prediction = weights.reduce((sum, w, i) => sum + w * values[i], 0);
  return { weights, prediction, reached };
}

// bandwidth.loo_cv_error with the Gaussian kernel: each training pair
// predicted from all the others, a max-shifted softmax as in nadarayaWatson.
export function looCV(keys, values, h) {
  // Plain loops, no arrays: the gradient-descent figure calls this a few
  // hundred times as it starts. Pair i's own term, exp(-Infinity) = 0, is
  // left out, which changes no sum.
  const n = keys.length;
  const score = (i, j) => -0.5 * ((keys[i] - keys[j]) / h) ** 2;
  let total = 0;
  for (let i = 0; i < n; i++) {
    let top = -Infinity;
    for (let j = 0; j < n; j++) if (j !== i) top = Math.max(top, score(i, j));
    let weighted = 0, sum = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const w = Math.exp(score(i, j) - top);
      weighted += w * values[j];
      sum += w;
    }
    total += (values[i] - weighted / sum) ** 2;
  }
  return total / n;
}

const SCORES = {
  dot_product: (q, k) => q[0] * k[0] + q[1] * k[1],
  scaled_dot_product: (q, k) => (q[0] * k[0] + q[1] * k[1]) / Math.sqrt(2),
  negative_squared_distance: (q, k) => -((q[0] - k[0]) ** 2 + (q[1] - k[1]) ** 2) / 2,
};

// scores.tempered_softmax: T = 0 is the lookup, T = Infinity the average.
export function temperedSoftmax(scores, t) {
  if (t === Infinity) return scores.map(() => 1 / scores.length);
  const top = Math.max(...scores);
  if (t === 0) return normalise(scores.map((s) => (s === top ? 1 : 0)));
  const scaled = scores.map((s) => s / t);
  const high = Math.max(...scaled);
  return normalise(scaled.map((s) => Math.exp(s - high)));
}

export const temperature = (step, steps) =>
  step <= -steps - 1 ? 0 : step >= steps + 1 ? Infinity : 10 ** (step / 10);

// ---- drawing ----------------------------------------------------------------

const linear = (d0, d1, r0, r1) => (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
const logScale = (d0, d1, r0, r1) => {
  const scale = linear(Math.log10(d0), Math.log10(d1), r0, r1);
  return (v) => scale(Math.log10(v));
};

function ticks(low, high, log, target = 5) {
  if (log) {
    const out = [];
    for (let e = Math.floor(Math.log10(low)); e <= Math.ceil(Math.log10(high)); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= low * 0.999 && v <= high * 1.001) out.push(+v.toPrecision(3));
      }
    }
    return out;
  }
  const raw = (high - low) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) {
    out.push(+v.toPrecision(6));
  }
  return out;
}

const points = (xs, ys, x, y) =>
  xs.map((v, i) => `${i ? "L" : "M"}${x(v).toFixed(1)} ${y(ys[i]).toFixed(1)}`).join("");

// One panel: a frame with ticks, axis labels and a title; returns its scales.
function panel(svg, box, xDomain, yDomain, options = {}) {
  const [left, top, width, height] = box;
  const scale = options.logX ? logScale : linear;
  const x = scale(...xDomain, left, left + width);
  const y = linear(...yDomain, top + height, top);
  const g = node("g", { class: "ad-axes" }, svg);
  node("rect", { x: left, y: top, width, height, class: "ad-frame" }, g);
  for (const v of options.xTicks === false ? [] : ticks(...xDomain, options.logX)) {
    node("line", { x1: x(v), x2: x(v), y1: top + height, y2: top + height + 4 }, g);
    node("text", { x: x(v), y: top + height + 15, "text-anchor": "middle" }, g, String(v));
  }
  for (const v of ticks(...yDomain, false, options.yTicks)) {
    node("line", { x1: left - 4, x2: left, y1: y(v), y2: y(v) }, g);
    node("text", { x: left - 6, y: y(v) + 3.5, "text-anchor": "end" }, g, String(v).replace("-", "\u2212"));
  }
  if (options.xLabel) {
    node("text", { x: left + width / 2, y: top + height + 32, "text-anchor": "middle" }, g, options.xLabel);
  }
  if (options.yLabel) {
    const at = `translate(${left - (options.yGap ?? 34)} ${top + height / 2}) rotate(-90)`;
    node("text", { transform: at, "text-anchor": "middle" }, g, options.yLabel);
  }
  if (options.title) {
    node("text", { x: left + width / 2, y: top - 8, "text-anchor": "middle", class: "ad-title" }, g, options.title);
  }
  return { x, y, g: node("g", {}, svg) };
}

// A legend's rows are more than a line apart, so that the lines' boxes do not
// overlap (tests/e2e/test_figure_text.py): the CJK font the Chinese edition
// draws the figures' 11 px text in has a line 1.45 em, 16 units, tall.
const LEGEND_ROW = 17;

function legend(svg, at, entries, width) {
  const g = node("g", { class: "ad-legend" }, svg);
  const height = (entries.length - 1) * LEGEND_ROW + 20;
  node("rect", { x: at[0] - 6, y: at[1] - 13, width, height, class: "ad-legend-box" }, g);
  entries.forEach(([text, colour, shape], i) => {
    const y = at[1] + i * LEGEND_ROW;
    if (shape === "dot") node("circle", { cx: at[0] + 8, cy: y - 3.5, r: 3.5, class: `ad-c${colour} ad-fill` }, g);
    else node("line", { x1: at[0], x2: at[0] + 16, y1: y - 3.5, y2: y - 3.5, class: `ad-c${colour} ad-line${shape ? " ad-dashed" : ""}` }, g);
    node("text", { x: at[0] + 22, y }, g, text);
  });
}

function extent(...arrays) {
  const all = arrays.flat();
  const low = Math.min(...all);
  const high = Math.max(...all);
  const pad = (high - low) * 0.06;
  return [low - pad, high + pad];
}

// ---- controls ---------------------------------------------------------------

let controls = 0;

// A labelled control: <label for> names it, so its accessible name is the label.
function control(parent, text, input) {
  const row = node("div", { class: "ad-control" }, parent);
  input.id = `ad-control-${++controls}`;
  node("label", { for: input.id }, row, text);
  row.append(input);
  return input;
}

function slider(parent, text, [low, high, step], value, describe) {
  // A slider grows to the right, as the drawing's axes do, in every edition;
  // its value reads in its own direction ("h = 0.50" or words).
  const input = node("input", { type: "range", dir: "ltr", min: low, max: high, step, value });
  control(parent, text, input);
  const shown = node("output", { for: input.id, dir: "auto", "aria-hidden": "true" }, input.parentElement);
  input.describe = () => {
    const words = describe(Number(input.value));
    input.setAttribute("aria-valuetext", words);
    shown.textContent = words;
  };
  return input;
}

function choice(parent, text, options, value) {
  const select = node("select");
  for (const [key, name] of Object.entries(options)) {
    const option = node("option", { value: key }, select, name);
    if (key === value) option.selected = true;
  }
  return control(parent, text, select);
}

// Snap a value to a slider's steps, as the browser would, and set it.
function setSlider(input, value) {
  const low = Number(input.min), step = Number(input.step);
  const k = Math.round((value - low) / step);
  const clamped = Math.min(Math.max(k, 0), Math.round((Number(input.max) - low) / step));
  const digits = (input.step.split(".")[1] || "").length;
  input.value = (low + clamped * step).toFixed(digits);
}

// Dragging on the figure moves the query sliders; the keyboard moves them too.
function draggable(svg, onPoint) {
  const move = (event) => {
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    onPoint(p.x, p.y);
  };
  svg.addEventListener("pointerdown", (event) => {
    if (event.target.closest(".ad-drag")) {
      svg.setPointerCapture(event.pointerId);
      svg.dragging = true;
      move(event);
    }
  });
  svg.addEventListener("pointermove", (event) => svg.dragging && move(event));
  for (const end of ["pointerup", "pointercancel"]) svg.addEventListener(end, () => (svg.dragging = false));
}

function frame(figure, data, width, height) {
  const live = node("div", { class: "ad-explorable__live" });
  // Left to right in every edition, as the static drawing (svg.py): its texts
  // are anchored at their start or end, which a right-to-left page would swap.
  const svg = node("svg", { class: "ad-figure", role: "img", direction: "ltr", viewBox: `0 0 ${width} ${height}` }, live);
  const title = node("title", {}, svg);
  const controls = node("div", { class: "ad-explorable__controls" }, live);
  const readout = node("p", { class: "ad-explorable__readout", "aria-live": "polite" }, live);
  figure.append(live);
  figure.dataset.live = "";
  const t = (key, fields = {}) => fill(data.text[key], fields, data.spaced);
  return { svg, title, controls, readout, t };
}

const redraw = (svg) => {
  for (const old of svg.querySelectorAll(":scope > g")) old.remove();
};

// ---- 1. Nadaraya-Watson, live -----------------------------------------------

function nadarayaWatsonFigure(figure, data) {
  const { svg, title, controls, readout, t } = frame(figure, data, 640, 380);
  const kernel = choice(controls, t("ex_kernel"), data.kernels, data.default.kernel);
  const h = slider(controls, t("ex_bandwidth"), data.bandwidths, data.default.bandwidth,
    (v) => t("ex_nw_value", { h: number(v, 2) }));
  const query = slider(controls, t("ex_query"), data.queries, data.default.query,
    (v) => t("ex_x_value", { x: number(v, 2) }));
  const box = [70, 30, 548, 200];
  const below = [70, 250, 548, 80];
  const xDomain = [data.queries[0], data.queries[1]];
  const yDomain = extent(data.values, data.truth);
  let scales;

  function update() {
    h.describe();
    query.describe();
    const name = kernel.value, width = Number(h.value), q = Number(query.value);
    const here = nadarayaWatson(data.keys, data.values, q, name, width);
    const curve = data.grid.map((x) => nadarayaWatson(data.keys, data.values, x, name, width).prediction);
    redraw(svg);
    const heading = t("ex_nw_title", { kernel: data.kernels[name], h: number(width, 2) });
    scales = panel(svg, box, xDomain, yDomain, { yLabel: "y", title: heading });
    const { x, y, g } = scales;
    data.keys.forEach((key, i) => node("circle", { cx: x(key), cy: y(data.values[i]), r: 2.5, class: "ad-c0 ad-fill ad-faint" }, g));
    node("path", { d: points(data.grid, data.truth, x, y), class: "ad-c1 ad-line" }, g);
    node("path", { d: points(data.grid, curve, x, y), class: "ad-c2 ad-line ad-dashed ad-curve", "data-values": curve.join(" ") }, g);
    node("circle", { cx: x(q), cy: y(here.prediction), r: 5, class: "ad-c3 ad-fill ad-prediction", "data-value": String(here.prediction) }, g);
    const top = Math.max(...here.weights);
    const weights = panel(svg, below, xDomain, [0, top * 1.1], { xLabel: "x", yLabel: t("ex_weight_axis"), yTicks: 2, yGap: 46 });
    here.weights.forEach((w, i) => {
      const at = weights.x(data.keys[i]);
      node("line", { x1: at, x2: at, y1: weights.y(0), y2: weights.y(w), class: "ad-c0 ad-line ad-weight", "data-weight": String(w) }, weights.g);
    });
    node("line", { x1: x(q), x2: x(q), y1: box[1], y2: below[1] + below[3], class: "ad-query-line" }, weights.g);
    node("rect", { x: x(q) - 9, y: box[1], width: 18, height: below[1] + below[3] - box[1], class: "ad-drag" }, weights.g);
    legend(svg, [box[0] + box[2] - 172, box[1] + 16], [
      [t("samples"), 0, "dot"], [t("truth"), 1], [t("prediction"), 2, true], [t("ex_query_mark"), 3, "dot"],
    ], 170);
    const largest = here.weights.map((w, i) => [w, i]).filter(([w]) => w >= 5e-4 || w === top)
      .sort((a, b) => b[0] - a[0]).slice(0, 3);
    const listed = largest.map(([w, i]) => t("ex_key_weight", { key: number(data.keys[i], 2), weight: number(w, 3) }));
    const sentences = [
      t("ex_nw_readout", { kernel: data.kernels[name], h: number(width, 2), x: number(q, 2), prediction: number(here.prediction, 3) }),
      t("ex_top_weights", { weights: isolated(listed).join(t("ex_list_sep")) }),
    ];
    if (!here.reached) sentences.push(t("ex_no_key"));
    readout.textContent = sentences.join("");
    title.textContent = t("ex_nw_alt", { kernel: data.kernels[name], h: number(width, 2), x: number(q, 2) });
  }

  draggable(svg, (px) => {
    const { x } = scales;
    const value = xDomain[0] + ((px - x(xDomain[0])) / (x(xDomain[1]) - x(xDomain[0]))) * (xDomain[1] - xDomain[0]);
    setSlider(query, value);
    update();
  });
  for (const input of [kernel, h, query]) input.addEventListener("input", update);
  update();
}

// ---- 2. Attention as a soft lookup -------------------------------------------

function softLookupFigure(figure, data) {
  const { svg, title, controls, readout, t } = frame(figure, data, 640, 300);
  const score = choice(controls, t("ex_score"), data.scores, data.default.score);
  const steps = data.steps;
  const describeT = (k) =>
    k <= -steps - 1 ? t("ex_t_zero") : k >= steps + 1 ? t("ex_t_inf") : t("ex_t_value", { t: formatT(temperature(k, steps)) });
  const temp = slider(controls, t("ex_temperature"), [-steps - 1, steps + 1, 1], data.default.step, describeT);
  const q1 = slider(controls, t("ex_q1"), data.queries, data.default.query[0], (v) => t("ex_q_value", { q: number(v, 1) }));
  const q2 = slider(controls, t("ex_q2"), data.queries, data.default.query[1], (v) => t("ex_q_value", { q: number(v, 1) }));
  const domain = [data.queries[0], data.queries[1]];
  const plane = [40, 30, 250, 250];
  let scales;

  function update() {
    for (const input of [temp, q1, q2]) input.describe();
    const q = [Number(q1.value), Number(q2.value)];
    const T = temperature(Number(temp.value), steps);
    const scores = data.keys.map((k) => SCORES[score.value](q, k));
    const weights = temperedSoftmax(scores, T);
    const output = weights.reduce((sum, w, i) => sum + w * data.values[i], 0);
    redraw(svg);
    scales = panel(svg, plane, domain, domain, { title: t("ex_plane_title") });
    const { x, y, g } = scales;
    node("rect", { x: plane[0], y: plane[1], width: plane[2], height: plane[3], class: "ad-drag ad-drag-area" }, g);
    data.keys.forEach((k, i) => {
      node("circle", { cx: x(k[0]), cy: y(k[1]), r: (3 + 14 * Math.sqrt(weights[i])).toFixed(2), class: "ad-c0 ad-fill ad-key" }, g);
      node("text", { x: x(k[0]) + 8, y: y(k[1]) - 6, class: "ad-key-label" }, g, `${data.names[i]} (${data.values[i]})`);
    });
    node("circle", { cx: x(q[0]), cy: y(q[1]), r: 6, class: "ad-c3 ad-fill ad-query" }, g);
    node("text", { x: x(q[0]) + 8, y: y(q[1]) + 14, class: "ad-c3 ad-text" }, g, "q");
    const bars = panel(svg, [370, 30, 250, 200], [0, data.keys.length], [0, 1.12], { title: t("ex_weights_title"), xTicks: false });
    weights.forEach((w, i) => {
      const left = bars.x(i + 0.15), right = bars.x(i + 0.85);
      node("rect", { x: left, y: bars.y(w), width: right - left, height: bars.y(0) - bars.y(w), class: "ad-c0 ad-fill ad-bar", "data-weight": String(w) }, bars.g);
      node("text", { x: (left + right) / 2, y: bars.y(w) - 4, "text-anchor": "middle" }, bars.g, number(w, 3));
      node("text", { x: (left + right) / 2, y: 246, "text-anchor": "middle" }, bars.g, data.names[i]);
    });
    node("text", { x: 495, y: 272, "text-anchor": "middle", class: "ad-output", "data-value": String(output) }, bars.g, t("ex_output", { output: number(output, 3) }));
    const listed = weights.map((w, i) => t("ex_lookup_weight", { name: data.names[i], weight: number(w, 3) }));
    readout.textContent = t("ex_lookup_readout", { output: number(output, 3), weights: isolated(listed).join(t("ex_list_sep")) });
    title.textContent = t("ex_lookup_alt", { q1: number(q[0], 1), q2: number(q[1], 1), score: data.scores[score.value], t: describeT(Number(temp.value)) });
  }

  draggable(svg, (px, py) => {
    const { x, y } = scales;
    const invert = (scale, p) => domain[0] + ((p - scale(domain[0])) / (scale(domain[1]) - scale(domain[0]))) * (domain[1] - domain[0]);
    setSlider(q1, invert(x, px));
    setSlider(q2, invert(y, py));
    update();
  });
  for (const input of [score, temp, q1, q2]) input.addEventListener("input", update);
  update();
}

function formatT(value) {
  return value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(2);
}

// ---- 3. Gradient descent on CV(h) --------------------------------------------

// The slow part of its set-up, the CV(h) curve on the grid of
// experiments.cv_curve and each run's training loss n·CV(1/|w|) at every
// step, a piece at a time (startFigure).
function* gradientDescentCurves(data) {
  const [low, high, count] = data.cv_grid;
  const bandwidths = Array.from({ length: count }, (_, i) => low * (high / low) ** (i / (count - 1)));
  const curve = [];
  for (const h of bandwidths) {
    curve.push(looCV(data.keys, data.values, h));
    yield;
  }
  const n = data.keys.length;
  const losses = [];
  for (const run of data.runs) {
    const loss = [];
    losses.push(loss);
    for (const w of run.w) {
      loss.push(n * looCV(data.keys, data.values, 1 / Math.abs(w)));
      yield;
    }
  }
  return { bandwidths, curve, losses };
}

function gradientDescentFigure(figure, data, { bandwidths, curve, losses }) {
  const { svg, title, controls, readout, t } = frame(figure, data, 760, 300);
  const runs = Object.fromEntries(data.runs.map((run, i) => [i, run.name]));
  const run = choice(controls, t("ex_run"), runs, "0");
  const step = slider(controls, t("ex_step"), [0, data.runs[0].w.length - 1, 1], 1, (k) =>
    t("ex_step_value", { k, n: Number(step.max) }));
  const buttons = node("div", { class: "ad-explorable__buttons" }, controls);
  const back = node("button", { type: "button", class: "md-button" }, buttons, t("ex_previous"));
  const next = node("button", { type: "button", class: "md-button" }, buttons, t("ex_next"));
  const n = data.keys.length;
  const cvBox = [56, 30, 200, 210], fitBox = [312, 30, 190, 210], lossBox = [566, 30, 180, 210];
  const [low, high] = data.cv_grid;
  const cvY = extent(curve);
  const fitY = extent(data.values, data.truth);

  function update() {
    const current = data.runs[Number(run.value)];
    const loss = losses[Number(run.value)];
    step.max = current.w.length - 1;
    step.describe();
    const k = Number(step.value);
    const hs = current.w.map((w) => 1 / Math.abs(w));
    const cvs = loss.map((l) => l / n);
    const fit = data.grid.map((x) => nadarayaWatson(data.keys, data.values, x, "gaussian", hs[k]).prediction);
    redraw(svg);
    const cv = panel(svg, cvBox, [low, high], cvY, { logX: true, xLabel: t("bandwidth"), yLabel: "CV(h)", title: t("ex_cv_title") });
    node("path", { d: points(bandwidths, curve, cv.x, cv.y), class: "ad-c0 ad-line ad-cv", "data-bandwidths": bandwidths.join(" "), "data-values": curve.join(" ") }, cv.g);
    node("line", { x1: cv.x(data.h_cv), x2: cv.x(data.h_cv), y1: cvBox[1], y2: cvBox[1] + cvBox[3], class: "ad-c1 ad-line ad-dashed" }, cv.g);
    node("path", { d: points(hs.slice(0, k + 1), cvs, cv.x, cv.y), class: "ad-c3 ad-line ad-thin" }, cv.g);
    for (let i = 0; i < k; i++) node("circle", { cx: cv.x(hs[i]), cy: cv.y(cvs[i]), r: 2, class: "ad-c3 ad-fill" }, cv.g);
    node("circle", { cx: cv.x(hs[k]), cy: cv.y(cvs[k]), r: 5, class: "ad-c3 ad-fill ad-iterate", "data-h": String(hs[k]) }, cv.g);
    const fitPanel = panel(svg, fitBox, [0, 5], fitY, { xLabel: "x", title: t("ex_fit_title") });
    data.keys.forEach((key, i) => node("circle", { cx: fitPanel.x(key), cy: fitPanel.y(data.values[i]), r: 2, class: "ad-c0 ad-fill ad-faint" }, fitPanel.g));
    node("path", { d: points(data.grid, data.truth, fitPanel.x, fitPanel.y), class: "ad-c1 ad-line" }, fitPanel.g);
    node("path", { d: points(data.grid, fit, fitPanel.x, fitPanel.y), class: "ad-c2 ad-line ad-curve", "data-values": fit.join(" ") }, fitPanel.g);
    const epochs = loss.map((_, i) => i);
    const lossPanel = panel(svg, lossBox, [0, epochs.length - 1], extent(loss), { xLabel: t("epoch"), title: t("ex_loss_title") });
    node("path", { d: points(epochs, loss, lossPanel.x, lossPanel.y), class: "ad-c0 ad-line ad-losses", "data-values": loss.join(" ") }, lossPanel.g);
    node("circle", { cx: lossPanel.x(k), cy: lossPanel.y(loss[k]), r: 5, class: "ad-c3 ad-fill" }, lossPanel.g);
    legend(svg, [cvBox[0] + 8, cvBox[1] + 14], [[t("loo_error"), 0], [t("h_cv"), 1, true]], 192);
    readout.textContent = t("ex_gd_readout", { k, w: number(current.w[k], 3), h: number(hs[k], 3), loss: number(loss[k], 3) });
    title.textContent = t("ex_gd_alt", { run: current.name, k, h: number(hs[k], 3) });
    back.disabled = k === 0;
    next.disabled = k === Number(step.max);
  }

  // A button that the step disables hands the keyboard focus to the slider.
  const go = (delta, button) => {
    step.value = String(Number(step.value) + delta);
    update();
    if (button.disabled) step.focus();
  };
  back.addEventListener("click", () => go(-1, back));
  next.addEventListener("click", () => go(1, next));
  for (const input of [run, step]) input.addEventListener("input", update);
  update();
}

// ---- 4. Saturation: one query's weights as d grows ----------------------------

// saturation.softmax_rows and the Frobenius norm of saturation.softmax_jacobian,
// for one row of scores.
export function softmaxWithJacobian(scores) {
  const top = Math.max(...scores);
  const weights = normalise(scores.map((s) => Math.exp(s - top)));
  let squares = 0;
  weights.forEach((a, i) => weights.forEach((b, j) => {
    squares += ((i === j ? a : 0) - a * b) ** 2;
  }));
  return { weights, jacobian: Math.sqrt(squares) };
}

const formatC = (c) => (c >= 10 ? c.toFixed(1) : c.toPrecision(3));

// A norm below 0.001 in powers of ten ("3.5 × 10⁻¹⁰"): fixed digits would
// print 0.000 for norms twelve orders of magnitude apart.
const SUPERSCRIPT = { "-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3", 4: "\u2074", 5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078", 9: "\u2079" };
function small(value) {
  if (value >= 0.001 || value === 0) return number(value, 3);
  let exponent = Math.floor(Math.log10(value));
  if ((value / 10 ** exponent).toFixed(1) === "10.0") exponent += 1;
  const power = String(exponent).replace(/./g, (ch) => SUPERSCRIPT[ch]);
  return `${(value / 10 ** exponent).toFixed(1)} \u00d7 10${power}`;
}

function saturationFigure(figure, data) {
  const { svg, title, controls, readout, t } = frame(figure, data, 640, 290);
  const scale = choice(controls, t("ex_sat_scale"), data.scales, data.default.scaled ? "scaled" : "raw");
  const ds = data.dimensions;
  const dim = slider(controls, t("ex_sat_d"), [0, ds.length - 1, 1], ds.indexOf(data.default.d),
    (k) => t("ex_sat_d_value", { d: ds[k] }));
  const steps = data.c_steps;
  // c = 2^(k/2) is √d where k = log2 d, the d slider's position.
  const c = slider(controls, t("ex_sat_c"), [-steps, steps, 1], data.default.step,
    (k) => t(k === Number(dim.value) ? "ex_sat_c_sqrt" : "ex_sat_c_value", { c: formatC(2 ** (k / 2)) }));
  const barBox = [56, 30, 230, 200], meanBox = [370, 30, 250, 200];

  function update() {
    for (const input of [dim, c]) input.describe();
    const k = Number(dim.value), d = ds[k], factor = 2 ** (Number(c.value) / 2);
    const scaled = scale.value === "scaled";
    const multiplier = (scaled ? 1 / Math.sqrt(d) : 1) * factor;
    const { weights, jacobian } = softmaxWithJacobian(data.scores[k].map((s) => s * multiplier));
    const top = Math.max(...weights);
    redraw(svg);
    const bars = panel(svg, barBox, [0.5, weights.length + 0.5], [0, 1.05], {
      xLabel: t("ex_sat_keys_axis"), yLabel: t("ex_weight_axis"), title: t("ex_sat_weights_title", { d }), yTicks: 5 });
    weights.forEach((w, i) => {
      const left = bars.x(i + 0.6), right = bars.x(i + 1.4);
      node("rect", { x: left, y: bars.y(w), width: right - left, height: bars.y(0) - bars.y(w), class: "ad-c0 ad-fill ad-bar", "data-weight": String(w) }, bars.g);
    });
    const means = panel(svg, meanBox, [1, ds[ds.length - 1]], [0, 1.05], {
      logX: true, xLabel: t("dimension_d"), title: t("ex_sat_means_title"), yTicks: 5 });
    node("path", { d: points(ds, data.top_raw, means.x, means.y), class: "ad-c1 ad-line" }, means.g);
    node("path", { d: points(ds, data.top_scaled, means.x, means.y), class: "ad-c0 ad-line ad-dashed" }, means.g);
    node("circle", { cx: means.x(d), cy: means.y(top), r: 5, class: "ad-c3 ad-fill ad-this", "data-value": String(top), "data-jacobian": String(jacobian) }, means.g);
    legend(svg, [meanBox[0] + 10, meanBox[1] + 18], [
      [t("scores_raw"), 1], [t("scores_scaled"), 0, true], [t("ex_sat_this"), 3, "dot"],
    ], 110);
    const scores = data.scales[scale.value], shown = formatC(factor);
    readout.textContent = t("ex_sat_readout", { d, scores, c: shown, top: number(top, 3), jacobian: small(jacobian) });
    title.textContent = t("ex_sat_alt", { d, scores, c: shown });
  }

  for (const input of [scale, dim, c]) input.addEventListener("input", update);
  update();
}

// ---- start on every page Material shows, instant navigation included ---------

const FIGURES = {
  "nadaraya-watson": nadarayaWatsonFigure,
  "soft-lookup": softLookupFigure,
  "gradient-descent": gradientDescentFigure,
  "saturation": saturationFigure,
};

// A figure's set-up that takes a while, as a generator that yields between
// pieces: its result is the figure function's third argument.
const PREPARE = {
  "gradient-descent": gradientDescentCurves,
};

const preparing = new WeakMap(); // figure -> its set-up under way

// Sets a figure up, if `more()` leaves the time (the default: all of it), and
// says whether it is done; a figure set up in part goes on at the next call.
// Drawing it is one more piece, and it waits for a call of its own unless the
// figure is needed now (`more` left as it is).
const NOW = () => true;

function startFigure(figure, more = NOW) {
  if (!figure.isConnected || "live" in figure.dataset) return true; // gone, or started
  let job = preparing.get(figure);
  if (!job) {
    const data = JSON.parse(figure.dataset.explorableData);
    const steps = (PREPARE[figure.dataset.explorable] ?? function* () {})(data);
    job = { data, steps, result: undefined, done: false };
    preparing.set(figure, job);
  }
  let prepared = false;
  while (!job.done) {
    if (!more()) return false;
    const step = job.steps.next();
    if (step.done) Object.assign(job, { result: step.value, done: true });
    prepared = true;
  }
  if (prepared && more !== NOW) return false; // drawn in the next slice
  preparing.delete(figure);
  FIGURES[figure.dataset.explorable](figure, job.data, job.result);
  return true;
}

// A figure is set up when it comes near the screen or else, a few milliseconds
// at a time, when the browser has nothing else to do: never in one long task
// while the page loads. Until then the reader sees its static drawing. A slice
// stops after SLICE ms even if the browser would give it more: a phone's CPU
// takes several times as long as a desktop's for the same piece.
const SLICE = 8;
const whenIdle =
  window.requestIdleCallback ||
  ((work) =>
    setTimeout(() => {
      const end = performance.now() + 10;
      work({ timeRemaining: () => end - performance.now() });
    }, 200));

function start() {
  const waiting = document.querySelectorAll(".ad-explorable:not([data-live])");
  if (!waiting.length) return;
  const near = new IntersectionObserver(
    (entries) => {
      for (const entry of entries.filter((e) => e.isIntersecting)) {
        near.unobserve(entry.target);
        startFigure(entry.target);
      }
    },
    { rootMargin: "200px" },
  );
  for (const figure of waiting) {
    near.observe(figure);
    const idle = (deadline) => {
      const end = performance.now() + SLICE;
      const more = () => deadline.timeRemaining() > 2 && performance.now() < end;
      if (startFigure(figure, more)) near.unobserve(figure);
      else whenIdle(idle);
    };
    whenIdle(idle);
  }
}

if (window.document$) window.document$.subscribe(start);
else start();
document.addEventListener("ad:content", start);
