// Replay and audit: a timeline over the game's versions. The board at version N is the API's
// (GET /games/{id}?version=N), drawn beside the log entry that led there (the last event the
// token may see at or before N). Rewinds are marked: the marker itself, and the events it took
// back shown struck through. With the admin token, the audit (GET /admin/games/{id}/audit) runs
// on demand and the first bad event it names is marked and shown.
import {placeLink} from "./api.js";
import {showBoard} from "./board.js";
import {h, mount} from "./dom.js";
import {eventLine, showError} from "./main.js";

const $ = (id) => document.getElementById(id);

export async function showReplay(game, api, token) {
  mount($("nav"), h("a", {href: placeLink(null, null)}, "lobby"), " · ",
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
  mount($("replay-log"), events.map((event) => {
    const row = h("li", {"data-seq": event.seq, "data-type": event.type,
                         class: event.type === "GameRewound" ? "rewind" : abandoned.has(event.seq) ? "abandoned" : "",
                         onclick: () => go(event.seq)}, eventLine(event));
    rows.set(event.seq, row);
    return row;
  }));
  const turns = events.filter((e) => e.type === "TurnBegan");
  mount($("turns"), h("option", {value: ""}, "-"),
    turns.map((e) => h("option", {value: e.seq}, `turn ${e.payload.turn} (${e.payload.player}) at ${e.seq}`)));
  $("turns").onchange = () => { if ($("turns").value) go(Number($("turns").value)); };
  const slider = $("slider");
  slider.max = head;
  $("version-head").textContent = head;
  let current = head;
  let shown = 0;
  let pending = null;

  async function draw(version) {
    const board = await api.board(game, version);
    // a seat's token: its own hand as it was then (GET /games/{id}/hand?version=N), nobody else's
    const hand = seat && board.players && board.players[seat]
      ? await api.get(`/games/${game}/hand?version=${version}`).catch(() => null) : null;
    if (version !== current) return;  // the user moved on meanwhile
    showBoard($("replay-board"), $("replay-panel"), board);
    mount($("replay-hand"), hand ? [h("span", {}, `${seat}'s hand then: `),
      h("ul", {class: "cards"}, hand.cards.map((card) => h("li", {class: "card", "data-card": card}, card)))] : []);
    shown = version;
    const entry = [...events].reverse().find((e) => e.seq <= version);
    for (const row of $("replay-log").querySelectorAll("li.current")) row.classList.remove("current");
    const entryNode = $("entry");
    entryNode.className = "entry";
    if (entry) {
      rows.get(entry.seq).classList.add("current");
      rows.get(entry.seq).scrollIntoView({block: "nearest"});
      entryNode.textContent = (entry.seq === version ? "" : `(last event shown to you before version ${version}) `)
        + eventLine(entry);
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

  if (token) {
    if (mine.player === null) {  // the admin token: the audit is offered
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
  }
  go(head);
}
