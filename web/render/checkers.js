// render/checkers.js — the checkers family from PDN FEN "B:W21,K30:B1,2[:Ca x b][:X..][:H..]": 8x8 or 10x10.
import { el, text, svgRoot, zone } from "./svg.js";

const C = 52, M = 14;
export const players = ["Black", "White"];

function squares(field) {
  const out = [];
  for (const part of field.split(",")) {
    const t = part.trim();
    if (!t) continue;
    const king = /^K/i.test(t);
    const r = t.replace(/^K/i, "").split("-").map(Number);
    for (let k = r[0]; k <= (r.length > 1 ? r[1] : r[0]); k++) out.push({ sq: k, king });
  }
  return out;
}

export function parse(pos) {
  const fields = pos.trim().replace(/\.$/, "").split(":");
  const p = { side: fields[0].toUpperCase(), pieces: new Map(), chainAt: null, captured: new Set() };
  for (const f of fields.slice(1)) {
    const tag = f[0].toUpperCase(), rest = f.slice(1);
    if (tag === "W" || tag === "B") {
      for (const s of squares(rest)) p.pieces.set(s.sq, { color: tag, king: s.king });
    } else if (tag === "C") {
      p.chainAt = Number(rest.split("x")[1]);
    } else if (tag === "X") {
      for (const s of squares(rest)) p.captured.add(s.sq);
    }
  }
  const maxSq = Math.max(32, ...p.pieces.keys());
  p.n = maxSq > 32 ? 10 : 8; // 50 squares: the 10x10 board
  return p;
}

// square k (1-based) -> row (0 = squares 1..n/2, Black's back rank) and column
export function rowCol(k, n) {
  const h = n / 2, i = k - 1, row = Math.floor(i / h);
  return [row, 2 * (i % h) + (row % 2 === 0 ? 1 : 0)];
}

export function draw(pos, opts = {}) {
  const p = parse(pos), n = p.n, W = 2 * M + n * C;
  const svg = svgRoot(W, W, "checkers");
  const xy = (row, col) => opts.flip ? [M + (n - 1 - col) * C, M + (n - 1 - row) * C] : [M + col * C, M + row * C];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const [x, y] = xy(row, col);
      el("rect", { x, y, width: C, height: C, class: (row + col) % 2 ? "dark" : "light" }, svg);
    }
  }
  for (let k = 1; k <= n * n / 2; k++) {
    const [row, col] = rowCol(k, n), [x, y] = xy(row, col);
    zone(svg, String(k), "rect", { x, y, width: C, height: C });
    text(svg, x + 8, y + 8, String(k), { class: "sqnum" });
    const pc = p.pieces.get(k);
    if (!pc) continue;
    const cls = `man ${pc.color === "W" ? "white" : "black"}${p.captured.has(k) ? " captured" : ""}${p.chainAt === k ? " chain" : ""}`;
    el("circle", { cx: x + C / 2, cy: y + C / 2, r: C * 0.38, class: cls }, svg);
    if (pc.king) text(svg, x + C / 2, y + C / 2 + 1, "♛", { class: `crown ${pc.color === "W" ? "on-white" : "on-black"}` });
  }
  return svg;
}

// "11-15" -> ["11","15"], "9x18" -> ["9","18"], "9x18x27" -> ["9","18","27"]
export function stepSquares(step) {
  return step.trim().split(/[-x:\s]+/i).filter(Boolean);
}
export const moveSquares = stepSquares;
