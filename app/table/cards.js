// Cards and aliens drawn so people can read them: a card's face (its kind, its value or effect, its full
// text from the catalogue of the game's edition), a face-down card, and an alien's sheet (power text,
// timing, mandatory or optional, who may use it, its flare's Wild and Super).
import {card, power, spaced} from "./catalogue.js";
import {h, say} from "./dom.js";

const CHALLENGE_KINDS = new Set(["attack", "compromise", "morph", "war"]);

/** What kind of card it is, in the edition's words ("encounter card", "artifact"...). */
function kindWord(info, terms) {
  if (CHALLENGE_KINDS.has(info.kind)) return say("challenge card", terms);
  if (info.kind === "edict") return say("edict", terms);
  return info.kind;
}

/** A card's face: `id` drawn from the catalogue; `extra` adds attributes (a class, data-*). */
export function cardFace(catalogue, id, terms, extra) {
  const info = card(catalogue, id);
  if (!info) return faceDown(extra);
  const attrs = {...(extra || {})};
  attrs.class = `card kind-${info.kind} ${attrs.class || ""}`.trim();
  return h("div", {...attrs, "data-card": id, "data-kind": info.kind},
    h("div", {class: "card-head"},
      h("span", {class: "card-name"}, info.name),
      info.value !== null && info.value !== undefined
        ? h("span", {class: "card-value", "aria-label": `value ${info.value}`}, info.kind === "reinforcement"
          ? `+${info.value}` : info.kind === "kicker" ? `×${info.value}` : String(info.value)) : null),
    h("div", {class: "card-kind"}, kindWord(info, terms)),
    h("p", {class: "card-text"}, info.text),
    info.flare ? [
      h("p", {class: "flare-wild"}, h("strong", {}, "Wild: "), info.flare.wild || "(no Wild effect)"),
      h("p", {class: "flare-super"}, h("strong", {}, "Super: "), info.flare.super || "(no Super effect)"),
    ] : null);
}

/** A card whose face the reader may not see. */
export function faceDown(extra) {
  const attrs = {...(extra || {})};
  attrs.class = `card face-down ${attrs.class || ""}`.trim();
  return h("div", {...attrs, "data-card": "", "data-kind": "hidden"}, h("span", {class: "card-name"}, "face down"));
}

/** An alien's sheet (`name`, as the catalogue of the game's edition describes it). */
export function alienSheet(catalogue, name, extra) {
  const entry = power(catalogue, name);
  const attrs = {...(extra || {})};
  attrs.class = `sheet ${attrs.class || ""}`.trim();
  if (!entry) {
    return h("article", {...attrs, "data-power": name}, h("h3", {class: "sheet-name"}, spaced(name)),
      h("p", {class: "sheet-text"}, "(not in this edition's catalogue)"));
  }
  const flares = entry.flares || {};
  return h("article", {...attrs, "data-power": name},
    h("h3", {class: "sheet-name"}, spaced(name)),
    h("p", {class: "sheet-meta"},
      h("span", {class: "sheet-mandatory"}, entry.mandatory ? "mandatory" : "optional"), " · ",
      h("span", {class: "sheet-timing"}, entry.timing), " · ",
      h("span", {class: "sheet-who"}, `as ${(entry.who || []).join(" or ")}`)),
    h("p", {class: "sheet-text"}, entry.description),
    flares.wild || flares.super ? h("div", {class: "sheet-flare"},
      flares.wild ? h("p", {class: "flare-wild"}, h("strong", {}, "Flare, Wild: "), flares.wild.description) : null,
      flares.super ? h("p", {class: "flare-super"}, h("strong", {}, "Flare, Super: "), flares.super.description)
        : null) : null);
}
