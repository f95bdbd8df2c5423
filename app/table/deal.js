// Deal terms (openapi's DealTerms, docs/setup.md "Deal terms") as clicks: the cards each main
// player gives (the proposer names its own cards; of the other's it can ask only a number) and
// the planet where each receives a base; a third party's share in a three-way deal.
import {card} from "./catalogue.js";
import {h, planetName, playerName, say} from "./dom.js";

const SIDES = ["offense", "defense"];

function stepper(min, max, label) {
  let n = min;
  const shown = h("output", {class: "n"}, n);
  const set = (v) => { n = Math.max(min, Math.min(max, v)); shown.textContent = n; };
  return {node: h("span", {class: "stepper"},
    h("button", {type: "button", class: "less", "aria-label": `one less: ${label}`, onclick: () => set(n - 1)}, "−"),
    shown, h("button", {type: "button", class: "more", "aria-label": `one more: ${label}`, onclick: () => set(n + 1)}, "+")),
          value: () => n};
}

function basePicker(group, planets, board) {
  const choices = [null, ...planets];
  const inputs = choices.map((p) => h("input", {type: "radio", name: group, value: p || "", checked: p === null}));
  return {node: choices.map((p, k) => h("label", {class: "pick", "data-value": p || ""}, inputs[k],
                                        p ? planetName(board, p) : "none")),
          value: () => choices[inputs.findIndex((i) => i.checked)] ?? null};
}

/** Planets where `giver` has a base and `receiver` has none (where `receiver` may be given one). */
function shareable(board, giver, receiver) {
  return Object.entries(board.planets || {})
    .filter(([, t]) => (t[giver] || 0) > 0 && !(t[receiver] || 0)).map(([id]) => id).sort();
}

let serial = 0;

export function dealEditor(name, ctx) {
  serial += 1;
  const {board, hand, player} = ctx;
  const mySide = ctx.prompt && ctx.prompt.info ? ctx.prompt.info.side : null;
  const mains = {offense: board.turn && board.turn.offense, defense: board.challenge && board.challenge.defense};
  const third = ctx.prompt && ctx.prompt.info ? ctx.prompt.info.third : null;
  const handSize = (who) => ((board.players || {})[who] || {}).hand_size || 0;
  const cards = {}, bases = {};
  const rows = [];
  for (const side of SIDES) {
    const giver = mains[side];
    const mine = giver === player;
    const named = mine ? (hand || []).map((card) => [card, h("input", {type: "checkbox", value: card})]) : [];
    const count = stepper(0, handSize(giver), `cards ${playerName(board, giver)} gives`);
    cards[side] = {named, count};
    const receiver = mains[side === "offense" ? "defense" : "offense"];
    bases[side] = basePicker(`deal${serial}-${side}`, shareable(board, receiver, giver), board);
    rows.push(h("div", {class: "deal-side", "data-side": side},
      h("strong", {}, `${playerName(board, giver)}${mine ? " (you)" : ""}, ${side}`),
      h("div", {class: "gives"}, "gives: ",
        named.map(([id, box]) => h("label", {class: "pick card-pick", "data-value": id}, box,
          ctx.catalogue ? card(ctx.catalogue, id).name : id)),
        " and ", count.node, mine ? " card(s) of your choice" : " card(s) of its choice"),
      h("div", {class: "gets-base"}, `receives a ${say("base", board.terms)} on: `, bases[side].node)));
  }
  let thirdPart = null;
  if (third) {
    thirdPart = {gets: {}, gives: {}, base: basePicker(`deal${serial}-third`,
      Object.keys(board.planets || {}).filter((id) => !(board.planets[id][third] || 0)
        && SIDES.some((side) => (board.planets[id][mains[side]] || 0) > 0)).sort(), board)};
    for (const side of SIDES) {
      thirdPart.gets[side] = stepper(0, handSize(mains[side]), `cards the third party gets from the ${side}`);
      thirdPart.gives[side] = stepper(0, handSize(third), `cards the third party gives the ${side}`);
    }
    rows.push(h("div", {class: "deal-side", "data-side": "third"}, h("strong", {}, `${playerName(board, third)}, third party`),
      SIDES.map((side) => h("div", {}, `gets from ${playerName(board, mains[side])}: `, thirdPart.gets[side].node,
                                   ` · gives to ${playerName(board, mains[side])}: `, thirdPart.gives[side].node)),
      h("div", {}, say("receives a base on: ", board.terms), thirdPart.base.node)));
  }
  const node = h("div", {class: "arg deal", "data-arg": name, "data-side": mySide || ""}, rows);
  const value = () => {
    const terms = {cards: {}, bases: {}};
    for (const side of SIDES) {
      terms.cards[side] = {named: cards[side].named.filter(([, box]) => box.checked).map(([card]) => card),
                           count: cards[side].count.value()};
      terms.bases[side] = bases[side].value();
    }
    if (thirdPart) {
      const gift = (part) => Object.fromEntries(SIDES.map((side) => [side, {named: [], count: part[side].value()}]));
      terms.third = {gets: gift(thirdPart.gets), gives: gift(thirdPart.gives), base: thirdPart.base.value()};
    }
    return terms;
  };
  return {node, value};
}

/** Terms in words, for the proposals listed in a deal prompt. */
export function describeTerms(terms, ctx) {
  const board = (ctx && ctx.board) || {};
  const named = (id) => (ctx && ctx.catalogue && id ? card(ctx.catalogue, id).name : id || "a card");
  const parts = [];
  for (const side of SIDES) {
    const c = (terms.cards || {})[side] || {};
    const n = (c.named || []).length + (c.count || 0);
    if (n) parts.push(`the ${side} gives ${[...(c.named || []).map(named), ...(c.count ? [`${c.count} card(s) of its choice`] : [])].join(", ")}`);
    const b = (terms.bases || {})[side];
    if (b) parts.push(`the ${side} gets a ${say("base", board.terms)} on ${planetName(board, b)}`);
  }
  if (terms.third && terms.third.base) {
    parts.push(`the third party gets a ${say("base", board.terms)} on ${planetName(board, terms.third.base)}`);
  }
  return parts.join("; ") || "nothing";
}
