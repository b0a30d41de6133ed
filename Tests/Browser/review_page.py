"""Drives `ouds-render snapshot review`'s page in headless Chromium (Playwright, with the system's
chromium), for ReviewCommandTests.

Usage: review_page.py URL SNAPSHOTS_DIR CHROMIUM
The run holds sample-2's 8 changed references. Forged requests (no secret, a wrong one, the
secret from another origin or from Origin: null) are refused with 403 and change no file; then
the page accepts sample-2/orange-light@2x with its own Accept, the two sosh ones together
("Accept all shown" under a filter), rejects wireframe-dark, and writes the three accepted.
Prints one line per check passed ("ok: ...") and exits 0, or prints "failed: ..." and exits 1."""

import hashlib
import os
import sys
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from checks import TIMEOUT, check, wait_until

URL, SNAPSHOTS, CHROMIUM = sys.argv[1], sys.argv[2], sys.argv[3]


def references():
    """The SHA-256 of every reference PNG of sample-2."""
    folder = os.path.join(SNAPSHOTS, "sample-2")
    return {name: hashlib.sha256(open(os.path.join(folder, name), "rb").read()).hexdigest()
            for name in sorted(os.listdir(folder)) if name.endswith(".png")}


def post(path, headers):
    """POSTs one id; returns (status, body)."""
    request = urllib.request.Request(URL.rstrip("/") + path, data=b"sample-2/orange-light@2x",
                                     headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def counts(page):
    return page.text_content("#counts")


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(URL)
    wait_until(page, "() => document.querySelectorAll('article').length > 0")
    check(page.eval_on_selector_all("article h3", "hs => hs.length") == 8,
          "the page lists the run's 8 failures")
    check(counts(page) == "0 written, 0 accepted to write, 0 rejected, 8 remaining of 8 failures", counts(page))
    wait_until(page, "() => [...document.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)")
    widths = page.eval_on_selector_all(
        "img", "is => is.map(i => [i.naturalWidth, i.clientWidth])")
    check(len(widths) == 24 and all(abs(w / 2 - shown) < 1 for w, shown in widths),
          f"each failure's expected, actual and diff pictures load, shown at 1x ({widths[:3]})")

    secret = page.get_attribute('meta[name="review-secret"]', "content")
    host = URL.split("/")[2]
    before = references()
    forged = [
        ("no secret", {}),
        ("a wrong secret", {"X-OUDS-Review-Secret": "0" * 64}),
        ("another site", {"X-OUDS-Review-Secret": secret, "Origin": "http://evil.example"}),
        ("Origin: null", {"X-OUDS-Review-Secret": secret, "Origin": "null"}),
    ]
    for name, headers in forged:
        for path in ["/accept", "/write"]:
            status, body = post(path, headers)
            check(status == 403 and body.count("\n") == 1,
                  f"a forged {path} ({name}) is refused: {status} {body.strip()}")
    check(references() == before, "the forged requests changed no reference")
    page.reload()
    wait_until(page, "() => document.querySelectorAll('article').length === 8")
    check(counts(page) == "0 written, 0 accepted to write, 0 rejected, 8 remaining of 8 failures",
          "nothing is marked accepted after them")

    page.click('button[aria-label="Accept sample-2/orange-light@2x"]')
    wait_until(page, "() => document.getElementById('counts').textContent.includes('1 accepted')")
    check(references() == before, "Accept marks; nothing is written yet")

    page.fill("#filter", "sample-2/sosh-")
    wait_until(page, "() => document.querySelectorAll('article').length === 2")
    label = page.text_content("#accept-shown")
    check(label == "Accept all shown (2)", label)
    page.click("#accept-shown")
    wait_until(page, "() => document.getElementById('counts').textContent.includes('3 accepted')")
    check(page.eval_on_selector_all("article", "as => as.length") == 0,
          "the accepted ones leave the remaining list")

    page.fill("#filter", "")
    page.click('button[aria-label="Reject sample-2/wireframe-dark@2x"]')
    wait_until(page, "() => document.getElementById('counts').textContent.includes('1 rejected')")
    check(counts(page) == "0 written, 3 accepted to write, 1 rejected, 4 remaining of 8 failures",
          counts(page))
    command = ("ouds-render snapshot accept out/r --filter "
               "sample-2/orange-light@2x,sample-2/sosh-dark@2x,sample-2/sosh-light@2x")
    check(page.text_content("#to-write") == command, "the page shows the command that writes them")

    page.click("#write")
    wait_until(page, "() => document.getElementById('counts').textContent.startsWith('3 written')")
    status = page.text_content("#status")
    check(status.startswith("3 references accepted from the run review-1"), f"Write: {status}")
    check(counts(page) == "3 written, 0 accepted to write, 1 rejected, 4 remaining of 8 failures",
          counts(page))
    commands = page.eval_on_selector_all("#log code", "cs => cs.map(c => c.textContent)")
    check(commands == [command], f"the log shows the equivalent command line ({commands})")
    check(page.is_disabled('button[aria-label="Accept sample-2/wireframe-light@2x"]'),
          "after the write, the run is spent: Accept is disabled")
    browser.close()
