// The playground page: controls, tables and Plotly figures. Every number drawn or
// written here comes from the server (the library's traces and fitted attributes);
// this script only lays them out.
"use strict";

const $ = (id) => document.getElementById(id);
const COLORS = { pos: "#d62728", neg: "#1f77b4" };

// learner -> its parameter controls: [key, kind, default, options]
const PARAMS = {
  perceptron: [["variant", "select", "primal", ["primal", "dual", "kernel_perceptron"]],
               ["eta", "number", 1], ["sigma", "number", 1], ["max_epochs", "number", 1000],
               ["click_class", "select", "1", ["1", "-1"]]],
  svm: [["kernel", "select", "kernel_linear", ["kernel_linear", "rbf", "poly"]], ["C", "text", "inf"],
        ["sigma", "number", 1], ["epsilon", "number", 0.1],
        ["click_class", "select", "1", ["1", "-1"]]],
  tree: [["criterion", "select", "info_gain", ["info_gain", "gain_ratio", "gini"]],
         ["pruning", "select", "none", ["none", "pre", "post"]]],
  bp: [["hidden_units", "number", 4], ["eta", "number", 1], ["max_epochs", "number", 3000]],
  linear: [],
};
// how a parameter's option is labelled when it is not an i18n key
const OPTION_LABELS = { info_gain: "ID3 (Gain)", gain_ratio: "C4.5 (Gain_ratio)", gini: "CART (Gini_index)",
                        rbf: "RBF", poly: "poly", "1": "+1", "-1": "-1" };

const state = { pending: null, catalog: null, run: null, info: null, picture: {}, clicked: [], rows: [],
                stream: null, curve: null, lastStep: null, linear: null };

// ------------------------------------------------------------------ helpers
async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}
function setStatus(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}
function learner() { return $("learner").value; }
function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function translate() {
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.querySelectorAll("option[data-key]").forEach((o) => { o.textContent = optionText(o); });
  renderHeader();
  if (state.info) redraw();
}

// ----------------------------------------------------------------- controls
function optionText(option) {
  const key = option.dataset.key;
  return option.dataset.param ? OPTION_LABELS[key] || t(key) : t(key);
}
function fillSelect(select, keys, param = false) {
  select.innerHTML = "";
  for (const key of keys) {
    const option = el("option", { value: key, "data-key": key });
    if (param) option.dataset.param = "1";
    option.textContent = optionText(option);
    select.appendChild(option);
  }
}
function buildParams() {
  const box = $("params");
  box.innerHTML = "";
  for (const [key, kind, value, options] of PARAMS[learner()]) {
    const label = el("label");
    label.appendChild(el("span", { "data-i18n": key }, t(key)));
    let input;
    if (kind === "select") {
      input = el("select"); fillSelect(input, options, true); input.value = options.includes(value) ? value : options[0];
    }
    else { input = el("input", { type: kind, value: value, step: "any" }); }
    input.id = "param-" + key;
    input.dataset.testid = "param-" + key;
    input.setAttribute("data-testid", "param-" + key);
    if (key !== "click_class") input.addEventListener("change", reset);
    label.appendChild(input);
    box.appendChild(label);
  }
}
function params() {
  const out = {};
  for (const [key] of PARAMS[learner()]) out[key] = $("param-" + key).value;
  if (out.variant === "kernel_perceptron") out.variant = "kernel";
  if (out.kernel === "kernel_linear") out.kernel = "linear";
  if (out.hidden_units !== undefined) out.hidden = out.hidden_units;
  return out;
}
function fillDatasets() {
  const keys = state.catalog.datasets[learner()].concat(
    learner() === "linear" ? [] : state.catalog.uploads);
  const previous = $("dataset").value;
  fillSelect($("dataset"), keys);
  if (keys.includes(previous)) $("dataset").value = previous;
}

// -------------------------------------------------------------------- runs
// A control that loses focus to a button resets first: the buttons wait for it.
function reset() {
  state.pending = startRun();
  return state.pending;
}
async function startRun() {
  stopStream();
  document.body.dataset.learner = learner();
  state.rows = []; state.picture = {}; state.curve = null; state.lastStep = null;
  $("trace").querySelector("tbody").innerHTML = "";
  $("split").innerHTML = ""; $("tree-text").textContent = ""; $("hidden").innerHTML = "";
  $("facts").innerHTML = "";
  for (const id of ["plot", "plot2", "plot3"]) Plotly.purge($(id));
  state.run = null; state.info = null;
  const dataset = $("dataset").value;
  if (dataset === "clicked" && state.clicked.length < 2) {
    state.info = { columns: [], points: { x: [], y: [], label: [], id: [] }, box: [[0, 0], [10, 10]] };
    renderHeader(); redraw(); setStatus(t("click_hint"));
    return;
  }
  try {
    setStatus("…");
    const data = await api("/api/start", { learner: learner(), dataset, params: params(),
                                           points: state.clicked });
    state.run = data.run; state.info = data.info;
    if (learner() === "linear") state.linear = data.info;
    renderHeader(); renderFacts(); redraw();
    setStatus(learner() === "linear" ? t("drag_hint") : `${t(learner())}: ${t(dataset)}`);
  } catch (err) { setStatus(err.message, true); }
}
async function advance(mode) {
  await state.pending;
  if (!state.run) return;
  try {
    const data = await api("/api/step", { run: state.run, mode });
    take(data.steps);
    if (data.done && !data.steps.length) setStatus(`${t("done")}: ${state.rows.length} ${t("steps")}`);
  } catch (err) { setStatus(err.message, true); }
}
async function runAll() {
  await state.pending;
  if (!state.run) return;
  stopStream();
  const source = new EventSource(`/api/stream/${state.run}`);
  state.stream = source;
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    take(data.steps, true);
    if (!state.lastStep || !state.lastStep.status) setStatus(`${t("running")}… ${state.rows.length} ${t("steps")}`);
  };
  source.addEventListener("end", () => {
    stopStream();
    const last = state.lastStep;
    setStatus((last && last.status) || `${t("done")}: ${state.rows.length} ${t("steps")}`);
  });
  source.onerror = () => { stopStream(); };
}
function stopStream() {
  if (state.stream) { state.stream.close(); state.stream = null; }
}
function take(steps, streaming = false) {
  if (!steps.length) return;
  const body = $("trace").querySelector("tbody");
  const fragment = document.createDocumentFragment();
  for (const step of steps) {
    const cells = [String(step.k)].concat(step.row);
    state.rows.push(cells);
    const tr = el("tr");
    for (const c of cells) tr.appendChild(el("td", {}, c));
    fragment.appendChild(tr);
    if (step.plot) Object.assign(state.picture, step.plot);
    if (step.curve) appendCurve(step.curve);
    if (step.split_table) renderSplit(step.split_table);
    if (step.tree_text) $("tree-text").textContent = step.tree_text;
    if (step.regions && learner() === "bp") state.picture.bpRegions = step.regions;
    if (step.hidden) state.picture.hidden = step.hidden;
    state.lastStep = step;
  }
  body.appendChild(fragment);
  body.parentElement.parentElement.scrollTop = 1e9;
  const last = steps[steps.length - 1];
  if (last.status) setStatus(last.status);
  else if (!streaming) setStatus(`${t("steps")}: ${last.k}`);
  redraw();
}

// ------------------------------------------------------------------ tables
function renderHeader() {
  const head = $("trace").querySelector("thead");
  head.innerHTML = "";
  if (!state.info) return;
  const tr = el("tr");
  for (const c of state.info.columns || []) tr.appendChild(el("th", {}, t(c === "epoch" ? "epoch_col" : c)));
  head.appendChild(tr);
}
function renderFacts() {
  const facts = $("facts");
  facts.innerHTML = "";
  const info = state.info;
  if (info.novikoff) facts.appendChild(el("div", { "data-testid": "novikoff" }, `${t("novikoff")}: ${info.novikoff.text}`));
  if (info.gram) {
    facts.appendChild(el("div", {}, t("gram") + " G ="));
    const table = el("table", { "data-testid": "gram" });
    for (const row of info.gram) {
      const tr = el("tr");
      for (const v of row) tr.appendChild(el("td", {}, v));
      table.appendChild(tr);
    }
    facts.appendChild(table);
  }
  if (info.algorithm) facts.appendChild(el("div", {}, `${info.algorithm} · ${info.rows} · ${info.attributes.join(", ")}`));
  if (learner() === "linear") renderLinearTable(info.rows);
}
function renderSplit(split) {
  const box = $("split");
  box.innerHTML = "";
  box.appendChild(el("div", {}, `${t("root_entropy")} = ${split.impurity}`));
  const table = el("table");
  const head = el("tr");
  for (const c of split.columns) head.appendChild(el("th", {}, t(c === "threshold" ? "threshold_col" : c)));
  table.appendChild(head);
  for (const row of split.rows) {
    const tr = el("tr", row[0] === split.chosen ? { class: "chosen", "data-chosen": "true" } : {});
    for (const v of row) tr.appendChild(el("td", {}, v));
    table.appendChild(tr);
  }
  box.appendChild(table);
}
function renderLinearTable(rows) {
  const body = $("trace").querySelector("tbody");
  body.innerHTML = "";
  for (const row of rows) {
    const tr = el("tr");
    tr.appendChild(el("td", {}, t(row[0])));
    for (const v of row.slice(1)) tr.appendChild(el("td", {}, v));
    body.appendChild(tr);
  }
}
function renderHidden(hidden) {
  const box = $("hidden");
  box.innerHTML = "";
  if (!hidden) return;
  box.appendChild(el("h3", {}, t("hidden_outputs")));
  for (const rule of ["standard", "accumulated"]) {
    const wrap = el("div", { class: "hidden-table" });
    wrap.appendChild(el("div", {}, t(rule)));
    const table = el("table");
    hidden[rule].forEach((row, i) => {
      const tr = el("tr");
      tr.appendChild(el("th", {}, `x${i + 1}`));
      for (const v of row) tr.appendChild(el("td", {}, v.toFixed(3)));
      table.appendChild(tr);
    });
    wrap.appendChild(table);
    box.appendChild(wrap);
  }
}

// ----------------------------------------------------------------- figures
function classTraces(points) {
  const labels = [...new Set(points.label)].sort();
  const positive = labels[labels.length - 1];
  return labels.map((lab) => {
    const idx = points.label.map((l, i) => (l === lab ? i : -1)).filter((i) => i >= 0);
    const big = points.x.length > 500;
    return { type: big ? "scattergl" : "scatter", mode: big ? "markers" : "markers+text",
             x: idx.map((i) => points.x[i]), y: idx.map((i) => points.y[i]),
             text: big ? undefined : idx.map((i) => points.id[i]), textposition: "top right",
             name: lab, marker: { size: big ? 3 : 10, color: lab === positive ? COLORS.pos : COLORS.neg,
                                  symbol: lab === positive ? "circle" : "x" }, hoverinfo: "x+y+name" };
  });
}
function planeLayout(title) {
  const box = state.info.box;
  const layout = { title: { text: title }, height: 480, margin: { l: 50, r: 20, t: 40, b: 40 },
                   showlegend: true, legend: { orientation: "h" },
                   xaxis: { title: { text: "x(1)" } }, yaxis: { title: { text: "x(2)" } } };
  if (box) { layout.xaxis.range = [box[0][0], box[1][0]]; layout.yaxis.range = [box[0][1], box[1][1]]; }
  return layout;
}
function regionTraces(regions, levels, middle = 0, axes = {}) {
  // the model's own scores on a grid: shaded by sign (or probability), lines at the levels
  const shade = { type: "heatmap", x: regions.x, y: regions.y, z: regions.z, zmid: middle,
                  showscale: false, opacity: 0.3, hoverinfo: "skip", showlegend: false,
                  colorscale: [[0, COLORS.neg], [0.5, "#ffffff"], [1, COLORS.pos]], ...axes };
  const marks = levels || [middle];
  const lines = { type: "contour", x: regions.x, y: regions.y, z: regions.z, showscale: false,
                  hoverinfo: "skip", showlegend: false, line: { width: 2, color: "#444" },
                  colorscale: [[0, "#444"], [1, "#444"]],
                  contours: { coloring: "none", showlabels: marks.length > 1, start: marks[0],
                              end: marks[marks.length - 1],
                              size: marks.length > 1 ? marks[1] - marks[0] : 1 }, ...axes };
  return [shade, lines];
}
function drawPlane() {
  const info = state.info, picture = state.picture, traces = [];
  if (picture.regions) traces.push(...regionTraces(picture.regions, picture.levels));
  traces.push(...classTraces(info.points));
  for (const line of picture.lines || []) {
    if (line) traces.push({ type: "scatter", mode: "lines", x: line.x, y: line.y,
                            name: line.name || "w·x+b=0", line: { color: "#2ca02c", width: 3 } });
  }
  const mark = picture.mark || [];
  if (mark.length) {
    traces.push({ type: "scatter", mode: "markers+text", x: mark.map((i) => info.points.x[i]),
                  y: mark.map((i) => info.points.y[i]),
                  text: mark.map((i) => (picture.labels || {})[i] || ""), textposition: "bottom center",
                  name: learner() === "svm" ? "SV / (i, j)" : t("misclassified"),
                  marker: { size: 20, color: "rgba(0,0,0,0)", line: { color: "#ff7f0e", width: 3 } } });
  }
  const title = `${t(learner())} — ${t($("dataset").value)}`;
  Plotly.react($("plot"), traces, planeLayout(title), { responsive: true, displaylogo: false });
}
function drawSvr() {
  const info = state.info, picture = state.picture, traces = [];
  traces.push({ type: "scatter", mode: "markers", x: info.points.x, y: info.points.y, name: "data",
                marker: { size: 8, color: COLORS.neg } });
  const c = picture.curve;
  if (c) {
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.upper, name: "f(x)+ε", line: { dash: "dash", color: "#999" } });
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.lower, name: "f(x)−ε", line: { dash: "dash", color: "#999" }, fill: "tonexty", fillcolor: "rgba(44,160,44,0.12)" });
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.f, name: "f(x)", line: { color: "#2ca02c", width: 3 } });
    const mark = picture.mark || [];
    traces.push({ type: "scatter", mode: "markers", x: mark.map((i) => info.points.x[i]), y: mark.map((i) => info.points.y[i]),
                  name: "SV", marker: { size: 16, color: "rgba(0,0,0,0)", line: { color: "#ff7f0e", width: 2 } } });
  }
  Plotly.react($("plot"), traces, { title: { text: "SVR — ε-tube" }, height: 480,
                                    margin: { l: 50, r: 20, t: 40, b: 40 } }, { responsive: true, displaylogo: false });
}
function appendCurve(curve) {
  if (!state.curve) state.curve = { standard: [], accumulated: [] };
  for (const rule of ["standard", "accumulated"]) state.curve[rule].push(...curve[rule]);
}
function drawBp() {
  const info = state.info, picture = state.picture;
  const curve = state.curve || { standard: [], accumulated: [] };
  Plotly.react($("plot3"), ["standard", "accumulated"].map((rule) => ({
    type: "scatter", mode: "lines", y: curve[rule], x: curve[rule].map((_, i) => i + 1), name: t(rule) })),
    { title: { text: t("error_curve") }, height: 300, margin: { l: 50, r: 20, t: 40, b: 40 },
      xaxis: { title: { text: t("epoch_col") } }, yaxis: { title: { text: "E" }, type: "log" } },
    { responsive: true, displaylogo: false });
  if (info.points && picture.bpRegions) {
    const traces = [];
    ["standard", "accumulated"].forEach((rule, k) => {
      const axis = k === 0 ? "" : "2";
      traces.push(...regionTraces(picture.bpRegions[rule], null, 0.5,
                                  { xaxis: "x" + axis, yaxis: "y" + axis }));
      for (const tr of classTraces(info.points)) {
        traces.push(Object.assign(tr, { xaxis: "x" + axis, yaxis: "y" + axis, showlegend: k === 0 }));
      }
    });
    Plotly.react($("plot"), traces, {
      grid: { rows: 1, columns: 2, pattern: "independent" }, height: 380,
      margin: { l: 40, r: 20, t: 40, b: 40 },
      annotations: ["standard", "accumulated"].map((rule, k) => ({
        text: t(rule), showarrow: false, xref: "paper", yref: "paper", x: k === 0 ? 0.2 : 0.8, y: 1.08 })) },
      { responsive: true, displaylogo: false });
  }
  renderHidden(picture.hidden);
}
function drawLinear() {
  const data = state.linear;
  if (!data) return;
  const points = data.points, radius = 0.012;
  const shapes = points.x.map((x, i) => ({
    type: "circle", xref: "x", yref: "y", x0: x - radius, x1: x + radius,
    y0: points.y[i] - radius * 1.6, y1: points.y[i] + radius * 1.6, editable: true,
    fillcolor: points.label[i] === "是" ? COLORS.pos : COLORS.neg, line: { color: "#333", width: 1 } }));
  const traces = [];
  const styles = { least_squares: "#9467bd", fisher: "#2ca02c", logistic: "#ff7f0e" };
  for (const [name, line] of Object.entries(data.lines)) {
    if (line) traces.push({ type: "scatter", mode: "lines", x: line.x, y: line.y, name: t(name),
                            line: { color: styles[name], width: 3 } });
  }
  const axis = data.projection.axis;
  if (axis) traces.push({ type: "scatter", mode: "lines", x: axis.x, y: axis.y, name: t("projection"),
                          line: { color: "#2ca02c", dash: "dot" } });
  traces.push({ type: "scatter", mode: "text", x: points.x, y: points.y, text: points.id,
                textposition: "top right", showlegend: false, hoverinfo: "skip" });
  const box = data.box;
  Plotly.react($("plot"), traces, {
    title: { text: `${t("linear")} — ${t("watermelon-3.0alpha")} (${t("drag_hint")})` }, height: 480,
    shapes, margin: { l: 50, r: 20, t: 40, b: 40 }, legend: { orientation: "h" },
    xaxis: { title: { text: "密度" }, range: [box[0][0], box[1][0]] },
    yaxis: { title: { text: "含糖率" }, range: [box[0][1], box[1][1]] } },
    { responsive: true, displaylogo: false, edits: { shapePosition: true } });
  const gd = $("plot");
  gd.removeAllListeners("plotly_relayout");
  gd.on("plotly_relayout", onShapeMoved);
  const p = data.projection, labels = [...new Set(p.label)].sort();
  const projTraces = labels.map((lab, k) => ({
    type: "scatter", mode: "markers", name: lab, x: p.z.filter((_, i) => p.label[i] === lab),
    y: p.z.filter((_, i) => p.label[i] === lab).map(() => k),
    marker: { size: 10, color: k === labels.length - 1 ? COLORS.pos : COLORS.neg } }));
  const shapes2 = [{ type: "line", x0: p.threshold, x1: p.threshold, y0: -0.5, y1: labels.length - 0.5,
                     line: { color: "#000", dash: "dash" } }];
  for (const [k, lab] of labels.entries()) {
    shapes2.push({ type: "line", x0: p.means[lab], x1: p.means[lab], y0: k - 0.3, y1: k + 0.3,
                   line: { color: k === labels.length - 1 ? COLORS.pos : COLORS.neg, width: 3 } });
  }
  Plotly.react($("plot2"), projTraces, { title: { text: `${t("projection")} · ${t("threshold")} ${p.threshold.toFixed(4)}` },
    height: 220, shapes: shapes2, margin: { l: 50, r: 20, t: 40, b: 30 },
    yaxis: { tickvals: labels.map((_, k) => k), ticktext: labels, range: [-0.7, labels.length - 0.3] } },
    { responsive: true, displaylogo: false });
}
async function onShapeMoved(update) {
  if (learner() !== "linear" || !state.linear) return;
  const moved = Object.keys(update).some((k) => k.startsWith("shapes["));
  if (!moved) return;
  const shapes = $("plot").layout.shapes;
  const coords = shapes.map((s) => [(s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2]);
  try {
    state.linear = await api("/api/linear", { points: coords });
    renderLinearTable(state.linear.rows);
    drawLinear();
  } catch (err) { setStatus(err.message, true); }
}
function redraw() {
  if (!state.info) return;
  const kind = learner();
  if (kind === "tree") return;
  if (kind === "bp") { drawBp(); return; }
  if (kind === "linear") { drawLinear(); return; }
  if (state.info.svr) { drawSvr(); return; }
  drawPlane();
}

// ------------------------------------------------------------- clicking
function onPlotClick(event) {
  if ($("dataset").value !== "clicked" || !["perceptron", "svm"].includes(learner())) return;
  const gd = $("plot"), layout = gd._fullLayout;
  if (!layout || !layout.xaxis) return;
  const rect = gd.getBoundingClientRect();
  const x = layout.xaxis.p2c(event.clientX - rect.left - layout.xaxis._offset);
  const y = layout.yaxis.p2c(event.clientY - rect.top - layout.yaxis._offset);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return;
  state.clicked.push([x, y, Number($("param-click_class").value)]);
  const labels = new Set(state.clicked.map((p) => p[2]));
  if (labels.size < 2) {
    state.info = state.info || {};
    state.info.points = { x: state.clicked.map((p) => p[0]), y: state.clicked.map((p) => p[1]),
                          label: state.clicked.map((p) => String(p[2])), id: state.clicked.map((_, i) => String(i + 1)) };
    drawPlane();
    setStatus(t("click_hint"));
    return;
  }
  reset();
}

// ---------------------------------------------------------------- upload
async function upload(event) {
  event.preventDefault();
  const file = $("upload-file").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("file", file);
  form.append("target", $("upload-target").value);
  try {
    const response = await fetch("/api/upload", { method: "POST", body: form });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error);
    state.catalog = await api("/api/catalog");
    LABELS[data.dataset] = [`${file.name} (${data.rows})`, `${file.name} (${data.rows})`];
    fillDatasets();
    $("dataset").value = data.dataset;
    reset();
  } catch (err) { setStatus(err.message, true); }
}

// ------------------------------------------------------------------ start
async function main() {
  state.catalog = await api("/api/catalog");
  fillSelect($("learner"), state.catalog.learners);
  const wanted = location.hash.slice(1);
  if (state.catalog.learners.includes(wanted)) $("learner").value = wanted;
  $("learner").addEventListener("change", () => {
    history.replaceState(null, "", "#" + learner());
    state.clicked = []; buildParams(); fillDatasets(); reset(); });
  $("dataset").addEventListener("change", () => { state.clicked = []; reset(); });
  $("step").addEventListener("click", () => advance("step"));
  $("epoch").addEventListener("click", () => advance("epoch"));
  $("run").addEventListener("click", runAll);
  $("reset").addEventListener("click", () => { if ($("dataset").value === "clicked") state.clicked = []; reset(); });
  $("lang").addEventListener("change", () => { LANG = $("lang").value; translate(); });
  $("upload-form").addEventListener("submit", upload);
  $("plot").addEventListener("click", onPlotClick);
  buildParams(); fillDatasets(); translate();
  await reset();
}
main();
