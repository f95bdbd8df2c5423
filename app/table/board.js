// The board drawn from the public game view (GET /games/{id}, or ?version=N) as a grid of home systems:
// each player's planets with every colour's ships on them, the player's alien, hand size, colonies and warp;
// beside them the warp, the decks and the gate aimed at its target. A grid never overlaps, at six players as
// at two, and reads at 390 px as at 1440 px (the planets are buttons big enough for a thumb). Every word a
// player reads comes from the board's `terms` (the edition's words: a cone is a gate under ffg).
import {colour, countsText, h, ink, mount, paint, planetName, playerName, say} from "./dom.js";

export function word(board, key) {
  return (board.terms && board.terms[key]) || key;
}

/** The planets grouped by the home system they belong to (`red-3` is in red's), in seat order. */
export function systems(board) {
  const found = {};
  for (const id of Object.keys(board.planets || {})) {
    const owner = id.slice(0, id.lastIndexOf("-"));
    (found[owner] = found[owner] || []).push(id);
  }
  for (const list of Object.values(found)) list.sort((a, b) => a.localeCompare(b, "en", {numeric: true}));
  const order = board.order && board.order.length ? board.order : Object.keys(found);
  const owners = Object.keys(found).sort((a, b) => rank(order, a) - rank(order, b));
  return owners.map((owner) => [owner, found[owner]]);
}

function rank(order, who) {
  const i = order.indexOf(who);
  return i < 0 ? 99 : i;
}

/** Each player's bases: planets where it has at least one token; external ones are outside its system. */
export function bases(board, player) {
  const mine = Object.entries(board.planets || {}).filter(([, tokens]) => (tokens[player] || 0) > 0);
  const external = mine.filter(([id]) => !id.startsWith(`${player}-`));
  return {all: mine.length, external: external.length, foreign: external.map(([id]) => id)};
}

/** Coloured counters, one per colour present: "4" on red, "2" on blue. */
export function chips(board, counts) {
  return Object.entries(counts || {}).filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b))
    .map(([who, n]) => paint(h("span", {class: "chip", "data-colour": who, title: `${playerName(board, who)}: ${n}`},
      String(n)), who));
}

function tokensLabel(board, counts) {
  const parts = Object.entries(counts || {}).filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b))
    .map(([who, n]) => `${playerName(board, who)} ${n}`);
  return parts.length ? parts.join(", ") : "empty";
}

/**
 * The board's element. `ctx`: {moved: Set of planet ids the last move touched, target: the planet aimed at,
 * tappable(id): whether a decision owed now takes this planet, onPlanet(id): what a tap does}.
 */
export function drawBoard(board, ctx) {
  const context = ctx || {};
  const root = h("div", {class: "board", "data-version": board.version, "data-status": board.status,
                         "data-players": (board.order || []).length});
  if (!board.planets) {
    root.append(h("p", {class: "board-empty"}, board.status === "lobby" ? "Waiting for players to take their seats."
      : "No board yet."));
    return root;
  }
  const ch = board.challenge || {};
  const turn = board.turn || {};
  root.append(commons(board, ch, turn, context));
  const grid = h("div", {class: "systems"});
  for (const [owner, planets] of systems(board)) grid.append(system(board, owner, planets, ch, turn, context));
  root.append(grid);
  return root;
}

function commons(board, ch, turn, context) {
  const decks = board.decks || {};
  const lastDestiny = (board.destiny_discard || []).slice(-1)[0];
  const cone = board.cone || {offense: {}, defense: {}};
  return h("div", {class: "commons"},
    ch.planet ? h("div", {class: "cone", "data-cone-target": ch.planet, "data-offense": turn.offense || "",
                          "data-defense": ch.defense || "", "data-cone-offense": countsText(cone.offense),
                          "data-cone-defense": countsText(cone.defense)},
      h("h3", {}, `${capital(word(board, "cone"))} → ${planetName(board, ch.planet)}`),
      h("div", {class: "cone-side"}, h("span", {class: "cone-label"}, "offense"), chips(board, cone.offense)),
      h("div", {class: "cone-side"}, h("span", {class: "cone-label"}, "defense"), chips(board, cone.defense)))
      : null,
    h("div", {class: "warp" + (context.warpMoved ? " moved" : ""), "data-warp": countsText(board.warp)},
      h("h3", {}, capital(word(board, "warp"))),
      h("div", {class: "chips"}, chips(board, board.warp).length ? chips(board, board.warp)
        : h("span", {class: "quiet"}, "empty"))),
    h("div", {class: "decks", "data-deck": decks.deck, "data-discard": (board.discard || []).length,
              "data-destiny": decks.destiny, "data-destiny-discard": (board.destiny_discard || []).length},
      h("h3", {}, "Decks"),
      h("p", {}, `deck ${decks.deck ?? 0} · discards ${(board.discard || []).length}`),
      h("p", {}, `destiny ${decks.destiny ?? 0}` + (lastDestiny ? ` · last drawn: ${destinyName(board, lastDestiny)}`
        : ""))));
}

function destinyName(board, id) {
  if (id.startsWith("inst:")) return "special";
  const [name, suffix] = id.split(".");
  const reverse = suffix === "rev" ? " (reverse)" : "";
  return name === "wild" ? `wild${reverse}` : `${playerName(board, name)}${reverse}`;
}

function system(board, owner, planets, ch, turn, context) {
  const seat = (board.players || {})[owner] || {};
  const b = bases(board, owner);
  const role = turn.offense === owner ? "offense" : ch.defense === owner ? "defense"
    : (ch.allies || {})[owner] ? `ally (${ch.allies[owner]})` : "";
  const node = paint(h("section", {class: `system ${role ? role.split(" ")[0] : ""}`.trim(), "data-owner": owner,
                                    "data-player": owner, "aria-label": `${playerName(board, owner)}'s system`},
    h("h3", {class: "system-head"}, h("span", {class: "swatch", "aria-hidden": "true"}),
      h("span", {class: "system-name"}, playerName(board, owner)),
      seat.bot ? h("span", {class: "bot"}, "bot") : null,
      role ? h("span", {class: "role"}, role) : null),
    h("p", {class: "system-facts"},
      h("span", {class: "powers"}, (seat.powers || []).join(", ") || `no ${say("power", board.terms)}`),
      h("span", {"data-hand-size": seat.hand_size ?? ""}, `hand ${seat.hand_size ?? "?"}`),
      h("span", {"data-bases": b.all, "data-external": b.external},
        `${word(board, "bases")} ${b.all} (${b.external} ${word(board, "external base").split(" ")[0]})`),
      h("span", {"data-warp": (board.warp || {})[owner] || 0}, `${word(board, "warp")} ${(board.warp || {})[owner] || 0}`)),
    h("div", {class: "planets"}, planets.map((id) => planet(board, id, ch, context)))), owner);
  return node;
}

function planet(board, id, ch, context) {
  const tokens = board.planets[id] || {};
  const classes = ["planet"];
  if (ch.planet === id) classes.push("target");
  if (context.moved && context.moved.has(id)) classes.push("moved");
  const tappable = context.tappable && context.tappable(id);
  if (tappable) classes.push("tappable");
  const owner = id.slice(0, id.lastIndexOf("-"));
  const label = `${planetName(board, id)}: ${tokensLabel(board, tokens)}`
    + (ch.planet === id ? `, the ${word(board, "cone")}'s target` : "");
  const body = [h("span", {class: "planet-no", "aria-hidden": "true"}, id.slice(id.lastIndexOf("-") + 1)),
                h("span", {class: "chips"}, chips(board, tokens))];
  const attrs = {class: classes.join(" "), "data-planet": id, "data-tokens": countsText(tokens),
                 "aria-label": label, title: label};
  const node = tappable
    ? h("button", {...attrs, type: "button", onclick: () => context.onPlanet(id)}, body)
    : h("div", {...attrs, role: "img"}, body);
  node.style.setProperty("--home", colour(owner));
  node.style.setProperty("--home-ink", ink(owner));
  return node;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

const drawn = new WeakMap();  // what each board element shows now, as JSON

/** Draw `board` into `node` unless it shows exactly that already (with the same highlights). */
export function showBoard(node, board, ctx) {
  const key = JSON.stringify([board, [...((ctx || {}).moved || [])], (ctx || {}).tapKey || ""]);
  if (drawn.get(node) === key) return;
  drawn.set(node, key);
  mount(node, drawBoard(board, ctx));
}
