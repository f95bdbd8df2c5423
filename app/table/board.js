// The board drawn from the public game view (GET /games/{id}, or ?version=N): home systems with
// every player's tokens, the warp, the cone aimed at its target, the decks, and a panel of who
// plays, whose turn and which stage. Every word a player reads comes from the board's `terms`
// (the edition's vocabulary: a cone is a gate under ffg) or from the API's own titles.
import {colour, countsText, h, mount, s} from "./dom.js";

// The stages of a challenge, numbered as the engine's StageBegan events number them.
const STAGES = {1: "regroup", 2: "destiny", 3: "launch", 4: "offense invites", 5: "defense invites",
                6: "alliances", 7: "play challenge cards", 8: "reveal and resolve", 9: "discard",
                10: "end of challenge"};
const SIZE = 800;
const CENTER = SIZE / 2;

export function word(board, key) {
  return (board.terms && board.terms[key]) || key;
}

/** The planets grouped by the home system they belong to (`red-3` is in red's). */
function systems(board) {
  const found = {};
  for (const id of Object.keys(board.planets || {})) {
    const owner = id.slice(0, id.lastIndexOf("-"));
    (found[owner] = found[owner] || []).push(id);
  }
  for (const list of Object.values(found)) list.sort((a, b) => a.localeCompare(b, "en", {numeric: true}));
  return found;
}

/** Each player's bases: planets where it has at least one token; external ones are outside its system. */
export function bases(board, player) {
  const mine = Object.entries(board.planets || {}).filter(([, tokens]) => (tokens[player] || 0) > 0);
  const external = mine.filter(([id]) => !id.startsWith(`${player}-`));
  return {all: mine.length, external: external.length};
}

function chips(counts, x, y, step) {
  const entries = Object.entries(counts || {}).filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const left = x - ((entries.length - 1) * step) / 2;
  return entries.map(([who, n], k) => s("g", {class: "chip", "data-colour": who},
    s("circle", {cx: left + k * step, cy: y, r: 9, fill: colour(who), stroke: "#111", "stroke-width": 1}),
    s("text", {x: left + k * step, y: y + 4, "text-anchor": "middle", class: "chip-n"}, n)));
}

function planetPositions(board) {
  const order = board.order && board.order.length ? board.order : Object.keys(systems(board));
  const owners = Object.keys(systems(board)).sort((a, b) => {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  const where = {}, homes = {};
  owners.forEach((owner, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / owners.length;
    const cx = CENTER + Math.cos(angle) * 290, cy = CENTER + Math.sin(angle) * 290;
    homes[owner] = {x: cx, y: cy, angle};
    const tx = -Math.sin(angle), ty = Math.cos(angle);
    const list = systems(board)[owner];
    list.forEach((id, j) => {
      const offset = (j - (list.length - 1) / 2) * 64;
      const bend = Math.abs(j - (list.length - 1) / 2) * 14;
      where[id] = {x: cx + tx * offset - Math.cos(angle) * bend, y: cy + ty * offset - Math.sin(angle) * bend};
    });
  });
  return {where, homes};
}

/** The SVG drawing of a board. */
export function drawBoard(board) {
  const svg = s("svg", {viewBox: `0 0 ${SIZE} ${SIZE}`, class: "board", role: "img",
                        "aria-label": `board at version ${board.version}`, "data-version": board.version});
  if (!board.planets) {
    svg.append(s("text", {x: CENTER, y: CENTER, "text-anchor": "middle", class: "big"},
                 board.status === "lobby" ? "waiting for players" : "no board yet"));
    return svg;
  }
  const {where, homes} = planetPositions(board);
  const ch = board.challenge || {};
  const turn = board.turn || {};
  // the cone: from the offense's home system to the planet it is aimed at
  if (ch.planet && where[ch.planet] && homes[turn.offense]) {
    const from = {x: (homes[turn.offense].x + CENTER) / 2, y: (homes[turn.offense].y + CENTER) / 2};
    const to = where[ch.planet];
    const dx = to.x - from.x, dy = to.y - from.y, len = Math.hypot(dx, dy) || 1;
    const nx = -dy / len, ny = dx / len, tip = {x: to.x - (dx / len) * 30, y: to.y - (dy / len) * 30};
    svg.append(s("g", {class: "cone", "data-cone-target": ch.planet, "data-offense": turn.offense || "",
                       "data-defense": ch.defense || "", "data-cone-offense": countsText(board.cone.offense),
                       "data-cone-defense": countsText(board.cone.defense)},
      s("polygon", {points: `${from.x + nx * 38},${from.y + ny * 38} ${from.x - nx * 38},${from.y - ny * 38} `
                            + `${tip.x},${tip.y}`, class: "cone-shape"}),
      s("text", {x: from.x, y: from.y - 44, "text-anchor": "middle", class: "label"},
        `${word(board, "cone")}: offense`),
      chips(board.cone.offense, from.x, from.y, 22),
      s("text", {x: (from.x + tip.x) / 2, y: (from.y + tip.y) / 2 - 16, "text-anchor": "middle", class: "label"},
        "defense"),
      chips(board.cone.defense, (from.x + tip.x) / 2, (from.y + tip.y) / 2, 22)));
  }
  for (const [owner, home] of Object.entries(homes)) {
    svg.append(s("text", {x: home.x + Math.cos(home.angle) * 62, y: home.y + Math.sin(home.angle) * 62 + 5,
                          "text-anchor": "middle", class: "system-name", fill: colour(owner)},
                 (board.players[owner] || {}).name || owner));
  }
  for (const [id, tokens] of Object.entries(board.planets)) {
    const at = where[id];
    const owner = id.slice(0, id.lastIndexOf("-"));
    const target = ch.planet === id;
    svg.append(s("g", {class: "planet" + (target ? " target" : ""), "data-planet": id, "data-tokens": countsText(tokens)},
      s("title", {}, `${id}: ${countsText(tokens) || "empty"}`),
      s("circle", {cx: at.x, cy: at.y, r: 29, fill: colour(owner), "fill-opacity": 0.22, stroke: colour(owner),
                   "stroke-width": target ? 5 : 2}),
      chips(tokens, at.x, at.y, 19),
      s("text", {x: at.x, y: at.y + 44, "text-anchor": "middle", class: "planet-name"}, id)));
  }
  // the warp and the decks
  svg.append(s("g", {class: "warp", "data-warp": countsText(board.warp)},
    s("rect", {x: 8, y: 8, width: 190, height: 74, rx: 10, class: "box"}),
    s("text", {x: 103, y: 30, "text-anchor": "middle", class: "label"}, word(board, "warp")),
    chips(board.warp, 103, 56, 22)));
  const decks = board.decks || {};
  svg.append(s("g", {class: "decks", "data-deck": decks.deck, "data-discard": (board.discard || []).length,
                     "data-destiny": decks.destiny, "data-destiny-discard": (board.destiny_discard || []).length},
    s("rect", {x: SIZE - 198, y: 8, width: 190, height: 74, rx: 10, class: "box"}),
    s("text", {x: SIZE - 188, y: 30, class: "label"}, `deck ${decks.deck}, discard ${(board.discard || []).length}`),
    s("text", {x: SIZE - 188, y: 52, class: "label"},
      `destiny ${decks.destiny}, discard ${(board.destiny_discard || []).length}`),
    s("text", {x: SIZE - 188, y: 72, class: "small"}, board.destiny_discard && board.destiny_discard.length
      ? `last destiny: ${board.destiny_discard[board.destiny_discard.length - 1]}` : "")));
  return svg;
}

/** Whose turn, which stage, the decisions owed, and each player's public facts. */
export function drawPanel(board) {
  const turn = board.turn || {};
  const ch = board.challenge || {};
  const stage = ch.stage ? `${word(board, "stage")} ${ch.stage}: ${STAGES[ch.stage] || ""}` : "";
  const allies = Object.entries(ch.allies || {}).map(([who, side]) => `${who} (${side})`).join(", ");
  const rows = (board.order && board.order.length ? board.order : Object.keys(board.players || {})).map((who) => {
    const p = board.players[who] || {};
    const b = bases(board, who);
    return h("tr", {"data-player": who, class: turn.offense === who ? "offense" : ""},
      h("td", {}, h("span", {class: "swatch", style: null, "data-colour": who}), ` ${p.name || who}`,
        p.bot ? ` [${p.bot} bot]` : ""),
      h("td", {class: "powers"}, (p.powers || []).join(", ") || "-"),
      h("td", {"data-hand-size": p.hand_size}, p.hand_size ?? ""),
      h("td", {"data-bases": b.all, "data-external": b.external}, `${b.all} (${b.external})`),
      h("td", {}, board.warp ? board.warp[who] || 0 : ""));
  });
  return h("div", {class: "panel", "data-version": board.version},
    h("p", {class: "status", "data-status": board.status},
      `${board.game_id} · version ${board.version} · ${board.ruleset || ""} · ${board.status}`,
      board.winners && board.winners.length ? ` · won by ${board.winners.join(", ")}` : ""),
    turn.number ? h("p", {class: "turn", "data-offense": turn.offense, "data-stage": ch.stage || 0},
      `turn ${turn.number}: ${turn.offense} is the offense, ${word(board, "challenge")} ${turn.challenge || ""}`,
      ch.defense ? `, defense ${ch.defense}` : "", ch.planet ? ` at ${ch.planet}` : "",
      stage ? ` · ${stage}` : "", allies ? ` · allies: ${allies}` : "") : null,
    h("table", {class: "players"},
      h("thead", {}, h("tr", {}, h("th", {}, "player"), h("th", {}, word(board, "power")), h("th", {}, "hand"),
        h("th", {}, `${word(board, "bases")} (${word(board, "external base")})`), h("th", {}, word(board, "warp")))),
      h("tbody", {}, rows)),
    (board.pending || []).length ? h("ul", {class: "pending"},
      board.pending.map((p) => h("li", {"data-player": p.player}, `${p.player}: ${p.title}`))) : null);
}

const drawn = new WeakMap();  // what each board element shows now, as JSON

export function showBoard(boardNode, panelNode, board) {
  const key = JSON.stringify(board);
  if (drawn.get(boardNode) === key) return;  // the same board: leave the drawing (and anything pointed at) alone
  drawn.set(boardNode, key);
  mount(boardNode, drawBoard(board));
  mount(panelNode, drawPanel(board));
  for (const swatch of panelNode.querySelectorAll(".swatch")) {
    swatch.style.background = colour(swatch.dataset.colour);  // set through the DOM: the CSP forbids inline styles
  }
}
