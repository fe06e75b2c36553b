// plot.js — line plots as SVG drawn in the page (axes, ticks, an interval band, a legend).
import { el, text } from "./render/svg.js";

const COLORS = ["#1f6feb", "#d9480f", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599", "#e03131", "#495057"];

// about n round tick values covering [lo, hi]
export function ticks(lo, hi, n = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

const label = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(1) : String(+v.toPrecision(4)));

// linePlot({title, xlabel, ylabel, series: [{name, xs, ys, lo?, hi?}]}) -> <svg>
export function linePlot({ title, xlabel, ylabel, series, width = 640, height = 300 }) {
  const L = 60, R = 150, T = 28, B = 40, pw = width - L - R, ph = height - T - B;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "plot", width, height, role: "img" });
  const pts = series.flatMap((s) => s.xs.map((x, i) => [x, s.ys[i], s.lo ? s.lo[i] : s.ys[i], s.hi ? s.hi[i] : s.ys[i]]))
    .filter((p) => p.every(Number.isFinite));
  text(svg, L + pw / 2, 14, title, { class: "title" });
  if (!pts.length) { text(svg, L + pw / 2, T + ph / 2, "no data", { class: "tick" }); return svg; }
  let [x0, x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
  let [y0, y1] = [Math.min(...pts.map((p) => p[2])), Math.max(...pts.map((p) => p[3]))];
  if (x1 === x0) { x0 -= 1; x1 += 1; }
  if (y1 === y0) { y0 -= 1; y1 += 1; }
  const pad = (y1 - y0) * 0.05; y0 -= pad; y1 += pad;
  const sx = (x) => L + ((x - x0) / (x1 - x0)) * pw, sy = (y) => T + ph - ((y - y0) / (y1 - y0)) * ph;
  const ax = el("g", { class: "axis" }, svg);
  for (const v of ticks(y0, y1)) {
    el("line", { x1: L, x2: L + pw, y1: sy(v), y2: sy(v), class: "gridline" }, ax);
    text(ax, L - 6, sy(v), label(v), { class: "tick", "text-anchor": "end" });
  }
  for (const v of ticks(x0, x1)) {
    el("line", { x1: sx(v), x2: sx(v), y1: T + ph, y2: T + ph + 4 }, ax);
    text(ax, sx(v), T + ph + 14, label(v), { class: "tick" });
  }
  el("path", { d: `M${L},${T}V${T + ph}H${L + pw}`, fill: "none" }, ax);
  text(ax, L + pw / 2, height - 8, xlabel, { class: "tick" });
  text(ax, 14, T + ph / 2, ylabel, { class: "tick", transform: `rotate(-90 14 ${T + ph / 2})` });
  series.forEach((s, k) => {
    const c = COLORS[k % COLORS.length];
    const idx = s.xs.map((_, i) => i).filter((i) => Number.isFinite(s.xs[i]) && Number.isFinite(s.ys[i]));
    if (s.lo && s.hi) {
      const ok = idx.filter((i) => Number.isFinite(s.lo[i]) && Number.isFinite(s.hi[i]));
      if (ok.length) {
        const d = ok.map((i, j) => `${j ? "L" : "M"}${sx(s.xs[i])},${sy(s.hi[i])}`).join("") +
          ok.slice().reverse().map((i) => `L${sx(s.xs[i])},${sy(s.lo[i])}`).join("") + "Z";
        el("path", { d, fill: c, class: "band" }, svg);
      }
    }
    el("path", { d: idx.map((i, j) => `${j ? "L" : "M"}${sx(s.xs[i])},${sy(s.ys[i])}`).join(""), stroke: c, class: "series" }, svg);
    if (idx.length < 40) for (const i of idx) el("circle", { cx: sx(s.xs[i]), cy: sy(s.ys[i]), r: 2.5, fill: c }, svg);
    el("line", { x1: L + pw + 12, x2: L + pw + 30, y1: T + 10 + 16 * k, y2: T + 10 + 16 * k, stroke: c, "stroke-width": 3 }, svg);
    text(svg, L + pw + 36, T + 10 + 16 * k, s.name, { class: "tick", "text-anchor": "start" });
  });
  return svg;
}
