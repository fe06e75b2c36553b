// app.js — the page: Play, Replay and Results views over hoyle serve's JSON API (docs/serve.md).
import { drawPosition, rendererFor, gameName } from "./render/index.js";
import { linePlot } from "./plot.js";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- API, errors

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Error(`the server does not answer (${e.message})`);
  }
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const msg = data && data.error ? data.error : `${res.status} ${res.statusText}`;
    throw new Error(msg);
  }
  return data;
}

function showError(msg) {
  const e = $("error");
  e.textContent = String(msg).split("\n")[0];
  e.title = String(msg);
  e.hidden = !msg;
}

// Run an async action; its failure is the one-line error message.
async function guard(fn) {
  try {
    const r = await fn();
    showError("");
    return r;
  } catch (e) {
    showError(e.message || String(e));
    return undefined;
  }
}

function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}

const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? "—" : Number(x).toFixed(d));

// ---------------------------------------------------------------- views

function showView(name) {
  if (!["play", "replay", "results"].includes(name)) name = "play";
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== `view-${name}`;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.view === name);
  if (name === "replay" && !replay.listed) listDir("");
}
window.addEventListener("hashchange", () => {
  showView(location.hash.slice(1).split("?")[0]);
  const want = new URLSearchParams(location.hash.split("?")[1] || "").get("game");
  if (want && play.games.some((g) => g.name === gameName(want)) && want !== $("spec").value) {
    $("game").value = gameName(want);
    gameChanged(want);
  }
});

// ---------------------------------------------------------------- specs and parameter forms

// "gobang(board=5,men=6)" -> {name: "gobang", params: {board: "5", men: "6"}}
function parseSpec(spec) {
  const m = String(spec).trim().match(/^([^()]*)(?:\((.*)\))?$/);
  const params = {};
  if (m && m[2]) {
    for (const kv of m[2].split(",")) {
      const i = kv.indexOf("=");
      if (i > 0) params[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
    }
  }
  return { name: m ? m[1].trim() : spec, params };
}

function buildSpec(name, schema, values) {
  const parts = [];
  for (const p of schema) {
    const v = values[p.key];
    if (v === undefined || v === "" || String(v) === String(p.default)) continue;
    parts.push(`${p.key}=${v}`);
  }
  return parts.length ? `${name}(${parts.join(",")})` : name;
}

// A form for a PARAM list; onChange(values) after each edit.
function paramForm(box, schema, values, onChange) {
  box.replaceChildren();
  for (const p of schema || []) {
    const cur = values[p.key] !== undefined ? values[p.key] : p.default;
    let input;
    if (p.type === "choice") {
      input = h("select", {}, (p.choices || []).map((c) => h("option", { value: c }, c)));
      input.value = cur;
    } else if (p.type === "bool") {
      input = h("select", {}, h("option", { value: "false" }, "false"), h("option", { value: "true" }, "true"));
      input.value = String(cur);
    } else {
      input = h("input", { type: p.type === "int" || p.type === "double" ? "number" : "text", value: cur ?? "",
                           step: p.type === "double" ? "any" : undefined, min: p.min, max: p.max });
    }
    input.dataset.key = p.key;
    input.addEventListener("change", () => {
      const vals = {};
      for (const i of box.querySelectorAll("[data-key]")) vals[i.dataset.key] = i.value;
      onChange(vals);
    });
    box.append(h("label", { title: p.help || "" }, `${p.key}`, input));
  }
}

// ---------------------------------------------------------------- Play: setup

const play = { games: [], state: null, flip: false, sel: [], busy: false, seats: [], typed: [] };

// The server's search times (GET /api/version): an agent whose spec sets no
// limit of its own thinks think_ms a move, none longer than max_think_ms.
const server = { think_ms: 1000, max_think_ms: 10000 };

const seconds = (ms) => `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;

// How long the agent `spec` thinks a move, in words: the page's "Agent time",
// else the spec's own limit, else the server's default time.
function thinkText(spec, long = false) {
  const { name, params } = parseSpec(spec);
  if (!name || name === "human") return "";
  if (["random", "greedy"].includes(name)) return "answers at once";
  const ms = Number($("think").value);
  if (ms > 0) return `thinks ${seconds(Math.min(ms, server.max_think_ms))} a move (Agent time)`;
  const num = (k) => Number(params[k] || 0);
  const cap = ` (at most ${seconds(server.max_think_ms)})`;
  if (num("time_ms") > 0) return `thinks ${seconds(Math.min(num("time_ms"), server.max_think_ms))} a move (its time_ms)`;
  if (num("sims") > 0) return `${num("sims")} simulations a move${cap}`;
  if (num("depth") > 0) return `searches ${num("depth")} moves deep${cap}`;
  if (num("nodes") > 0) return `${num("nodes")} nodes a move${cap}`;
  if (["mcts", "alphabeta", "expectimax", "az"].includes(name))
    return `thinks ${seconds(server.think_ms)} a move` + (long ? " (the server's default: set Agent time, or sims, depth or time_ms)" : "");
  return `at most ${seconds(server.max_think_ms)} a move`;
}

function updateThinks() {
  for (const seat of play.seats) seat.thinks.textContent = thinkText(seat.spec.value.trim(), true);
}

const ONE_PLAYER = ["fifteen", "solitaire"];

function seatCount(info) {
  if (info && Number.isInteger(info.players)) return info.players;
  if (info && Number.isInteger(info.num_players)) return info.num_players;
  return ONE_PLAYER.includes(info ? info.name : "") ? 1 : 2;
}

function currentGameInfo() {
  return play.games.find((g) => g.name === $("game").value);
}

async function loadGames() {
  const games = await guard(() => api("GET", "/api/games"));
  if (!games) return;
  play.games = games;
  $("game").replaceChildren(...games.map((g) => h("option", { value: g.name, title: g.description || "" }, g.name)));
  const want = new URLSearchParams(location.hash.split("?")[1] || "").get("game");
  if (want && games.some((g) => g.name === gameName(want))) $("game").value = gameName(want);
  else if (games.some((g) => g.name === "gobang")) $("game").value = "gobang";
  gameChanged(want || undefined);
}

function gameChanged(spec) {
  const g = currentGameInfo();
  if (!g) return;
  $("position").value = ""; // a position belongs to one game
  const variants = g.variants && g.variants.length ? g.variants : [g.name];
  $("variant").replaceChildren(...variants.map((v) => h("option", { value: v }, v)));
  setSpec(spec && variants.includes(spec) ? spec : spec || variants[0]);
  if (variants.includes($("spec").value)) $("variant").value = $("spec").value;
}

function setSpec(spec) {
  const g = currentGameInfo();
  $("spec").value = spec;
  const { params } = parseSpec(spec);
  paramForm($("gparams"), g ? g.params : [], params, (vals) => {
    $("spec").value = buildSpec(g.name, g.params, vals);
    loadSeats();
  });
  loadSeats();
}

async function loadSeats() {
  const spec = $("spec").value;
  const agents = await guard(() => api("GET", `/api/agents?game=${encodeURIComponent(spec)}`));
  if (!agents || spec !== $("spec").value) return; // a later spec's seats are on their way
  const n = seatCount(currentGameInfo());
  const old = play.seats.map((s) => s.spec.value);
  const box = $("seats");
  box.replaceChildren();
  play.seats = [];
  for (let i = 0; i < n; i++) {
    // one entry per kind, and one per shipped model that fits the game (its spec names it)
    const kind = h("select", { class: "seatkind" }, agents.map((a) => h("option", { value: entrySpec(a), title: a.model ? `${a.description || ""} (shipped model ${a.model}: models/README.md)` : a.description || "" }, entrySpec(a))));
    const params = h("div", { class: "params" });
    const details = h("details", {}, h("summary", {}, "parameters"), params);
    const specIn = h("input", { class: "seatspec", spellcheck: "false" });
    const thinks = h("div", { class: "thinks muted" });
    const seat = { kind, params, spec: specIn, thinks };
    specIn.addEventListener("input", updateThinks);
    specIn.addEventListener("change", updateThinks);
    const kindChanged = (initial) => {
      const a = agents.find((x) => entrySpec(x) === kind.value) || { kind: kind.value, params: [] };
      const mine = initial && parseSpec(initial).name === a.kind;
      const given = mine ? parseSpec(initial).params : parseSpec(entrySpec(a)).params;
      specIn.value = mine ? initial : entrySpec(a);
      paramForm(params, a.params || [], given, (vals) => { specIn.value = buildSpec(a.kind, a.params || [], vals); updateThinks(); });
      details.hidden = !(a.params && a.params.length);
      updateThinks();
    };
    kind.addEventListener("change", () => kindChanged());
    const initial = old[i] || (i === 0 || n === 1 ? "human" : defaultAgent(agents));
    kind.value = entryFor(agents, initial);
    play.seats.push(seat);
    kindChanged(initial);
    box.append(h("div", { class: "seat" }, h("label", {}, `Seat ${i + 1}`, kind), details, h("label", {}, "spec", specIn), thinks));
  }
  updateThinks();
  box.dataset.spec = spec; // the seats are made for this spec (scripts wait on it)
}

// The spec an /api/agents entry starts from: the kind, or the kind with a shipped model.
const entrySpec = (a) => a.spec || a.kind;

// The entry a spec belongs to: the one of its shipped model, else its kind's, else "human".
function entryFor(agents, spec) {
  const { name, params } = parseSpec(spec);
  const model = agents.find((a) => a.model && a.kind === name && Object.values(params).includes(a.model));
  if (model) return entrySpec(model);
  const bare = agents.find((a) => !a.model && a.kind === name);
  if (bare) return entrySpec(bare);
  const any = agents.find((a) => a.kind === name);
  return any ? entrySpec(any) : "human";
}

// The opponent a new seat starts with: a trained agent where a model ships for the game
// (models/README.md), else the strongest search the game takes.
function defaultAgent(agents) {
  const trained = agents.find((a) => a.model);
  if (trained) return entrySpec(trained);
  for (const k of ["mcts", "alphabeta", "random"]) if (agents.some((a) => a.kind === k)) return k;
  return agents.length > 1 ? entrySpec(agents[1]) : "human";
}

async function newGame() {
  const typed = play.seats.map((s) => s.spec.value.trim() || "human");
  const body = { game: $("spec").value.trim(), agents: typed, seed: Number($("seed").value) || 0 };
  const pos = $("position").value.trim();
  if (pos) body.position = pos;
  const st = await guard(() => api("POST", "/api/games/new", body));
  if (!st) return;
  if (play.state) api("DELETE", `/api/games/${play.state.id}`).catch(() => {});
  play.typed = typed;
  play.flip = false;
  $("exportbox").hidden = true;
  setState(st);
}

// ---------------------------------------------------------------- Play: the game

// "Black (mcts)": the seat's name and the agent as the user typed it; the
// canonical spec, every parameter spelled out, is the tooltip (seatTitle).
function seatLabel(st, p) {
  const r = rendererFor(st.game);
  const name = r && r.players ? r.players[p] : `Player ${p + 1}`;
  const typed = play.typed[p] || parseSpec(st.agents[p]).name;
  return `${name} (${st.human && st.human[p] ? "you" : typed})`;
}

// A partnership game's seat at the board (the state's `seat`, named by the renderer): " at W2".
function seatName(st) {
  if (!Number.isInteger(st.seat)) return "";
  const r = rendererFor(st.game);
  return ` at ${r && r.seats ? r.seats[st.seat] : `seat ${st.seat + 1}`}`;
}

// Every seat's canonical spec and think time, for the status line's tooltip.
function seatsTitle(st) {
  return st.agents.map((a, p) => `Seat ${p + 1}: ${st.human && st.human[p] ? "you" : `${a} — ${thinkText(play.typed[p] || a)}`}`).join("\n");
}

function setState(st) {
  const old = play.state;
  // the position before the latest move, kept from a chain's first step to its
  // end, so renderers can show what the move or chain took (opts.prev)
  if (!old || old.id !== st.id) play.prev = null;
  else {
    const changed = (st.history || []).length !== (old.history || []).length || (st.chain || []).length !== (old.chain || []).length;
    if (changed && !(old.chain && old.chain.length)) play.prev = old.position;
  }
  play.state = st;
  play.sel = [];
  renderPlay();
  maybeAgent();
}

// The squares of the chain in progress, else of the last whole move, in order.
function movePath(st) {
  const r = rendererFor(st.game);
  if (!r || !r.stepSquares) return [];
  const steps = st.chain && st.chain.length ? st.chain : null;
  const last = (st.history || []).filter((e) => e.player !== "chance").pop();
  const sq = steps ? steps.flatMap((x) => r.stepSquares(x, st.position)) : last && r.moveSquares ? r.moveSquares(last.move, st.position) : [];
  return sq.filter((q, i) => i === 0 || q !== sq[i - 1]);
}

function humanToMove(st) {
  return st && Number.isInteger(st.to_move) && st.human && st.human[st.to_move];
}

// The steps the player can click now: the chain's next steps, or the first
// step of every legal move. Each is {step, squares, move (whole move or null)}.
function candidates(st) {
  const r = rendererFor(st.game);
  const sq = (s) => (r && r.stepSquares ? r.stepSquares(s, st.position) : []);
  if (st.chain && st.chain.length) {
    return (st.next_steps || []).map((s) => ({ step: s, squares: sq(s), move: null }));
  }
  const seen = new Map();
  for (const m of st.legal || []) {
    const steps = m.steps && m.steps.length ? m.steps : [m.move];
    const first = steps[0];
    if (!seen.has(first)) seen.set(first, { step: first, squares: sq(first), move: steps.length === 1 ? m.move : null, multi: false });
    const c = seen.get(first);
    if (steps.length > 1) { c.multi = true; c.move = null; }
  }
  return [...seen.values()];
}

function prefixOf(a, b) { // a is a prefix of b
  return a.length <= b.length && a.every((x, i) => x === b[i]);
}

function renderPlay() {
  const st = play.state;
  if (!st) return;
  const { node, renderer } = drawPosition(st.game, st.position, st.board, { flip: play.flip, prev: play.prev, path: movePath(st) });
  $("board").replaceChildren(node);
  // status line
  let s;
  if (st.to_move === "over") s = `Game over: ${st.result || "finished"}` + (st.returns ? ` (returns ${st.returns.join(", ")})` : "");
  else if (st.to_move === "chance") s = "Rolling…";
  else s = `${seatLabel(st, st.to_move)} to move` + seatName(st) + (st.chain && st.chain.length ? ` — continue ${st.chain.join(", ")}` : "");
  if (st.chance && st.chance.outcome) s += ` — roll ${st.chance.outcome}`;
  $("status").textContent = s;
  $("status").title = seatsTitle(st);
  // legal moves as buttons (the fallback's way to play; a list for every game)
  const human = humanToMove(st);
  const cands = human ? candidates(st) : [];
  const moveButtons = [];
  if (human) {
    if (st.chain && st.chain.length) {
      for (const c of cands) moveButtons.push(h("button", { onclick: () => sendStep(c) }, c.step));
    } else {
      for (const m of st.legal || []) moveButtons.push(h("button", { onclick: () => sendMove(m.move) }, m.move));
    }
  }
  $("moves").replaceChildren(...moveButtons);
  $("nmoves").textContent = moveButtons.length;
  $("movesbox").open = !renderer;
  $("choices").replaceChildren();
  // step choices with no square to click (a "stop", a pass)
  const zones = new Set([...node.querySelectorAll("[data-sq]")].map((z) => z.dataset.sq));
  for (const c of cands) {
    if (!c.squares.length || !zones.has(c.squares[0])) $("choices").append(h("button", { onclick: () => sendStep(c) }, c.step || "(pass)"));
  }
  // history and agent info
  const hist = st.history || [];
  $("history").replaceChildren(...hist.map((e, i) => h("li", { class: i === hist.length - 1 ? "current" : "", title: e.info ? infoText(e.info) : "" },
    `${e.player === "chance" ? "roll " : ""}${e.move}`)));
  $("history").scrollTop = $("history").scrollHeight;
  const lastInfo = [...hist].reverse().find((e) => e.info);
  $("undo").disabled = play.busy;
  const thinking = Number.isInteger(st.to_move) ? thinkText(play.typed[st.to_move] || st.agents[st.to_move]) : "";
  $("info").textContent = play.busy ? `thinking… (${thinking})` : lastInfo ? `${lastInfo.move}: ${infoText(lastInfo.info)}` : "—";
  if (renderer) markBoard(st, cands);
}

function infoText(i) {
  const parts = [i.kind || "agent"];
  if (i.value !== undefined && i.value !== null) parts.push(`value ${fmt(i.value, 3)}`);
  if (i.visits) parts.push(`visits ${i.visits}`);
  if (i.depth) parts.push(`depth ${i.depth}`);
  if (i.nodes) parts.push(`nodes ${i.nodes}`);
  if (i.seconds !== undefined && i.seconds !== null) parts.push(`${fmt(i.seconds, 2)} s`);
  if (i.proven) parts.push("proven");
  let s = parts.join(", ");
  if (i.pv && i.pv.length) s += `\nPV ${i.pv.join(" ")}`;
  return s;
}

// Highlight clickable squares: no selection -> the first squares of the
// candidates; a selection -> the next squares of the steps it starts.
function markBoard(st, cands) {
  const box = $("board");
  const zones = new Map([...box.querySelectorAll("[data-sq]")].map((z) => [z.dataset.sq, z]));
  // the last move's squares
  const last = (st.history || []).filter((e) => e.player !== "chance").pop();
  const r = rendererFor(st.game);
  if (last && r && r.moveSquares) for (const q of r.moveSquares(last.move, st.position)) zones.get(q)?.classList.add("last");
  if (!humanToMove(st)) return;
  // in a chain every step starts where the piece stands: preselect it
  if (!play.sel.length && st.chain && st.chain.length) {
    // (steps with no square, a Fanorona "stop", are buttons and do not count)
    const onBoard = cands.filter((c) => c.squares.length);
    const firsts = new Set(onBoard.map((c) => c.squares[0]));
    if (firsts.size === 1 && onBoard.every((c) => c.squares.length > 1)) play.sel = [...firsts];
  }
  const live = cands.filter((c) => c.squares.length > play.sel.length && prefixOf(play.sel, c.squares));
  for (const q of play.sel) zones.get(q)?.classList.add("sel");
  for (const c of live) zones.get(c.squares[play.sel.length])?.classList.add(play.sel.length ? "to" : "from");
  for (const [q, z] of zones) z.onclick = () => clickSquare(q);
}

function clickSquare(q) {
  const st = play.state;
  if (!humanToMove(st) || play.busy) return;
  const cands = candidates(st);
  const trySel = (sel) => {
    const live = cands.filter((c) => prefixOf(sel, c.squares));
    if (!live.length) return false;
    const exact = live.filter((c) => c.squares.length === sel.length);
    if (exact.length === 1 && live.length === 1) {
      sendStep(exact[0]);
    } else if (exact.length >= 1 && live.length === exact.length) {
      // the same squares, different steps (a promotion piece, approach or withdrawal)
      play.sel = sel;
      $("choices").replaceChildren(h("span", {}, "choose: "), ...exact.map((c) => h("button", { onclick: () => sendStep(c) }, c.step)));
      renderMarksOnly();
    } else {
      play.sel = sel;
      renderMarksOnly();
    }
    return true;
  };
  if (trySel([...play.sel, q])) return;
  if (play.sel.length && trySel([q])) return;
  play.sel = st.chain && st.chain.length ? play.sel : [];
  renderMarksOnly();
}

function renderMarksOnly() {
  const sel = play.sel;
  const choices = [...$("choices").childNodes];
  renderPlay();
  play.sel = sel;
  for (const z of $("board").querySelectorAll("[data-sq]")) z.classList.remove("from", "to", "sel");
  markBoard(play.state, candidates(play.state));
  if (choices.length && choices[0].tagName === "SPAN") $("choices").replaceChildren(...choices);
}

async function sendStep(c) {
  const st = play.state;
  const inChain = st.chain && st.chain.length;
  const body = !inChain && c.move && !c.multi ? { move: c.move } : { step: c.step };
  await post(`/api/games/${st.id}/move`, body);
}

async function sendMove(move) {
  await post(`/api/games/${play.state.id}/move`, { move });
}

async function post(path, body) {
  if (play.busy) return;
  play.busy = true;
  const st = await guard(() => api("POST", path, body));
  play.busy = false;
  if (st) setState(st);
  else { play.sel = []; renderPlay(); }
}

async function maybeAgent() {
  const st = play.state;
  if (!st || play.busy || !Number.isInteger(st.to_move) || (st.human && st.human[st.to_move])) return;
  play.busy = true;
  renderPlay();
  const id = st.id;
  const ms = Number($("think").value);
  const next = await guard(() => api("POST", `/api/games/${id}/agent`, ms > 0 ? { time_ms: ms } : {}));
  play.busy = false;
  if (play.state && play.state.id !== id) return; // a new game meanwhile
  if (next) setState(next);
  else renderPlay();
}

async function undo() {
  const st = play.state;
  if (!st || play.busy) return;
  play.busy = true;
  let cur = await guard(() => api("POST", `/api/games/${st.id}/undo`));
  // with an agent seat: back to the human's turn
  while (cur && !humanToMove(cur) && cur.human && cur.human.some(Boolean) && (cur.history || []).length) {
    const prev = cur;
    cur = await guard(() => api("POST", `/api/games/${st.id}/undo`));
    if (!cur) { cur = prev; break; }
  }
  play.busy = false;
  if (cur) { play.state = cur; play.sel = []; play.prev = null; renderPlay(); }
}

async function exportGame() {
  const st = play.state;
  if (!st) return;
  const f = $("exportfmt").value;
  const txt = await guard(() => api("GET", `/api/games/${st.id}/export${f ? `?format=${f}` : ""}`));
  if (txt === undefined) return;
  const t = typeof txt === "string" ? txt : JSON.stringify(txt, null, 1);
  $("exporttext").value = t;
  $("download").href = URL.createObjectURL(new Blob([t], { type: "text/plain" }));
  $("download").download = `${gameName(st.game)}.${f === "hoyle" || !f ? "txt" : f}`;
  $("exportbox").hidden = false;
}

// ---------------------------------------------------------------- Replay

const replay = { dir: "", file: null, games: [], game: null, ply: 0, flip: false, timer: null, listed: false };

async function listDir(dir) {
  const r = await guard(() => api("GET", `/api/files?dir=${encodeURIComponent(dir)}`));
  if (!r) return;
  replay.listed = true;
  replay.dir = r.dir !== undefined ? r.dir : dir;
  const parts = replay.dir ? replay.dir.split("/").filter(Boolean) : [];
  const crumbs = [h("a", { onclick: () => listDir("") }, "data")];
  parts.forEach((p, i) => crumbs.push(" / ", h("a", { onclick: () => listDir(parts.slice(0, i + 1).join("/")) }, p)));
  $("crumbs").replaceChildren(...crumbs);
  const rows = r.entries.map((e) => {
    const rel = replay.dir ? `${replay.dir}/${e.name}` : e.name;
    const acts = [];
    if (e.type === "dir") acts.push(h("a", { onclick: () => listDir(rel) }, "open"));
    if (e.kind === "records") {
      acts.push(h("a", { class: "open-records", onclick: () => openRecords(rel) }, "games"), " ",
        h("a", { onclick: () => { location.hash = "results"; loadRatings(rel); } }, "ratings"));
    }
    if (e.kind === "run") acts.push(" ", h("a", { onclick: () => { location.hash = "results"; loadRun(rel); } }, "curves"));
    return h("tr", { class: "file", "data-name": e.name },
      h("td", {}, e.type === "dir" ? `${e.name}/` : e.name), h("td", {}, e.kind || ""), h("td", { class: "num" }, e.type === "file" ? e.size : ""), h("td", {}, acts));
  });
  $("files").replaceChildren(h("tr", {}, h("th", {}, "name"), h("th", {}, "kind"), h("th", { class: "num" }, "bytes"), h("th", {}, "")), ...rows);
}

async function openRecords(file, quiet) {
  const r = await guard(() => api("GET", `/api/records?file=${encodeURIComponent(file)}`));
  if (!r) return;
  const fresh = replay.file !== file;
  const before = replay.games.length;
  replay.file = file;
  replay.games = r.games;
  replay.complete = r.complete;
  const specs = [...new Set(r.games.map((g) => g.game))];
  $("rectitle").textContent = `${file}: ${r.games.length} games${r.complete ? "" : " (being written)"}`;
  $("rectitle").title = specs.join("\n");
  // one game spec for the whole file goes in the title; the rows stay narrow
  const rows = r.games.map((g) => h("tr", { class: "clickable", "data-index": g.index, title: `${g.game}\n${(g.agents || []).join(" vs ")}\nend: ${g.end || "?"}`, onclick: () => openGame(g.index) },
    h("td", { class: "num" }, g.index), specs.length > 1 ? h("td", {}, gameName(g.game)) : "", h("td", { class: "agents" }, (g.agents || []).join(" vs ")),
    h("td", {}, (g.returns || []).join(" ")), h("td", { class: "num" }, g.moves)));
  const heads = ["#", ...(specs.length > 1 ? ["game"] : []), "agents", "result", "moves"];
  $("recgames").replaceChildren(h("tr", {}, heads.map((x) => h("th", {}, x))), ...rows);
  markSelectedGame();
  if (!quiet && fresh && r.games.length) openGame(r.games[0].index);
  // live: follow the newest game when new ones arrive
  if (quiet && $("live").checked && r.games.length > before && replay.game && replay.ply === replay.game.moves.length) {
    openGame(r.games[r.games.length - 1].index, true);
  }
}

function markSelectedGame() {
  for (const tr of $("recgames").querySelectorAll("tr[data-index]")) tr.classList.toggle("selected", replay.game && Number(tr.dataset.index) === replay.index);
}

async function openGame(index, toEnd) {
  const g = await guard(() => api("GET", `/api/records/game?file=${encodeURIComponent(replay.file)}&index=${index}`));
  if (!g) return;
  replay.game = g;
  replay.index = index;
  $("replayer").hidden = false;
  $("replayhint").hidden = true;
  $("slider").max = g.moves.length;
  $("rmoves").replaceChildren(...g.moves.map((m, i) => h("li", { onclick: () => setPly(i + 1) }, `${m.player === "chance" ? "roll " : ""}${m.move}`)));
  markSelectedGame();
  setPly(toEnd ? g.moves.length : 0);
}

function setPly(k) {
  const g = replay.game;
  if (!g) return;
  k = Math.max(0, Math.min(g.moves.length, k));
  replay.ply = k;
  $("slider").value = k;
  const pos = k === 0 ? g.start : g.moves[k - 1].position;
  const board = k === 0 ? g.start_board || g.start : g.moves[k - 1].board;
  const { node } = drawPosition(g.game, pos, board, { flip: replay.flip });
  $("rboard").replaceChildren(node);
  const r = rendererFor(g.game);
  if (k > 0 && r && r.moveSquares) {
    for (const q of r.moveSquares(g.moves[k - 1].move, pos)) node.querySelector?.(`[data-sq="${q}"]`)?.classList.add("last");
  }
  $("rply").textContent = `${k} / ${g.moves.length}`;
  $("rstatus").textContent = `${g.game} — ` + (k === 0 ? "start" : `move ${k}: ${g.moves[k - 1].move}`) +
    (k === g.moves.length && g.returns ? `  (returns ${g.returns.join(", ")})` : "");
  [...$("rmoves").children].forEach((li, i) => li.classList.toggle("current", i === k - 1));
  const cur = $("rmoves").children[k - 1];
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function liveTick() {
  if ($("live").checked && replay.file && !$("view-replay").hidden) openRecords(replay.file, true);
}

// ---------------------------------------------------------------- Results

async function loadRatings(file, pool) {
  $("ratingsfile").value = file;
  const q = `file=${encodeURIComponent(file)}` + (pool ? `&game=${encodeURIComponent(pool)}` : "");
  const r = await guard(() => api("GET", `/api/ratings?${q}`));
  if (!r) return;
  // a file with several game specs: one pool each
  const pools = r.pools || [];
  $("poolbox").hidden = pools.length < 2;
  $("pool").replaceChildren(...pools.map((p) => h("option", { value: p }, p)));
  if (r.game) $("pool").value = r.game;
  $("pool").onchange = () => loadRatings(file, $("pool").value);
  const box = $("ratings");
  box.replaceChildren();
  const rat = [...(r.ratings || [])].sort((a, b) => b.elo - a.elo);
  const lo = Math.min(...rat.map((x) => x.lo ?? x.elo), 0), hi = Math.max(...rat.map((x) => x.hi ?? x.elo), 0);
  const bar = (x) => {
    const W = 160, sx = (v) => hi > lo ? ((v - lo) / (hi - lo)) * (W - 8) + 4 : W / 2;
    const s = `<svg class="ivbar" width="${W}" height="14" viewBox="0 0 ${W} 14"><line x1="${sx(0)}" x2="${sx(0)}" y1="0" y2="14" stroke="#bbb"/>` +
      `<line x1="${sx(x.lo ?? x.elo)}" x2="${sx(x.hi ?? x.elo)}" y1="7" y2="7" stroke="#1f6feb" stroke-width="3"/>` +
      `<circle cx="${sx(x.elo)}" cy="7" r="4" fill="#1f6feb"/></svg>`;
    const span = h("span");
    span.innerHTML = s;
    return span;
  };
  const head = [r.game, r.num_games !== undefined ? `${r.num_games} games` : null,
    r.advantage !== undefined && r.advantage !== null ? `first-move advantage ${fmt(r.advantage)} Elo` : null,
    r.drawelo !== undefined && r.drawelo !== null ? `drawelo ${fmt(r.drawelo)}` : null].filter(Boolean).join(", ");
  box.append(h("h3", {}, "Elo"), h("div", { class: "muted" }, head), h("table", { class: "table", id: "elotable" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, "agent"), h("th", { class: "num" }, "Elo"), h("th", { class: "num" }, "interval"), h("th", {}, ""),
      h("th", { class: "num" }, "games"), h("th", { class: "num" }, "score")),
    rat.map((x, i) => h("tr", {}, h("td", { class: "num" }, i + 1), h("td", {}, x.agent), h("td", { class: "num" }, fmt(x.elo)),
      h("td", { class: "num" }, `[${fmt(x.lo)}, ${fmt(x.hi)}]`), h("td", {}, bar(x)), h("td", { class: "num" }, x.games), h("td", { class: "num" }, fmt(x.score, 3))))));
  if (r.cross && r.cross.agents) {
    const c = r.cross;
    box.append(h("h3", {}, "Cross table (row's score against column; games)"), h("table", { class: "table", id: "crosstable" },
      h("tr", {}, h("th", {}, ""), c.agents.map((a, j) => h("th", { title: a }, `${j + 1}`))),
      c.agents.map((a, i) => h("tr", {}, h("th", {}, `${i + 1}. ${a}`), c.agents.map((_, j) => {
        const s = c.score[i][j], n = c.games ? c.games[i][j] : null;
        return h("td", { class: "num" }, s === null || s === undefined ? "—" : `${fmt(s, 2)}${n !== null ? ` (${n})` : ""}`);
      })))));
  }
  if (r.openings && r.openings.length) {
    box.append(h("h3", {}, "First player's score by opening"), h("table", { class: "table", id: "openingtable" },
      h("tr", {}, h("th", {}, "opening"), h("th", { class: "num" }, "first player's score"), h("th", { class: "num" }, "games")),
      r.openings.map((o) => h("tr", {}, h("td", {}, o.opening || "(start)"), h("td", { class: "num" }, fmt(o.first_player_score, 3)), h("td", { class: "num" }, o.games)))));
  }
}

// {columns, rows} or [{...}] -> {columns, rows}
function table(x) {
  if (!x) return null;
  if (Array.isArray(x) && x.length && typeof x[0] === "object" && !Array.isArray(x[0])) {
    const columns = Object.keys(x[0]);
    return { columns, rows: x.map((o) => columns.map((c) => o[c])) };
  }
  if (x.columns && x.rows) return x;
  return null;
}

function column(t, name) {
  const i = t.columns.indexOf(name);
  return i < 0 ? null : t.rows.map((r) => Number(r[i]));
}

async function loadRun(dir) {
  $("rundir").value = dir;
  const r = await guard(() => api("GET", `/api/run?dir=${encodeURIComponent(dir)}`));
  if (!r) return;
  const box = $("curves");
  box.replaceChildren();
  const train = table(r);
  const xname = (t) => ["seconds", "time", "generation", "step"].find((c) => t.columns.includes(c)) || t.columns[0];
  // the evaluation points: whichever field holds Elo
  const evals = table(r.elo || r.evals || r.evaluations || r.eval || r.points);
  if (evals && evals.columns.includes("elo")) {
    const xn = xname(evals), xs = column(evals, xn);
    box.append(linePlot({ title: "Elo against time", xlabel: xn, ylabel: "Elo",
      series: [{ name: "elo", xs, ys: column(evals, "elo"), lo: column(evals, "elo_low") || column(evals, "lo"), hi: column(evals, "elo_high") || column(evals, "hi") }] }));
  }
  if (train && train.columns.length) {
    const xn = xname(train), xs = column(train, xn);
    const losses = train.columns.filter((c) => /loss/i.test(c));
    if (losses.length) box.append(linePlot({ title: "Losses", xlabel: xn, ylabel: "loss", series: losses.map((c) => ({ name: c, xs, ys: column(train, c) })) }));
    if (!losses.length && !(evals && evals.columns.includes("elo"))) box.append(h("p", {}, `no loss or Elo columns in ${dir}`));
  }
}

// ---------------------------------------------------------------- wiring

function keydown(e) {
  if ($("view-replay").hidden || !replay.game) return;
  const t = e.target;
  if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && t.type !== "range") || t.tagName === "SELECT")) return;
  if (t === $("slider")) return; // the slider steps itself (its input event follows)
  if (e.key === "ArrowLeft") { setPly(replay.ply - 1); e.preventDefault(); }
  if (e.key === "ArrowRight") { setPly(replay.ply + 1); e.preventDefault(); }
  if (e.key === "Home") setPly(0);
  if (e.key === "End") setPly(replay.game.moves.length);
}

function init() {
  $("game").addEventListener("change", () => gameChanged());
  $("variant").addEventListener("change", () => setSpec($("variant").value));
  $("spec").addEventListener("change", () => setSpec($("spec").value.trim()));
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { play.flip = !play.flip; renderPlay(); });
  $("export").addEventListener("click", exportGame);
  $("moveform").addEventListener("submit", (e) => {
    e.preventDefault();
    const m = $("movetext").value.trim();
    if (!m || !play.state) return;
    const inChain = play.state.chain && play.state.chain.length;
    post(`/api/games/${play.state.id}/move`, inChain ? { step: m } : { move: m })
      .then(() => { if ($("error").hidden) $("movetext").value = ""; });
  });
  $("slider").addEventListener("input", () => setPly(Number($("slider").value)));
  $("rprev").addEventListener("click", () => setPly(replay.ply - 1));
  $("rnext").addEventListener("click", () => setPly(replay.ply + 1));
  $("rflip").addEventListener("click", () => { replay.flip = !replay.flip; setPly(replay.ply); });
  document.addEventListener("keydown", keydown);
  $("ratingsform").addEventListener("submit", (e) => { e.preventDefault(); loadRatings($("ratingsfile").value.trim()); });
  $("runform").addEventListener("submit", (e) => { e.preventDefault(); loadRun($("rundir").value.trim()); });
  replay.timer = setInterval(liveTick, 2000);
  $("think").addEventListener("input", updateThinks);
  api("GET", "/api/version").then((v) => {
    $("version").textContent = `hoyle ${v.version}`;
    if (v.think_ms > 0) server.think_ms = v.think_ms;
    if (v.max_think_ms > 0) server.max_think_ms = v.max_think_ms;
    $("think").placeholder = `own limits, else ${v.think_ms || server.think_ms}`;
    $("think").max = server.max_think_ms;
    updateThinks();
  }).catch(() => {});
  showView(location.hash.slice(1).split("?")[0] || "play");
  loadGames();
}

init();
