#!/usr/bin/env python3
"""The trace viewer in a real browser: headless Chromium driven by Selenium (`make test-browser`).

Records a golden trace of a scenario, changes the scenario so that it fails against it, writes
the --artifacts report, then opens report.html as a user would: filters the test list, selects
the failed test, steps through its events with the keyboard and reads the state panel; then opens
the failed test by a deep link (report.html#test=...&t=...), clicks an action and reads its source
line, the printed output and a card's numbers (the state panel and the hover tooltip), and checks
that no label covers a finger. Also opens `stackplay view` of one trace.
Usage: viewer_test.py STACKPLAY [SCREENSHOT.png]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

STACKPLAY = os.path.abspath(sys.argv[1])
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None

SCENARIO = """
test("wallet: a tap selects the card", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
  wallet:tap("%s"); screen:settle()
  print("selected " .. tostring(wallet:selection()))
  expect(wallet:selection()):to_equal("visa")
end)

test("notifications: a drag past 110 pt clears a card", function()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }
  stack:tap(); screen:settle()
  stack:drag("calendar", { x = -120 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
end)
"""


def stackplay(args, cwd, expect):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    run = subprocess.run([STACKPLAY] + args, cwd=cwd, env=env, capture_output=True, text=True)
    assert run.returncode == expect, f"stackplay {args} exited {run.returncode}:\n{run.stdout}\n{run.stderr}"
    return run


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"  ok   {message}")


def browser():
    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"]:
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)


def ready(driver):
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")


def state(driver, component, key):
    return driver.find_element(
        By.CSS_SELECTOR, f'#state table[data-component="{component}"] tr[data-key="{key}"] td.value').text


# Every label's box (card ids, part names, drag translations) against every finger's circle.
LABELS_CLEAR = """
const hits = [];
for (const svg of document.querySelectorAll('#frame > svg, #frame-before > svg')) {
  const spots = [...svg.querySelectorAll('circle.finger-spot')].map((c) => c.getBBox());
  for (const t of svg.querySelectorAll('text.card-label, text.translation, g.part text')) {
    const b = t.getBBox();
    for (const s of spots) {
      if (b.x < s.x + s.width && s.x < b.x + b.width && b.y < s.y + s.height && s.y < b.y + b.height) hits.push(t.textContent);
    }
  }
}
return hits;
"""


def labels_clear(driver):
    return driver.execute_script(LABELS_CLEAR)


def open_link(driver, report, test, **moment):
    driver.get("about:blank")
    query = "&".join([f"test={urllib.parse.quote(test)}"] + [f"{k}={v}" for k, v in moment.items()])
    driver.get(f"file://{report}#{query}")
    ready(driver)


def main():
    folder = tempfile.mkdtemp(prefix="stackplay-browser-")
    try:
        script = os.path.join(folder, "viewer.lua")
        with open(script, "w") as f:
            f.write(SCENARIO % "visa")
        stackplay(["--golden", "golden", "--update", "viewer.lua"], folder, 0)
        with open(script, "w") as f:
            f.write(SCENARIO % "mc")  # now taps another card: the golden trace and the expectation fail
        stackplay(["--golden", "golden", "--trace", "traces", "--artifacts", "out", "viewer.lua"], folder, 1)
        report = os.path.join(folder, "out", "report.html")
        driver = browser()
        try:
            print("report.html")
            driver.get("file://" + report)
            ready(driver)
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            check(errors == [], f"no errors in the console {errors}")
            items = driver.find_elements(By.CSS_SELECTOR, "#tests li")
            check(len(items) == 2, "the test list shows both tests")
            check(driver.find_element(By.ID, "summary").text == "1 passed, 1 failed", "the summary counts them")
            check("ms" in items[0].text, "the list shows durations")

            driver.find_element(By.ID, "filter").send_keys("drag")
            shown = [li for li in driver.find_elements(By.CSS_SELECTOR, "#tests li") if li.is_displayed()]
            check(len(shown) == 1 and "drag past 110" in shown[0].text, "the filter keeps the matching test")
            shown[0].click()
            ready(driver)
            driver.find_element(By.ID, "filter").clear()
            driver.find_element(By.ID, "filter").send_keys("failed")
            shown = [li for li in driver.find_elements(By.CSS_SELECTOR, "#tests li") if li.is_displayed()]
            check(len(shown) == 1 and "wallet" in shown[0].text, "filtering by status shows the failure")
            shown[0].click()
            ready(driver)
            check(driver.find_element(By.ID, "title-text").text == "viewer.lua: wallet: a tap selects the card",
                  "the failed test is selected")
            check(driver.find_element(By.ID, "verdict").text.startswith("FAILED"), "its verdict is shown by its name")
            check("golden" in driver.find_element(By.ID, "message").text, "its message says the golden trace differs")
            failing = driver.find_elements(By.CSS_SELECTOR, "#events li.failing")
            check(len(failing) == 1, "one event is marked as the failing step")
            first_failing = int(failing[0].get_attribute("data-index"))
            current = driver.find_element(By.CSS_SELECTOR, "#events li.current")
            check(int(current.get_attribute("data-index")) >= first_failing,
                  "the viewer opens at the failing step, or where the frames first differ after it")
            check(len(driver.find_elements(By.ID, "failing-mark")) == 1, "the timeline marks the failing step")
            driver.find_element(By.CSS_SELECTOR, '#modes button[data-mode="overlay"]').click()
            failing[0].click()  # the tap's first event: its finger is down
            check(len(driver.find_elements(By.CSS_SELECTOR, "#frame svg g.golden g.golden-card")) == 3,
                  "the golden frame's cards are drawn over the frame")
            check(len(driver.find_elements(By.CSS_SELECTOR, "#frame svg g.finger")) >= 1,
                  "the finger of the tap is drawn")

            body = driver.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.END)
            last = int(driver.find_element(By.ID, "scrub").get_attribute("max"))
            check(driver.find_element(By.CSS_SELECTOR, "#events li.current").get_attribute("data-index") == str(last),
                  "End goes to the last event")
            check(state(driver, "wallet", "selection") == '"mc"' or state(driver, "wallet", "selection") == "mc",
                  f"the state panel shows the selection at the end ({state(driver, 'wallet', 'selection')})")
            body.send_keys(Keys.HOME)
            check(state(driver, "wallet", "selection") == "null", "Home: nothing is selected before the tap")
            body.send_keys(Keys.ARROW_RIGHT)
            check(driver.find_element(By.ID, "position").text.startswith("event 1 /"), "ArrowRight steps one event")
            body.send_keys(Keys.ARROW_LEFT)
            check(driver.find_element(By.ID, "position").text.startswith("event 0 /"), "ArrowLeft steps back")

            # The drag: its translation is drawn while the finger is down.
            driver.find_element(By.ID, "filter").send_keys(Keys.CONTROL, "a", Keys.DELETE)
            check(len([li for li in driver.find_elements(By.CSS_SELECTOR, "#tests li") if li.is_displayed()]) == 2,
                  "an empty filter shows every test again")
            body.send_keys(Keys.ARROW_DOWN)
            ready(driver)
            check("drag past 110" in driver.find_element(By.ID, "title-text").text, "ArrowDown selects the next test")
            moves = [li for li in driver.find_elements(By.CSS_SELECTOR, "#events li") if "touch_move" in li.text]
            check(len(moves) > 0, "the drag's moves are in the event list")
            moves[-1].click()
            translation = driver.find_element(By.CSS_SELECTOR, "#frame svg g.finger text.translation").text
            check(translation.startswith("drag -"), f"the drag's translation is drawn ({translation})")
            check(state(driver, "notifications", "open") == "true", "the state panel reads the open stack")
            # No label covers a finger, at any event of the drag.
            body.send_keys(Keys.HOME)
            last = int(driver.find_element(By.ID, "scrub").get_attribute("max"))
            covered = []
            for _ in range(last + 1):
                covered += labels_clear(driver)
                body.send_keys(Keys.ARROW_RIGHT)
            check(covered == [], f"no label covers a finger at any of the {last + 1} events ({covered[:3]})")

            print("report.html#test=...&t=...: the failed test by a deep link")
            failed = "viewer.lua: wallet: a tap selects the card"
            open_link(driver, report, failed, t="0")
            check(driver.find_element(By.ID, "title-text").text == failed, "the link opens the test it names")
            driver.find_element(By.CSS_SELECTOR, '#modes button[data-mode="steps"]').click()
            check(driver.find_element(By.ID, "position").text.startswith("event 1 /"),
                  f"t=0 opens the last event at t = 0 ({driver.find_element(By.ID, 'position').text})")
            actions = driver.find_elements(By.CSS_SELECTOR, "#actions li:not([data-expect])")
            methods = [a.find_element(By.CSS_SELECTOR, ".method").text.lstrip("✗ ") for a in actions]
            check(methods == ["tap", "settle"], f"the action list shows the script's calls ({methods})")
            check(all(a.find_element(By.CSS_SELECTOR, ".where").text.startswith("viewer.lua:5") for a in actions),
                  "each action names its line, viewer.lua:5")
            check(len(driver.find_elements(By.CSS_SELECTOR, "#actions li.failing:not([data-expect])")) == 1,
                  "the action whose event differs from the golden trace is marked")
            cause = driver.find_element(By.CSS_SELECTOR, "#actions li.cause")
            check(cause.find_element(By.CSS_SELECTOR, ".method").text.endswith("tap"),
                  "the likely cause is the tap, not the settle on its line")
            expect = driver.find_element(By.CSS_SELECTOR, "#actions li[data-expect].failing")
            check(expect.find_element(By.CSS_SELECTOR, ".where").text == "viewer.lua:7",
                  "and the failing expectation, last, with its line")
            check(driver.find_element(By.ID, "output").text == "selected mc", "the console shows what the test printed")

            tap = actions[methods.index("tap")]
            tap.click()
            check("current" in tap.get_attribute("class"), "a click selects the action")
            line = driver.find_element(By.CSS_SELECTOR, "#source .line.current-line")
            check(line.find_element(By.CSS_SELECTOR, ".no").text == "5", "the source pane marks line 5")
            check(line.find_element(By.CSS_SELECTOR, ".text").text.strip() == 'wallet:tap("mc"); screen:settle()',
                  f"the marked line is the call's source ({line.text})")
            check(driver.find_element(By.CSS_SELECTOR, "#source .line.failure-line .no").text == "7",
                  "the failed expectation's line is marked too")
            check(driver.find_element(By.ID, "before-caption").text.startswith("Before tap"),
                  "the before frame is the one before the action")
            check(len(driver.find_elements(By.CSS_SELECTOR, "#frame-before > svg")) == 1
                  and len(driver.find_elements(By.CSS_SELECTOR, "#frame > svg")) == 1, "before and after are both drawn")
            check("event=1" in driver.execute_script("return location.hash"), "the address follows the moment shown")
            opacity = driver.find_element(
                By.CSS_SELECTOR, '#state table[data-cards="wallet"] tr[data-card="mc"] td[data-field="opacity"]').text
            check(opacity == "1", f"the state panel reads card mc's opacity ({opacity})")
            scale = driver.find_element(
                By.CSS_SELECTOR, '#state table[data-cards="wallet"] tr[data-card="mc"] td[data-field="scale"]').text
            check(float(scale) <= 1, f"and its scale ({scale})")
            # Settle: the card at rest, read by hovering it in the frame.
            driver.find_elements(By.CSS_SELECTOR, "#actions li:not([data-expect])")[1].click()
            # mc, the selected card, rests on top of the others.
            card = driver.find_element(By.CSS_SELECTOR, '#frame svg g.card[data-id="mc"] rect')
            ActionChains(driver).move_to_element(card).perform()
            tip = driver.find_element(By.ID, "card-tip")
            check(tip.is_displayed() and "card 'mc'" in tip.text, "hovering a card shows its numbers")
            tip_opacity = tip.find_element(By.CSS_SELECTOR, 'tr[data-field="opacity"] td.value').text
            check(tip_opacity == driver.find_element(
                By.CSS_SELECTOR, '#state table[data-cards="wallet"] tr[data-card="mc"] td[data-field="opacity"]').text,
                f"the tooltip's opacity is the state panel's ({tip_opacity})")
            check(all(k in tip.text for k in ["x", "width", "scale", "z", "hittable"]),
                  "the tooltip has the frame, scale, z and hittable")
            check(labels_clear(driver) == [], "no label covers the finger of the tap")
            if SCREENSHOT:
                driver.save_screenshot(SCREENSHOT)
                print(f"  wrote {SCREENSHOT}")

            print("stackplay view")
            trace = sorted(os.listdir(os.path.join(folder, "traces")))[0]
            page = os.path.join(folder, "view.html")
            # the script given beside the trace: a page embeds only the scripts its command read
            stackplay(["view", os.path.join("traces", trace), "viewer.lua", "-o", page], folder, 0)
            driver.get("file://" + page)
            ready(driver)
            # a --trace file ends with its test's result: the page gives the run's verdict
            with open(os.path.join(folder, "traces", trace)) as f:
                status = json.loads(f.read().splitlines()[-1])["result"]["status"]
            summary = driver.find_element(By.ID, "summary").text
            check(f"1 {status}" in summary, f"view lists the trace's test with its verdict ({summary})")
            check(len(driver.find_elements(By.CSS_SELECTOR, "#events li")) > 0, "view shows its events")
            check(driver.find_element(By.CSS_SELECTOR, "#actions li .where").text.startswith("viewer.lua:"),
                  "view lists a version 2 trace's actions with their lines")
            check(":tap()" in driver.find_element(By.CSS_SELECTOR, "#source .line.current-line .text").text,
                  "and shows the script's line when the script is where the trace says")

            print("stackplay view of a version 1 trace (no actions)")
            old = os.path.join(ROOT, "Tests/StackplayTests/Fixtures/traces/v1/wallet-session.jsonl")
            stackplay(["view", old, "-o", page], folder, 0)
            driver.get("about:blank")
            driver.get("file://" + page)
            ready(driver)
            entries = driver.find_elements(By.CSS_SELECTOR, "#actions li:not([data-expect])")
            check(len(entries) == len(driver.find_elements(By.CSS_SELECTOR, "#events li")) == 8,
                  "each event of a trace without actions is its own entry")
            check(driver.find_elements(By.CSS_SELECTOR, "#actions li .where") == [], "and names no source line")
            entries[2].click()
            check(driver.find_element(By.CSS_SELECTOR, "#events li.current").get_attribute("data-index") == "2",
                  "clicking an entry shows its event")
            check(driver.find_element(By.ID, "source").text.startswith("No source"), "the source pane says it has none")
        finally:
            driver.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("browser test passed")


if __name__ == "__main__":
    main()
