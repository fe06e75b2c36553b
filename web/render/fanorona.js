// render/fanorona.js — Fanorona: the 5 x 9 board with its lines, from "A/B/C/D/E side [open] [chain=..]".
// opts.prev (the position before the move or chain) shows the men it took, greyed; opts.path its line.
import { el, text, svgRoot, zone } from "./svg.js";

const C = 60, M = 44;
export const players = ["White", "Black"];

export function parse(pos) {
  const [board, side, ...rest] = pos.trim().split(/\s+/);
  const rows = board.split("/");
  if (rows.length !== 5 || rows.some((r) => r.length !== 9)) throw new Error("not a Fanorona position");
  const p = { rows, side, open: rest.includes("open"), chain: null, visited: [] };
  for (const t of rest) {
    if (t.startsWith("chain=")) p.chain = t.slice(6).split("-");
    if (t.startsWith("visited=")) p.visited = t.slice(8).split(",");
  }
  return p;
}

const name = (r, c) => "ABCDE"[r] + (c + 1);

export function draw(pos, opts = {}) {
  const p = parse(pos), W = 2 * M + 8 * C, H = 2 * M + 4 * C;
  const svg = svgRoot(W, H, "fanorona");
  const xy = (r, c) => opts.flip ? [M + (8 - c) * C, M + (4 - r) * C] : [M + c * C, M + r * C];
  el("rect", { x: M - 20, y: M - 20, width: 8 * C + 40, height: 4 * C + 40, rx: 6, class: "bg" }, svg);
  const g = el("g", { class: "lines" }, svg);
  const line = (a, b) => { const [x1, y1] = xy(...a), [x2, y2] = xy(...b); el("line", { x1, y1, x2, y2 }, g); };
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 9; c++) {
      if (c < 8) line([r, c], [r, c + 1]);
      if (r < 4) line([r, c], [r + 1, c]);
      if ((r + c) % 2 === 0) { // the strong points carry the diagonals
        if (r < 4 && c < 8) line([r, c], [r + 1, c + 1]);
        if (r < 4 && c > 0) line([r, c], [r + 1, c - 1]);
      }
    }
  }
  const at = p.chain ? p.chain[1] : null;
  // the move or chain so far as a line through its points (opts.path, in order)
  const path = (opts.path || []).filter((q) => /^[A-E][1-9]$/.test(q));
  if (path.length > 1) {
    const pts = path.map((q) => xy("ABCDE".indexOf(q[0]), Number(q[1]) - 1).join(",")).join(" ");
    el("polyline", { points: pts, class: "path" }, svg);
  }
  // the men this move or chain has taken so far: on opts.prev, gone now
  let prev = null;
  try { prev = opts.prev ? parse(opts.prev) : null; } catch (e) { prev = null; }
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 9; c++) {
      const [x, y] = xy(r, c), ch = p.rows[r][c], n = name(r, c);
      zone(svg, n, "circle", { cx: x, cy: y, r: C / 2 - 2 });
      if (p.visited.includes(n) || (p.chain && p.chain[0] === n)) el("circle", { cx: x, cy: y, r: 6, fill: "#d9480f" }, svg);
      if (ch === "w" || ch === "b") {
        el("circle", { cx: x, cy: y, r: 19, class: `man ${ch === "w" ? "white" : "black"}${n === at ? " chain" : ""}` }, svg);
      } else if (prev && !path.includes(n) && (prev.rows[r][c] === "w" || prev.rows[r][c] === "b")) {
        el("circle", { cx: x, cy: y, r: 19, class: `man ${prev.rows[r][c] === "w" ? "white" : "black"} captured` }, svg);
      }
    }
    text(svg, 10, xy(r, 0)[1], "ABCDE"[r], { class: "label" });
  }
  for (let c = 0; c < 9; c++) text(svg, xy(0, c)[0], H - 8, String(c + 1), { class: "label" });
  return svg;
}

// "D5-C5A" -> ["D5", "C5"] (approach and withdrawal are chosen from buttons); "stop" -> []
export function stepSquares(step) {
  const m = step.trim().toUpperCase().match(/^([A-E][1-9])-([A-E][1-9])/);
  return m ? [m[1], m[2]] : [];
}
export function moveSquares(move) {
  return [...move.toUpperCase().matchAll(/[A-E][1-9]/g)].map((m) => m[0]);
}
