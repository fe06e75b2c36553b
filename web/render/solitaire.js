// render/solitaire.js — Peg Solitaire on the cross: "rows moves last", o marble, . empty hole.
import { el } from "./svg.js";
import { cells, drawCross, stepSquares } from "./cross.js";

export const players = ["Solver"];
export { stepSquares };
export const moveSquares = stepSquares;

export function draw(pos, opts = {}) {
  const [field] = pos.trim().split(/\s+/);
  return drawCross(cells(field), "solitaire", (ch, x, y, svg) => {
    if (ch === "o") el("circle", { cx: x, cy: y, r: 17, class: "marble" }, svg);
  }, { ...opts, numbers: true });
}
