// render/index.js — the renderers by game name; a game without one falls back to its text board.
import * as gobang from "./gobang.js";
import * as checkers from "./checkers.js";
import * as chess from "./chess.js";
import * as backgammon from "./backgammon.js";
import * as fanorona from "./fanorona.js";
import * as foxgeese from "./foxgeese.js";
import * as solitaire from "./solitaire.js";
import * as fifteen from "./fifteen.js";

// game name (the registry's) -> renderer module: draw(position, {flip}) -> <svg>
// with zones named by data-sq, stepSquares(step, position) -> the zones a step
// names, optional moveSquares(move, position) and players (seat names).
const RENDERERS = { gobang, checkers, chess, backgammon, fanorona, foxgeese, solitaire, fifteen };

// "checkers(variant=polish)" -> "checkers"
export function gameName(spec) {
  return String(spec).split("(")[0].trim();
}

// The renderer of a game spec, or null (the page then shows the `board` text).
export function rendererFor(spec) {
  return RENDERERS[gameName(spec)] || null;
}

// Draw `position` with the game's renderer; on any failure (a format the
// renderer does not know) the text board instead, so a game always shows.
export function drawPosition(spec, position, board, opts = {}) {
  const r = rendererFor(spec);
  if (r && position) {
    try {
      return { node: r.draw(position, opts), renderer: r };
    } catch (e) {
      console.warn(`renderer ${gameName(spec)}: ${e}`);
    }
  }
  const pre = document.createElement("pre");
  pre.className = "textboard";
  pre.textContent = board || position || "";
  return { node: pre, renderer: null };
}
