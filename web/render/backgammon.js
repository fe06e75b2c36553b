// render/backgammon.js — backgammon from "ID:SIDE:DICE[:STEPS][:tN]" (the gnubg Position ID): points, bar, off,
// dice, and each side's pip count in its tray.
import { el, text, svgRoot, zone } from "./svg.js";

// X's men are drawn white, O's black (the names say so: labels and colours agree)
export const players = ["X (white)", "O (black)"];

// The gnubg Position ID: 80 bits, for the player not on roll then the player
// on roll, his points 1..24 and the bar, as many 1 bits as men and a 0.
export function decodeId(id) {
  const bin = atob(id.replace(/-/g, "+").replace(/_/g, "/") + "==".slice(0, (4 - (id.length % 4)) % 4));
  const bits = [];
  for (let i = 0; i < bin.length; i++) for (let j = 0; j < 8; j++) bits.push((bin.charCodeAt(i) >> j) & 1);
  const sides = [[], []];
  let k = 0;
  for (const s of sides) {
    for (let pt = 0; pt < 25; pt++) {
      let n = 0;
      while (k < bits.length && bits[k]) { n++; k++; }
      k++;
      s.push(n);
    }
  }
  return sides; // [not on roll, on roll], each [pt1..pt24, bar] in its own numbering
}

export function parse(pos) {
  const f = pos.trim().split(":");
  const [id, side, dice] = f;
  const steps = f.slice(3).filter((x) => x && !/^t\d+$/.test(x)).join(",").split(",").filter(Boolean);
  const [notOn, onRoll] = decodeId(id);
  const mover = side === "O" ? "O" : "X";
  // board from X's view: pts[1..24] = {x, o}, bars, men off
  const pts = Array.from({ length: 25 }, () => ({ x: 0, o: 0 }));
  const bar = { x: 0, o: 0 };
  const put = (who, men) => {
    for (let i = 0; i < 24; i++) {
      const xp = who === "x" ? i + 1 : 24 - i;
      pts[xp][who] += men[i];
    }
    bar[who] += men[24];
  };
  put(mover === "X" ? "x" : "o", onRoll);
  put(mover === "X" ? "o" : "x", notOn);
  // the steps already made in the play in progress ("8/5", "bar/22", "6/off", "13/7*")
  const me = mover === "X" ? "x" : "o", him = me === "x" ? "o" : "x";
  const toX = (n) => (me === "x" ? n : 25 - n);
  for (const st of steps) {
    const [a, b] = st.replace(/\*/g, "").split("/");
    if (a === "bar") bar[me]--; else pts[toX(Number(a))][me]--;
    if (b === "off") continue;
    const t = pts[toX(Number(b))];
    if (t[him] === 1) { t[him] = 0; bar[him]++; }
    t[me]++;
  }
  const count = (w) => pts.reduce((s, p) => s + p[w], 0) + bar[w];
  // pip count: the pips each side still has to move (X bears off past point 1, O past 24; the bar is 25)
  const pips = { x: 25 * bar.x, o: 25 * bar.o };
  for (let xp = 1; xp <= 24; xp++) { pips.x += xp * pts[xp].x; pips.o += (25 - xp) * pts[xp].o; }
  return { pts, bar, off: { x: 15 - count("x"), o: 15 - count("o") }, pips, mover, side, dice: dice || "-", steps };
}

const PW = 40, H = 420, BAR = 44, TRAY = 50, M = 10;

export function draw(pos, opts = {}) {
  const p = parse(pos);
  const W = 2 * M + 12 * PW + BAR + TRAY;
  const svg = svgRoot(W, H + 2 * M, "backgammon");
  el("rect", { x: M, y: M, width: 12 * PW + BAR, height: H, class: "felt" }, svg);
  const barX = M + 6 * PW;
  el("rect", { x: barX, y: M, width: BAR, height: H, class: "bar" }, svg);
  el("rect", { x: M + 12 * PW + BAR, y: M, width: TRAY, height: H, class: "tray" }, svg);
  // the viewer's numbering: X's view, or O's when flipped; a step names points in the mover's
  const view = opts.flip ? "o" : "x";
  const moverName = (xp) => String(p.mover === "X" ? xp : 25 - xp);
  // slot of viewer point v (1..24): bottom row 12..1 from left to right, top row 13..24
  const slot = (v) => {
    const top = v > 12, i = top ? v - 13 : 12 - v; // 0..11 from the left
    return { x: M + i * PW + (i >= 6 ? BAR : 0), top };
  };
  for (let xp = 1; xp <= 24; xp++) {
    const v = view === "x" ? xp : 25 - xp, { x, top } = slot(v);
    const y0 = top ? M : M + H, tip = top ? M + H * 0.42 : M + H * 0.58;
    el("path", { d: `M${x},${y0}L${x + PW},${y0}L${x + PW / 2},${tip}Z`, class: `pt${xp % 2}` }, svg);
    zone(svg, moverName(xp), "rect", { x, y: top ? M : M + H / 2, width: PW, height: H / 2 });
    text(svg, x + PW / 2, top ? M + H * 0.45 : M + H * 0.55, String(v), { class: "ptnum" });
    const pt = p.pts[xp], who = pt.x ? "x" : pt.o ? "o" : null;
    if (!who) continue;
    const n = pt[who];
    for (let k = 0; k < Math.min(n, 5); k++) {
      const cy = top ? M + 18 + k * 34 : M + H - 18 - k * 34;
      el("circle", { cx: x + PW / 2, cy, r: 16, class: `man ${who === "x" ? "white" : "black"}` }, svg);
    }
    if (n > 5) text(svg, x + PW / 2, top ? M + 18 + 4 * 34 : M + H - 18 - 4 * 34, String(n), { class: "count" });
  }
  // the bar (one zone, the mover's) and the men borne off
  zone(svg, "bar", "rect", { x: barX, y: M, width: BAR, height: H });
  for (const [who, top] of [["x", view !== "x"], ["o", view === "x"]]) {
    const n = p.bar[who];
    for (let k = 0; k < Math.min(n, 4); k++) {
      el("circle", { cx: barX + BAR / 2, cy: top ? M + 60 + k * 34 : M + H - 60 - k * 34, r: 16, class: `man ${who === "x" ? "white" : "black"}` }, svg);
    }
    if (n > 4) text(svg, barX + BAR / 2, top ? M + 20 : M + H - 20, String(n), { class: "count" });
    const off = p.off[who], tx = M + 12 * PW + BAR + TRAY / 2;
    text(svg, tx, (who === view) ? M + H - 40 : M + 40, `${off} off`, { class: "ptnum" });
    text(svg, tx, (who === view) ? M + H - 20 : M + 20, `${who.toUpperCase()} ${p.pips[who]}`, { class: "pipcount", "data-side": who });
    for (let k = 0; k < off; k++) {
      const y = who === view ? M + H - 60 - k * 8 : M + 60 + k * 8;
      el("rect", { x: tx - 16, y, width: 32, height: 6, class: `man ${who === "x" ? "white" : "black"}` }, svg);
    }
  }
  zone(svg, "off", "rect", { x: M + 12 * PW + BAR, y: M, width: TRAY, height: H });
  // the dice to play, on the mover's half
  if (/^\d\d$/.test(p.dice)) {
    const dx = (p.mover === "X") === (view === "x") ? M + 9 * PW + BAR - 40 : M + 3 * PW - 40;
    [...p.dice].forEach((d, i) => die(svg, dx + i * 44, M + H / 2 - 18, Number(d)));
  }
  if (p.dice === "end") text(svg, M + 3 * PW, M + H / 2, "game over", { class: "ptnum", "font-size": 16 });
  return svg;
}

function die(svg, x, y, n) {
  el("rect", { x, y, width: 36, height: 36, rx: 6, class: "die" }, svg);
  const c = [[18, 18]], a = 9, b = 27;
  const pips = { 1: c, 2: [[a, a], [b, b]], 3: [[a, a], [18, 18], [b, b]], 4: [[a, a], [a, b], [b, a], [b, b]],
    5: [[a, a], [a, b], [b, a], [b, b], [18, 18]], 6: [[a, a], [a, 18], [a, b], [b, a], [b, 18], [b, b]] }[n] || [];
  for (const [px, py] of pips) el("circle", { cx: x + px, cy: y + py, r: 3.5, class: "pip" }, svg);
}

// "8/5" -> ["8", "5"], "bar/22" -> ["bar", "22"], "6/off", "13/7*"
export function stepSquares(step) {
  return step.trim().replace(/\*/g, "").split("/").filter(Boolean);
}
