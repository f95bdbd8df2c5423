// Table talk beside the board: the game's messages (MessageSent events, each told by the server in its `text`)
// and, for a seated player, a box to write to everyone or to one player (POST /games/{id}/messages). A private
// message reaches its two players only: the server never sends it to anyone else, so this list is exactly
// what this reader may read.
import {ApiError} from "./api.js";
import {h, mount, paint, playerName} from "./dom.js";

export const TALK = "MessageSent";
const MAX = 500;     // the server's limit (workers/talk.py), in characters
const KEPT = 200;    // messages kept on the page

export class Talk {
  /**
   * @param {HTMLElement} root the talk's section (its list and form are built inside)
   * @param {Api} api sends the seat's token
   * @param {string} game the game id
   */
  constructor(root, api, game) {
    this.api = api;
    this.game = game;
    this.player = null;
    this.seatsKey = null;
    this.list = h("ol", {id: "talk-log", class: "talk-log", tabindex: "0", "aria-label": "messages, newest last",
      "aria-live": "polite", "data-count": "0"});
    this.empty = h("p", {class: "quiet talk-empty"}, "Nothing said yet.");
    this.to = h("select", {id: "talk-to", name: "to"});
    this.text = h("textarea", {id: "talk-text", name: "text", rows: "2", maxlength: String(MAX), required: true,
      placeholder: "Argue your deal…"});
    this.count = h("span", {id: "talk-count", class: "quiet talk-count"}, `0 / ${MAX}`);
    this.error = h("p", {id: "talk-error", class: "refusal", role: "alert", hidden: true});
    this.sendButton = h("button", {type: "submit", id: "talk-send", class: "do"}, "Send");
    this.form = h("form", {id: "talk-form", class: "talk-form", "aria-label": "say something", hidden: true},
      h("div", {class: "talk-to"}, h("label", {for: "talk-to"}, "To"), this.to),
      h("label", {for: "talk-text"}, "Message"), this.text,
      h("div", {class: "talk-send"}, this.count, this.sendButton),
      this.error);
    this.text.addEventListener("input", () => { this.count.textContent = `${[...this.text.value].length} / ${MAX}`; });
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.form.requestSubmit(); }
    });
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.send(); });
    mount(root, h("h2", {id: "talk-title"}, "Table talk"), this.list, this.empty, this.form);
  }

  /** Who may be written to: everyone, or each other seat by name (redrawn only when the seats change). */
  seats(board, player) {
    this.player = player;
    this.board = board;
    const speaks = !!player && player !== "admin" && !!(board.players || {})[player];
    this.form.hidden = !speaks;
    if (!speaks) return;
    const others = (board.order && board.order.length ? board.order : Object.keys(board.players || {}))
      .filter((c) => c !== player);
    const key = others.map((c) => `${c}:${playerName(board, c)}`).join(",");
    if (key === this.seatsKey) return;
    this.seatsKey = key;
    const chosen = this.to.value;
    mount(this.to, h("option", {value: ""}, "everyone"),
      others.map((c) => h("option", {value: c}, `${playerName(board, c)} alone`)));
    if (others.includes(chosen)) this.to.value = chosen;
  }

  /** One message of the feed, as the server told it. */
  add(event) {
    const p = event.payload || {};
    const row = h("li", {"data-seq": event.seq, "data-from": p.player, "data-to": p.to || "",
      class: [p.to ? "private" : "public", p.player === this.player ? "mine" : ""].join(" ").trim()},
    paint(h("span", {class: "swatch", "aria-hidden": "true"}), p.player),
    p.to ? h("span", {class: "tag"}, "private") : null,
    " ", event.text || p.text || "");
    this.list.append(row);
    while (this.list.childElementCount > KEPT) this.list.firstElementChild.remove();
    this.list.dataset.count = String(Number(this.list.dataset.count) + 1);
    this.list.dataset.last = event.seq;
    this.empty.hidden = true;
    this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.text.value.trim();
    if (!text) { this.refuse("Write something first."); return; }
    this.refuse("");
    this.sendButton.disabled = true;
    try {
      const body = {text};
      if (this.to.value) body.to = this.to.value;
      await this.api.post(`/games/${this.game}/messages`, body);
      this.text.value = "";
      this.count.textContent = `0 / ${MAX}`;
    } catch (error) {
      // what the player wrote stays in the box; the refusal says why (too long, too fast: wait and send again)
      this.refuse(error instanceof ApiError ? error.message : String(error));
    } finally {
      this.sendButton.disabled = false;
    }
  }

  refuse(message) {
    this.error.textContent = message || "";
    this.error.hidden = !message;
  }
}
