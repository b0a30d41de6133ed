"""What the Playwright scripts of this folder share: the time a page may take, one line per check
("ok: …" or "failed: …", then exit 1), and a poll for a condition in the page."""

import os
import sys
import time

TIMEOUT = 60_000  # milliseconds: a page that never settles fails instead of hanging


def check(condition, message):
    """Prints "ok: message", or "failed: message" and exits 1."""
    if not condition:
        print("failed: " + message)
        sys.exit(1)
    print("ok: " + message)


def wait_until(page, expression):
    """Polls `expression` in the page until true (page.wait_for_function would evaluate a string,
    which the page's Content-Security-Policy forbids)."""
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        if page.evaluate(expression):
            return
        time.sleep(0.02)
    print("failed: still false after 60 s: " + expression)
    sys.exit(1)


def paint_orange_canvas(token_file):
    """Saves `token_file` (a copy's Themes/brands/orange/light.tokens.json) with Orange light's
    bg.primary aliased to orange-550, as an editor saves: a new file renamed over the old one."""
    with open(token_file, encoding="utf-8") as file:
        text = file.read()
    old = '"primary": {\n        "$value": "{color.raw.functional.white}"'
    check(text.count(old) == 1, "the token file holds Orange light's bg.primary")
    with open(token_file + ".tmp-save", "w", encoding="utf-8") as file:
        file.write(text.replace(old, old.replace("functional.white", "orange.orange-550")))
    os.replace(token_file + ".tmp-save", token_file)
