// The teaching panels of the step now shown: the model summary (w, b, 2/‖w‖), the
// book's pseudocode with the step's line marked, and the tree as it grows. Every
// number comes from the step records the server sent.
"use strict";

function renderPanels() {
  renderSummary();
  renderPseudocode();
  renderTreeDrawing();
  renderValidation();
}

// ------------------------------------------------------------ model summary
function summaryLine(s) {
  return `w = ${s.w}   b = ${s.b}   ‖w‖ = ${s.norm}   ${t("margin")} = ${s.margin}`;
}
function renderSummary() {
  const box = $("model-summary");
  box.innerHTML = "";
  const kind = learner();
  if (!state.info || !["perceptron", "svm", "linear"].includes(kind) || state.info.svr) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.appendChild(el("span", { class: "panel-title" }, t("model_summary") + ": "));
  if (kind === "linear") {
    const data = state.linear || state.info;
    for (const [name, s] of Object.entries(data.summaries || {})) {
      box.appendChild(el("div", { "data-model": name }, `${t(name)}: ${summaryLine(s)}`));
    }
    return;
  }
  const last = state.lastStep;
  // a kernel's w lives in its feature space: only b is shown (the trace's last column)
  const kernelized = kind === "svm" ? params().kernel !== "linear" : params().variant === "kernel";
  let text;
  if (last && last.summary) text = summaryLine(last.summary);
  else if (kernelized && last) text = `${t("w_in_feature_space")}; b = ${cellText(last.row[last.row.length - 1])}`;
  else if (kernelized) text = t("w_in_feature_space");
  else if (!last) text = t("before_first_step");
  else text = "—";
  box.appendChild(el("span", { "data-testid": "summary-text" }, text));
}

// --------------------------------------------------------------- pseudocode
// the step's numbers by name: its trace columns, its model summary, its tree node
function stepNumbers(step) {
  const out = {};
  if (!step) return out;
  const columns = state.info.columns || [];
  const cells = [String(step.k)].concat(step.row || []);
  columns.forEach((c, i) => { if (cells[i] !== undefined) out[c] = cellText(cells[i]); });
  Object.assign(out, step.summary || {}, step.smo || {});
  if (step.node) {
    out.label = step.node.label;
    out.branch = step.node.branch;
    out.attribute = step.node.test || out.attribute;
  }
  if (cells[4] !== undefined && learner() === "tree") out.decision = cellText(cells[4]);
  return out;
}
function renderPseudocode() {
  const box = $("pseudocode");
  box.innerHTML = "";
  const key = state.info ? pseudocodeKey(learner(), params().variant) : null;
  if (!key) { box.hidden = true; return; }
  box.hidden = false;
  const code = PSEUDOCODE[key], zh = LANG === "zh";
  box.dataset.algorithm = key;
  box.appendChild(el("div", { class: "panel-title" }, code.title[zh ? 0 : 1]));
  const step = state.lastStep;
  let current = new Set(step && step.line ? [].concat(step.line) : []);
  let numbers = stepNumbers(step);
  if (key === "linear") {   // no steps: every refit computes each closed form's lines
    current = new Set(code.lines.map((line) => line[0]).filter(Boolean));
    numbers = (state.linear || state.info).closed_forms || {};
  }
  const dot = params().variant === "kernel" ? "K(xⱼ, xᵢ)" : "xⱼ·xᵢ";
  for (const [lineKey, textZh, textEn, noteZh, noteEn] of code.lines) {
    const attrs = { class: "code-line" };
    if (lineKey) attrs["data-line"] = lineKey;
    const div = el("div", attrs, (zh ? textZh : textEn).replace("{dot}", dot));
    if (lineKey && current.has(lineKey)) {
      div.classList.add("current");
      const note = zh ? noteZh : noteEn;
      if (note) {
        const filled = note.replace(/\{(\w+)\}/g, (_, name) => numbers[name] ?? "?").replace(" ()", "");
        div.appendChild(el("span", { class: "code-note" }, "  ⟵ " + filled));
      }
    }
    box.appendChild(div);
  }
}

// ------------------------------------------------------------- tree drawing
// The tree of the steps shown: one SVG group per node (data-node: its number in the
// order 图4.2's recursion generates the nodes), the current node marked, pruned ones grey.
const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function branchLabel(node, parent) {
  const name = node.branch || "";
  const attribute = parent && parent.test ? parent.test.split(" ≤ ")[0] : "";
  return attribute && name.startsWith(attribute) ? name.slice(attribute.length).replace(/^ = /, "").trim() : name;
}
function renderTreeDrawing() {
  const box = $("tree-drawing");
  box.innerHTML = "";
  if (!state.info || learner() !== "tree") { box.hidden = true; return; }
  box.hidden = false;
  const shown = state.steps.slice(0, state.view);
  const nodes = new Map(), kids = new Map(), grey = new Set(), cut = new Set();
  let current = null;
  for (const step of shown) {
    if (step.node) {
      nodes.set(step.node.id, { ...step.node, prepruned: step.prepruned });
      kids.set(step.node.id, []);
      if (step.node.parent !== null) kids.get(step.node.parent).push(step.node.id);
      current = step.node.id;
    }
    if (step.pruning) {
      current = step.pruning.node;
      if (step.pruning.decision === "prune" && step.pruning.node !== null) {
        cut.add(step.pruning.node);
        const stack = [...(kids.get(step.pruning.node) || [])];
        while (stack.length) { const id = stack.pop(); grey.add(id); stack.push(...(kids.get(id) || [])); }
      }
    }
    if (step.final) current = null;
  }
  box.appendChild(el("div", { class: "panel-title" }, t("tree_drawing")));
  if (!nodes.size) return;
  // leaves side by side in generation order, a parent above the middle of its children
  const x = new Map(), y = new Map();
  let slot = 0;
  const place = (id, depth) => {
    y.set(id, depth);
    const children = kids.get(id);
    if (!children.length) { x.set(id, slot++); return; }
    children.forEach((c) => place(c, depth + 1));
    x.set(id, (x.get(children[0]) + x.get(children[children.length - 1])) / 2);
  };
  place(1, 0);
  const label = (id) => {
    const node = nodes.get(id);
    return node.test === null || cut.has(id) ? (node.label || "?") : `${node.test} = ?`;
  };
  // a slot as wide as the widest label (a CJK character ~13 px, others ~7.5 px at 13 px)
  const textWidth = (text) => [...text].reduce((sum, c) => sum + (/[\u2e80-\uffff]/.test(c) ? 13 : 7.5), 0);
  const W = Math.max(92, ...[...nodes.keys()].map((id) => textWidth(label(id)) + 22)), H = 74, TOP = 30;
  const root = svg("svg", { "data-testid": "tree-svg" });
  root.style.maxWidth = "100%";
  root.style.height = "auto";
  const cx = (id) => x.get(id) * W + W / 2, cy = (id) => TOP + y.get(id) * H;
  for (const [id, node] of nodes) {
    if (node.parent === null || !nodes.has(node.parent)) continue;
    const edge = svg("g", { class: "edge" + (grey.has(id) ? " pruned" : "") });
    edge.appendChild(svg("line", { x1: cx(node.parent), y1: cy(node.parent) + 12, x2: cx(id), y2: cy(id) - 12 }));
    edge.appendChild(svg("text", { x: (cx(node.parent) + cx(id)) / 2, y: (cy(node.parent) + cy(id)) / 2 + 4,
                                   "text-anchor": "middle", class: "branch" }, branchLabel(node, nodes.get(node.parent))));
    root.appendChild(edge);
  }
  const boxes = [];
  for (const [id, node] of nodes) {
    const leaf = node.test === null || cut.has(id);
    const classes = ["tree-node", leaf ? "leaf" : "internal"];
    if (id === current) classes.push("current");
    if (grey.has(id) || node.prepruned) classes.push("pruned");
    if (cut.has(id)) classes.push("cut");
    const g = svg("g", { class: classes.join(" "), "data-node": String(id) });
    const rect = svg("rect", { y: cy(id) - 12, height: 24, rx: leaf ? 12 : 3 });
    const text = svg("text", { x: cx(id), y: cy(id) + 5, "text-anchor": "middle" }, label(id));
    const number = svg("text", { y: cy(id) - 14, class: "node-id" }, String(id));
    g.append(rect, text, number);
    root.appendChild(g);
    boxes.push([id, rect, text, number]);
  }
  box.appendChild(root);
  // each box fits its text as drawn; the view is the drawing's own bounding box, so
  // no node, number or branch label is cut at the svg's edges
  for (const [id, rect, text, number] of boxes) {
    const w = Math.max(text.getComputedTextLength() + 14, 28);
    rect.setAttribute("x", cx(id) - w / 2);
    rect.setAttribute("width", w);
    number.setAttribute("x", cx(id) - w / 2 - 2);
  }
  const bb = root.getBBox(), pad = 4;
  const width = Math.ceil(bb.width + 2 * pad), height = Math.ceil(bb.height + 2 * pad);
  root.setAttribute("viewBox", `${bb.x - pad} ${bb.y - pad} ${width} ${height}`);
  root.setAttribute("width", width);
  root.setAttribute("height", height);
}

// ---------------------------------------------------------- validation rows
// 表4.2's validation rows at the last pruning decision shown (周志华 图4.6, 图4.7): each
// row's label on the tree before the decision and on the tree it weighs (pre-pruning:
// the node split; post-pruning: its subtree a leaf); a row whose ✓/✗ changes is marked.
function renderValidation() {
  const box = $("validation");
  box.innerHTML = "";
  const shown = state.info && learner() === "tree" ? state.steps.slice(0, state.view) : [];
  const step = [...shown].reverse().find((s) => s.validation);
  if (!step) { box.hidden = true; return; }
  box.hidden = false;
  const kind = step.pruning.kind;
  const node = step.pruning.node;
  box.appendChild(el("div", { class: "panel-title" }, tf("validation_title", { node })));
  const table = el("table");
  const head = el("tr");
  for (const key of ["val_id", "val_truth", `val_${kind}_before`, "val_correct", `val_${kind}_after`, "val_correct"]) {
    head.appendChild(el("th", {}, t(key)));
  }
  table.appendChild(el("thead")).appendChild(head);
  const body = el("tbody");
  const mark = (ok) => el("td", { class: ok ? "right" : "wrong" }, ok ? "✓" : "✗");
  for (const r of step.validation) {
    const flipped = r.correct_before !== r.correct_after;
    const tr = el("tr", { "data-row": r.id, class: flipped ? "flipped" : "" });
    tr.append(el("td", {}, r.id), el("td", {}, r.y), el("td", {}, r.before), mark(r.correct_before),
              el("td", {}, r.after), mark(r.correct_after));
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  const count = (key) => step.validation.filter((r) => r[key]).length;
  const n = step.validation.length;
  box.appendChild(el("div", { class: "validation-note" }, tf("validation_note", {
    before: `${count("correct_before")}/${n}`, after: `${count("correct_after")}/${n}` })));
}
