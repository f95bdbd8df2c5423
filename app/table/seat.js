// A seated person's hold on its seat (issue 30): "Let a bot play for me" hands the seat to a bot of the
// level picked (POST /games/{id}/seats/{colour}/hand-over); while the bot plays, the person still sees
// everything its seat sees, and "Take my seat back" (…/take-back) lets it play again. The levels are the
// catalogue's (`bots`: what this service offers), in the order the lobby offers them.
import {h} from "./dom.js";

export const BOT_LEVELS = [["heuristic", "a good bot (heuristic)"], ["random", "a random bot"],
  ["expert", "a strong bot (expert)"]];

/** The bot levels to offer: the catalogue's, labelled as the lobby labels them (all known ones without it). */
export function levelsOffered(catalogue) {
  const offered = catalogue && Array.isArray(catalogue.bots) ? catalogue.bots.map((b) => b.level) : null;
  const known = BOT_LEVELS.filter(([level]) => !offered || offered.includes(level));
  const extra = (offered || []).filter((level) => !BOT_LEVELS.some(([known]) => known === level));
  return [...known, ...extra.map((level) => [level, `a ${level} bot`])];
}

/** The seat's control, or null when the caller holds no seat of a game being played. `act(path, body)` posts. */
export function drawSeatControl(board, player, catalogue, act) {
  if (!player || player === "admin" || board.status !== "playing") return null;
  const seat = (board.players || {})[player];
  if (!seat) return null;
  if (seat.handed_over) {
    return h("div", {class: "seat-control", id: "seat-control", "data-state": "bot"},
      h("p", {class: "seat-note"}, `A ${seat.bot} bot plays your seat` + (seat.handed_over === "missed"
        ? " (you missed your decisions' time)." : ".")),
      h("button", {type: "button", id: "seat-take-back", class: "do",
        onclick: () => act(`seats/${player}/take-back`, {})}, "Take my seat back"));
  }
  if (seat.bot) return null;  // a seat that joined as a bot has no person to hand it over
  const level = h("select", {id: "seat-level", "aria-label": "the bot that plays for you"},
    levelsOffered(catalogue).map(([value, label]) => h("option", {value}, label)));
  return h("details", {class: "seat-control", id: "seat-control", "data-state": "person"},
    h("summary", {}, "Away for a while? A bot can play for you"),
    h("div", {class: "field-row"}, level),
    h("button", {type: "button", id: "seat-hand-over",
      onclick: () => act(`seats/${player}/hand-over`, {level: level.value})}, "Let a bot play for me"));
}
