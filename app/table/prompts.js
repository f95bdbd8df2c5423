// The decisions a seat owes, drawn from their options' shapes (engine/shapes.py, openapi's Shape):
// choice, subset, count, distribution, sequence, and the free-form deal terms, each as controls
// a player clicks. An option's button sends {action, args, prompt, identity fields} to
// POST /games/{id}/actions; a refusal is shown as the problem's `detail`.
import {dealEditor, describeTerms} from "./deal.js";
import {h} from "./dom.js";

const NOT_IDENTITY = new Set(["action", "args", "rule", "label", "info"]);
let serial = 0;

class Invalid extends Error {}

function stepper(min, max, start, onChange) {
  let n = start;
  const shown = h("output", {class: "n"}, n);
  const set = (value) => {
    n = Math.max(min, Math.min(max, value));
    shown.textContent = n;
    if (onChange) onChange();
  };
  const node = h("span", {class: "stepper"},
    h("button", {type: "button", class: "less", onclick: () => set(n - 1)}, "−"), shown,
    h("button", {type: "button", class: "more", onclick: () => set(n + 1)}, "+"));
  return {node, value: () => n};
}

function range(shape) {
  return shape.min === shape.max ? `${shape.min}` : `${shape.min} to ${shape.max}`;
}

/** A control for one argument: {node, value()} where value() throws Invalid for a missing choice. */
export function control(name, shape, ctx) {
  const group = `arg${serial += 1}`;
  const optional = !!shape.optional;
  if (shape.type === "choice") {
    const values = optional ? [null, ...shape.values] : shape.values;
    const inputs = values.map((v) => h("input", {type: "radio", name: group, value: v === null ? "" : String(v),
                                                  checked: v === null || shape.values.length === 1 && !optional}));
    const node = h("div", {class: "arg choice", "data-arg": name}, h("span", {class: "arg-name"}, name),
      values.map((v, k) => h("label", {class: "pick", "data-value": v === null ? "" : v}, inputs[k],
                             v === null ? "(none)" : String(v))));
    return {node, value: () => {
      const k = inputs.findIndex((i) => i.checked);
      if (k < 0) throw new Invalid(`choose ${name}`);
      return values[k];
    }};
  }
  if (shape.type === "subset") {
    const inputs = shape.values.map((v) => h("input", {type: "checkbox", value: String(v)}));
    const node = h("div", {class: "arg subset", "data-arg": name},
      h("span", {class: "arg-name"}, `${name} (${range(shape)})`),
      shape.values.map((v, k) => h("label", {class: "pick", "data-value": v}, inputs[k], String(v))));
    return {node, value: () => shape.values.filter((v, k) => inputs[k].checked)};
  }
  if (shape.type === "count") {
    const step = stepper(shape.min, shape.max, shape.min);
    return {node: h("div", {class: "arg count", "data-arg": name}, h("span", {class: "arg-name"},
      `${name} (${range(shape)})`), step.node), value: step.value};
  }
  if (shape.type === "distribution") {
    const total = h("output", {class: "total"}, 0);
    const rows = {};
    const update = () => { total.textContent = Object.values(rows).reduce((a, r) => a + r.value(), 0); };
    for (const [key, cap] of Object.entries(shape.sources)) rows[key] = stepper(0, cap, 0, update);
    const node = h("div", {class: "arg distribution", "data-arg": name},
      h("span", {class: "arg-name"}, `${name}: ${range(shape)} in all (now `, total, ")"),
      Object.entries(rows).map(([key, row]) => h("div", {class: "source", "data-source": key},
        h("span", {}, `${key} (up to ${shape.sources[key]})`), row.node)));
    return {node, value: () => {
      const out = {};
      for (const [key, row] of Object.entries(rows)) if (row.value()) out[key] = row.value();
      return out;
    }};
  }
  if (shape.type === "sequence") {
    const picked = [];
    const shown = h("output", {class: "sequence-now"}, "");
    const redraw = () => { shown.textContent = picked.join(", ") || "(nothing yet)"; };
    redraw();
    const node = h("div", {class: "arg sequence", "data-arg": name},
      h("span", {class: "arg-name"}, `${name} (${range(shape)} in order, repeats allowed): `), shown,
      h("div", {}, shape.values.map((v) => h("button", {type: "button", class: "add", "data-value": v,
        onclick: () => { if (picked.length < shape.max) { picked.push(v); redraw(); } }}, String(v))),
        h("button", {type: "button", class: "clear", onclick: () => { picked.length = 0; redraw(); }}, "clear")));
    return {node, value: () => [...picked]};
  }
  if (shape.type === "free" && shape.schema === "deal") return dealEditor(name, ctx);
  const area = h("textarea", {class: "json", rows: 3}, "{}");
  return {node: h("div", {class: "arg free", "data-arg": name}, h("span", {}, `${name} (JSON)`), area),
          value: () => JSON.parse(area.value)};
}

function option(prompt, opt, ctx, send) {
  const controls = Object.entries(opt.args || {}).map(([name, shape]) => [name, control(name, shape, {...ctx, prompt})]);
  const label = opt.label || opt.action.replace(/_/g, " ");
  const identity = Object.fromEntries(Object.entries(opt).filter(([k]) => !NOT_IDENTITY.has(k)));
  const go = () => {
    const args = {};
    try {
      for (const [name, c] of controls) {
        const v = c.value();
        if (v !== null && v !== undefined) args[name] = v;
      }
    } catch (error) {
      ctx.showError(error.message);
      return;
    }
    send({action: opt.action, args, prompt: prompt.id, ...identity,
          ...(ctx.player === "admin" ? {player: prompt.player} : {})});
  };
  return h("div", {class: "option", "data-action": opt.action, "data-ability": opt.ability || null},
    controls.map(([, c]) => c.node),
    h("button", {type: "button", class: "do", "data-action": opt.action, onclick: go}, label));
}

function info(prompt) {
  const proposals = prompt.info && prompt.info.proposals;
  if (!proposals || !Object.keys(proposals).length) return null;
  return h("ul", {class: "proposals"}, Object.entries(proposals).map(([id, p]) =>
    h("li", {"data-proposal": id}, `proposal ${id} by ${p.by}: ${describeTerms(p.terms)}`)));
}

/** The prompts' element; `send(body)` posts an answer. */
export function drawPrompts(prompts, ctx, send) {
  if (!prompts.length) return h("p", {class: "idle"}, "nothing to decide now");
  return prompts.map((prompt) => h("fieldset", {class: "prompt", "data-kind": prompt.kind, "data-prompt": prompt.id},
    h("legend", {}, prompt.title),
    prompt.deadline ? h("p", {class: "deadline"}, `until ${new Date(prompt.deadline).toLocaleTimeString()}`) : null,
    info(prompt),
    prompt.options.map((opt) => option(prompt, opt, ctx, send))));
}

/** What identifies a set of prompts as drawn (so a refresh that changes nothing keeps the player's clicks). */
export function promptsKey(prompts) {
  return JSON.stringify(prompts.map((p) => [p.id, p.options, p.info]));
}
