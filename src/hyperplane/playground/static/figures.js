// The playground's Plotly figures: the plane with points, lines and regions, SVR's
// tube, BP's regions and error curves, the linear lesson's draggable points and
// Fisher's projection. They draw what the server sent; they compute nothing.
"use strict";

// many points are drawn by WebGL, without their 编号
function pointsKind(points) { return points.x.length > 500 ? "scattergl" : "scatter"; }
function classTraces(points) {
  const labels = [...new Set(points.label)].sort();
  const positive = labels[labels.length - 1];
  return labels.map((lab) => {
    const idx = points.label.map((l, i) => (l === lab ? i : -1)).filter((i) => i >= 0);
    const big = pointsKind(points) === "scattergl";
    return { type: big ? "scattergl" : "scatter", mode: big ? "markers" : "markers+text",
             x: idx.map((i) => points.x[i]), y: idx.map((i) => points.y[i]),
             text: big ? undefined : idx.map((i) => points.id[i]), textposition: "top right",
             name: lab, marker: { size: big ? 3 : 10, color: lab === positive ? COLORS.pos : COLORS.neg,
                                  symbol: lab === positive ? "circle" : "x" }, hoverinfo: "x+y+name" };
  });
}
// The plane's axes: the step's view (the points' box, grown by the server when the
// line leaves it) at one scale on both axes, so angles and the margin 2/‖w‖ look true
// (Plotly widens one range to keep x and y at the same units per pixel).
function planeLayout(title) {
  const box = state.picture.view || state.info.box;
  // the legend below the x axis's title, not over it
  const layout = { title: { text: title }, height: 480, margin: { l: 50, r: 20, t: 40, b: 70 },
                   showlegend: true, legend: { orientation: "h", y: -0.16, yanchor: "top" },
                   xaxis: { title: { text: "x(1)" }, constrain: "domain" },
                   yaxis: { title: { text: "x(2)" }, scaleanchor: "x", scaleratio: 1, constrain: "domain" } };
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
                            name: line.name || "w·x+b=0", cliponaxis: true,
                            line: line.margin ? { color: "#2ca02c", width: 1.5, dash: "dash" }
                                              : { color: "#2ca02c", width: 3 } });
  }
  const mark = picture.mark || [];
  if (mark.length) {
    traces.push({ type: "scatter", mode: "markers+text", x: mark.map((i) => info.points.x[i]),
                  y: mark.map((i) => info.points.y[i]),
                  text: mark.map((i) => (picture.labels || {})[i] || ""), textposition: "bottom center",
                  name: learner() === "svm" ? t("sv_pair") : t("misclassified"),
                  marker: { size: 20, color: "rgba(0,0,0,0)", line: { color: "#ff7f0e", width: 3 } } });
  }
  const title = `${t(learner())} — ${t($("dataset").value)}`;
  // Plotly.react from SVG points to WebGL ones (or back) kept the old x range when both
  // axes share one scale (a 10,000-point upload after 例2.1 was drawn clipped): a figure
  // whose points change kind is drawn anew
  const plot = $("plot"), kind = pointsKind(info.points);
  const draw = plot.dataset.pointsKind === kind ? Plotly.react : Plotly.newPlot;
  plot.dataset.pointsKind = kind;
  draw(plot, traces, planeLayout(title), { responsive: true, displaylogo: false });
}
function drawSvr() {
  const info = state.info, picture = state.picture, traces = [];
  traces.push({ type: "scatter", mode: "markers", x: info.points.x, y: info.points.y, name: t("data"),
                marker: { size: 8, color: COLORS.neg } });
  const c = picture.curve;
  if (c) {
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.upper, name: "f(x)+ε", line: { dash: "dash", color: "#999" } });
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.lower, name: "f(x)−ε", line: { dash: "dash", color: "#999" }, fill: "tonexty", fillcolor: "rgba(44,160,44,0.12)" });
    traces.push({ type: "scatter", mode: "lines", x: c.x, y: c.f, name: "f(x)", line: { color: "#2ca02c", width: 3 } });
  }
  const mark = picture.mark || [];
  traces.push({ type: "scatter", mode: "markers", x: mark.map((i) => info.points.x[i]), y: mark.map((i) => info.points.y[i]),
                name: c ? t("sv") : "(i, j)", marker: { size: 16, color: "rgba(0,0,0,0)", line: { color: "#ff7f0e", width: 2 } } });
  Plotly.react($("plot"), traces, { title: { text: t("svr_title") }, height: 480,
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
  if (info.points && !picture.bpRegions) Plotly.purge($("plot"));   // no regions of this step
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
  renderNetwork(picture.network);
}
// 周志华 图5.7's network of each rule at the step shown: inputs, hidden units, outputs;
// an edge's width is its weight's size (to the largest of its network), its colour the
// sign (blue +, red −); each unit is labelled with its threshold γ_h or θ_j.
function renderNetwork(network) {
  const box = $("network");
  box.innerHTML = "";
  box.hidden = !network;
  if (!network) return;
  box.appendChild(el("h3", {}, t("network")));
  for (const rule of ["standard", "accumulated"]) {
    const net = network[rule], layers = [net.v.length, net.w.length, net.theta.length];
    const width = 330, rowHeight = 26, height = Math.max(...layers) * rowHeight + 40;
    const x = [40, width / 2, width - 60];
    const y = (layer, i) => 30 + (i + 0.5) * (height - 40) / layers[layer];
    const drawing = svg("svg", { width, height, "data-rule": rule, class: "network" });
    drawing.appendChild(svg("text", { x: 4, y: 14, "font-size": 12 }, t(rule)));
    const biggest = Math.max(1e-12, ...net.v.flat().map(Math.abs), ...net.w.flat().map(Math.abs));
    const edge = (layer, from, to, weight) => drawing.appendChild(svg("line", {
      x1: x[layer], y1: y(layer, from), x2: x[layer + 1], y2: y(layer + 1, to),
      "stroke-width": (0.3 + 4 * Math.abs(weight) / biggest).toFixed(2),
      stroke: weight >= 0 ? "#1f77b4" : "#d62728", "data-weight": weight }));
    net.v.forEach((row, i) => row.forEach((weight, h) => edge(0, i, h, weight)));
    net.w.forEach((row, h) => row.forEach((weight, j) => edge(1, h, j, weight)));
    layers.forEach((n, layer) => {
      for (let i = 0; i < n; i++) {
        const group = svg("g", { "data-layer": layer, "data-unit": i });
        group.appendChild(svg("circle", { cx: x[layer], cy: y(layer, i), r: 7, fill: "#fff", stroke: "#333" }));
        const threshold = layer === 1 ? `γ${i + 1}=${net.gamma[i]}` : layer === 2 ? `θ${i + 1}=${net.theta[i]}` : `x${i + 1}`;
        const left = layer === 0;   // inputs are named left of their unit, clear of the edges
        group.appendChild(svg("text", { x: x[layer] + (left ? -10 : 10), y: y(layer, i) + 4, "font-size": 10,
                                        "text-anchor": left ? "end" : "start" }, threshold));
        drawing.appendChild(group);
      }
    });
    box.appendChild(drawing);
  }
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
    shapes, margin: { l: 50, r: 20, t: 40, b: 70 }, legend: { orientation: "h", y: -0.16, yanchor: "top" },
    xaxis: { title: { text: t("density") }, range: [box[0][0], box[1][0]] },
    yaxis: { title: { text: t("sugar") }, range: [box[0][1], box[1][1]] } },
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
    renderPanels();
  } catch (err) { showError(err); }
}
