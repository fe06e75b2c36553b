// render/fifteen.js — the Fifteen puzzle: tiles from "t t t ... [key=value]" (0 = the blank).
import { el, text, svgRoot, zone } from "./svg.js";

const C = 80, M = 10;
export const players = ["Solver"];

export function parse(pos) {
  const tiles = [];
  for (const t of pos.trim().split(/\s+/)) {
    if (!/^\d+$/.test(t)) break;
    tiles.push(Number(t));
  }
  const n = Math.round(Math.sqrt(tiles.length));
  if (n * n !== tiles.length || n < 2) throw new Error("not a Fifteen position");
  return { n, tiles };
}

export function draw(pos, opts = {}) {
  const { n, tiles } = parse(pos), W = 2 * M + n * C;
  const svg = svgRoot(W, W, "fifteen");
  el("rect", { x: 0, y: 0, width: W, height: W, rx: 8, fill: "#6b4f2a" }, svg);
  tiles.forEach((t, i) => {
    const x = M + (i % n) * C, y = M + Math.floor(i / n) * C;
    zone(svg, `c${i}`, "rect", { x, y, width: C, height: C });
    if (!t) return;
    el("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 6, class: t === i + 1 ? "tile home" : "tile" }, svg);
    text(svg, x + C / 2, y + C / 2, String(t), { class: "num" });
  });
  void opts;
  return svg;
}

// A move names where the blank goes (u/d/l/r): the zone is the tile that slides.
export function stepSquares(step, pos) {
  const { n, tiles } = parse(pos), b = tiles.indexOf(0);
  const d = { u: -n, d: n, l: -1, r: 1 }[step.trim()[0]];
  return d === undefined ? [] : [`c${b + d}`];
}
