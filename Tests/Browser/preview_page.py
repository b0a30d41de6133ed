"""Drives `ouds-render preview`'s page in headless Chromium (Playwright, with the system's
chromium), for PreviewBrowserTests.

Usage: preview_page.py URL TOKEN_FILE CHROMIUM
Prints one line per check passed ("ok: ...") and exits 0, or prints "failed: ..." and exits 1.
The token file (a copy's Themes/brands/orange/light.tokens.json) is edited in place: Orange
light's canvas colour becomes orange-550."""

import sys

from playwright.sync_api import sync_playwright

from checks import TIMEOUT, check, paint_orange_canvas, wait_until

URL, TOKEN_FILE, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]

# The colour of the first pixel of each loaded picture, read through a canvas.
CORNERS = """() => Object.fromEntries([...document.querySelectorAll('figure')].map((f) => {
  const image = f.querySelector('img');
  if (!image || !(image.naturalWidth > 0)) return [f.dataset.cell, null];
  const canvas = document.createElement('canvas');
  canvas.width = 1; canvas.height = 1;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  return [f.dataset.cell, '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('').toUpperCase()];
}))"""


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(URL)
    page.wait_for_selector('body[data-shown="0"]')
    states = page.eval_on_selector_all("figure", "fs => fs.map(f => f.dataset.state)")
    check(len(states) == 8 and all(s == "loaded" for s in states),
          f"every picture of the 4 themes x 2 modes loads ({states})")
    corners = page.evaluate(CORNERS)
    light = "orange · light"
    check(corners.get(light) == "#FFFFFF", f"Orange light's canvas is white ({corners.get(light)})")
    check("theme=all" in page.url and "mode=all" in page.url, f"the URL holds the state ({page.url})")
    captions = page.eval_on_selector_all("figcaption", "cs => cs.map(c => c.textContent)")
    check(all(not c.endswith(" · ") and " ·  " not in c for c in captions),
          f"captions end without a dangling separator ({captions})")

    # True size: each picture at its PNG's pixels per point divided out (scale 2), and a grid
    # that fills the window: at least 3 pictures side by side at 1440 px, 4 at 1920 px.
    sizes = page.eval_on_selector_all(
        "figure img", "is => is.map(i => [i.getBoundingClientRect().width, i.naturalWidth])")
    check(all(abs(width - natural / 2) < 0.6 for width, natural in sizes),
          f"pictures at 1x CSS size, crisp on a 2x screen ({sizes[:2]})")
    ROW = """() => { const tops = [...document.querySelectorAll('figure')].map(f => Math.round(f.getBoundingClientRect().top));
      return tops.filter(t => t === tops[0]).length; }"""
    for width, least in ((1440, 3), (1920, 4)):
        page.set_viewport_size({"width": width, "height": 900})
        side_by_side = page.evaluate(ROW)
        check(side_by_side >= least, f"{side_by_side} pictures side by side at {width} px (at least {least})")
    page.select_option('select[name="zoom"]', "2")
    wait_until(page, "location.search.includes('zoom=2') && document.body.dataset.shown === '0'")
    wait_until(page, "[...document.querySelectorAll('figure')].every(f => f.dataset.state === 'loaded')")
    sizes = page.eval_on_selector_all(
        "figure img", "is => is.map(i => [i.getBoundingClientRect().width, i.naturalWidth])")
    check(all(abs(width - natural) < 0.6 for width, natural in sizes), f"zoom 2x ({sizes[:2]})")
    page.select_option('select[name="zoom"]', "fit")
    wait_until(page, "!location.search.includes('zoom=')")
    page.select_option('select[name="platform"]', "all")
    wait_until(page, "location.search.includes('platform=all')")
    wait_until(page, "[...document.querySelectorAll('figure')].length === 16 && [...document.querySelectorAll('figure')].every(f => f.dataset.state === 'loaded')")
    cells = page.eval_on_selector_all("figure", "fs => fs.map(f => f.dataset.cell)")
    check(len(set(cells)) == 16 and sum(c.endswith(" · ios") for c in cells) == 8,
          f"platform all: each theme x mode once per platform ({len(cells)} pictures)")
    page.select_option('select[name="platform"]', "")
    wait_until(page, "!location.search.includes('platform=')")
    wait_until(page, "[...document.querySelectorAll('figure')].length === 8 && document.body.dataset.shown === '0'")

    # A token edit: the open page updates without a reload.
    page.evaluate("window.notReloaded = true")
    paint_orange_canvas(TOKEN_FILE)
    page.wait_for_selector('body[data-shown="1"]')
    corners = page.evaluate(CORNERS)
    check(corners.get(light) == "#F15E00",
          f"after the token edit Orange light's canvas is orange-550 ({corners.get(light)})")
    check(page.evaluate("window.notReloaded === true"), "the page was not reloaded")
    check("Themes/brands/orange/light.tokens.json" in page.inner_text("#status"),
          "the status line names the changed file")

    # A control: the URL and the pictures change.
    page.select_option('select[name="theme"]', "sosh")
    wait_until(page, "location.search.includes('theme=sosh')")
    page.wait_for_selector('body[data-shown="1"]')
    cells = page.eval_on_selector_all("figure", "fs => fs.map(f => f.dataset.cell + ' ' + f.dataset.state)")
    check(cells == ["sosh · light loaded", "sosh · dark loaded"], f"theme=sosh shows Sosh alone ({cells})")
    page.select_option('select[name="platform"]', "android")
    wait_until(page, "location.search.includes('platform=android')")
    wait_until(page, "document.querySelectorAll('figure[data-state=loaded]').length === 2 && document.body.dataset.shown === '1'")
    cells = page.eval_on_selector_all("figure", "fs => fs.map(f => f.dataset.cell)")
    check(cells == ["sosh · light · android", "sosh · dark · android"], f"platform=android ({cells})")
    page.click("#copy-command")
    wait_until(page, "document.getElementById('command').textContent.includes('--platform android')")
    command = page.inner_text("#command")
    check(command.startswith("ouds-render render ") and "--theme sosh" in command,
          f"the command line follows the controls ({command})")

    # The URL reproduces the view in a new page.
    other = browser.new_page()
    other.set_default_timeout(TIMEOUT)
    other.goto(page.url)
    wait_until(other, "document.body.dataset.shown !== undefined && document.body.dataset.shown !== ''")
    cells = other.eval_on_selector_all("figure", "fs => fs.map(f => f.dataset.cell)")
    check(cells == ["sosh · light · android", "sosh · dark · android"], f"a link reproduces the view ({cells})")

    # A broken paste shows its error in place of the pictures, a good one its pictures.
    page.click("#paste-panel summary")
    page.fill("#paste-text", "# Not a list\n")
    page.click("#paste-render")
    wait_until(page, "location.search.includes('source=pasted')")
    page.wait_for_selector("figure[data-state=error]")
    error = page.inner_text("figure pre")
    check(error.startswith("pasted.md: line 1: a heading is not allowed"), f"a pasted heading's error ({error})")
    page.fill("#paste-text", "- Pasted item\n- Another\n")
    page.click("#paste-render")
    wait_until(page, "[...document.querySelectorAll('figure')].every(f => f.dataset.state === 'loaded')")
    check(True, "a pasted list's pictures load")
    check(page.inner_text("#list-name") == "pasted list (Markdown)", "the title says the pasted list is on screen")
    page.click("#copy-command")
    wait_until(page, "document.getElementById('command').textContent.startsWith('cat > pasted.md')")
    check("- Pasted item" in page.inner_text("#command"), "the command writes the pasted list before it draws")
    browser.close()
