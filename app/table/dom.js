// Small DOM helpers: build HTML and SVG elements from plain values (no framework, no innerHTML
// of data, so nothing a game says can be read as markup).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, as `h` builds HTML ones. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replace everything inside `node` with `children`. */
export function mount(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children);
}

/** The colours of the seats as drawn (the machine names are the API's), each with the text colour that reads on it. */
export const COLOURS = {
  red: ["#c62828", "#ffffff"], blue: ["#1e56c8", "#ffffff"], yellow: ["#f2d024", "#111111"],
  purple: ["#7b3fb8", "#ffffff"], light_blue: ["#7fd3f7", "#111111"], orange: ["#f08c1a", "#111111"],
  green: ["#2e7d32", "#ffffff"], black: ["#222222", "#ffffff"], white: ["#eeeeee", "#111111"],
};

export function colour(name) {
  return (COLOURS[name] || ["#888888"])[0];
}

export function ink(name) {
  return (COLOURS[name] || [null, "#111111"])[1];
}

/** Paint an element in a seat's colour (through the DOM: the page's CSP forbids style attributes in markup). */
export function paint(node, name) {
  node.style.setProperty("--seat", colour(name));
  node.style.setProperty("--seat-ink", ink(name));
  return node;
}

/** `text` (in RULES.md's words) in the words of the game's edition, from the board's or catalogue's `terms`:
 * only for the few labels the page writes itself (everything else comes in the edition's words from the API). */
export function say(text, terms) {
  if (!terms || !text) return text;
  const keys = Object.keys(terms).filter((k) => terms[k] !== k).sort((a, b) => b.length - a.length);
  if (!keys.length) return text;
  const plurals = keys.filter((k) => !k.endsWith("s") && !terms[`${k}s`]);
  const pattern = new RegExp(`\\b(${[...keys, ...plurals.map((k) => `${k}s`)].map(escape).join("|")})\\b`, "gi");
  return text.replace(pattern, (found) => {
    const lower = found.toLowerCase();
    let word = terms[lower];
    if (word === undefined) word = plural(terms[lower.slice(0, -1)]);
    if (found[0] === found[0].toUpperCase()) word = word[0].toUpperCase() + word.slice(1);
    return word;
  });
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function plural(word) {
  if (/y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** "a", "a and b", "a, b and c". */
export function listed(items) {
  const list = items.filter(Boolean);
  if (list.length < 2) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** A planet as people read it: `blue-3` -> "Bob's planet 3". */
export function planetName(board, id) {
  const cut = String(id).lastIndexOf("-");
  if (cut < 0) return String(id);
  const owner = id.slice(0, cut);
  return `${playerName(board, owner)}'s planet ${id.slice(cut + 1)}`;
}

/** A colour's player as people read it. */
export function playerName(board, who) {
  const seat = ((board && board.players) || {})[who];
  return seat && seat.name ? seat.name : String(who).replace(/_/g, " ");
}

/** Milliseconds as a countdown: "1:05", "12:00:00", "0:00". */
export function countdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/** "blue:4,red:1": a token count map written the same way everywhere (sorted, zeros left out). */
export function countsText(counts) {
  return Object.entries(counts || {}).filter(([, n]) => n).sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c}:${n}`).join(",");
}
