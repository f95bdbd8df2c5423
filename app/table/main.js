// The web table's entry point: what to show comes from the URL's fragment (api.js `place`):
// no game: the lobby; `#game=ID`: the board, followed live; with `&token=`: that seat's hand and
// decisions (or, with the admin token, everyone's decisions and the audit); `&view=replay`: the
// timeline. Everything is read and played through the public API with that token.
import {Api, ApiError, place, placeLink} from "./api.js";
import {showBoard} from "./board.js";
import {h, mount} from "./dom.js";
import {showLobby} from "./lobby.js";
import {Live} from "./live.js";
import {drawPrompts, promptsKey} from "./prompts.js";
import {showReplay} from "./replay.js";

const $ = (id) => document.getElementById(id);

export function showError(message) {
  const node = $("error");
  node.textContent = message || "";
  node.hidden = !message;
}

/** A one-line account of an event for the log (the event as the caller may see it). */
export function eventLine(event) {
  const p = event.payload || {};
  const bits = Object.entries(p).filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${k}=${v}`);
  if (event.type === "GameRewound") return `#${event.seq} REWOUND to version ${p.to_version} by ${p.by}`;
  if (event.type === "CardsMoved" && Array.isArray(p.cards)) bits.push(`cards=${p.cards.join(" ")}`);
  if (event.type === "TokensMoved" && Array.isArray(p.moves)) {
    bits.push(p.moves.map(([who, src, dst, n]) => `${who} ${n} ${src}→${dst}`).join("; "));  // [colour, from, to, count]
  }
  if (event.type === "ChallengeCardsRevealed") bits.push(`offense=${(p.offense || []).join(" ")}`,
                                                          `defense=${(p.defense || []).join(" ")}`);
  return `#${event.seq} ${event.type} ${bits.join(" ")}`;
}

class Table {
  constructor(game, token) {
    this.game = game;
    this.api = new Api(token);
    this.token = token;
    this.player = null;  // the token's seat; "admin" for the admin token
    this.promptsShown = null;
    this.refreshing = null;
    this.again = false;
  }

  async start() {
    mount($("nav"), h("a", {href: placeLink(null, null)}, "lobby"), " · ",
      h("a", {href: placeLink(this.game, this.token, "replay"), id: "to-replay"}, "replay"));
    if (this.token) {
      const mine = await this.api.get(`/games/${this.game}/prompts`);
      this.player = mine.player || "admin";
    }
    $("who").textContent = this.player ? `you: ${this.player}` : "watching (no token)";
    $("who").dataset.player = this.player || "";
    $("play").hidden = !this.player;
    await this.refresh();
    this.live = new Live(this.game, this.api, {
      onEvent: (event) => this.onEvent(event),
      onState: (state, reconnects) => {
        $("live").textContent = state === "connected" ? "live" : state;
        $("live").dataset.state = state;
        $("live").dataset.reconnects = reconnects;
        if (state === "connected" && reconnects > 0) this.schedule();  // what changed while away
      },
      onEnd: () => this.refresh(),
    }).start(0);
  }

  onEvent(event) {
    const log = $("log");
    log.append(h("li", {"data-seq": event.seq, "data-type": event.type,
                        class: event.type === "GameRewound" ? "rewind" : ""}, eventLine(event)));
    while (log.childElementCount > 400) log.firstElementChild.remove();
    log.scrollTop = log.scrollHeight;
    $("log").dataset.last = event.seq;
    this.schedule();
  }

  schedule() {
    if (this.refreshing) { this.again = true; return; }
    this.refreshing = setTimeout(async () => {
      try { await this.refresh(); } finally {
        this.refreshing = null;
        if (this.again) { this.again = false; this.schedule(); }
      }
    }, 150);  // events come in bursts (a bot's turn, a catch-up after a reconnect): one refresh per burst
  }

  async refresh() {
    try {
      const board = await this.api.board(this.game);
      let hand = null, prompts = [];
      if (this.player === "admin") {
        prompts = (await this.api.get(`/games/${this.game}/prompts`)).prompts;
      } else if (this.player && board.status !== "lobby") {
        hand = await this.api.get(`/games/${this.game}/hand`);
        prompts = hand.prompts;
      }
      this.board = board;
      this.hand = hand;
      showBoard($("board"), $("panel"), board);
      document.body.dataset.version = board.version;
      document.body.dataset.status = board.status;
      if (this.player) this.showHand(hand, board);
      if (this.player) this.showPrompts(prompts, board, hand);
    } catch (error) {
      showError(error.message);
    }
  }

  showHand(hand, board) {
    if (!hand) { mount($("hand"), h("p", {}, this.player === "admin" ? "admin: no hand" : "")); return; }
    const committed = Object.entries(hand.committed || {}).flatMap(([side, cards]) => cards.map((c) => `${c} (${side})`));
    mount($("hand"),
      h("h3", {}, `your hand (${hand.cards.length})`),
      h("ul", {class: "cards"}, hand.cards.map((card) => h("li", {class: "card", "data-card": card}, card))),
      hand.hoard ? h("p", {class: "hoard"}, `hoard: ${hand.hoard.join(", ")}`) : null,
      committed.length ? h("p", {class: "committed"}, `face down: ${committed.join(", ")}`) : null,
      h("p", {class: "powers"}, `${(board.terms || {}).power || "power"}: ${(hand.powers || []).join(", ") || "none"}`));
  }

  showPrompts(prompts, board, hand) {
    const key = promptsKey(prompts);
    if (key === this.promptsShown) return;  // nothing new: keep what the player has clicked so far
    this.promptsShown = key;
    const ctx = {board, hand: hand ? hand.cards : [], player: this.player, showError};
    mount($("prompts"), drawPrompts(prompts, ctx, (body) => this.send(body)));
    $("prompts").dataset.count = prompts.length;
  }

  async send(body) {
    showError("");
    try {
      await this.api.post(`/games/${this.game}/actions`, body);
      this.promptsShown = null;
      await this.refresh();
    } catch (error) {
      showError(error instanceof ApiError ? error.message : String(error));
      this.promptsShown = null;
      await this.refresh();
    }
  }
}

async function main() {
  const where = place();
  document.body.dataset.view = where.game ? where.view : "lobby";
  for (const section of document.querySelectorAll("main > section")) {
    section.hidden = section.id !== (where.game ? (where.view === "replay" ? "replay-view" : "table-view") : "lobby-view");
  }
  try {
    if (!where.game) await showLobby($("lobby-view"), where.token);
    else if (where.view === "replay") await showReplay(where.game, new Api(where.token), where.token);
    else await new Table(where.game, where.token).start();
  } catch (error) {
    showError(error.message);
  }
  document.body.dataset.ready = "1";
}

window.addEventListener("hashchange", () => location.reload());
main();
