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

/** The colours of the seats as drawn (the machine names are the API's). */
export const COLOURS = {
  red: "#d33b3b", blue: "#3b6fd3", yellow: "#e3c31c", purple: "#8a4fc4", light_blue: "#6cc5ee",
  orange: "#ef8a24", green: "#3aa655", black: "#333333", white: "#dddddd",
};

export function colour(name) {
  return COLOURS[name] || "#888888";
}

/** "blue:4,red:1": a token count map written the same way everywhere (sorted, zeros left out). */
export function countsText(counts) {
  return Object.entries(counts || {}).filter(([, n]) => n).sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c}:${n}`).join(",");
}
