// render/foxgeese.js — Fox and Geese on the cross: "rows side quiet", g goose, f fox.
import { el } from "./svg.js";
import { crossDraw, stepSquares } from "./cross.js";

export const players = ["Geese", "Fox"];
export { stepSquares, stepSquares as moveSquares };
export const draw = crossDraw("foxgeese", (ch, x, y, svg) => {
  if (ch === "g") el("circle", { cx: x, cy: y, r: 17, class: "goose" }, svg);
  if (ch === "f") el("circle", { cx: x, cy: y, r: 19, class: "fox" }, svg);
});
