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
  svm: [["formulation", "select", "c_svm", ["c_svm", "nu_svm", "one_class"]],
        ["kernel", "select", "kernel_linear", ["kernel_linear", "rbf", "poly"]], ["C", "text", "inf"],
        ["sigma", "number", 1], ["epsilon", "number", 0.1], ["nu", "number", 0.5],
        ["click_class", "select", "1", ["1", "-1"]]],
  tree: [["criterion", "select", "info_gain", ["info_gain", "gain_ratio", "gini"]],
         ["pruning", "select", "none", ["none", "pre", "post"]]],
  bp: [["hidden_units", "number", 4], ["eta", "number", 1], ["max_epochs", "number", 3000]],
  linear: [],
};
// how a parameter's option is labelled when it is not an i18n key
const OPTION_LABELS = { info_gain: "ID3 (Gain)", gain_ratio: "C4.5 (Gain_ratio)", gini: "CART (Gini_index)",
                        rbf: "RBF", poly: "poly", "1": "+1", "-1": "-1" };

// steps: every step the server sent for this run; view: how many of them the page
// shows (back steps view down, step forward replays the kept steps before asking)
const state = { queue: Promise.resolve(), streamDone: null, pending: null, catalog: null, run: null, info: null, picture: {}, clicked: [],
                steps: [], view: 0, done: false, split: null, treeText: "", status: null, starting: 0,
                stream: null, curve: null, lastStep: null, linear: null, playing: null, hash: "" };

// ------------------------------------------------------------------ helpers
async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) { const err = new Error(data.error || response.statusText); err.data = data; throw err; }
  return data;
}
// The status line: a text, or a function giving it in the page's language (so a
// language switch writes it again).
function setStatus(text, error = false, original = "") {
  state.status = { text, error, original };
  $("status").textContent = typeof text === "function" ? text() : text;
  $("status").className = error ? "error" : "";
  $("status").title = original;   // the server's own words of an error, as a tooltip
}
// A step's status line: what the server said (``say: {key, ...numbers}``) and, for a
// run that stopped without converging (``stopped: {reason, ...numbers}``), why and what
// to change, in the page's language.
function stepStatus(step) {
  const parts = [];
  if (step.say) parts.push(tf("say_" + step.say.key, step.say));
  if (step.stopped) parts.push(`${tf("stop_" + step.stopped.reason, step.stopped)} ${tf("fix_" + step.stopped.reason, step.stopped)}`);
  if (!parts.length && step.status) parts.push(step.status);
  return parts.join("; ");
}
// an error answer of the server, in the page's language when it carries a code
function errorText(err) {
  const data = err.data || {};
  if (data.code && LABELS["err_" + data.code])
    return tf("err_" + data.code, { ...data.args, field: t(data.field), message: err.message });
  return tf("err_other", { message: err.message });
}
function showError(err) { setStatus(() => errorText(err), true, err.message); }
// a trace cell: text, or {t: key, ...numbers} written in the page's language
function cellText(c) { return c !== null && typeof c === "object" ? tf(c.t, c) : String(c); }
function learner() { return $("learner").value; }
function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
// A language switch writes every text again: labels, the trace, the panels, the status.
function translate() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => { n.placeholder = t(n.dataset.i18nPlaceholder); });
  document.querySelectorAll("[data-i18n-title]").forEach((n) => { n.title = t(n.dataset.i18nTitle); });
  document.querySelectorAll("option[data-key]").forEach((o) => { o.textContent = optionText(o); });
  renderHeader();
  if (state.info) {
    renderFacts();
    if (learner() !== "linear") rebuildRows();
    renderPanels();
    redraw();
  }
  if (state.status) setStatus(state.status.text, state.status.error, state.status.original);
  writeHash();
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
    else input.addEventListener("change", writeHash);
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
// One request at a time: each button's call waits for the one before
// it, so seven quick clicks on "step" draw steps 1..7 in order, once each.
function serially(task) {
  const next = state.queue.then(task, task);
  state.queue = next.catch(() => {});
  return next;
}
// A control that loses focus to a button resets first: the buttons wait for it.
// A reset ends a streaming run at once (the stream's turn in the queue ends with it).
// While a reset's run is still starting, ``data-starting`` holds how many are queued
// (tests wait for it to go: a fixed pause would race the server).
function reset() {
  stopStream();
  if (state.playing) pause();
  document.body.dataset.starting = String(++state.starting);
  state.pending = serially(startRun).finally(() => {
    if (--state.starting === 0) delete document.body.dataset.starting;
    else document.body.dataset.starting = String(state.starting);
  });
  return state.pending;
}
async function startRun() {
  stopStream();
  writeHash();
  // a new learner's figures start empty; the same learner's are replaced when drawn
  // (purging a figure Plotly is still drawing made it throw)
  if (document.body.dataset.learner !== learner()) for (const id of ["plot", "plot2", "plot3"]) Plotly.purge($(id));
  document.body.dataset.learner = learner();
  state.steps = []; state.view = 0; state.done = false;
  clearView();
  $("facts").innerHTML = "";
  state.run = null; state.info = null;
  const dataset = $("dataset").value;
  if (dataset === "clicked" && state.clicked.length < 2) {
    state.info = { columns: [], points: { x: [], y: [], label: [], id: [] }, box: [[0, 0], [10, 10]] };
    renderHeader(); redraw(); renderPanels(); setStatus(() => t("click_hint"));
    return;
  }
  try {
    setStatus("…");
    warmupNote();
    const data = await api("/api/start", { learner: learner(), dataset, params: params(),
                                           points: state.clicked });
    state.run = data.run; state.info = data.info;
    if (learner() === "linear") state.linear = data.info;
    renderHeader(); renderFacts(); redraw(); renderPanels();
    setStatus(learner() === "linear" ? () => t("drag_hint") : () => `${t(learner())}: ${t(dataset)}`);
  } catch (err) { showError(err); }
}
// On the server's first start its kernels compile in the background for a while: if this
// learner's are not ready yet, the status says so until the run starts.
async function warmupNote() {
  try {
    const warm = await api("/api/warmup");
    if (warm.pending.includes(learner()) && $("status").textContent === "…")
      setStatus(() => `${t("compiling")}: ${t(learner())}…`);
  } catch (err) { /* only a note: the run itself reports its errors */ }
}
// the view before any step: no rows, no pictures
function clearView() {
  state.picture = {}; state.curve = null; state.lastStep = null; state.split = null; state.treeText = "";
  $("trace").querySelector("tbody").innerHTML = "";
  $("split").innerHTML = ""; $("tree-text").textContent = ""; $("hidden").innerHTML = "";
  $("network").innerHTML = ""; $("network").hidden = true;
}
// One step (or the rest of an epoch) forward: the kept steps first, then the server's.
function advance(mode) {
  return serially(async () => {
    const run = state.run;
    if (!run) return;
    if (state.view < state.steps.length) {
      let k = state.view + 1;
      if (mode === "epoch") while (k < state.steps.length && !state.steps[k - 1].epoch_end) k += 1;
      showUpTo(k);
      await pictureOfShownStep();
      return;
    }
    try {
      const data = await api("/api/step", { run, mode });
      if (state.run !== run) return;   // a reset came in between: a stale answer
      state.done = data.done;
      take(data.steps);
      if (data.done && !data.steps.length) setStatus(endStatus, Boolean(state.lastStep && state.lastStep.stopped));
    } catch (err) { showError(err); }
  });
}
// Step back to step view - 1, from the steps the page kept (the server's run stays
// where it is: stepping forward again replays them).
function back() {
  return serially(async () => {
    if (!state.run || state.view === 0) return;
    pause();
    showUpTo(state.view - 1);
    await pictureOfShownStep();
  });
}
// A step a stream (or an epoch) sent without its pictures ("undrawn": only the last
// step of each batch is drawn) gets them from the server when it is shown, so the
// picture is always that step's state, never an earlier step's.
async function pictureOfShownStep() {
  const run = state.run, step = state.steps[state.view - 1];
  if (!run || !step || !step.undrawn) return;
  try {
    const data = await api("/api/picture", { run, k: step.k });
    if (data.picture) {
      const { plot, ...rest } = data.picture;
      if (plot) step.plot = { ...step.plot, ...plot };
      Object.assign(step, rest);
    }
    else step.pictureMissing = true;    // the replay ran past its time: no picture, and said so
    delete step.undrawn;
  } catch (err) { showError(err); return; }
  if (state.run !== run || state.steps[state.view - 1] !== step) return;
  showUpTo(state.view, true);   // absorb the steps again, now with this one's picture
}
// the status of a run that has ended: the last step's own (converged, or why not)
function endStatus() {
  const last = state.lastStep;
  return (last && stepStatus(last)) || `${t("done")}: ${state.view} ${t("steps")}`;
}
// ---------------------------------------------------------- play / pause
function play() {
  if (state.playing || learner() === "linear") return;
  const speed = Math.min(Math.max(Number($("speed").value) || 2, 0.2), 50);
  let busy = false;
  state.playing = setInterval(async () => {
    if (busy) return;
    if (state.done && state.view >= state.steps.length) { pause(); return; }
    busy = true;
    try { await advance("step"); } finally { busy = false; }
  }, 1000 / speed);
  document.body.dataset.playing = "true";
  $("play").disabled = true; $("pause").disabled = false;
}
function pause() {
  if (state.playing) clearInterval(state.playing);
  state.playing = null;
  delete document.body.dataset.playing;
  $("play").disabled = false; $("pause").disabled = true;
}
function onKey(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "ArrowRight") { event.preventDefault(); advance("step"); }
  else if (event.key === "ArrowLeft") { event.preventDefault(); back(); }
  else if (event.key === " ") { event.preventDefault(); if (state.playing) pause(); else play(); }
}
function runAll() {
  return serially(() => new Promise((resolve) => {
    if (!state.run) { resolve(); return; }
    stopStream();
    const source = new EventSource(`/api/stream/${state.run}`);
    state.stream = source;
    state.streamDone = resolve;
    document.body.dataset.running = "true";   // until the stream ends (tests wait on it)
    source.onmessage = (event) => {
      const data = JSON.parse(event.data);
      take(data.steps, true);
      if (!state.lastStep || !stepStatus(state.lastStep)) setStatus(() => `${t("running")}… ${state.view} ${t("steps")}`);
    };
    source.addEventListener("end", (event) => {
      stopStream();
      state.done = JSON.parse(event.data).done;
      redraw(); renderPanels();
      const last = state.lastStep;
      setStatus(endStatus, Boolean(last && last.stopped));
    });
    source.addEventListener("failure", (event) => {
      stopStream();
      const data = JSON.parse(event.data);
      if (data.stopped) setStatus(() => stepStatus(data), true);
      else showError(Object.assign(new Error(data.error), { data }));
    });
    source.onerror = () => { stopStream(); };
  }));
}
function stopStream() {
  if (state.stream) { state.stream.close(); state.stream = null; }
  if (state.streamDone) { state.streamDone(); state.streamDone = null; }
  delete document.body.dataset.running;
}
// New steps from the server: kept, and shown (after any kept steps not yet shown).
function take(steps, streaming = false) {
  if (!steps.length) return;
  state.steps.push(...steps);
  forwardTo(state.steps.length, streaming);
}
function rowOf(step) {
  const tr = el("tr");
  for (const c of [String(step.k)].concat(step.row)) {
    const text = cellText(c);
    // a long cell (SVM's final α of every sample) wraps instead of widening its column
    tr.appendChild(el("td", text.length > 28 ? { class: "long" } : {}, text));
  }
  return tr;
}
// what one step adds to the view, the table row aside
function absorb(step) {
  if (step.plot) Object.assign(state.picture, step.plot);
  if (step.curve) appendCurve(step.curve);
  if (step.split_table) state.split = step;
  if (step.tree_text) state.treeText = step.tree_text;
  if (step.regions && learner() === "bp") state.picture.bpRegions = step.regions;
  if (step.hidden) state.picture.hidden = step.hidden;
  if (step.network) state.picture.network = step.network;
  if (step.pictureMissing) {   // an earlier step's regions would pass for this one's
    delete state.picture.regions; delete state.picture.bpRegions; delete state.picture.hidden;
  }
  state.lastStep = step;
}
function forwardTo(k, streaming = false) {
  const body = $("trace").querySelector("tbody");
  const fragment = document.createDocumentFragment();
  const split = state.split;
  while (state.view < k) {
    const step = state.steps[state.view++];
    fragment.appendChild(rowOf(step));
    absorb(step);
  }
  body.appendChild(fragment);
  body.parentElement.parentElement.scrollTop = 1e9;
  if (state.split !== split) renderSplitOf(state.split);
  $("tree-text").textContent = state.treeText;
  stepShown(streaming);
}
// Show exactly the first k kept steps (back, or a replay forward); ``again``: build
// the view anew even when k is the step shown.
function showUpTo(k, again = false) {
  if (k > state.view || (k === state.view && !again)) { forwardTo(k); return; }
  clearView();
  state.view = k;
  for (const step of state.steps.slice(0, k)) absorb(step);
  rebuildRows();
  renderSplitOf(state.split);
  $("tree-text").textContent = state.treeText;
  stepShown(false);
}
function rebuildRows() {
  const body = $("trace").querySelector("tbody");
  if (learner() === "linear") return;
  body.innerHTML = "";
  const fragment = document.createDocumentFragment();
  for (const step of state.steps.slice(0, state.view)) fragment.appendChild(rowOf(step));
  body.appendChild(fragment);
  body.parentElement.parentElement.scrollTop = 1e9;
}
function renderSplitOf(step) {
  if (step) renderSplit(step.split_table, step.candidates, step.branches);
  else $("split").innerHTML = "";
}
// the status, pictures and panels of the step now shown
function stepShown(streaming) {
  const last = state.lastStep;
  const note = () => (last && last.pictureMissing ? ` (${t("picture_missing")})` : "");
  if (last && stepStatus(last)) setStatus(() => stepStatus(last) + note(), Boolean(last.stopped));
  else if (last && !streaming) setStatus(() => `${t("steps")}: ${last.k}${note()}`);
  else if (!last) setStatus(() => `${t(learner())}: ${t($("dataset").value)}`);
  if (streaming) scheduleRedraw(); else { redraw(); renderPanels(); }
}
// while a run streams, the figures are redrawn at most every REDRAW_MS
const REDRAW_MS = 300;
function scheduleRedraw() {
  if (state.redrawTimer) return;
  state.redrawTimer = setTimeout(() => { state.redrawTimer = null; redraw(); renderPanels(); }, REDRAW_MS);
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
  if (info.novikoff) facts.appendChild(el("div", { "data-testid": "novikoff" }, `${t("novikoff")}: ${novikoffText(info.novikoff)}`));
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
  if (learner() === "linear") renderLinearTable((state.linear || info).rows);
}
// 李航 定理2.1: k ≤ (R/γ)², from the server's numbers
function novikoffText(n) {
  if (n.reason) return tf("novikoff_" + n.reason, n);
  return `R = ${n.R}, γ = ${n.gamma}, k ≤ (R/γ)² = ${n.bound}`;
}
function renderSplit(split, candidates, branches) {
  const box = $("split");
  box.innerHTML = "";
  if (split.impurity !== "NaN") box.appendChild(el("div", {}, `${t("root_entropy")} = ${split.impurity}`));
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
  if (branches) box.appendChild(branchTable(branches));
  if (candidates && candidates.length) {
    box.appendChild(el("h3", {}, t("candidates")));
    for (const cuts of candidates) box.appendChild(cutTable(cuts));
  }
}
// §4.4.2: r̃_v of each branch below the chosen attribute, with its ρ
function branchTable(branches) {
  const wrap = el("div", { "data-testid": "branch-table" });
  wrap.appendChild(el("h3", {}, `${t("branches")} (ρ = ${branches.rho})`));
  const table = el("table");
  const head = el("tr");
  for (const c of ["branch", "r_v", "weight"]) head.appendChild(el("th", {}, t(c)));
  table.appendChild(head);
  for (const row of branches.rows) {
    const tr = el("tr");
    for (const v of row) tr.appendChild(el("td", {}, v));
    table.appendChild(tr);
  }
  wrap.appendChild(table);
  return wrap;
}
// §4.4.1: every candidate cut T_a of one continuous attribute, the tree's cut marked
function cutTable(cuts) {
  const wrap = el("div", { class: "cut-table", "data-testid": "cuts-" + cuts.attribute });
  const shown = cuts.rows.length < cuts.n ? ` (${cuts.rows.length}/${cuts.n})` : "";
  wrap.appendChild(el("div", {}, cuts.attribute + shown));
  const table = el("table");
  const head = el("tr");
  for (const c of ["threshold_col", cuts.score]) head.appendChild(el("th", {}, t(c)));
  table.appendChild(head);
  for (const row of cuts.rows) {
    const tr = el("tr", row[0] === cuts.chosen ? { class: "chosen", "data-chosen": "true" } : {});
    for (const v of row) tr.appendChild(el("td", {}, v));
    table.appendChild(tr);
  }
  wrap.appendChild(table);
  return wrap;
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
    setStatus(() => t("click_hint"));
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
    if (!response.ok) { const err = new Error(data.error); err.data = data; throw err; }
    state.catalog = await api("/api/catalog");
    LABELS[data.dataset] = [`${file.name} (${data.rows})`, `${file.name} (${data.rows})`];
    fillDatasets();
    $("dataset").value = data.dataset;
    reset();
  } catch (err) { showError(err); }
}

// ------------------------------------------------------------------ start
// ------------------------------------------------------------- URL hash
// The hash holds the page: #learner=svm&dataset=example-2.1&kernel=rbf&C=10&lang=en
// (a bare #svm names only the learner), so a link reopens the same lesson.
function pageHash() {
  const query = new URLSearchParams({ learner: learner(), dataset: $("dataset").value });
  for (const [key] of PARAMS[learner()]) query.set(key, $("param-" + key).value);
  query.set("lang", LANG);
  query.set("speed", $("speed").value);
  return "#" + query.toString();
}
function writeHash() {
  if (!state.catalog) return;
  state.hash = pageHash();
  if (location.hash !== state.hash) history.replaceState(null, "", state.hash);
}
// set the controls from the hash; true when it named something
function applyHash() {
  const raw = location.hash.slice(1);
  if (!raw) return false;
  const query = raw.includes("=") ? new URLSearchParams(raw) : new URLSearchParams({ learner: raw });
  const wanted = query.get("learner");
  if (!state.catalog.learners.includes(wanted)) return false;
  $("learner").value = wanted;
  if (query.get("lang") === "en" || query.get("lang") === "zh") { LANG = query.get("lang"); $("lang").value = LANG; }
  if (query.get("speed")) $("speed").value = query.get("speed");
  buildParams(); fillDatasets();
  const dataset = query.get("dataset");
  if (dataset && state.catalog.datasets[wanted].includes(dataset)) $("dataset").value = dataset;
  for (const [key] of PARAMS[wanted]) {
    const value = query.get(key), input = $("param-" + key);
    if (value === null) continue;
    if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === value)) continue;
    input.value = value;
  }
  return true;
}
async function main() {
  state.catalog = await api("/api/catalog");
  fillSelect($("learner"), state.catalog.learners);
  $("learner").addEventListener("change", () => {
    state.clicked = []; buildParams(); fillDatasets(); reset(); });
  $("dataset").addEventListener("change", () => { state.clicked = []; reset(); });
  $("step").addEventListener("click", () => advance("step"));
  $("back").addEventListener("click", back);
  $("epoch").addEventListener("click", () => advance("epoch"));
  $("run").addEventListener("click", () => { pause(); runAll(); });
  $("play").addEventListener("click", play);
  $("pause").addEventListener("click", pause);
  $("speed").addEventListener("change", () => { writeHash(); if (state.playing) { pause(); play(); } });
  // reset keeps the clicked points; "clear points" (or another dataset) removes them
  $("reset").addEventListener("click", () => { pause(); reset(); });
  $("clear-points").addEventListener("click", () => { state.clicked = []; pause(); reset(); });
  $("lang").addEventListener("change", () => { LANG = $("lang").value; translate(); });
  $("upload-form").addEventListener("submit", upload);
  $("upload-file").addEventListener("change", () => {
    const file = $("upload-file").files[0];
    $("upload-name").textContent = file ? file.name : "";
  });
  $("plot").addEventListener("click", onPlotClick);
  document.addEventListener("keydown", onKey);
  // space on a focused button plays/pauses only: the button is not pressed as well
  document.addEventListener("keyup", (event) => {
    if (event.key === " " && (event.target.tagName || "") === "BUTTON") event.preventDefault();
  });
  window.addEventListener("hashchange", () => {
    if (location.hash === state.hash) return;   // the page's own writing
    pause(); state.clicked = [];
    stopStream(); state.run = null; state.info = null;   // nothing of the old page is redrawn
    if (applyHash()) { translate(); reset(); }
  });
  if (!applyHash()) { buildParams(); fillDatasets(); }
  translate();
  pause();
  await reset();
}
window.addEventListener("DOMContentLoaded", main);
