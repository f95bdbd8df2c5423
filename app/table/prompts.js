// The decisions a seat owes, drawn from their options' shapes (engine/shapes.py, openapi's Shape):
// choice, subset, count, distribution, sequence, and the free-form deal terms, each as controls a player
// taps. Values are shown as what they are: a card as its face, an alien as its sheet, a planet and a player
// by name. The board and the hand send taps here too (`tap`): a planet tapped is aimed at or gets a ship, a
// card tapped is chosen. An option's button sends {action, args, prompt, identity fields} to
// POST /games/{id}/actions; a refusal is shown beside it with its rule, and nothing the player set is cleared.
import {alienSheet, cardFace} from "./cards.js";
import {card, isCardId, isPower} from "./catalogue.js";
import {dealEditor, describeTerms} from "./deal.js";
import {countdown, h, planetName, playerName, say} from "./dom.js";

const NOT_IDENTITY = new Set(["action", "args", "rule", "label", "info"]);
let serial = 0;

class Invalid extends Error {}

function stepper(min, max, start, onChange, label) {
  let n = start;
  const shown = h("output", {class: "n", "aria-live": "polite"}, n);
  const set = (value) => {
    n = Math.max(min, Math.min(max, value));
    shown.textContent = n;
    if (onChange) onChange();
  };
  const node = h("span", {class: "stepper"},
    h("button", {type: "button", class: "less", "aria-label": `one less${label ? ` ${label}` : ""}`,
                 onclick: () => set(n - 1)}, "−"), shown,
    h("button", {type: "button", class: "more", "aria-label": `one more${label ? ` ${label}` : ""}`,
                 onclick: () => set(n + 1)}, "+"));
  return {node, value: () => n, add: () => { const before = n; set(n + 1); return n !== before; }};
}

function range(shape) {
  return shape.min === shape.max ? `${shape.min}` : `${shape.min} to ${shape.max}`;
}

/** How a value reads: a card as its face, an alien as its sheet, a planet or a player by name. */
function shown(value, ctx) {
  const {board, catalogue} = ctx;
  if (value === null) return h("span", {class: "value"}, "(none)");
  if (catalogue && isCardId(catalogue, value)) return cardFace(catalogue, value, board.terms);
  if (catalogue && isPower(catalogue, value)) return alienSheet(catalogue, value);
  if (typeof value === "string" && (board.planets || {})[value]) return h("span", {class: "value"}, planetName(board, value));
  if (typeof value === "string" && (board.players || {})[value]) return h("span", {class: "value"}, playerName(board, value));
  return h("span", {class: "value"}, say(String(value).replace(/_/g, " "), board.terms));
}

/** A value's name, for the control that picks it (a card's or alien's face is more than its name). */
function nameOf(value, ctx) {
  const {board, catalogue} = ctx;
  if (value === null) return "none";
  if (catalogue && isCardId(catalogue, value)) return card(catalogue, value).name;
  if (typeof value === "string" && (board.planets || {})[value]) return planetName(board, value);
  if (typeof value === "string" && (board.players || {})[value]) return playerName(board, value);
  return say(String(value).replace(/_/g, " "), board.terms);
}

function argName(name, ctx) {
  return say(name.replace(/_/g, " "), ctx.board.terms);
}

/** A source of a distribution as it reads ("Ann's planet 2", "the warp", "the offense side of the gate"). */
function sourceName(key, ctx) {
  const {board} = ctx;
  if ((board.planets || {})[key]) return planetName(board, key);
  if (key.startsWith("cone:")) return say(`the ${key.slice(5)} side of the cone`, board.terms);
  return say(key.replace(/_/g, " "), board.terms);
}

/** A control for one argument: {node, value(), tap(v), accepts(v)}; value() throws Invalid for a missing choice. */
export function control(name, shape, ctx) {
  const group = `arg${serial += 1}`;
  const optional = !!shape.optional;
  const none = {tap: () => false, accepts: () => false};
  if (shape.type === "choice") {
    const values = optional ? [null, ...shape.values] : shape.values;
    const big = values.some((v) => v !== null && ctx.catalogue && (isCardId(ctx.catalogue, v) || isPower(ctx.catalogue, v)));
    const inputs = values.map((v) => h("input", {type: "radio", name: group, value: v === null ? "" : String(v),
                                                  "aria-label": nameOf(v, ctx),
                                                  checked: v === null || shape.values.length === 1 && !optional}));
    const node = h("fieldset", {class: `arg choice${big ? " faces" : ""}`, "data-arg": name},
      h("legend", {class: "arg-name"}, argName(name, ctx)),
      values.map((v, k) => h("label", {class: "pick", "data-value": v === null ? "" : v}, inputs[k], shown(v, ctx))));
    const pick = (v) => {
      const k = values.findIndex((x) => x === v);
      if (k < 0) return false;
      inputs[k].checked = true;
      inputs[k].dispatchEvent(new Event("change", {bubbles: true}));
      return true;
    };
    return {node, tap: pick, accepts: (v) => values.includes(v), value: () => {
      const k = inputs.findIndex((i) => i.checked);
      if (k < 0) throw new Invalid(`choose ${argName(name, ctx)}`);
      return values[k];
    }};
  }
  if (shape.type === "subset") {
    const big = shape.values.some((v) => ctx.catalogue && (isCardId(ctx.catalogue, v) || isPower(ctx.catalogue, v)));
    const inputs = shape.values.map((v) => h("input", {type: "checkbox", value: String(v), "aria-label": nameOf(v, ctx)}));
    const node = h("fieldset", {class: `arg subset${big ? " faces" : ""}`, "data-arg": name},
      h("legend", {class: "arg-name"}, `${argName(name, ctx)} (${range(shape)})`),
      shape.values.map((v, k) => h("label", {class: "pick", "data-value": v}, inputs[k], shown(v, ctx))));
    const flip = (v) => {
      const k = shape.values.indexOf(v);
      if (k < 0) return false;
      inputs[k].checked = !inputs[k].checked;
      return true;
    };
    return {node, tap: flip, accepts: (v) => shape.values.includes(v),
            value: () => shape.values.filter((v, k) => inputs[k].checked)};
  }
  if (shape.type === "count") {
    const step = stepper(shape.min, shape.max, shape.min, null, argName(name, ctx));
    return {...none, node: h("div", {class: "arg count", "data-arg": name}, h("span", {class: "arg-name"},
      `${argName(name, ctx)} (${range(shape)})`), step.node), value: step.value};
  }
  if (shape.type === "distribution") {
    const total = h("output", {class: "total"}, 0);
    const rows = {};
    const update = () => { total.textContent = Object.values(rows).reduce((a, r) => a + r.value(), 0); };
    for (const [key, cap] of Object.entries(shape.sources)) rows[key] = stepper(0, cap, 0, update, `from ${sourceName(key, ctx)}`);
    const node = h("div", {class: "arg distribution", "data-arg": name},
      h("span", {class: "arg-name"}, `${argName(name, ctx)}: ${range(shape)} in all (now `, total, ")"),
      Object.entries(rows).map(([key, row]) => h("div", {class: "source", "data-source": key},
        h("span", {class: "source-name"}, `${sourceName(key, ctx)} (up to ${shape.sources[key]})`), row.node)));
    return {node, tap: (v) => (rows[v] ? rows[v].add() || true : false), accepts: (v) => !!rows[v], value: () => {
      const out = {};
      for (const [key, row] of Object.entries(rows)) if (row.value()) out[key] = row.value();
      return out;
    }};
  }
  if (shape.type === "sequence") {
    const picked = [];
    const now = h("output", {class: "sequence-now"}, "");
    const redraw = () => { now.textContent = picked.join(", ") || "(nothing yet)"; };
    redraw();
    const add = (v) => { if (picked.length < shape.max) { picked.push(v); redraw(); } return true; };
    const node = h("div", {class: "arg sequence", "data-arg": name},
      h("span", {class: "arg-name"}, `${argName(name, ctx)} (${range(shape)} in order, repeats allowed): `), now,
      h("div", {class: "sequence-values"}, shape.values.map((v) => h("button", {type: "button", class: "add", "data-value": v,
        onclick: () => add(v)}, String(v))),
        h("button", {type: "button", class: "clear", onclick: () => { picked.length = 0; redraw(); }}, "clear")));
    return {node, tap: (v) => (shape.values.includes(v) ? add(v) : false), accepts: (v) => shape.values.includes(v),
            value: () => [...picked]};
  }
  if (shape.type === "free" && shape.schema === "deal") return {...none, ...dealEditor(name, ctx)};
  const area = h("textarea", {class: "json", rows: 3, "aria-label": `${name} (JSON)`}, "{}");
  return {...none, node: h("div", {class: "arg free", "data-arg": name}, h("span", {}, `${name} (JSON)`), area),
          value: () => JSON.parse(area.value)};
}

/** What an option's button says: its label (the edition's words), else its action; told apart from a twin. */
function buttonLabel(opt, twins, ctx) {
  let label = opt.label || say(opt.action.replace(/_/g, " "), ctx.board.terms);
  if (twins > 1) {
    const identity = Object.entries(opt).filter(([k]) => !NOT_IDENTITY.has(k)).map(([, v]) => String(v));
    if (identity.length) label += ` (${say(identity.join(", ").replace(/_/g, " "), ctx.board.terms)})`;
  }
  return label;
}

function option(prompt, opt, twins, ctx, send) {
  const controls = Object.entries(opt.args || {}).map(([name, shape]) => [name, control(name, shape, {...ctx, prompt})]);
  const identity = Object.fromEntries(Object.entries(opt).filter(([k]) => !NOT_IDENTITY.has(k)));
  const refusal = ctx.refusal;
  const go = () => {
    const args = {};
    try {
      for (const [name, c] of controls) {
        const v = c.value();
        if (v !== null && v !== undefined) args[name] = v;
      }
    } catch (error) {
      refusal.show(error.message);
      ctx.showError(error.message);
      return;
    }
    send({action: opt.action, args, prompt: prompt.id, ...identity,
          ...(ctx.player === "admin" ? {player: prompt.player} : {})}, refusal);
  };
  const node = h("div", {class: "option", "data-action": opt.action, "data-ability": opt.ability || null,
                         "data-side": opt.side || null},
    controls.map(([, c]) => c.node),
    h("button", {type: "button", class: "do", "data-action": opt.action, onclick: go}, buttonLabel(opt, twins, ctx)));
  return {node, controls: controls.map(([, c]) => c)};
}

function info(prompt, ctx) {
  const proposals = prompt.info && prompt.info.proposals;
  if (!proposals || !Object.keys(proposals).length) return null;
  return h("ul", {class: "proposals"}, Object.entries(proposals).map(([id, p]) =>
    h("li", {"data-proposal": id}, `deal ${id} proposed by ${playerName(ctx.board, p.by)}: ${describeTerms(p.terms, ctx)}`)));
}

/** Where a refused answer's problem is shown, beside the prompt's options. */
function refusalBox() {
  const node = h("p", {class: "refusal", role: "alert", hidden: true});
  return {node, show: (detail, rule) => {
    node.textContent = rule ? `${detail} (rule ${rule})` : detail;
    node.hidden = !detail;
  }, clear: () => { node.textContent = ""; node.hidden = true; }};
}

/**
 * The prompts as controls: {nodes, tap(value), accepts(value)}. `send(body, refusal)` posts an answer and
 * shows a refusal with `refusal.show(detail, rule)`.
 */
export function drawPrompts(prompts, ctx, send) {
  if (!prompts.length) return {nodes: [h("p", {class: "idle"}, "Nothing to decide now.")], tap: () => false, accepts: () => false};
  const all = [];
  const nodes = prompts.map((prompt) => {
    const refusal = refusalBox();
    const counts = {};
    for (const opt of prompt.options) {
      const label = opt.label || opt.action;
      counts[label] = (counts[label] || 0) + 1;
    }
    const options = prompt.options.map((opt) => option(prompt, opt, counts[opt.label || opt.action], {...ctx, refusal}, send));
    for (const o of options) all.push(...o.controls);
    return h("fieldset", {class: "prompt", "data-kind": prompt.kind, "data-prompt": prompt.id, "data-player": prompt.player},
      h("legend", {}, prompt.title + (ctx.player === "admin" ? ` (${playerName(ctx.board, prompt.player)})` : "")),
      prompt.deadline ? h("p", {class: "deadline"}, "time left: ",
        h("span", {class: "countdown", "data-deadline": prompt.deadline}, countdown(prompt.deadline - Date.now()))) : null,
      info(prompt, ctx),
      options.map((o) => o.node),
      refusal.node);
  });
  const tap = (value) => all.some((c) => c.accepts(value) && c.tap(value));
  return {nodes, tap, accepts: (value) => all.some((c) => c.accepts(value))};
}

/** What identifies a set of prompts as drawn (so a refresh that changes nothing keeps the player's clicks). */
export function promptsKey(prompts) {
  return JSON.stringify(prompts.map((p) => [p.id, p.options, p.info]));
}
