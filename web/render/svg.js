// render/svg.js — small helpers the renderers share: SVG elements and square zones.
export const NS = "http://www.w3.org/2000/svg";

// el("circle", {cx: 1, cy: 2, r: 3}, parent) makes an SVG element (and appends it).
export function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(e);
  return e;
}

export function text(parent, x, y, s, attrs = {}) {
  const t = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  t.textContent = s;
  return t;
}

export function svgRoot(width, height, cls) {
  // small boards are not blown up past about 1.8 times their size
  return el("svg", { viewBox: `0 0 ${width} ${height}`, class: `board ${cls}`, role: "img",
                     style: `max-width: ${Math.round(Math.max(width * 1.8, 360))}px` });
}

// A clickable zone named `name` (a square, point or hole in the game's
// notation): the page finds zones by data-sq and marks them with classes.
export function zone(parent, name, shape, attrs) {
  return el(shape, { ...attrs, class: "zone", "data-sq": name }, parent);
}
