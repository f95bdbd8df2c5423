// The lobby: create a game (seats, edition, options), take seats (people or bots), start it,
// and open any game's table or replay. Seat tokens are shown once by the API; the page keeps
// the ones taken in this browser (localStorage) so their links can be opened again, and the host
// token of the games created here, which seats bots and starts the game.
import {Api, placeLink} from "./api.js";
import {h, mount} from "./dom.js";

const COLOURS = ["red", "blue", "yellow", "purple", "light_blue", "orange", "green", "black"];

function seats(game) {
  try { return JSON.parse(localStorage.getItem(`cosmic.seats.${game}`) || "{}"); } catch (e) { return {}; }
}

function keep(game, colour, token) {
  const known = seats(game);
  known[colour] = token;
  localStorage.setItem(`cosmic.seats.${game}`, JSON.stringify(known));
}

function hostToken(game) {
  return localStorage.getItem(`cosmic.host.${game}`);
}

function error(message) {
  const node = document.getElementById("error");
  node.textContent = message || "";
  node.hidden = !message;
}

async function guarded(work) {
  error("");
  try { return await work(); } catch (e) { error(e.message); return null; }
}

function createForm(root, catalogue, refresh) {
  const seatsInput = h("input", {type: "number", min: 2, max: 6, value: 3, id: "seats"});
  const ruleset = h("select", {id: "ruleset"}, (catalogue.rulesets || [{name: "mayfair"}, {name: "ffg"}])
    .map((r) => h("option", {value: r.name || r}, r.name || r)));
  const boxes = (catalogue.options || []).filter((o) => o.type === "bool").map((o) =>
    [o.name, h("input", {type: "checkbox", checked: !!o.default, "data-option": o.name})]);
  const admin = h("input", {type: "password", id: "admin-token", placeholder: "admin token (for seed / setup)"});
  const seed = h("input", {type: "text", id: "seed", placeholder: "seed (admin)"});
  const setup = h("textarea", {id: "setup", rows: 2, placeholder: "stacked setup JSON (admin; docs/setup.md)"});
  const create = async () => guarded(async () => {
    const body = {seats: Number(seatsInput.value), ruleset: ruleset.value,
                  options: Object.fromEntries(boxes.map(([name, box]) => [name, box.checked]))};
    if (seed.value) body.seed = seed.value;
    if (setup.value.trim()) body.setup = JSON.parse(setup.value);
    const made = await new Api(admin.value || null).post("/games", body);
    localStorage.setItem(`cosmic.host.${made.id}`, made.host_token);
    location.hash = `lobby=${made.id}`;
    await refresh(made.id);
  });
  return h("form", {class: "lobby", id: "create", onsubmit: (e) => e.preventDefault()},
    h("h2", {}, "a new game"),
    h("label", {}, "seats ", seatsInput), h("label", {}, "edition ", ruleset),
    h("div", {}, boxes.map(([name, box]) => h("label", {}, box, ` ${name}`))),
    h("div", {}, admin, seed, setup),
    h("button", {type: "button", id: "create-game", onclick: create}, "create the game"));
}

function seatForm(game, summary, refresh) {
  const name = h("input", {type: "text", id: "seat-name", placeholder: "name", value: ""});
  const colour = h("select", {id: "seat-colour"}, h("option", {value: ""}, "any colour"),
    COLOURS.map((c) => h("option", {value: c}, c)));
  const bot = h("select", {id: "seat-bot"}, h("option", {value: ""}, "a person"),
    h("option", {value: "random"}, "random bot"), h("option", {value: "heuristic"}, "heuristic bot"));
  const join = () => guarded(async () => {
    const body = {name: name.value || (bot.value ? `${bot.value} bot` : "player")};
    if (colour.value) body.color = colour.value;
    if (bot.value) body.bot = bot.value;
    const seat = await new Api(hostToken(game)).post(`/games/${game}/players`, body);
    if (seat.token) keep(game, seat.player, seat.token);
    await refresh(game);
  });
  const known = seats(game);
  const start = () => guarded(async () => {
    const token = hostToken(game) || document.getElementById("admin-token").value || Object.values(known)[0];
    await new Api(token).post(`/games/${game}/start`);
    await refresh(game);
  });
  return h("div", {class: "seats", id: "seat-form", "data-game": game},
    h("h2", {}, `game ${game}: ${summary ? summary.status : ""}`),
    h("ul", {}, (summary ? summary.players : []).map((p) => h("li", {"data-colour": p.color},
      `${p.color}: ${p.name}${p.bot ? ` (${p.bot} bot)` : ""} `,
      known[p.color] ? h("a", {href: placeLink(game, known[p.color]), class: "seat-link"}, "open this seat's table")
                     : null))),
    summary && summary.status === "lobby" ? h("div", {}, name, colour, bot,
      h("button", {type: "button", id: "take-seat", onclick: join}, "take a seat"),
      h("button", {type: "button", id: "start-game", onclick: start}, "start")) : null,
    h("p", {}, h("a", {href: placeLink(game, null)}, "watch"), " · ",
      h("a", {href: placeLink(game, null, "replay")}, "replay")));
}

export async function showLobby(root) {
  const api = new Api(null);
  const catalogue = await api.get("/catalogue").catch(() => ({}));
  const chosen = new URLSearchParams(location.hash.replace(/^#/, "")).get("lobby");
  const refresh = async (game) => {
    const list = await api.get("/games?limit=50");
    const summary = game ? list.games.find((g) => g.id === game) : null;
    mount(root,
      createForm(root, catalogue, refresh),
      game ? seatForm(game, summary, refresh) : null,
      h("h2", {}, "games"),
      h("table", {class: "games"}, list.games.map((g) => h("tr", {"data-game": g.id},
        h("td", {}, g.id), h("td", {}, g.status), h("td", {}, g.ruleset),
        h("td", {}, g.players.map((p) => p.color).join(", ")),
        h("td", {}, h("a", {href: placeLink(g.id, seats(g.id)[Object.keys(seats(g.id))[0]] || null)}, "table")),
        h("td", {}, h("a", {href: placeLink(g.id, null, "replay")}, "replay")),
        h("td", {}, g.status === "lobby" ? h("a", {href: `#lobby=${g.id}`, onclick: () => refresh(g.id)}, "seats") : null)))));
  };
  await refresh(chosen);
}
