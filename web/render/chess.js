// render/chess.js — chess from FEN: the pieces as Unicode glyphs on an 8x8 SVG board.
import { el, text, svgRoot, zone } from "./svg.js";

const C = 56, M = 22;
// the filled glyphs for both sides (white ones drawn white with an outline)
const GLYPH = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

export const players = ["White", "Black"];

export function parse(fen) {
  const [board, side, castling, ep] = fen.trim().split(/\s+/);
  const ranks = board.split("/"); // rank 8 first
  if (ranks.length !== 8) throw new Error("not a FEN");
  const cells = [];
  for (const r of ranks) {
    const row = [];
    for (const ch of r) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) row.push(null);
      else row.push(ch);
    }
    if (row.length !== 8) throw new Error("not a FEN rank");
    cells.push(row);
  }
  return { cells, side, castling, ep };
}

export function draw(fen, opts = {}) {
  const p = parse(fen), W = 2 * M + 8 * C;
  const svg = svgRoot(W, W, "chess");
  const xy = (row, col) => opts.flip ? [M + (7 - col) * C, M + (7 - row) * C] : [M + col * C, M + row * C];
  for (let row = 0; row < 8; row++) { // row 0 = rank 8
    for (let col = 0; col < 8; col++) {
      const [x, y] = xy(row, col);
      el("rect", { x, y, width: C, height: C, class: (row + col) % 2 ? "dark" : "light" }, svg);
      zone(svg, "abcdefgh"[col] + (8 - row), "rect", { x, y, width: C, height: C });
      const pc = p.cells[row][col];
      if (pc) text(svg, x + C / 2, y + C / 2 + 3, GLYPH[pc.toLowerCase()], { class: `glyph ${pc === pc.toUpperCase() ? "white" : "black"}` });
    }
  }
  for (let i = 0; i < 8; i++) {
    const [x] = xy(0, i), [, y] = xy(7 - i, 0);
    text(svg, x + C / 2, W - M / 2, "abcdefgh"[i], { class: "label" });
    text(svg, M / 2, y + C / 2, String(i + 1), { class: "label" });
  }
  return svg;
}

// "e2e4" -> ["e2", "e4"]; "e7e8q" -> ["e7", "e8"] (the piece is chosen from buttons)
export function stepSquares(step) {
  const m = step.match(/^([a-h][1-8])([a-h][1-8])/);
  return m ? [m[1], m[2]] : [];
}
export const moveSquares = stepSquares;
