// Replay and audit: a timeline over the game's versions. The board at version N is the API's
// (GET /games/{id}?version=N), drawn beside the encounter of that moment and the history entry that led
// there (the last event the token may see at or before N, told in its sentence). Rewinds are marked: the
// marker itself, and the events it took back shown struck through. With the admin token, the audit
// (GET /admin/games/{id}/audit) runs on demand and the first bad event it names is marked and shown.
// The timeline stays at the top of the screen while the board and the history move under it.
import {placeLink} from "./api.js";
import {showBoard} from "./board.js";
import {cardFace} from "./cards.js";
import {catalogueOf} from "./catalogue.js";
import {h, mount} from "./dom.js";
import {drawEncounter, encounterOf} from "./encounter.js";
import {lastMoves, logEntry, showError} from "./panels.js";

const $ = (id) => document.getElementById(id);

export async function showReplay(game, api, token) {
  mount($("nav"), h("a", {href: placeLink(null, null)}, "lobby"),
    h("a", {href: placeLink(game, token), id: "to-table"}, "live table"));
  const {events, version: head} = await api.allEvents(game);
  const mine = token ? await api.get(`/games/${game}/prompts`).catch(() => ({player: "?"})) : {player: "?"};
  const seat = mine.player && mine.player !== "?" ? mine.player : null;  // null for the admin and for watchers
  const abandoned = new Set();
  for (const event of events) {
    if (event.type === "GameRewound") {
      for (let v = event.payload.to_version + 1; v < event.seq; v += 1) abandoned.add(v);
    }
  }
  const rows = new Map();
  const log = $("replay-log");
  mount(log, events.map((event) => {
    const row = logEntry(event, {class: event.type === "GameRewound" ? "rewind" : abandoned.has(event.seq) ? "abandoned" : null});
    row.addEventListener("click", () => go(event.seq));
    rows.set(event.seq, row);
    return row;
  }));
  const turns = events.filter((e) => e.type === "TurnBegan");
  mount($("turns"), h("option", {value: ""}, "-"),
    turns.map((e) => h("option", {value: e.seq}, `turn ${e.payload.turn} (${e.text || e.payload.player})`)));
  $("turns").onchange = () => { if ($("turns").value) go(Number($("turns").value)); };
  const slider = $("slider");
  slider.max = head;
  $("version-head").textContent = head;
  let current = head;
  let shown = 0;
  let pending = null;
  let catalogue = null;

  async function draw(version) {
    const board = await api.board(game, version);
    catalogue = catalogue || await catalogueOf(board.ruleset);
    // a seat's token: its own hand as it was then (GET /games/{id}/hand?version=N), nobody else's
    const hand = seat && board.players && board.players[seat]
      ? await api.get(`/games/${game}/hand?version=${version}`).catch(() => null) : null;
    if (version !== current) return;  // the user moved on meanwhile
    const upTo = events.filter((e) => e.seq <= version);
    const last = lastMoves(upTo);
    showBoard($("replay-board"), board, {moved: last.moved, warpMoved: last.warp});
    mount($("replay-encounter"), drawEncounter(encounterOf(upTo, board), board, catalogue));
    mount($("replay-hand"), hand ? [h("h2", {}, "Your hand then"),
      h("ul", {class: "cards"}, hand.cards.map((id) => h("li", {class: "hand-card", "data-card": id},
        cardFace(catalogue, id, board.terms))))] : []);
    shown = version;
    const entry = [...events].reverse().find((e) => e.seq <= version);
    for (const row of log.querySelectorAll("li.current")) row.classList.remove("current");
    const entryNode = $("entry");
    entryNode.className = "entry";
    if (entry) {
      const row = rows.get(entry.seq);
      row.classList.add("current");
      log.scrollTop = row.offsetTop - log.offsetTop - log.clientHeight / 2;  // the history scrolls, not the page
      entryNode.textContent = (entry.seq === version ? "" : `(the last event shown to you before version ${version}) `)
        + (entry.type === "GameRewound" ? `#${entry.seq} REWOUND to version ${entry.payload.to_version}: ` : `#${entry.seq} `)
        + (entry.text || entry.type);
      if (entry.type === "GameRewound") entryNode.classList.add("rewind");
      if (abandoned.has(version)) entryNode.textContent += " — taken back by a later rewind";
    }
    entryNode.dataset.seq = entry ? entry.seq : "";
    document.body.dataset.shown = shown;
  }

  function go(version) {
    current = Math.max(1, Math.min(head, version));
    slider.value = current;
    $("version-now").textContent = current;
    document.body.dataset.version = current;
    clearTimeout(pending);
    pending = setTimeout(() => draw(current).catch((e) => showError(e.message)), 30);
  }

  slider.oninput = () => go(Number(slider.value));
  $("first").onclick = () => go(1);
  $("last").onclick = () => go(head);
  $("back").onclick = () => go(current - 1);
  $("forward").onclick = () => go(current + 1);

  if (token && mine.player === null) {  // the admin token: the audit is offered
    $("audit").hidden = false;
    $("audit").onclick = async () => {
      const report = await api.get(`/admin/games/${game}/audit`).catch((e) => { showError(e.message); return null; });
      if (!report) return;
      const node = $("audit-report");
      node.hidden = false;
      node.dataset.ok = report.ok;
      node.className = report.ok ? "ok" : "bad";
      const problem = report.problem;
      node.textContent = report.ok
        ? `audit: ${report.events} events checked, no problem (${(report.compared || []).join(", ")})`
        : `audit: the first bad event is #${problem.seq ?? "?"} (${problem.kind}): ${problem.detail}`;
      if (!report.ok && problem.seq) {
        node.dataset.bad = problem.seq;
        if (rows.get(problem.seq)) rows.get(problem.seq).classList.add("bad");
        go(problem.seq);
      }
    };
  }
  go(head);
}
