"use strict";
const secret = document.querySelector('meta[name="review-secret"]').content;
let state = null;

function element(name, attributes, text) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function shown() {
  const filter = document.getElementById("filter").value;
  const show = document.getElementById("show").value;
  return state.items.filter((item) => {
    if (filter && !item.id.includes(filter)) return false;
    const decision = item.decision || "remaining";
    return show === "all" || show === decision;
  });
}

async function decide(action, ids) {
  const status = document.getElementById("status");
  status.textContent = action + ": " + ids.join(", ") + "…";
  let text;
  try {
    const response = await fetch("/" + action, {
      method: "POST",
      headers: { "X-OUDS-Review-Secret": secret, "Content-Type": "text/plain" },
      body: ids.join("\n"),
    });
    text = (await response.text()).trim();
    status.className = response.ok ? "" : "error-text";
  } catch (error) {
    text = "the review server does not answer (stopped?)";
    status.className = "error-text";
  }
  status.textContent = text;
  await load();
}

function buttons(ids, canAccept, label) {
  const span = element("span");
  const accept = element("button", { type: "button", "aria-label": "Accept " + label }, "Accept");
  accept.disabled = !canAccept || state.written;
  accept.addEventListener("click", () => decide("accept", ids));
  const reject = element("button", { type: "button", "aria-label": "Reject " + label }, "Reject");
  reject.disabled = state.written;
  reject.addEventListener("click", () => decide("reject", ids));
  span.append(accept, reject);
  return span;
}

function picture(item, name) {
  const figure = element("figure");
  figure.append(element("figcaption", {}, name));
  const img = element("img", {
    src: "/image?id=" + encodeURIComponent(item.id) + "&name=" + name,
    alt: name + " picture of " + item.id,
  });
  // At true size: the PNG's scale (@2x) divided out.
  const scale = Number((item.id.match(/@(\d+)x$/) || [0, 1])[1]) || 1;
  img.addEventListener("load", () => { img.style.width = img.naturalWidth / scale + "px"; });
  figure.append(img);
  return figure;
}

function render() {
  document.getElementById("run").textContent = state.title;
  const decided = (d) => state.items.filter((i) => i.decision === d).length;
  const remaining = state.items.filter((i) => !i.decision).length;
  document.getElementById("counts").textContent =
    decided("written") + " written, " + decided("accepted") + " accepted to write, " +
    decided("rejected") + " rejected, " + remaining + " remaining of " +
    state.items.length + " failures";
  const list = shown();
  const acceptable = list.filter((i) => i.canAccept && i.decision !== "accepted");
  const acceptShown = document.getElementById("accept-shown");
  acceptShown.textContent = "Accept all shown (" + acceptable.length + ")";
  acceptShown.disabled = acceptable.length === 0 || state.written;
  const rejectShown = document.getElementById("reject-shown");
  rejectShown.textContent = "Reject all shown (" + list.length + ")";
  rejectShown.disabled = list.length === 0 || state.written;
  const write = document.getElementById("write");
  write.textContent = "Write the accepted references (" + decided("accepted") + ")";
  write.disabled = decided("accepted") === 0 || state.written;
  document.getElementById("to-write").textContent = state.toWrite || "";

  const groups = document.getElementById("groups");
  groups.replaceChildren();
  document.getElementById("groups-section").hidden = state.groups.length === 0;
  for (const group of state.groups) {
    const entry = element("li", {}, group.title + " (" + group.ids.length + ") ");
    const canAccept = group.ids.every((id) => (state.items.find((i) => i.id === id) || {}).canAccept);
    entry.append(buttons(group.ids, canAccept, "the group " + group.title));
    groups.append(entry);
  }

  const items = document.getElementById("items");
  items.replaceChildren();
  if (list.length === 0) items.append(element("p", {}, "Nothing to show."));
  for (const item of list) {
    const article = element("article", { class: item.decision || "remaining" });
    article.append(element("h3", {}, item.id));
    const line = element("p", {}, item.status + ": " + item.reason + " ");
    if (item.decision) line.append(element("span", { class: "decision" }, item.decision));
    article.append(line);
    const pictures = element("div", { class: "pictures" });
    for (const name of item.images) pictures.append(picture(item, name));
    article.append(pictures, buttons([item.id], item.canAccept, item.id));
    items.append(article);
  }

  const log = document.getElementById("log");
  log.replaceChildren();
  for (const entry of state.log) {
    const row = element("li", {}, entry.action + " " + entry.ids.join(", ") + ": ");
    row.append(element("span", { class: entry.succeeded ? "" : "error-text" }, entry.message), " ");
    if (entry.command) row.append(element("code", {}, entry.command));
    log.append(row);
  }
}

async function load() {
  state = await (await fetch("/state.json")).json();
  render();
}

document.getElementById("filter").addEventListener("input", render);
document.getElementById("show").addEventListener("change", render);
document.getElementById("accept-shown").addEventListener("click", () => {
  decide("accept", shown().filter((i) => i.canAccept && i.decision !== "accepted").map((i) => i.id));
});
document.getElementById("write").addEventListener("click", () => decide("write", []));
document.getElementById("reject-shown").addEventListener("click", () => {
  decide("reject", shown().map((i) => i.id));
});
load();

