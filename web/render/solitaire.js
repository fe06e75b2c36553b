// render/solitaire.js — Peg Solitaire on the cross: "rows moves last", o marble, . empty hole.
import { el } from "./svg.js";
import { crossDraw, stepSquares } from "./cross.js";

export const players = ["Solver"];
export { stepSquares, stepSquares as moveSquares };
export const draw = crossDraw("solitaire", (ch, x, y, svg) => {
  if (ch === "o") el("circle", { cx: x, cy: y, r: 17, class: "marble" }, svg);
});
