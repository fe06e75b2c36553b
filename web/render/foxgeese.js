// render/foxgeese.js — Fox and Geese on the cross: "rows side quiet", g goose, f fox.
import { el } from "./svg.js";
import { cells, drawCross, stepSquares } from "./cross.js";

export const players = ["Geese", "Fox"];
export { stepSquares };
export const moveSquares = stepSquares;

export function draw(pos, opts = {}) {
  const [field] = pos.trim().split(/\s+/);
  return drawCross(cells(field), "foxgeese", (ch, x, y, svg) => {
    if (ch === "g") el("circle", { cx: x, cy: y, r: 17, class: "goose" }, svg);
    if (ch === "f") el("circle", { cx: x, cy: y, r: 19, class: "fox" }, svg);
  }, { ...opts, numbers: true });
}
