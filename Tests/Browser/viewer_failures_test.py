#!/usr/bin/env python3
"""Every kind of failure in the trace viewer, as a person opens it (`make test-browser`).

Headless Chromium at 1400x900 opens, and screenshots:
- a failed expectation whose cause is a right-to-left drag the wrong way: the likely cause names
  the drag's line and the 110 pt rule, the marked line is the failing `expect`, not the last event;
  card labels are at least 11 px and the frame at least 40% of its pane's width (computed style);
- a golden-trace failure: expected and actual side by side with the differing card outlined, the
  field and numbers listed, and the overlay with its slider;
- a Lua error: the message, the traceback with the user's line first, the state when it failed;
- `stackplay view` of a run's --json report: the verdict, the message, a deep link, the metadata.
Usage: viewer_failures_test.py STACKPLAY [SCREENSHOT_FOLDER]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import browser, check, ready, stackplay  # noqa: E402

SHOTS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None

SCRIPT = """local function lock_screen(direction)
  local screen = stackplay.screen { layout_direction = direction }
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail", "fitness" }, dismissible = true,
  }
  return screen, stack
end

test("rtl: a swipe towards leading clears calendar", function()
  local screen, stack = lock_screen("rtl")
  stack:tap(); screen:settle()
  stack:drag("calendar", { x = -66.6 }); screen:settle()
  screen:advance(0.1)
  expect(stack:ids()):to_equal { "messages", "mail", "fitness" }
end)

local function checked_ids(stack)
  local ids = stack:ids()
  if #ids ~= 3 then error("expected 3 cards, got " .. #ids) end
  return ids
end

test("a helper raises after a tap", function()
  local screen, stack = lock_screen("ltr")
  stack:tap(); screen:settle()
  checked_ids(stack)
end)

test("W4 the wallet selects the tapped card", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
  wallet:tap("%s"); screen:settle()
end)
"""

# A label's size on the screen: its computed font size (user units) times the frame's scale.
LABEL_PX = """
return [...document.querySelectorAll(arguments[0] + ' text.card-label')].map((t) =>
  [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a]);
"""
FRAME_SHARE = """
const pane = document.querySelector(arguments[0]).getBoundingClientRect();
const screen = document.querySelector(arguments[0] + ' svg rect.screen').getBoundingClientRect();
return screen.width / pane.width;
"""


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        path = os.path.join(SHOTS, name)
        driver.save_screenshot(path)
        print(f"  wrote {path}")


def open_test(driver, page, name, **moment):
    driver.get("about:blank")
    query = "&".join([f"test={urllib.parse.quote(name)}"] + [f"{k}={v}" for k, v in moment.items()])
    driver.get(f"file://{page}#{query}")
    ready(driver)


def text(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector).text


def line_of(marker):
    return next(i + 1 for i, line in enumerate(SCRIPT.split("\n")) if marker in line)


def main():
    folder = tempfile.mkdtemp(prefix="stackplay-browser-failures-")
    try:
        script = os.path.join(folder, "x.lua")
        with open(script, "w") as f:
            f.write(SCRIPT % "visa")
        stackplay(["--golden", "golden", "--update", "x.lua"], folder, 1)  # the others fail; the wallet passes
        with open(script, "w") as f:
            f.write(SCRIPT % "mc")  # the wallet now taps another card: its golden trace differs
        stackplay(["--golden", "golden", "--artifacts", "out", "x.lua"], folder, 1)
        report = os.path.join(folder, "out", "report.html")
        # The same run without golden traces: a failed expectation on its own.
        stackplay(["--artifacts", "plain", "x.lua"], folder, 1)
        plain = os.path.join(folder, "plain", "report.html")
        driver = browser()
        try:
            print("a failed expectation whose cause is an rtl drag the wrong way")
            name = "x.lua: rtl: a swipe towards leading clears calendar"
            open_test(driver, plain, name)
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            check(errors == [], f"no errors in the console {errors}")
            drag, failing = line_of('stack:drag("calendar"'), line_of("expect(stack:ids())")
            cause = text(driver, "#cause-text")
            check(cause.startswith(f"the drag at x.lua:{drag} moved 'calendar' 66.6 pt towards trailing"),
                  f"the likely cause names the drag and its line ({cause})")
            check("leaves only past 110 pt towards leading (rtl: x > 110)" in cause, "and the 110 pt rule")
            marked = driver.find_element(By.CSS_SELECTOR, "#actions li.cause")
            check(marked.find_element(By.CSS_SELECTOR, ".where").text == f"x.lua:{drag}",
                  "the drag is highlighted in the action list")
            check("current" in marked.get_attribute("class"), "and shown first, its before and after")
            check(text(driver, "#before-caption").startswith("Before drag"), "the before frame is before the drag")
            failed = driver.find_elements(By.CSS_SELECTOR, "#actions li.failing")
            check(len(failed) == 1 and failed[0].get_attribute("data-expect") == "true",
                  "the only failing entry is the expectation")
            check(failed[0].find_element(By.CSS_SELECTOR, ".where").text == f"x.lua:{failing}"
                  and "expect(stack:ids())" in failed[0].text, "marked at the failing expect's line")
            check(driver.find_elements(By.CSS_SELECTOR, "#events li.failing") == [],
                  "no event is marked as failing (the last event did nothing wrong)")
            check(text(driver, "#source .line.failure-line .no") == str(failing), "the source marks the failing line")
            check(text(driver, "#source .line.cause-line .no") == str(drag), "and the cause's line")
            sizes = driver.execute_script(LABEL_PX, "#frame")
            check(len(sizes) == 4 and all(px >= 11 for _, px in sizes),
                  f"card labels are at least 11 px ({[(t, round(px, 1)) for t, px in sizes]})")
            for pane in ["#frame", "#frame-before"]:
                share = driver.execute_script(FRAME_SHARE, pane)
                check(share >= 0.4, f"{pane}'s frame takes {share:.0%} of its pane's width")
            cells = driver.find_elements(By.CSS_SELECTOR, "#state td.value")
            check(all("00000" not in c.text for c in cells), "no float noise in the state panel")
            check("t = 1.1 s" in text(driver, "#position"), f"times are rounded ({text(driver, '#position')})")
            time_cell = driver.find_element(By.CSS_SELECTOR, '#state table[data-component="screen"] tr[data-key="time"] td.value')
            full = time_cell.get_attribute("title")
            check(time_cell.text == "1.1 s" and full.startswith("1.1") and len(full) > 10,
                  f"the full value is in the title and what a copy takes ({full})")
            check(time_cell.get_attribute("data-full") == full, "a copy of the cell takes the full value")
            driver.find_element(By.ID, "action-filter").send_keys("drag")
            shown = [li for li in driver.find_elements(By.CSS_SELECTOR, "#actions li") if li.is_displayed()]
            check(len(shown) == 1 and "drag" in shown[0].text, "the action search keeps the drag")
            driver.execute_script(
                "const f = document.getElementById('action-filter'); f.value = ''; f.dispatchEvent(new Event('input')); f.blur()")
            every = driver.find_elements(By.CSS_SELECTOR, "#actions li")
            check(all(li.is_displayed() for li in every), f"an empty search shows every action again ({len(every)})")
            shot(driver, "viewer-cause.png")

            print("the screen as built, before the first action")
            first = driver.find_elements(By.CSS_SELECTOR, "#actions li:not([data-expect])")[0]
            first.click()
            drawn = [g.get_attribute("data-id") for g in driver.find_elements(By.CSS_SELECTOR, "#frame-before svg g.card")]
            check(drawn[-1:] == ["messages"] and len(drawn) >= 3,
                  f"the frame before the first action shows the closed pile as built ({drawn})")

            print("a golden-trace failure")
            open_test(driver, report, "x.lua: W4 the wallet selects the tapped card")
            check("golden" in text(driver, "#verdict"), f"the verdict says the golden trace differs ({text(driver, '#verdict')})")
            check(text(driver, "#before-caption").startswith("Expected"), "expected on the left")
            check(text(driver, "#after-caption").startswith("Actual"), "actual on the right")
            for pane in ["#frame-before", "#frame"]:
                outlined = [g.get_attribute("data-id") for g in driver.find_elements(By.CSS_SELECTOR, f"{pane} svg g.card.differs")]
                check("mc" in outlined, f"the differing card is outlined in {pane} ({outlined})")
            rows = driver.find_elements(By.CSS_SELECTOR, "#differences tr[data-card]")
            check(any(r.get_attribute("data-card") in ("mc", "visa") for r in rows), "the differing fields are listed")
            check(not driver.find_element(By.ID, "differences").text.count("00000"), "with rounded numbers")
            for pane in ["#frame-before", "#frame"]:
                sizes = driver.execute_script(LABEL_PX, pane)
                check(sizes and all(px >= 11 for _, px in sizes),
                      f"{pane}: card labels are at least 11 px ({[(t, round(px, 1)) for t, px in sizes]})")
            shot(driver, "viewer-golden.png")
            driver.find_element(By.CSS_SELECTOR, '#modes button[data-mode="overlay"]').click()
            slider = driver.find_element(By.ID, "overlay")
            check(slider.is_displayed(), "the overlay has a slider")
            driver.execute_script("arguments[0].value = 100; arguments[0].dispatchEvent(new Event('input'))", slider)
            check(driver.find_element(By.CSS_SELECTOR, "#frame svg g.golden").get_attribute("opacity") == "1",
                  "the slider sets the golden frame's opacity")
            shot(driver, "viewer-golden-overlay.png")

            print("a Lua error")
            open_test(driver, plain, "x.lua: a helper raises after a tap")
            check(text(driver, "#verdict").startswith("FAILED · error"), "the verdict says it is an error")
            check("expected 3 cards, got 4" in text(driver, "#message"), "the message is shown")
            details = driver.find_element(By.ID, "failure-details")
            check(details.get_attribute("open") is not None, "the traceback and state are open for an error")
            traceback = text(driver, "#traceback").split("\n")
            raised = line_of('error("expected 3 cards')
            check(traceback[1].strip().startswith(f"x.lua:{raised}:"),
                  f"the traceback shows the user's line first ({traceback[:3]})")
            check("notification_stack 'notifications'" in text(driver, "#dump"), "and the state when it failed")
            shot(driver, "viewer-error.png")

            print("stackplay view of a run's --json report")
            run = stackplay(["--json", "--trace", "traces", "x.lua"], folder, 1)
            with open(os.path.join(folder, "report.json"), "w") as f:
                f.write(run.stdout)
            page = os.path.join(folder, "view.html")
            stackplay(["view", "report.json", "x.lua", "-o", page], folder, 0)
            driver.get("about:blank")
            driver.get("file://" + page)
            ready(driver)
            check(text(driver, "#summary") == "1 passed, 2 failed", f"the run's verdicts ({text(driver, '#summary')})")
            check(text(driver, "#title-text") == name, "the first failure is named as the run named it")
            check(text(driver, "#verdict").startswith("FAILED"), "with its verdict")
            check("values differ" in text(driver, "#message"), "and its message")
            check("the drag at x.lua" in text(driver, "#cause-text"), "and its likely cause")
            seed = json.loads(run.stdout)["seed"]
            driver.find_element(By.CSS_SELECTOR, "#metadata summary").click()
            meta = text(driver, "#metadata-table")
            check("stackplay" in meta and f"seed {seed}" in meta.replace("\n", " "), f"the metadata panel ({meta[:80]})")
            open_test(driver, page, "x.lua: a helper raises after a tap", event=1)
            check(text(driver, "#title-text") == "x.lua: a helper raises after a tap", "a deep link opens its test")
            check(text(driver, "#position").startswith("event 1 /"), f"at its event ({text(driver, '#position')})")
            drag_event = 9  # the finger mid-drag
            open_test(driver, page, name, event=drag_event)
            check(text(driver, "#position").startswith(f"event {drag_event} /"), "a deep link opens the failure mid-drag")
            check("the drag at x.lua" in text(driver, "#cause-text"), "with its verdict and cause")
            driver.find_element(By.CSS_SELECTOR, "#metadata summary").click()
            driver.execute_script("document.getElementById('detail-head').scrollTop = 0")
            shot(driver, "viewer-view.png")

            print("stackplay view of the same run's --trace files")
            traces = sorted(os.path.join("traces", n) for n in os.listdir(os.path.join(folder, "traces")))
            page = os.path.join(folder, "view-traces.html")
            stackplay(["view"] + traces + ["x.lua", "-o", page], folder, 0)
            driver.get("about:blank")
            driver.get("file://" + page)
            ready(driver)
            check(text(driver, "#summary") == "1 passed, 2 failed", f"each file's verdict ({text(driver, '#summary')})")
            check(text(driver, "#verdict").startswith("FAILED"), "the first failure with its verdict")
            check(text(driver, "#message") != "", "and its message")
            open_test(driver, page, name, event=drag_event)
            check(text(driver, "#title-text") == name, "a deep link opens a test of the traces by its name")
            check("values differ" in text(driver, "#message"), "with its message")
            shot(driver, "viewer-view-traces.png")
        finally:
            driver.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("browser test of the failure kinds passed")


if __name__ == "__main__":
    main()
