// render/gobang.js — Go-Bang: men on an N x N board (position "ranks w|b inW inB moves").
// Partnerships (gobang(players=4)): X and O are the second partners' men and the side field
// names the seat to move (w1, b1, w2, b2); men are marked 1 or 2 by their owner's seat.
import { el, text, svgRoot, zone } from "./svg.js";

const C = 40, M = 30;
export const players = ["White (x)", "Black (o)"];
export const seats = ["W1", "B1", "W2", "B2"]; // partnerships: the state's `seat`

export function parse(pos) {
  const [board, side, inW, inB, moves] = pos.trim().split(/\s+/);
  const ranks = board.split("/"); // rank N first
  const seats = /^[wb][12]$/.test(side) ? 4 : 2;
  return { n: ranks.length, ranks, side, seats, inW: +inW, inB: +inB, moves: +moves };
}

const fileName = (c) => String.fromCharCode(97 + c);

export function draw(pos, opts = {}) {
  const p = parse(pos);
  const n = p.n, W = 2 * M + n * C;
  const svg = svgRoot(W, W + 24, "gobang");
  el("rect", { x: M, y: M, width: n * C, height: n * C, class: "wood" }, svg);
  // screen cell (i, j) from board (row from rank 1, col)
  const xy = (row, col) => opts.flip ? [M + (n - 1 - col) * C, M + row * C] : [M + col * C, M + (n - 1 - row) * C];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const [x, y] = xy(row, col);
      const name = fileName(col) + (row + 1);
      el("rect", { x, y, width: C, height: C, class: "grid" }, svg);
      zone(svg, name, "rect", { x, y, width: C, height: C });
      const ch = p.ranks[n - 1 - row][col];
      if ("xoXO".includes(ch)) {
        const white = ch.toLowerCase() === "x";
        el("circle", { cx: x + C / 2, cy: y + C / 2, r: C * 0.4, class: white ? "stone white" : "stone black" }, svg);
        if (p.seats === 4) text(svg, x + C / 2, y + C / 2, ch === ch.toLowerCase() ? "1" : "2", { class: white ? "seat-mark" : "seat-mark on-black" });
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const [x] = xy(0, i), [, y] = xy(i, 0);
    text(svg, x + C / 2, M - 12, fileName(i), { class: "label" });
    text(svg, M - 14, y + C / 2, String(i + 1), { class: "label" });
  }
  const seat = p.seats === 4 ? `${p.side.toUpperCase()} to move; ` : "";
  text(svg, W / 2, W + 6, seat + `in hand: White (x) ${p.inW}, Black (o) ${p.inB}` + (p.moves ? `; moves ${p.moves}` : ""), { class: "caption", "font-size": Math.min(14, W / 34) });
  return svg;
}

// "d5" -> ["d5"]; "c6 d7" / "c6-d7" -> ["c6", "d7"]
export function stepSquares(step) {
  return step.trim().split(/[\s-]+/).filter(Boolean);
}
export const moveSquares = stepSquares;
