// render/cross.js — the 33-point cross of Fox and Geese and Peg Solitaire: geometry and drawing.
import { el, svgRoot, text, zone } from "./svg.js";

export const C = 56, M = 20;

// points 1..33 row by row: [row, col] on the 7x7 grid
export const POINTS = (() => {
  const out = [];
  for (let r = 0; r < 7; r++) for (let c = 0; c < 7; c++) if ((r >= 2 && r <= 4) || (c >= 2 && c <= 4)) out.push([r, c]);
  return out;
})();

// "ggg/ggg/ggggggg/..." -> one character per point
export function cells(field) {
  const rows = field.split("/");
  if (rows.length !== 7) throw new Error("not a cross position");
  const s = rows.join("");
  if (s.length !== 33) throw new Error("not 33 points");
  return [...s];
}

// Draw the cross; piece(ch, cx, cy, svg) draws what stands on a point.
export function drawCross(chars, cls, piece, opts = {}) {
  const W = 2 * M + 7 * C;
  const svg = svgRoot(W, W, `cross ${cls}`);
  const xy = ([r, c]) => opts.flip ? [M + (6 - c) * C + C / 2, M + (6 - r) * C + C / 2] : [M + c * C + C / 2, M + r * C + C / 2];
  el("path", { d: `M${M + 2 * C},${M}h${3 * C}v${2 * C}h${2 * C}v${3 * C}h${-2 * C}v${2 * C}h${-3 * C}v${-2 * C}h${-2 * C}v${-3 * C}h${2 * C}z`, class: "bg" }, svg);
  const lines = el("g", { class: "lines" }, svg);
  const at = new Map(POINTS.map((p, i) => [p.join(","), i]));
  POINTS.forEach((p) => {
    for (const [dr, dc] of [[0, 1], [1, 0]]) {
      if (at.has(`${p[0] + dr},${p[1] + dc}`)) {
        const [x1, y1] = xy(p), [x2, y2] = xy([p[0] + dr, p[1] + dc]);
        el("line", { x1, y1, x2, y2 }, lines);
      }
    }
  });
  POINTS.forEach((p, i) => {
    const [x, y] = xy(p);
    el("circle", { cx: x, cy: y, r: 9, class: "hole" }, svg);
    zone(svg, String(i + 1), "circle", { cx: x, cy: y, r: C / 2 - 2 });
    piece(chars[i], x, y, svg);
    if (opts.numbers) text(svg, x + 21, y - 21, String(i + 1), { class: "label", "font-size": 9 });
  });
  return svg;
}

// "9-16" / "17x15" -> ["9", "16"] / ["17", "15"]
export function stepSquares(step) {
  return step.trim().split(/[-x\s]+/).filter(Boolean);
}

// A renderer module's draw() for a game on the cross whose position text
// starts with the seven rows; piece(ch, cx, cy, svg) draws a point's piece.
export function crossDraw(cls, piece) {
  return (pos, opts = {}) => drawCross(cells(pos.trim().split(/\s+/)[0]), cls, piece, { ...opts, numbers: true });
}
