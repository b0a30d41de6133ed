"use strict";
// The docs view: one scrollable page of the list's source, the variants it would record as
// a case, the tokens it reads, the audit's contrast figures and what the screen readers say.
const previewDocs = (() => {
  function element(name, attributes, ...children) {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
    node.append(...children);
    return node;
  }

  // A colour square beside its hex (the text says the colour; the square is decoration).
  function swatch(color) {
    const square = element("span", { class: "swatch", "aria-hidden": "true" });
    square.style.backgroundColor = color;
    return square;
  }

  // A table with a caption and column headings; each cell is text or nodes.
  function table(caption, header, rows, className) {
    const head = element("tr", {}, ...header.map((h) => element("th", { scope: "col" }, h)));
    const body = rows.map((cells) => element("tr", {},
      ...cells.map((cell) => element("td", {}, ...(Array.isArray(cell) ? cell : [cell])))));
    const wide = element("table", { class: className || "" }, element("caption", {}, caption),
      element("thead", {}, head), element("tbody", {}, ...body));
    return element("div", { class: "table-scroll" }, wide);
  }

  // A box that scrolls (a table wider than the window, a long source) is reachable by
  // keyboard; one that does not is no tab stop.
  function keyboardScroll() {
    for (const box of document.querySelectorAll("#docs .table-scroll, #docs pre.source")) {
      if (box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight) {
        box.setAttribute("tabindex", "0");
      } else {
        box.removeAttribute("tabindex");
      }
    }
  }
  window.addEventListener("resize", keyboardScroll);

  function section(id, title, ...children) {
    return element("section", { id: "docs-" + id, "aria-labelledby": "docs-" + id + "-title" },
      element("h3", { id: "docs-" + id + "-title" }, title), ...children);
  }

  function plural(count, word) { return `${count} ${word}${count === 1 ? "" : "s"}`; }

  function sourcePart(docs) {
    const parts = [element("pre", { class: "source" }, docs.source)];
    if (docs.omittedLines > 0) {
      parts.push(element("p", { class: "note" }, `… and ${plural(docs.omittedLines, "more line")}`));
    }
    return section("source", `Source (${docs.format})`, ...parts);
  }

  function variantsPart(docs) {
    const file = `Snapshots/cases/${docs.caseName}${docs.format === "Markdown" ? ".md" : ".json"}`;
    const intro = docs.variantsDeclared
      ? `As ${file}, snapshot record would record ${plural(docs.variants.length, "reference")}, from its variants key:`
      : `As ${file}, snapshot record would record ${plural(docs.variants.length, "reference")}: no variants key, so every theme in both modes at scale 2.`;
    const rows = docs.variants.map((v) => [element("code", {}, v.reference), v.theme, v.mode,
      v.platform, String(v.scale), v.textSize, v.width, v.settings.join(", ") || "—"]);
    return section("variants", "Variants it would record as a case", element("p", {}, intro),
      table("Variants of " + docs.caseName,
        ["reference", "theme", "mode", "platform", "scale", "text size", "width (pt)", "other settings"], rows));
  }

  function tokenCell(value) {
    const text = element("code", {}, value.text);
    if (value.file) text.title = [value.file].concat(value.aliases).join(" → ");
    return value.color ? [swatch(value.color), text] : [text];
  }

  function tokensPart(docs) {
    const parts = [element("p", {}, "The tokens the component reads, as each theme resolves them (a colour's swatch beside its hex; hover a value for its file and aliases).")];
    for (const theme of docs.tokens) {
      parts.push(element("h4", {}, theme.theme));
      for (const error of theme.errors) parts.push(element("p", { class: "error-text", role: "alert" }, error));
      parts.push(table(`Tokens of ${theme.theme}, ${theme.modes.join(" and ")}`, ["token"].concat(theme.modes),
        theme.rows.map((row) => [element("code", {}, row.path)].concat(row.values.map(tokenCell)))));
    }
    return section("tokens", "Tokens it reads, per theme and mode", ...parts);
  }

  function resultCell(result) {
    const className = result === "FAIL" ? "fail" : result === "pass" ? "pass" : "not-checked";
    return element("span", { class: className }, result);
  }

  function contrastPart(docs) {
    const count = docs.audits.length;
    const summary = docs.failures.length === 0
      ? `No failures in ${plural(count, "audit")}.`
      : `${plural(docs.failures.length, "failure")} in ${plural(count, "audit")}:`;
    const parts = [element("p", {}, "The WCAG 2.2 contrast against color.bg.primary, as ouds-render audit gives it. " + summary)];
    if (docs.failures.length) {
      parts.push(element("ul", { class: "failures" }, ...docs.failures.map((f) => element("li", { class: "fail" }, f))));
    }
    if (docs.notChecked > 0) {
      parts.push(element("p", { class: "note" },
        `Not checked: ${plural(docs.notChecked, "colour")} of the theme that this list does not draw: never a failure.`));
    }
    for (const audit of docs.audits) {
      parts.push(element("h4", {}, audit.title));
      parts.push(element("p", {}, "background ", swatch(audit.background), element("code", {}, audit.background), ", " + audit.backgroundToken));
      const rows = audit.lines.map((line) => [line.element,
        [...line.swatches.map(swatch), element("code", {}, line.colour)], line.ratio, line.needs,
        resultCell(line.result), line.usedBy, line.token]);
      parts.push(table("Contrast, " + audit.title,
        ["element", "colour", "ratio", "needs", "result", "used by", "token"], rows, "contrast"));
      parts.push(element("ul", { class: "notes" }, ...audit.notes.map((note) => element("li", {}, note))));
    }
    return section("contrast", "Contrast: the audit's figures", ...parts);
  }

  function spokenPart(docs) {
    const parts = [];
    for (const group of docs.spoken) {
      const title = `${group.reader} (${group.platform}), ${group.language}, ${group.contexts}`;
      parts.push(element("h4", {}, title));
      // the words in their language and direction (Arabic reads right to left)
      const said = (text) => element("span", { lang: group.languageCode, dir: "auto" }, text);
      parts.push(table(`What ${group.reader} says, in reading order`, ["row", "spoken text"],
        group.rows.map((row) => [element("code", {}, row.row), said(row.text)]), "spoken"));
    }
    return section("spoken", "What VoiceOver and TalkBack say", ...parts);
  }

  function build(docs) {
    const contents = element("nav", { "aria-label": "docs sections" },
      element("ul", {}, ...[["source", "Source"], ["variants", "Variants"], ["tokens", "Tokens"],
        ["contrast", "Contrast"], ["spoken", "Screen readers"]].map(([id, text]) =>
        element("li", {}, element("a", { href: "#docs-" + id }, text)))));
    const nodes = [element("h2", { id: "docs-title" }, "Docs: " + docs.list), contents,
      sourcePart(docs), variantsPart(docs), tokensPart(docs), contrastPart(docs), spokenPart(docs)];
    if (docs.warnings.length) {
      nodes.push(section("warnings", "Warnings",
        element("ul", {}, ...docs.warnings.map((w) => element("li", {}, w)))));
    }
    return nodes;
  }

  async function show(query, signal) {
    const holder = document.getElementById("docs");
    holder.dataset.state = "loading";
    try {
      const response = await fetch("/docs.json?" + query, { signal });
      if (!response.ok) {
        const message = (await response.text()).trim();
        holder.replaceChildren(element("h2", { id: "docs-title" }, "Docs"),
          element("p", { class: "error-text", role: "alert" }, message));
        holder.dataset.state = "error";
        return "docs: " + message;
      }
      const docs = await response.json();
      holder.replaceChildren(...build(docs));
      keyboardScroll();
      holder.dataset.state = "loaded";
      return `docs of ${docs.list}: ${plural(docs.variants.length, "variant")}, ${plural(docs.audits.length, "audit")}, `
        + (docs.failures.length ? plural(docs.failures.length, "failure") : "no failure");
    } catch (error) {
      if (error.name === "AbortError") return "";
      holder.replaceChildren(element("h2", { id: "docs-title" }, "Docs"),
        element("p", { class: "error-text", role: "alert" }, "cannot load: " + error));
      holder.dataset.state = "error";
      return "docs: cannot load";
    }
  }

  return { show };
})();

