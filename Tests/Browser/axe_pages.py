"""Runs axe-core (axe-playwright-python, which ships axe.min.js) in headless Chromium on each page
given, for AccessibleToolPagesTests: a tool that audits accessibility passes its own audit.

Usage: axe_pages.py CHROMIUM URL [URL ...]
Prints "ok: URL: no violation" per page, or "failed: URL: <rule> on N elements (<first target>)"
for each broken rule, and exits 1 when any page has a violation."""

import sys

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

CHROMIUM, URLS = sys.argv[1], sys.argv[2:]
TIMEOUT = 60_000  # milliseconds: a page that never loads fails instead of hanging

failed = False
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    axe = Axe()
    for url in URLS:
        page = browser.new_page(viewport={"width": 1440, "height": 1000})
        page.set_default_timeout(TIMEOUT)
        page.goto(url)
        page.wait_for_load_state("networkidle")
        violations = axe.run(page).response["violations"]
        if not violations:
            print(f"ok: {url}: no violation")
        for violation in violations:
            failed = True
            first = violation["nodes"][0]["target"] if violation["nodes"] else ""
            print(f"failed: {url}: {violation['id']} on {len(violation['nodes'])} elements ({first})")
        page.close()
    browser.close()
sys.exit(1 if failed else 0)
