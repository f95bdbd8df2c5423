// The encounter on the board: who attacks whom and where, both sides' ships and allies, the cards as they
// are revealed (face down until then), reinforcements and other effects, the totals and the winner, then
// what each player gained or lost. Told from the events the page's token may see (each is already redacted
// for it) and the board at the same version; the same function serves the live table and the replay.
import {cardFace, faceDown} from "./cards.js";
import {chips} from "./board.js";
import {countsText, h, listed, paint, planetName, playerName, say} from "./dom.js";

const SIDES = ["offense", "defense"];

/** The events in force: those a later rewind took back are left out (engine/rewind.py). */
export function inForce(events) {
  const kept = [];
  for (const event of events) {
    if (event.type === "GameRewound") {
      const to = event.payload.to_version;
      while (kept.length && kept[kept.length - 1].seq > to) kept.pop();
      continue;
    }
    kept.push(event);
  }
  return kept;
}

/** The encounter going on, or the last one if the current one has not been launched yet: a plain object. */
export function encounterOf(events, board) {
  const live = inForce(events);
  const starts = [];
  live.forEach((e, k) => { if (e.type === "ChallengeBegan") starts.push(k); });
  if (!starts.length) return null;
  let from = starts[starts.length - 1];
  let current = true;
  const aimed = live.slice(from).some((e) => e.type === "ConeAimed");
  if (!aimed && starts.length > 1) {  // nothing to show of this one yet: the one before, with its results
    from = starts[starts.length - 2];
    current = false;
  }
  const until = current ? live.length : starts[starts.length - 1];
  const found = fold(live.slice(from, until), offenseBefore(live, from));
  found.current = current && board.status === "playing";
  if (found.current) fromBoard(found, board);
  return found;
}

function offenseBefore(events, index) {
  for (let k = index; k >= 0; k -= 1) {
    if (events[k].type === "TurnBegan") return {player: events[k].payload.player, turn: events[k].payload.turn};
  }
  return {player: null, turn: null};
}

function fold(events, turn) {
  const e = {offense: turn.player, turn: turn.turn, number: null, defense: null, planet: null, allies: {},
             declined: [], invited: {}, chosen: {offense: [], defense: []}, revealed: null, effects: [],
             reinforcements: [], outcome: null, deal: null, results: {}, ships: {offense: {}, defense: {}},
             log: []};
  let resolved = false;
  for (const event of events) {
    const p = event.payload || {};
    e.log.push(event);
    switch (event.type) {
      case "ChallengeBegan": e.number = p.number; break;
      case "DefenseDetermined": e.defense = p.defense; e.reverse = p.reverse; break;
      case "ConeAimed": e.planet = p.planet; break;
      case "AlliesInvited": e.invited[p.side] = p.players; break;
      case "AllianceAnswered":
        if (p.side) e.allies[p.player] = p.side; else e.declined.push(p.player);
        break;
      case "AllyRemoved": delete e.allies[p.player]; break;
      case "ChallengeCardChosen": e.chosen[p.side].push(p.card); break;
      case "ChallengeCardsRevealed": e.revealed = {offense: p.offense, defense: p.defense}; break;
      case "RevealUndone": e.revealed = null; e.chosen = {offense: [], defense: []}; break;
      case "EffectAdded":
        if ((p.effect || {}).source === "reinforcement") e.reinforcements.push(p.effect);
        else e.effects.push(p.effect);
        break;
      case "ChallengeResolved":
        e.outcome = p.outcome;
        resolved = true;
        if (p.outcome && p.outcome.tokens) e.ships = p.outcome.tokens;
        break;
      case "DealConcluded": e.deal = p; break;
      case "TokensMoved":
        if (!resolved) shipsOnCone(e, p.moves || []);
        else gainsOfShips(e, p.moves || [], p.reason);
        break;
      case "CardsMoved":
        if (resolved) gainsOfCards(e, p);
        break;
      default:
    }
  }
  return e;
}

function shipsOnCone(e, moves) {
  for (const [who, src, dst, n] of moves) {
    for (const side of SIDES) {
      if (dst === `cone:${side}`) e.ships[side][who] = (e.ships[side][who] || 0) + n;
      if (src === `cone:${side}`) e.ships[side][who] = Math.max(0, (e.ships[side][who] || 0) - n);
    }
  }
}

function result(e, who) {
  if (!e.results[who]) e.results[who] = {lost: 0, back: 0, landed: [], cardsIn: 0, cardsOut: 0, home: 0};
  return e.results[who];
}

function gainsOfShips(e, moves, reason) {
  for (const [who, src, dst, n] of moves) {
    const r = result(e, who);
    if (dst === "warp" || String(dst).startsWith("fan:") || dst === "removed") r.lost += n;
    else if (src === "warp") r.back += n;
    else if (String(src).startsWith("cone:") && /-\d+$/.test(dst) && !String(dst).startsWith(`${who}-`)
             && reason !== "ally returns" && !/allies go home|after the deal/.test(reason || "")) {
      if (!r.landed.includes(dst)) r.landed.push(dst);
    } else if (String(src).startsWith("cone:")) r.home += n;
  }
}

function gainsOfCards(e, p) {
  const taker = holder(p.dst), giver = holder(p.src);
  const n = (p.cards || []).length;
  if (taker && taker !== giver) result(e, taker).cardsIn += n;
  if (giver && taker !== giver && !String(p.dst).startsWith("discard")) result(e, giver).cardsOut += n;
}

function holder(place) {
  const [kind, who] = String(place || "").split(":");
  return kind === "hand" ? who : null;
}

function fromBoard(e, board) {
  const ch = board.challenge || {};
  if (!ch.planet) return;
  e.defense = ch.defense || e.defense;
  e.planet = ch.planet;
  e.allies = {...(ch.allies || {})};
  const cone = board.cone || {offense: {}, defense: {}};
  if (!e.outcome) {
    e.ships = {offense: {...cone.offense}, defense: {...cone.defense}};
    const onPlanet = ((board.planets || {})[ch.planet] || {})[ch.defense] || 0;
    if (onPlanet) e.ships.defense[ch.defense] = (e.ships.defense[ch.defense] || 0) + onPlanet;
  }
  if (ch.revealed) e.revealed = ch.revealed;
  if (ch.outcome) e.outcome = ch.outcome;
  e.committed = ch.committed || {offense: 0, defense: 0};
  e.stage = ch.stage;
}

/** The encounter panel's element (`catalogue`: the edition's, for the cards' faces). */
export function drawEncounter(e, board, catalogue) {
  const stageName = e && e.stage ? ((catalogue || {}).stages || {})[e.stage] : null;
  const terms = board.terms || {};
  if (!e || !e.planet) {
    return h("div", {class: "encounter-box quiet-box", "data-state": "none"},
      h("h2", {}, capital(say("challenge", terms))), h("p", {class: "quiet"}, board.status === "lobby"
        ? "The game has not begun." : `No ${say("challenge", terms)} launched yet.`));
  }
  const o = e.outcome || null;
  const heading = `${e.current ? "" : "Last "}${say(e.current ? "Challenge" : "challenge", terms)}`
    + (e.turn ? ` · turn ${e.turn}` : "") + (e.current && stageName ? ` · ${stageName}` : "");
  return h("div", {class: "encounter-box", "data-state": o ? "resolved" : e.revealed ? "revealed" : "open",
                   "data-current": e.current ? "1" : "0"},
    h("h2", {}, heading),
    h("p", {class: "aim"}, `${playerName(board, e.offense)} → ${planetName(board, e.planet)}`,
      e.reverse ? ` (${say("cone", terms)} reversed)` : ""),
    h("div", {class: "sides"}, SIDES.map((side) => sideBox(e, side, board, catalogue))),
    o ? outcomeLine(e, o, board) : null,
    o ? results(e, board) : null,
    e.effects.length ? h("p", {class: "effects"}, "In force: ", listed(e.effects.map((x) => effectName(x)))) : null);
}

function sideBox(e, side, board, catalogue) {
  const terms = board.terms || {};
  const main = side === "offense" ? e.offense : e.defense;
  const allies = Object.entries(e.allies).filter(([, s]) => s === side).map(([who]) => who);
  const ships = e.ships[side] || {};
  const shown = e.revealed ? e.revealed[side] || [] : null;
  const chosen = e.chosen[side] || [];
  const committed = e.committed ? e.committed[side] : chosen.length;
  const cards = shown
    ? shown.map((id) => cardFace(catalogue, id, terms, {class: "played"}))
    : chosen.length && chosen.some((c) => c)
      ? chosen.map((id) => (id ? cardFace(catalogue, id, terms, {class: "played mine"}) : faceDown({class: "played"})))
      : Array.from({length: committed || 0}, () => faceDown({class: "played"}));
  const reinforcements = e.reinforcements.filter((r) => r.side === side);
  const total = e.outcome && e.outcome.totals ? e.outcome.totals[side] : null;
  const winner = e.outcome && e.outcome.winner === side;
  return paint(h("div", {class: `side ${side}` + (winner ? " winner" : ""), "data-side": side,
                         "data-ships": countsText(ships), "data-revealed": shown ? shown.join(" ") : "",
                         "data-total": total ?? ""},
    h("h3", {}, `${capital(side)}: ${playerName(board, main)}`, winner ? " — wins" : ""),
    h("p", {class: "side-ships"}, `${capital(say("tokens", terms))}: `, chips(board, ships),
      ` (${Object.values(ships).reduce((a, n) => a + n, 0)})`),
    allies.length ? h("p", {class: "allies"}, `${capital(say("ally", terms))}: `,
      listed(allies.map((who) => playerName(board, who)))) : h("p", {class: "allies quiet"}, "no allies"),
    h("div", {class: "played-cards"}, cards.length ? cards : h("p", {class: "quiet"}, `no ${say("challenge card", terms)} yet`)),
    reinforcements.length ? h("p", {class: "reinforcements"}, "Reinforced: ",
      listed(reinforcements.map((r) => `+${r.value} by ${playerName(board, r.player)}`))) : null,
    total !== null ? h("p", {class: "total"}, "Total ", h("strong", {}, String(total))) : null), main);
}

function outcomeLine(e, o, board) {
  const terms = board.terms || {};
  let text;
  if (o.kind === "deal") {
    text = e.deal ? (e.deal.made ? "A deal was made." : `No deal${e.deal.reason ? ` (${e.deal.reason})` : ""}.`)
      : "Both must make a deal.";
  } else if (o.both_lose) {
    text = "Both sides lose.";
  } else if (o.winner) {
    const who = playerName(board, o.winner === "offense" ? e.offense : e.defense);
    text = `The ${o.winner} (${who}) wins` + (o.totals ? `, ${o.totals.offense} to ${o.totals.defense}.` : ".");
  } else {
    text = "Decided.";
  }
  if (o.consolation && o.consolation.count) {
    text += ` ${playerName(board, o.consolation.player)} takes ${o.consolation.count} card(s) from `
      + `${playerName(board, o.consolation.from)} as ${say("consolation", terms)}.`;
  }
  return h("p", {class: "outcome", "data-winner": o.winner || "", "data-kind": o.kind || ""}, text);
}

function results(e, board) {
  const terms = board.terms || {};
  const rows = Object.entries(e.results).map(([who, r]) => {
    const parts = [];
    if (r.landed.length) parts.push(`+${r.landed.length} ${say(r.landed.length === 1 ? "base" : "bases", terms)} (`
      + listed(r.landed.map((p) => planetName(board, p))) + ")");
    if (r.lost) parts.push(`−${r.lost} ${say(r.lost === 1 ? "token" : "tokens", terms)} to the ${say("warp", terms)}`);
    if (r.back) parts.push(`+${r.back} ${say(r.back === 1 ? "token" : "tokens", terms)} back from the warp`);
    if (r.cardsIn) parts.push(`+${r.cardsIn} card${r.cardsIn === 1 ? "" : "s"}`);
    if (r.cardsOut) parts.push(`−${r.cardsOut} card${r.cardsOut === 1 ? "" : "s"}`);
    return parts.length ? paint(h("li", {"data-player": who}, h("span", {class: "swatch", "aria-hidden": "true"}),
      `${playerName(board, who)}: ${parts.join(", ")}`), who) : null;
  }).filter(Boolean);
  return rows.length ? h("ul", {class: "results"}, rows) : null;
}

function effectName(effect) {
  const [kind, name, mode] = String(effect.source || "").split(":");
  if (kind === "edict") return name.replace(/([a-z])([A-Z])/g, "$1 $2");
  if (kind === "flare") return `${name} flare (${mode || "wild"})`;
  return String(effect.source || "an effect");
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

