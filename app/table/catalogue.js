// What the cards and aliens of an edition say: GET /catalogue?ruleset=<edition>, read once per page and
// edition. Card ids name a card and its copy (`A8.3`, `CosmicZap.1`, `Flare:Macron`, `R+3.2`, docs/setup.md):
// `card` finds what the catalogue says of one, `power` what it says of an alien.
import {Api} from "./api.js";

const loaded = new Map();

/** The catalogue of one edition (the same promise for every caller). */
export function catalogueOf(ruleset) {
  const key = ruleset || "mayfair";
  if (!loaded.has(key)) loaded.set(key, new Api(null).get(`/catalogue?ruleset=${encodeURIComponent(key)}`));
  return loaded.get(key);
}

/** A card id without its copy number: `A8.3` -> `A8`, `Flare:Macron` stays. */
export function cardKind(id) {
  return id.startsWith("Flare:") ? id : id.split(".")[0];
}

/** What a card is: {id, kind, name, value, text, flare: {wild, super} for a flare, power}; null for a hidden card. */
export function card(catalogue, id) {
  if (id === null || id === undefined) return null;
  const base = cardKind(String(id));
  const kinds = catalogue.kinds || {};
  if (base.startsWith("Flare:")) {
    const alien = base.slice(6);
    const entry = power(catalogue, alien);
    const flares = entry ? entry.flares || {} : {};
    return {id, kind: "flare", name: `${alien} flare`, value: null, power: alien, text: kinds.flare || "",
            flare: {wild: (flares.wild || {}).description || "", super: (flares.super || {}).description || ""}};
  }
  const edict = (catalogue.edicts || []).find((e) => e.name === base);
  if (edict) {
    return {id, kind: "edict", name: spaced(base), value: null, text: edict.description, timing: edict.windows};
  }
  const listed = (catalogue.cards || []).find((c) => c.card === base);
  if (listed) {
    return {id, kind: listed.kind, name: listed.name, value: listed.value,
            text: listed.description || kinds[listed.kind] || ""};
  }
  const [kind, name, value] = guessed(base);
  return {id, kind, name, value, text: kinds[kind] || ""};
}

function guessed(base) {
  let m = /^A(\d+)$/.exec(base);
  if (m) return ["attack", `Attack ${m[1]}`, Number(m[1])];
  m = /^R\+(\d+)$/.exec(base);
  if (m) return ["reinforcement", `Reinforcement +${m[1]}`, Number(m[1])];
  m = /^Kx(-?\d+)$/.exec(base);
  if (m) return ["kicker", `Kicker ×${m[1]}`, Number(m[1])];
  if (base === "War") return ["war", "War", null];
  if (base === "C") return ["compromise", "Compromise", null];
  if (base === "N") return ["compromise", "Negotiate", null];
  if (base === "Morph") return ["morph", "Morph", null];
  return ["card", base, null];
}

/** `CosmicZap` -> `Cosmic Zap`. */
export function spaced(name) {
  return String(name).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/_/g, " ");
}

/** What the catalogue says of an alien (name, who, timing, mandatory, description, flares), or null. */
export function power(catalogue, name) {
  return (catalogue.powers || []).find((p) => p.name === name) || null;
}

/** Whether a value is a card id the catalogue (or the id's form) knows. */
export function isCardId(catalogue, value) {
  if (typeof value !== "string") return false;
  const base = cardKind(value);
  if (base.startsWith("Flare:")) return true;
  if ((catalogue.edicts || []).some((e) => e.name === base)) return true;
  if ((catalogue.cards || []).some((c) => c.card === base)) return true;
  return /^(A\d+|R\+\d+|Kx-?\d+|War|C|N|Morph)$/.test(base);
}

/** Whether a value is the name of an alien of the catalogue. */
export function isPower(catalogue, value) {
  return typeof value === "string" && !!power(catalogue, value);
}
