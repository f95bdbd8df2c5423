// Following a game live: GET /games/{id}/stream read with fetch (EventSource cannot send the
// bearer token), parsed as server-sent events, and opened again with Last-Event-ID whenever the
// server closes it or the connection drops, so no event is missed or seen twice.

const CONNECT_MS = 5000;
const FINAL = new Set([400, 401, 403, 404, 410]);  // answers that another try would only repeat

class Refused extends Error {
  constructor(status) {
    super(`stream: HTTP ${status}`);
    this.status = status;
  }
}

export class Live {
  /**
   * @param {string} game the game id
   * @param {Api} api sends the caller's token
   * @param {object} hooks onEvent(event), onState(state, reconnects), onEnd(), onGone(status): the server
   *   refused the stream for good (no such game, a token it does not accept): no more tries
   */
  constructor(game, api, hooks) {
    this.game = game;
    this.api = api;
    this.hooks = hooks;
    this.lastId = 0;
    this.reconnects = 0;
    this.retryMs = 1000;
    this.stopped = false;
    this.controller = null;
  }

  start(afterId) {
    this.lastId = afterId || 0;
    this.loop();
    return this;
  }

  stop() {
    this.stopped = true;
    if (this.controller) this.controller.abort();
  }

  state(name) {
    if (this.hooks.onState) this.hooks.onState(name, this.reconnects);
  }

  async loop() {
    let first = true;
    while (!this.stopped) {
      if (!first) {
        this.reconnects += 1;
        this.state("reconnecting");
        await new Promise((resolve) => setTimeout(resolve, this.retryMs));
        if (this.stopped) return;
      }
      first = false;
      let ended = false;
      try {
        ended = await this.once();
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof Refused) {
          this.stopped = true;
          this.state("gone");
          if (this.hooks.onGone) this.hooks.onGone(error.status);
          return;
        }
      }
      if (ended) {
        this.state("ended");
        if (this.hooks.onEnd) this.hooks.onEnd();
        return;
      }
    }
  }

  /** One connection: true when the server said the game is over (`event: end`). */
  async once() {
    this.controller = new AbortController();
    const headers = this.api.headers({Accept: "text/event-stream", "Last-Event-ID": String(this.lastId)});
    // a connection that gives no answer in time is given up and made again
    const timer = setTimeout(() => this.controller.abort(), CONNECT_MS);
    const response = await fetch(`/games/${this.game}/stream`, {headers, signal: this.controller.signal,
                                                                cache: "no-store"}).finally(() => clearTimeout(timer));
    if (FINAL.has(response.status)) throw new Refused(response.status);
    if (!response.ok) throw new Error(`stream: HTTP ${response.status}`);
    this.state("connected");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return false;
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (this.message(block)) return true;
      }
    }
  }

  /** Handle one SSE message; true for the end of the game's stream. */
  message(block) {
    let id = null, type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "event") type = value;
      else if (field === "data") data.push(value);
      else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Math.min(Number(value), 5000);
    }
    if (type === "end") return true;
    if (!data.length) return false;
    if (id !== null) this.lastId = Number(id);
    let event;
    try { event = JSON.parse(data.join("\n")); } catch (e) { return false; }
    this.hooks.onEvent(event);
    return false;
  }
}
