// "You must…" first: the bar at the top says whose move it is, what is asked and the time left as a
// countdown; the tab's title says when it is your move. Every countdown on the page (`.countdown` with
// `data-deadline`, milliseconds since the epoch) is ticked here once a second.
import {countdown, h, listed, mount, playerName} from "./dom.js";

const BASE_TITLE = "Cosmic Encounter";
let ticker = null;

function tick() {
  for (const node of document.querySelectorAll(".countdown[data-deadline]")) {
    const left = Number(node.dataset.deadline) - Date.now();
    node.textContent = countdown(left);
    node.classList.toggle("urgent", left < 15000);
  }
}

function startTicking() {
  if (!ticker) ticker = setInterval(tick, 1000);
}

/** Show the status of `board` for `player` (a colour, "admin" or null for a watcher). */
export function showStatus(node, board, player, note) {
  node.hidden = false;
  const pending = board.pending || [];
  const mine = pending.filter((p) => player && (p.player === player || player === "admin"));
  const others = pending.filter((p) => !mine.includes(p));
  const parts = [];
  let state = "waiting";
  if (board.status === "lobby") {
    parts.push(h("span", {class: "status-what"}, "Waiting for the players to take their seats."));
    state = "lobby";
  } else if (board.status === "finished") {
    const winners = listed((board.winners || []).map((w) => playerName(board, w)));
    parts.push(h("strong", {class: "status-what"}, winners ? `Game over: ${winners} ${board.winners.length > 1
      ? "win" : "wins"}.` : "Game over."));
    state = "finished";
  } else if (mine.length) {
    state = "yours";
    parts.push(h("strong", {class: "status-you"}, "You must: "),
      h("span", {class: "status-what"}, listed(mine.map((p) => p.title + (player === "admin"
        ? ` (${playerName(board, p.player)})` : "")))));
    parts.push(deadlineOf(mine));
  } else if (others.length) {
    const who = listed([...new Set(others.map((p) => playerName(board, p.player)))]);
    parts.push(h("span", {class: "status-who"}, `Waiting for ${who}: `),
      h("span", {class: "status-what"}, listed([...new Set(others.map((p) => p.title))])));
    parts.push(deadlineOf(others));
  } else {
    parts.push(h("span", {class: "status-what"}, "Nothing is owed right now."));
  }
  if (note) parts.push(h("span", {class: "status-note"}, note));
  mount(node, parts);
  node.dataset.state = state;
  document.title = state === "yours" ? `● Your move — ${BASE_TITLE}` : state === "finished"
    ? `Game over — ${BASE_TITLE}` : BASE_TITLE;
  startTicking();
  tick();
}

function deadlineOf(prompts) {
  const deadlines = prompts.map((p) => p.deadline).filter((d) => d);
  if (!deadlines.length) return null;
  const soonest = Math.min(...deadlines);
  return h("span", {class: "status-time"}, " · time left ",
    h("span", {class: "countdown", "data-deadline": soonest}, countdown(soonest - Date.now())));
}
