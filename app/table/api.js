// The public API, as this page uses it: JSON in and out, the bearer token the user gave, and
// errors as the problem document's `detail`.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

export class Api {
  constructor(token) {
    this.token = token || null;
  }

  headers(extra) {
    const headers = {Accept: "application/json", ...(extra || {})};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  async request(method, path, body, extra) {
    const init = {method, headers: this.headers(extra), cache: "no-store"};
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(path, init);
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = {detail: text}; }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }

  get(path) { return this.request("GET", path); }
  post(path, body, extra) { return this.request("POST", path, body === undefined ? {} : body, extra); }

  board(game, version) {
    return this.get(`/games/${game}` + (version ? `?version=${version}` : ""));
  }

  /** Every event the token may see, page after page. */
  async allEvents(game) {
    const events = [];
    let after = 0;
    for (;;) {
      const page = await this.get(`/games/${game}/events?after=${after}&limit=1000`);
      events.push(...page.events);
      after = page.next_after;
      if (!page.more) return {events, version: page.version};
    }
  }
}

/** What the page was opened with: `#game=ID&token=T&view=replay` (the fragment never reaches a server log). */
export function place() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return {game: params.get("game"), token: params.get("token"), view: params.get("view") || "table"};
}

export function placeLink(game, token, view) {
  const params = new URLSearchParams();
  if (game) params.set("game", game);
  if (token) params.set("token", token);
  if (view && view !== "table") params.set("view", view);
  return `/table/#${params}`;
}
