"use strict";
// The state lives in the URL's query: a link reproduces the view.
let config = null;
let generation = 0;
let lastChange = "";
const state = new Map(new URLSearchParams(location.search));

function element(name, attributes, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function values(key) {
  const control = config.controls.find((c) => c.key === key);
  const value = state.get(key) || control.value;
  // "all": every named choice once (not "", which is the list's own, one of them)
  return value === "all" ? control.choices.filter((c) => c !== "all" && c !== "") : [value];
}

function query(extra) {
  const parameters = new URLSearchParams();
  for (const [key, value] of state) if (value !== "") parameters.set(key, value);
  for (const [key, value] of Object.entries(extra || {})) {
    if (value === "") parameters.delete(key); else parameters.set(key, value);
  }
  // both platforms side by side: each text size applies to its own platform's pictures
  if (extra && state.get("platform") === "all") {
    parameters.delete(extra.platform === "ios" ? "font-scale" : "content-size");
  }
  return parameters.toString();
}

function buildControls() {
  const form = document.getElementById("controls");
  form.replaceChildren();
  const all = config.lists.length > 0
    ? [{ key: "list", label: "list", choices: config.lists, value: config.lists[0] }]
    : [];
  const leftOut = document.getElementById("left-out");
  leftOut.hidden = !config.leftOut;
  leftOut.textContent = config.leftOut ? config.leftOutReason : "";
  for (const control of all.concat(config.controls)) {
    const label = element("label", {}, control.label + " ");
    let input;
    if (control.flag) {
      input = element("input", { type: "checkbox", name: control.key });
      input.checked = (state.get(control.key) || "") === "1";
      input.addEventListener("change", () => set(control.key, input.checked ? "1" : ""));
    } else if (control.range) {
      input = element("input", { type: "number", name: control.key, min: control.range[0],
        max: control.range[1], step: "any" });
      input.value = state.get(control.key) || control.value;
      input.addEventListener("change", () => set(control.key, input.value));
    } else {
      input = element("select", { name: control.key });
      for (const choice of control.choices) {
        input.append(element("option", { value: choice }, choice === "" ? control.unset : choice));
      }
      input.value = state.has(control.key) ? state.get(control.key) : control.value;
      input.addEventListener("change", () => {
        if (control.key === "list" && input.value !== "") state.delete("source");
        set(control.key, input.value);
      });
    }
    label.append(input);
    form.append(label);
  }
  const zoomLabel = element("label", {}, "zoom ");
  const zoom = element("select", { name: "zoom" });
  for (const [value, text] of [["fit", "fit"], ["1", "1×"], ["2", "2×"]]) {
    zoom.append(element("option", { value }, text));
  }
  zoom.value = state.get("zoom") || "fit";
  zoom.addEventListener("change", () => set("zoom", zoom.value === "fit" ? "" : zoom.value));
  zoomLabel.append(zoom);
  form.append(zoomLabel);
}

function set(key, value) {
  if (value === "") state.delete(key); else state.set(key, value);
  history.replaceState(null, "", "?" + query());
  refresh();
}

let inFlight = new AbortController();
let widest = 0;

// The zoom of the pictures (`zoom` in the URL): fit (at most the column), 1 or 2 times
// their true size.
function zoomFactor() {
  const zoom = state.get("zoom") || "fit";
  return zoom === "2" ? 2 : 1;
}

async function showCommand() {
  const response = await fetch("/command.txt?" + query(), { signal: inFlight.signal });
  document.getElementById("command").textContent = (await response.text()).trim();
}

async function loadPicture(figure, cell, wanted, signal) {
  const holder = figure.querySelector(".picture");
  try {
    const response = await fetch("/picture.png?" + query(cell) + "&v=" + wanted, { signal });
    if (!response.ok) {
      const message = (await response.text()).trim();
      holder.replaceChildren(element("pre", { role: "alert" }, message));
      figure.dataset.state = "error";
      return;
    }
    const blob = await response.blob();
    const image = element("img", { alt: figure.dataset.cell });
    const loaded = new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = reject;
    });
    image.src = URL.createObjectURL(blob);
    await loaded;
    // True size: the PNG's pixels per point divided out (crisp on a high-density screen),
    // times the zoom; "fit" shrinks a picture wider than its column.
    const zoom = zoomFactor();
    image.width = Math.round(image.naturalWidth / config.scale * zoom);
    image.height = Math.round(image.naturalHeight / config.scale * zoom);
    widest = Math.max(widest, image.width);
    document.getElementById("grid").style.setProperty("--column", (widest + 18) + "px");
    const old = holder.querySelector("img");
    if (old) URL.revokeObjectURL(old.src);
    holder.replaceChildren(image);
    figure.dataset.state = "loaded";
  } catch (error) {
    if (error.name === "AbortError") return;
    holder.replaceChildren(element("pre", { role: "alert" }, "cannot load: " + error));
    figure.dataset.state = "error";
  }
  figure.dataset.generation = String(wanted);
}

async function refresh() {
  inFlight.abort();
  inFlight = new AbortController();
  const signal = inFlight.signal;
  const wanted = generation;
  document.body.dataset.shown = "";
  document.body.dataset.zoom = state.get("zoom") || "fit";
  showSource();
  const update = wanted > 0 && lastChange ? ` (update ${wanted}: ${lastChange} changed)` : "";
  if (showView()) {
    showCommand().catch(() => {});
    const shown = await previewDocs.show(query(), signal);
    if (signal.aborted) return;
    document.getElementById("status").textContent = shown + update;
    document.body.dataset.shown = String(wanted);
    return;
  }
  widest = 0;
  const grid = document.getElementById("grid");
  const cells = [];
  for (const theme of values("theme")) for (const mode of values("mode"))
    for (const platform of values("platform")) cells.push({ theme, mode, platform });
  const figures = new Map([...grid.children].map((f) => [f.dataset.cell, f]));
  const kept = [];
  for (const cell of cells) {
    const name = [cell.theme, cell.mode, cell.platform].filter((part) => part).join(" · ");
    let figure = figures.get(name);
    if (!figure) {
      figure = element("figure", {});
      figure.dataset.cell = name;
      figure.append(element("figcaption", {}, name), element("div", { class: "picture" }));
    }
    figure.dataset.state = "loading";
    kept.push(figure);
  }
  grid.replaceChildren(...kept);
  showCommand().catch(() => {});
  await Promise.all(kept.map((figure, index) => loadPicture(figure, cells[index], wanted, signal)));
  if (signal.aborted) return;
  const errors = kept.filter((f) => f.dataset.state === "error").length;
  document.getElementById("status").textContent =
    `${kept.length - errors} of ${kept.length} pictures` + (errors ? `, ${errors} failed` : "")
    + update;
  document.body.dataset.shown = String(wanted);
}

// The view (`view` in the URL): the pictures, or the list's docs (docs.js); true for the docs.
function showView() {
  const docs = state.get("view") === "docs";
  document.getElementById("grid").hidden = docs;
  document.getElementById("docs").hidden = !docs;
  for (const link of document.querySelectorAll("#views a")) {
    const parameters = new URLSearchParams(query());
    if (link.dataset.view) parameters.set("view", link.dataset.view); else parameters.delete("view");
    link.href = "?" + parameters.toString();
    if (link.dataset.view === (docs ? "docs" : "")) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  return docs;
}

// The list on screen: the file (or the folder's list), or the pasted one, in the title and
// in the list menu.
function showSource() {
  const pasted = state.get("source") === "pasted";
  document.getElementById("list-name").textContent =
    pasted ? "pasted list (Markdown)" : config.name;
  const menu = document.querySelector("select[name=list]");
  if (!menu) return;
  let option = menu.querySelector("option[data-pasted]");
  if (pasted && !option) {
    option = element("option", { value: "", "data-pasted": "1" }, "pasted list");
    menu.prepend(option);
  }
  if (pasted) menu.value = "";
  else if (option) option.remove();
}

async function paste() {
  const text = document.getElementById("paste-text").value;
  // same-origin: the page's no-referrer policy would make the Origin "null", which is refused
  const response = await fetch("/paste", { method: "POST", body: text,
    referrerPolicy: "same-origin",
    headers: { "Content-Type": "text/markdown; charset=utf-8", "X-OUDS-Preview": "1" } });
  const errorText = document.getElementById("paste-error");
  if (!response.ok) {
    errorText.textContent = (await response.text()).trim();
    return;
  }
  errorText.textContent = "";
  set("source", "pasted");
}

async function start() {
  config = await (await fetch("/config.json")).json();
  generation = config.generation;
  document.getElementById("list-name").textContent = config.name;
  for (const [key, value] of Object.entries(config.state)) if (!state.has(key)) state.set(key, value);
  history.replaceState(null, "", "?" + query());
  buildControls();
  document.getElementById("copy-command").addEventListener("click", async () => {
    await showCommand();
    const line = document.getElementById("command").textContent;
    try { await navigator.clipboard.writeText(line); } catch (error) { /* shown beside */ }
  });
  document.getElementById("paste-render").addEventListener("click", paste);
  for (const link of document.querySelectorAll("#views a")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      set("view", link.dataset.view);
    });
  }
  document.getElementById("paste-leave").addEventListener("click", () => set("source", ""));
  const events = new EventSource("/events");
  events.onmessage = (event) => {
    const data = JSON.parse(event.data);
    const number = parseInt(event.lastEventId, 10);
    if (number > generation) {
      generation = number;
      lastChange = data.changed;
      document.getElementById("status").textContent = "changed: " + data.changed;
      refresh();
    }
  };
  refresh();
}

start();

