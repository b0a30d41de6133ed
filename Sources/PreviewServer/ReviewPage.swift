/// The page of `snapshot review`: one HTML file (which holds the secret), its script and its
/// style. No markup from data: the script builds the page from `/state.json` with text nodes only.
enum ReviewPage {
  /// `/`, with the secret a POST must carry in a `<meta>` the script reads (an inline script
  /// would need the Content-Security-Policy loosened).
  static func html(secret: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="review-secret" content="\(secret)">
    <title>ouds-render snapshot review</title>
    <link rel="stylesheet" href="/review.css">
    <script src="/review.js" defer></script>
    </head>
    <body>
    <header>
    <h1>Snapshot review <span id="run"></span></h1>
    <p id="counts"></p>
    <form id="controls" aria-label="which failures to show">
    <label>Ids containing <input type="search" id="filter" spellcheck="false"></label>
    <label>Show <select id="show">
    <option value="remaining">remaining</option>
    <option value="all">all</option>
    <option value="accepted">accepted, to write</option>
    <option value="written">written</option>
    <option value="rejected">rejected</option>
    </select></label>
    <button type="button" id="accept-shown">Accept all shown</button>
    <button type="button" id="reject-shown">Reject all shown</button>
    </form>
    <p><button type="button" id="write">Write the accepted references</button>
    <code id="to-write"></code></p>
    <p id="status" role="status"></p>
    </header>
    <main>
    <section id="groups-section" aria-labelledby="groups-title" hidden>
    <h2 id="groups-title">Groups of one cause</h2>
    <ul id="groups"></ul>
    </section>
    <section aria-labelledby="failures-title">
    <h2 id="failures-title">Failures</h2>
    <div id="items"></div>
    </section>
    <section aria-labelledby="done-title">
    <h2 id="done-title">Done, and the command line that does the same</h2>
    <ol id="log"></ol>
    </section>
    </main>
    </body>
    </html>

    """
  }

  /// `/review.css`.
  static let style = """
    body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f4f4; color: #111; }
    header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #767676;
      padding: 8px 16px; z-index: 1; }
    h1 { font-size: 16px; margin: 0 0 4px; }
    h2 { font-size: 15px; margin: 16px 0 8px; }
    h3 { font-size: 14px; margin: 0 0 4px; font-family: monospace; }
    #run { font-weight: normal; color: #444; }
    #counts, #status { margin: 4px 0; }
    form { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
    main { padding: 0 16px 16px; }
    article { background: #fff; border: 1px solid #767676; padding: 8px; margin-bottom: 12px; }
    article.accepted { border-left: 6px solid #0a6e31; }
    article.written { border-left: 6px solid #00457a; }
    article.rejected { border-left: 6px solid #555; }
    .pictures { display: flex; flex-wrap: wrap; gap: 12px; margin: 6px 0; }
    figure { margin: 0; }
    figcaption { font-size: 12px; color: #333; }
    figure img { display: block; max-width: 100%; border: 1px solid #ccc; }
    .decision { font-weight: bold; }
    .error-text { color: #b00020; }
    code { font-size: 12px; background: #eee; padding: 2px 4px; word-break: break-all; }
    button { margin-right: 6px; }

    """

  /// `/review.js`.
  static let script = #"""
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

    """#
}
