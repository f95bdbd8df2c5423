// Parts of the page the live table and the replay share: the error line, a history entry, what the last
// command moved (highlighted on the board), the aliens' sheets and the end of a game.
import {placeLink} from "./api.js";
import {bases} from "./board.js";
import {alienSheet} from "./cards.js";
import {h, listed, paint, planetName, playerName, say} from "./dom.js";

export function showError(message) {
  const node = document.getElementById("error");
  node.textContent = message || "";
  node.hidden = !message;
}

/** A log entry: the event's sentence (written by the server in the edition's words), its number and type. */
export function logEntry(event, extra) {
  return h("li", {"data-seq": event.seq, "data-type": event.type, ...(extra || {})},
    h("span", {class: "seq"}, `${event.seq}`), " ", event.text || event.type);
}

/** What the last command moved: the planets its tokens left or reached, and whether the warp was touched. */
export function lastMoves(events) {
  let end = events.length - 1;
  while (end >= 0 && !events[end].end) end -= 1;
  if (end < 0) end = events.length - 1;
  let start = end - 1;
  while (start >= 0 && !events[start].end) start -= 1;
  const moved = new Set();
  let warp = false;
  const seqs = new Set();
  for (const event of events.slice(start + 1, end + 1)) {
    seqs.add(event.seq);
    if (event.type !== "TokensMoved") continue;
    for (const [, src, dst] of event.payload.moves || []) {
      for (const where of [src, dst]) {
        if (/-\d+$/.test(where)) moved.add(where);
        if (where === "warp") warp = true;
      }
    }
  }
  return {moved, warp, seqs};
}

/** The sheets of every player's aliens (own first), in the edition's words. */
export function drawSheets(board, catalogue, player) {
  const order = board.order && board.order.length ? board.order : Object.keys(board.players || {});
  const seats = [...order].sort((a, b) => (b === player) - (a === player));
  return [h("h2", {}, `${capitalised(say("power", board.terms))}s`),
    seats.map((who) => {
      const seat = (board.players || {})[who] || {};
      const powers = seat.powers || [];
      return paint(h("div", {class: "player-sheets" + (who === player ? " mine" : ""), "data-player": who},
        h("h3", {class: "sheet-owner"}, h("span", {class: "swatch", "aria-hidden": "true"}),
          who === player ? `${playerName(board, who)} (you)` : playerName(board, who)),
        powers.length ? powers.map((name) => alienSheet(catalogue, name))
          : h("p", {class: "quiet"}, board.status === "lobby" ? "not dealt yet"
            : `no ${say("power", board.terms)}` + (board.status === "playing" && board.ruleset === "ffg" ? " (or not chosen yet)" : ""))),
      who);
    })];
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The end of a game: who won, how, and everyone's colonies at the end. */
export function drawEnd(board, events, game, token) {
  const ended = [...events].reverse().find((e) => e.type === "GameEnded");
  const winners = board.winners || [];
  const terms = board.terms || {};
  const order = board.order || Object.keys(board.players || {});
  return [h("h2", {}, "Game over"),
    h("p", {class: "winners", "data-winners": winners.join(",")},
      winners.length ? `${listed(winners.map((w) => playerName(board, w)))} ${winners.length > 1 ? "win" : "wins"}`
        : "Nobody wins", ended && ended.payload.reason ? ` (${say(ended.payload.reason, terms)}).` : "."),
    ended && ended.text ? h("p", {class: "how"}, ended.text) : null,
    h("table", {class: "final"},
      h("caption", {}, `Final ${say("bases", terms)}`),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "player"), h("th", {scope: "col"}, say("home bases", terms)),
        h("th", {scope: "col"}, say("external bases", terms)))),
      h("tbody", {}, order.map((who) => {
        const b = bases(board, who);
        return h("tr", {"data-player": who, class: winners.includes(who) ? "winner" : ""},
          h("th", {scope: "row"}, playerName(board, who)),
          h("td", {"data-home": b.all - b.external}, String(b.all - b.external)),
          h("td", {"data-foreign": b.external}, `${b.external}` + (b.foreign.length
            ? `: ${b.foreign.map((p) => planetName(board, p)).join(", ")}` : "")));
      }))),
    h("p", {}, h("a", {href: placeLink(game, token, "replay"), class: "button-link"}, "Watch the replay"))];
}

