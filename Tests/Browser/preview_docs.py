"""Drives the docs view of `ouds-render preview` (`view=docs`) in headless Chromium (Playwright,
with the system's chromium), for PreviewDocsBrowserTests.

Usage: preview_docs.py URL LIST_FILE TOKEN_FILE CHROMIUM
URL opens the preview on LIST_FILE (the catalogue's onboarding.md) with theme=orange&mode=light.
Prints one line per check passed ("ok: ...") and exits 0, or prints "failed: ..." and exits 1.
The token file (a copy's Themes/brands/orange/light.tokens.json) is edited in place: Orange
light's canvas colour becomes orange-550."""

import sys

from playwright.sync_api import sync_playwright

from checks import TIMEOUT, check, paint_orange_canvas, wait_until

URL, LIST_FILE, TOKEN_FILE, CHROMIUM = sys.argv[1:5]

# The cells of each row of the table whose caption is `caption`, as text.
TABLE = """(caption) => {
  const table = [...document.querySelectorAll('#docs table')].find(t => t.caption.textContent === caption);
  return table ? [...table.tBodies[0].rows].map(r => [...r.cells].map(c => c.textContent)) : null;
}"""


def row(rows, first):
    return next((r for r in rows or [] if r[0] == first), None)


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.set_default_timeout(TIMEOUT)
    page.goto(URL)
    page.wait_for_selector('body[data-shown="0"]')
    page.click("#views a[data-view=docs]")
    wait_until(page, "location.search.includes('view=docs')")
    page.wait_for_selector('#docs[data-state=loaded]')
    check("theme=orange" in page.url and "mode=light" in page.url,
          f"the docs view keeps the other URL parameters ({page.url})")
    check(page.is_hidden("#grid") and page.is_visible("#docs"), "the docs replace the pictures")
    check(page.get_attribute("#views a[data-view=docs]", "aria-current") == "page",
          "the Docs link is the current view")

    with open(LIST_FILE, encoding="utf-8") as file:
        source = file.read()
    check(page.inner_text("#docs h2") == "Docs: onboarding.md", "the heading names the list")
    check(page.text_content("#docs pre.source") == source.rstrip("\n"), "the source is the file's text")
    check(page.inner_text("#docs-source h3") == "Source (Markdown)", "the source says its format")

    variants = page.evaluate(TABLE, "Variants of onboarding")
    check(variants is not None and len(variants) == 8 and variants[0][0] == "onboarding/orange-light@2x.png",
          f"the 8 variants a case would record ({[v[0] for v in variants or []][:2]})")

    tokens = page.evaluate(TABLE, "Tokens of Orange, light")
    brand = row(tokens, "color.content.brand-primary")
    check(brand == ["color.content.brand-primary", "#F15E00"], f"Orange light's brand colour ({brand})")
    swatch = page.evaluate("""() => {
      const row = [...document.querySelectorAll('#docs table tr')].find(r => r.cells[0].textContent === 'color.content.brand-primary');
      return getComputedStyle(row.cells[1].querySelector('.swatch')).backgroundColor; }""")
    check(swatch == "rgb(241, 94, 0)", f"its swatch is drawn in #F15E00 ({swatch})")

    contrast = page.evaluate(TABLE, "Contrast, Orange · light · iOS")
    tick = row(contrast, "branded tick")
    check(tick is not None and tick[2:5] == ["3.31:1", "3:1 non-text", "pass"],
          f"the audit's figure for the branded tick ({tick})")
    label = row(contrast, "label")
    check(label is not None and label[1:3] == ["#000000", "21.00:1"], f"the label's contrast ({label})")

    voice = page.evaluate(TABLE, "What VoiceOver says, in reading order")
    talk = page.evaluate(TABLE, "What TalkBack says, in reading order")
    check(row(voice, "items[1]") == ["items[1]", "Choose the plan that suits you, level 1, 2 sub-items"],
          f"what VoiceOver says ({row(voice, 'items[1]')})")
    check(row(talk, "items[1]") == ["items[1]", "Choose the plan that suits you, Level 1, 2 subitems"],
          f"what TalkBack says ({row(talk, 'items[1]')})")

    page.evaluate("document.getElementById('docs-spoken').scrollIntoView()")
    check(page.evaluate("window.scrollY") > 1000, "one scrollable page")

    # A token edit: the open docs update without a reload.
    page.evaluate("window.notReloaded = true")
    paint_orange_canvas(TOKEN_FILE)
    page.wait_for_selector('body[data-shown="1"]')
    tokens = page.evaluate(TABLE, "Tokens of Orange, light")
    check(row(tokens, "color.bg.primary") == ["color.bg.primary", "#F15E00"],
          f"after the edit, bg.primary is orange-550 ({row(tokens, 'color.bg.primary')})")
    contrast = page.evaluate(TABLE, "Contrast, Orange · light · iOS")
    check(row(contrast, "label")[2] == "6.34:1", f"and the label's contrast on it is 6.34:1 ({row(contrast, 'label')})")
    check(page.evaluate("window.notReloaded === true"), "the page was not reloaded")

    # A link reproduces the docs view; the Pictures link goes back, keeping the state.
    other = browser.new_page()
    other.set_default_timeout(TIMEOUT)
    other.goto(page.url)
    other.wait_for_selector('#docs[data-state=loaded]')
    check(other.inner_text("#docs h2") == "Docs: onboarding.md", "a link reproduces the docs view")
    page.click("#views a[data-view='']")
    wait_until(page, "!location.search.includes('view=') && document.querySelectorAll('figure[data-state=loaded]').length === 1")
    check("theme=orange" in page.url and page.is_hidden("#docs"), f"back to the pictures ({page.url})")

    # A pasted list that cannot be read: its one-line error in place of the docs.
    page.click("#views a[data-view=docs]")
    page.wait_for_selector('#docs[data-state=loaded]')
    page.click("#paste-panel summary")
    page.fill("#paste-text", "# Not a list\n")
    page.click("#paste-render")
    page.wait_for_selector('#docs[data-state=error]')
    error = page.inner_text("#docs [role=alert]")
    check(error.startswith("pasted.md: line 1: a heading is not allowed"), f"a pasted heading's error ({error})")
    page.fill("#paste-text", "- Pasted item\n- Another\n")
    page.click("#paste-render")
    # the docs of the pasted list, not a stale state of the one before (on a loaded machine the
    # render and the docs request can finish in either order)
    wait_until(page, "document.querySelector('#docs[data-state=loaded] h2')?.textContent === 'Docs: pasted.md'")
    variants = page.evaluate(TABLE, "Variants of pasted")
    check(page.inner_text("#docs h2") == "Docs: pasted.md"
          and page.text_content("#docs pre.source") == "- Pasted item\n- Another"
          and variants is not None and variants[0][0] == "pasted/orange-light@2x.png",
          "a good paste: the docs of the pasted list")

    # Keyboard: a table wider than the window scrolls and is a tab stop; at 1440 px none is.
    check(page.evaluate("document.querySelectorAll('#docs [tabindex]').length") == 0,
          "no box scrolls at 1440 px, so none is a tab stop")
    page.set_viewport_size({"width": 500, "height": 900})
    # the page sets the tab stops in its resize handler, which runs after the resize returns
    wait_until(page, """[...document.querySelectorAll('#docs .table-scroll')]
      .some(b => b.scrollWidth > b.clientWidth && b.getAttribute('tabindex') === '0')""")
    wide = page.evaluate("""() => [...document.querySelectorAll('#docs .table-scroll')]
      .filter(b => b.scrollWidth > b.clientWidth).map(b => b.getAttribute('tabindex'))""")
    check(len(wide) > 0 and all(t == "0" for t in wide), f"at 500 px the wide tables are tab stops ({wide})")
    browser.close()
