// The lobby: create a game of either edition with its own options (each named and described in a line; only
// the chosen edition's options are sent), take a seat, add bots (each with its own name), start, and open any
// game's table or replay; a finished game is listed with its winners.
//
// Tokens: a seat's token is shown once by POST /games/{id}/players; a game's host token (`host_token`, when
// POST /games gives one) lets its creator seat bots and start it. The page keeps both in localStorage, per
// game, so their links work again from this browser. The admin token (for a seed or a stacked setup) is used
// only when typed in, and never kept.
import {Api, placeLink} from "./api.js";
import {catalogueOf} from "./catalogue.js";
import {h, listed, mount, paint, say} from "./dom.js";
import {showError} from "./panels.js";
import {BOT_LEVELS} from "./seat.js";

const EDITIONS = {
  mayfair: {title: "Mayfair", line: (c) => `The classic edition: ${c.players.min} to ${c.players.max} players, `
    + `hands of ${c.hand_size}, edicts and reinforcements; each player is dealt an alien.`},
  ffg: {title: "Fantasy Flight", line: (c) => `The current edition: ${c.players.min + 1} to ${c.players.max} players `
    + `(2 with the honeymoon), hands of ${c.hand_size}, artifacts; each player chooses its alien from two.`},
};
const LABELS = {
  simplified: "Simplified game", reverse_cone: "Reverse cone", flares: "Flares", edicts: "Edicts",
  reinforcements: "Reinforcements", special_destiny: "Special destiny cards", war_cards: "War cards",
  kickers: "Kickers", honeymoon: "Honeymoon (two players)", punt: "Punt", powers_per_player: "Aliens per player",
  reverse_warp: "Reverse warp", deal_seconds: "Seconds to make a deal", decision_seconds: "Seconds per decision",
};
const BOT_NAMES = ["Vega", "Orion", "Lyra", "Rigel", "Draco", "Altair", "Cygnus", "Sirius"];

function kept(kind, game) {
  try { return JSON.parse(localStorage.getItem(`cosmic.${kind}.${game}`) || "null"); } catch (e) { return null; }
}

function keep(kind, game, value) {
  localStorage.setItem(`cosmic.${kind}.${game}`, JSON.stringify(value));
}

export function seatTokens(game) {
  return kept("seats", game) || {};
}

function keepSeat(game, colour, token) {
  keep("seats", game, {...seatTokens(game), [colour]: token});
}

async function guarded(work) {
  showError("");
  try { return await work(); } catch (e) { showError(e.message); return null; }
}

/** The token that may seat bots and start `game` from this browser: its host token, else a seat's, else the admin's. */
function hostToken(game, admin) {
  return kept("host", game) || admin || Object.values(seatTokens(game))[0] || null;
}

function optionField(option, terms) {
  const label = say(LABELS[option.name] || option.name.replace(/_/g, " "), terms);
  const id = `option-${option.name}`;
  const describe = `${id}-meaning`;
  let input;
  if (option.type === "bool") {
    input = h("input", {type: "checkbox", id, checked: !!option.default, "data-option": option.name,
                        "aria-describedby": describe});
  } else if (option.type === "int") {
    input = h("input", {type: "number", id, min: 1, inputmode: "numeric", "data-option": option.name,
                        value: option.default ?? "", placeholder: option.default === null ? "none" : "",
                        "aria-describedby": describe});
  } else {
    return null;  // a list (the power pool) is for the API and the command line
  }
  return h("div", {class: `option-field ${option.type}`},
    h("label", {for: id, class: option.type === "bool" ? "check" : "field"}, input, h("span", {}, label)),
    h("p", {class: "meaning", id: describe}, option.meaning));
}

function readOption(input) {
  if (input.type === "checkbox") return input.checked;
  return input.value === "" ? null : Number(input.value);
}

async function createForm(refresh) {
  const editions = {};
  for (const name of Object.keys(EDITIONS)) editions[name] = await catalogueOf(name);
  let chosen = "mayfair";
  const optionsBox = h("fieldset", {class: "options"});
  const seats = h("select", {id: "seats", "aria-describedby": "seats-hint"});
  const seatsHint = h("p", {class: "meaning", id: "seats-hint"});
  const drawEdition = () => {
    const c = editions[chosen];
    mount(seats, Array.from({length: c.players.max - c.players.min + 1}, (_, k) => c.players.min + k)
      .map((n) => h("option", {value: n, selected: n === 3}, `${n} players`)));
    seatsHint.textContent = chosen === "ffg" ? "Two players need the honeymoon option." : "";
    mount(optionsBox, h("legend", {}, `${EDITIONS[chosen].title} options`),
      (c.options || []).map((o) => optionField(o, c.terms)).filter(Boolean));
    optionsBox.dataset.ruleset = chosen;
  };
  const radios = Object.entries(EDITIONS).map(([name, edition]) => {
    const input = h("input", {type: "radio", name: "ruleset", value: name, checked: name === chosen,
                              id: `ruleset-${name}`, "aria-describedby": `ruleset-${name}-line`});
    input.addEventListener("change", () => { chosen = name; drawEdition(); });
    return h("div", {class: "edition"}, h("label", {for: input.id, class: "check"}, input, h("span", {}, edition.title)),
      h("p", {class: "meaning", id: `ruleset-${name}-line`}, edition.line(editions[name])));
  });
  drawEdition();
  const admin = h("input", {type: "password", id: "admin-token", autocomplete: "off"});
  const seed = h("input", {type: "text", id: "seed"});
  const setup = h("textarea", {id: "setup", rows: 2});
  const create = () => guarded(async () => {
    const options = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const value = readOption(input);
      if (value !== null) options[input.dataset.option] = value;  // only the chosen edition's options are on the form
    }
    const body = {seats: Number(seats.value), ruleset: chosen, options};
    if (seed.value) body.seed = seed.value;
    if (setup.value.trim()) body.setup = JSON.parse(setup.value);
    const made = await new Api(admin.value || null).post("/games", body);
    if (made.host_token) keep("host", made.id, made.host_token);
    history.replaceState(null, "", `#lobby=${made.id}`);
    await refresh(made.id);
  });
  return h("form", {class: "lobby-form", id: "create", onsubmit: (e) => { e.preventDefault(); create(); }},
    h("h2", {}, "A new game"),
    h("fieldset", {class: "editions"}, h("legend", {}, "Edition"), radios),
    h("div", {class: "field-row"}, h("label", {for: "seats", class: "field"}, "Players"), seats), seatsHint,
    optionsBox,
    h("details", {class: "admin"}, h("summary", {}, "Admin: a seed or a stacked setup"),
      h("label", {for: "admin-token", class: "field"}, "Admin token"), admin,
      h("label", {for: "seed", class: "field"}, "Seed"), seed,
      h("label", {for: "setup", class: "field"}, "Stacked setup (JSON, docs/setup.md)"), setup),
    h("button", {type: "submit", id: "create-game", class: "do"}, "Create the game"));
}

function seatPanel(game, summary, catalogue, refresh) {
  const known = seatTokens(game);
  const players = summary ? summary.players : [];
  const taken = new Set(players.map((p) => p.color));
  const free = (catalogue.colors || []).filter((c) => !taken.has(c));
  const full = summary && players.length >= summary.seats;
  const admin = () => (document.getElementById("admin-token") || {}).value || null;
  const name = h("input", {type: "text", id: "seat-name", autocomplete: "nickname", maxlength: 40});
  const colour = h("select", {id: "seat-colour"}, h("option", {value: ""}, "any colour"),
    free.map((c) => h("option", {value: c}, c.replace(/_/g, " "))));
  const bot = h("select", {id: "seat-bot"}, BOT_LEVELS.map(([value, label]) => h("option", {value}, label)));
  const join = () => guarded(async () => {
    const body = {name: name.value.trim() || "Player"};
    if (colour.value) body.color = colour.value;
    // sent with the host token kept here, the creator's own seat hosts the game too (it may seat bots and start)
    const seat = await new Api(kept("host", game)).post(`/games/${game}/players`, body);
    if (seat.token) keepSeat(game, seat.player, seat.token);
    await refresh(game);
  });
  const addBot = () => guarded(async () => {
    const used = new Set(players.map((p) => p.name));
    const botName = BOT_NAMES.find((n) => !used.has(n)) || `Bot ${players.length + 1}`;
    const body = {name: botName, bot: bot.value};
    await new Api(hostToken(game, admin())).post(`/games/${game}/players`, body);
    await refresh(game);
  });
  const start = () => guarded(async () => {
    await new Api(hostToken(game, admin())).post(`/games/${game}/start`);
    await refresh(game);
  });
  const status = summary ? summary.status : "unknown";
  return h("section", {class: "seats", id: "seat-form", "data-game": game, "data-status": status},
    h("h2", {}, `Game ${game}`),
    h("p", {}, `${EDITIONS[summary ? summary.ruleset : "mayfair"] ? EDITIONS[summary.ruleset].title : ""} edition · `
      + `${players.length} of ${summary ? summary.seats : "?"} seats taken · ${status}`),
    h("ul", {class: "seat-list"}, players.map((p) => paint(h("li", {"data-colour": p.color},
      h("span", {class: "swatch", "aria-hidden": "true"}),
      h("span", {class: "seat-name"}, p.name), p.bot ? h("span", {class: "bot"}, `${p.bot} bot`) : null,
      known[p.color] ? h("a", {href: placeLink(game, known[p.color]), class: "seat-link button-link"},
        `Play as ${p.name}`) : null), p.color))),
    status === "lobby" && !full ? h("div", {class: "join"},
      h("div", {class: "field-row"}, h("label", {for: "seat-name", class: "field"}, "Your name"), name),
      h("div", {class: "field-row"}, h("label", {for: "seat-colour", class: "field"}, "Colour"), colour),
      h("button", {type: "button", id: "take-seat", class: "do", onclick: join}, "Take a seat"),
      h("div", {class: "field-row"}, h("label", {for: "seat-bot", class: "field"}, "Bot"), bot),
      h("button", {type: "button", id: "add-bot", onclick: addBot}, "Add a bot")) : null,
    status === "lobby" ? h("button", {type: "button", id: "start-game", class: "do", onclick: start,
                                       disabled: !full}, full ? "Start the game" : "Start (when every seat is taken)")
      : null,
    h("p", {class: "links"}, h("a", {href: placeLink(game, null), class: "button-link"}, "Watch"),
      h("a", {href: placeLink(game, null, "replay"), class: "button-link"}, "Replay")));
}

function gamesTable(games, refresh) {
  return h("table", {class: "games"},
    h("caption", {}, "Games (newest first)"),
    h("thead", {}, h("tr", {}, ["game", "edition", "status", "players", ""].map((t) => h("th", {scope: "col"}, t)))),
    h("tbody", {}, games.map((g) => {
      const mine = seatTokens(g.id);
      const names = Object.fromEntries(g.players.map((p) => [p.color, p.name]));
      const state = g.status === "finished" && g.winners && g.winners.length
        ? `won by ${listed(g.winners.map((w) => names[w] || w))}` : g.status;
      return h("tr", {"data-game": g.id},
        h("td", {}, g.id), h("td", {}, (EDITIONS[g.ruleset] || {title: g.ruleset}).title), h("td", {}, state),
        h("td", {}, g.players.map((p) => p.name).join(", ") || "-"),
        h("td", {class: "game-links"},
          g.status === "lobby" ? h("a", {href: `#lobby=${g.id}`, class: "button-link",
                                         onclick: (e) => { e.preventDefault(); history.replaceState(null, "", `#lobby=${g.id}`); refresh(g.id); }},
            "seats") : null,
          h("a", {href: placeLink(g.id, Object.values(mine)[0] || null), class: "button-link"},
            Object.keys(mine).length ? "play" : "watch"),
          h("a", {href: placeLink(g.id, null, "replay"), class: "button-link"}, "replay")));
    })));
}

export async function showLobby(root) {
  const api = new Api(null);
  const chosen = new URLSearchParams(location.hash.replace(/^#/, "")).get("lobby");
  let form = null;
  const refresh = async (game) => {
    const list = await api.get("/games?limit=50");
    const summary = game ? list.games.find((g) => g.id === game) || (await api.get(`/games/${game}`).then((b) => ({
      id: b.game_id, status: b.status, ruleset: b.ruleset, seats: b.seats, winners: b.winners || [],
      players: (b.order && b.order.length ? b.order : Object.keys(b.players)).map((c) => ({color: c, ...b.players[c]})),
    })).catch(() => null)) : null;
    const catalogue = summary ? await catalogueOf(summary.ruleset) : null;
    form = form || await createForm(refresh);
    mount(root,
      h("div", {class: "lobby-layout"},
        h("div", {class: "lobby-main"}, summary ? seatPanel(game, summary, catalogue, refresh) : null, form),
        h("div", {class: "lobby-games"}, h("h2", {}, "Games"), gamesTable(list.games, refresh))));
  };
  document.getElementById("nav").replaceChildren();
  await refresh(chosen);
}
