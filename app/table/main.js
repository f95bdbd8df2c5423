// The web table's entry point: what to show comes from the URL's fragment (api.js `place`):
// no game: the lobby; `#game=ID`: the table, followed live; with `&token=`: that seat's hand and
// decisions (or, with the admin token, everyone's decisions and the audit); `&view=replay`: the
// timeline. Everything is read and played through the public API with that token. The table talk
// (talk.js) sits beside the board; its messages come with the other events of the live feed.
import {Api, ApiError, place, placeLink} from "./api.js";
import {showBoard} from "./board.js";
import {cardFace} from "./cards.js";
import {catalogueOf} from "./catalogue.js";
import {h, mount, playerName} from "./dom.js";
import {drawEncounter, encounterOf} from "./encounter.js";
import {showLobby} from "./lobby.js";
import {Live} from "./live.js";
import {drawEnd, drawSheets, lastMoves, logEntry, showError} from "./panels.js";
import {drawPrompts, promptsKey} from "./prompts.js";
import {showReplay} from "./replay.js";
import {drawSeatControl} from "./seat.js";
import {showStatus} from "./status.js";
import {TALK, Talk} from "./talk.js";

const $ = (id) => document.getElementById(id);
const LOG_KEPT = 400;


class Table {
  constructor(game, token) {
    this.game = game;
    this.api = new Api(token);
    this.token = token;
    this.player = null;  // the token's seat; "admin" for the admin token
    this.promptsShown = null;
    this.seatShown = null;
    this.controls = null;
    this.refreshing = null;
    this.again = false;
    this.events = [];
    this.logged = new Map();
  }

  async start() {
    mount($("nav"), h("a", {href: placeLink(null, null)}, "lobby"),
      h("a", {href: placeLink(this.game, this.token, "replay"), id: "to-replay"}, "replay"));
    let board;
    try {
      board = await this.api.board(this.game);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.gone();
      throw error;
    }
    this.catalogue = await catalogueOf(board.ruleset);
    this.talk = new Talk($("talk"), this.api, this.game);
    if (this.token) {
      const mine = await this.api.get(`/games/${this.game}/prompts`);
      this.player = mine.player || "admin";
    }
    $("who").textContent = this.player ? (this.player === "admin" ? "you: the admin"
      : `you: ${playerName(board, this.player)}`) : "watching";
    $("who").dataset.player = this.player || "";
    $("decide").hidden = !this.player;
    $("hand").hidden = !this.player || this.player === "admin";
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
      onGone: (status) => { if (status === 404) this.gone(); else showError(`the live feed was refused (HTTP ${status})`); },
    }).start(0);
    return undefined;
  }

  gone() {
    document.body.dataset.gone = "1";
    showError(`There is no game ${this.game} here.`);
    mount($("board"), h("p", {}, `No game ${this.game} was found. `, h("a", {href: placeLink(null, null)},
      "Back to the lobby")));
    $("live").textContent = "";
    $("live").dataset.state = "gone";
  }

  onEvent(event) {
    if (event.type === TALK) { this.talk.add(event); return; }  // said, not played: the board is unchanged
    this.events.push(event);
    const log = $("log");
    const row = logEntry(event, {class: event.type === "GameRewound" ? "rewind" : null});
    log.append(row);
    this.logged.set(event.seq, row);
    while (log.childElementCount > LOG_KEPT) {
      this.logged.delete(Number(log.firstElementChild.dataset.seq));
      log.firstElementChild.remove();
    }
    log.scrollTop = log.scrollHeight;
    log.dataset.last = event.seq;
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
      this.draw(board, hand, prompts);
    } catch (error) {
      showError(error.message);
    }
  }

  draw(board, hand, prompts) {
    showStatus($("status"), board, this.player);
    const last = lastMoves(this.events);
    for (const row of $("log").querySelectorAll("li.recent")) row.classList.remove("recent");
    for (const seq of last.seqs) if (this.logged.has(seq)) this.logged.get(seq).classList.add("recent");
    const seat = this.player && board.players ? board.players[this.player] : null;
    const handed = !!(seat && seat.handed_over);  // a bot plays this seat: its decisions are the bot's to make
    if (this.player) {
      const seatKey = `${board.status}|${seat ? seat.bot : ""}|${handed}`;
      if (seatKey !== this.seatShown) {  // redrawn only when the seat changes hands: an open choice stays open
        this.seatShown = seatKey;
        mount($("seat"), drawSeatControl(board, this.player, this.catalogue, (path, body) => this.seat(path, body)));
      }
      this.showPrompts(handed ? [] : prompts, board, hand);
    }
    const controls = this.controls;
    showBoard($("board"), board, {moved: last.moved, warpMoved: last.warp, tapKey: this.promptsShown,
      tappable: (id) => !!(controls && controls.accepts(id)), onPlanet: (id) => this.tap(id)});
    mount($("encounter"), drawEncounter(encounterOf(this.events, board), board, this.catalogue));
    if (this.player && this.player !== "admin") this.showHand(hand, board);
    mount($("sheets"), drawSheets(board, this.catalogue, this.player));
    this.talk.seats(board, this.player);
    $("end").hidden = board.status !== "finished";
    if (board.status === "finished") mount($("end"), drawEnd(board, this.events, this.game, this.token));
    document.body.dataset.version = board.version;
    document.body.dataset.status = board.status;
  }

  tap(value) {
    if (this.controls && this.controls.tap(value)) {
      const box = document.querySelector(`#prompts [data-value="${CSS.escape(value)}"], #prompts [data-source="${CSS.escape(value)}"]`);
      if (box) box.scrollIntoView({block: "nearest"});
    }
  }

  showHand(hand, board) {
    if (!hand) { mount($("hand"), h("p", {class: "quiet"}, "No hand yet.")); return; }
    const committed = Object.entries(hand.committed || {}).flatMap(([side, cards]) => cards.map((c) => [side, c]));
    const controls = this.controls;
    const face = (id, extra) => {
      const node = cardFace(this.catalogue, id, board.terms, extra);
      if (controls && controls.accepts(id)) {
        node.classList.add("tappable");
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
        node.setAttribute("aria-label", `choose ${node.querySelector(".card-name").textContent}`);
        node.addEventListener("click", () => this.tap(id));
        node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.tap(id); } });
      }
      return node;
    };
    mount($("hand"),
      h("h2", {}, `Your hand (${hand.cards.length})`),
      h("ul", {class: "cards"}, hand.cards.map((id) => h("li", {class: "hand-card", "data-card": id}, face(id)))),
      hand.hoard ? [h("h3", {}, `Your hoard (${hand.hoard.length})`),
        h("ul", {class: "cards hoard"}, hand.hoard.map((id) => h("li", {class: "hand-card", "data-card": id}, face(id))))] : null,
      committed.length ? [h("h3", {}, `Face down on the table (${committed.length})`),
        h("ul", {class: "cards committed"}, committed.map(([side, id]) => h("li", {"data-side": side},
          face(id, {class: "committed"}))))] : null);
  }

  showPrompts(prompts, board, hand) {
    const key = promptsKey(prompts);
    if (key === this.promptsShown) return;  // nothing new: keep what the player has set so far
    this.promptsShown = key;
    const ctx = {board, hand: hand ? hand.cards : [], player: this.player, showError, catalogue: this.catalogue};
    const drawn = drawPrompts(prompts, ctx, (body, refusal) => this.send(body, refusal));
    this.controls = drawn;
    mount($("prompts"), drawn.nodes);
    $("prompts").dataset.count = prompts.length;
    $("decide").dataset.count = prompts.length;
  }

  async seat(path, body) {
    showError("");
    try {
      await this.api.post(`/games/${this.game}/${path}`, body);
      this.promptsShown = null;
    } catch (error) {
      showError(error.message);
    }
    await this.refresh();
  }

  async send(body, refusal) {
    showError("");
    refusal.clear();
    try {
      await this.api.post(`/games/${this.game}/actions`, body);
      this.promptsShown = null;
    } catch (error) {
      const problem = error instanceof ApiError ? error.problem : {};
      refusal.show(error.message, problem.rule);  // beside the prompt; what the player set stays as it was
    }
    await this.refresh();
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
