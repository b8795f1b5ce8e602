#!/usr/bin/env python3
"""The trace viewer in a real browser: headless Chromium driven by Selenium (`make test-browser`).

Records a golden trace of a scenario, changes the scenario so that it fails against it, writes
the --artifacts report, then opens report.html as a user would: filters the test list, selects
the failed test, steps through its events with the keyboard and reads the state panel. Also
opens `stackplay view` of one trace. Usage: viewer_test.py STACKPLAY [SCREENSHOT.png]
"""
import os
import shutil
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

STACKPLAY = os.path.abspath(sys.argv[1])
SCREENSHOT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None

SCENARIO = """
test("wallet: a tap selects the card", function()
  local screen = stackplay.screen {}
  local wallet = screen:wallet_card_stack { items = { "amex", "visa", "mc" } }
  wallet:tap("%s"); screen:settle()
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
            check(driver.find_element(By.ID, "title").text == "viewer.lua: wallet: a tap selects the card",
                  "the failed test is selected")
            check("golden" in driver.find_element(By.ID, "message").text, "its message says the golden trace differs")
            failing = driver.find_elements(By.CSS_SELECTOR, "#events li.failing")
            check(len(failing) == 1, "one event is marked as the failing step")
            first_failing = int(failing[0].get_attribute("data-index"))
            current = driver.find_element(By.CSS_SELECTOR, "#events li.current")
            check(current.get_attribute("data-index") == str(first_failing), "the viewer opens at the failing step")
            check(len(driver.find_elements(By.ID, "failing-mark")) == 1, "the timeline marks the failing step")
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
            check("drag past 110" in driver.find_element(By.ID, "title").text, "ArrowDown selects the next test")
            moves = [li for li in driver.find_elements(By.CSS_SELECTOR, "#events li") if "touch_move" in li.text]
            check(len(moves) > 0, "the drag's moves are in the event list")
            moves[-1].click()
            translation = driver.find_element(By.CSS_SELECTOR, "#frame svg g.finger text.translation").text
            check(translation.startswith("drag -"), f"the drag's translation is drawn ({translation})")
            check(state(driver, "notifications", "open") == "true", "the state panel reads the open stack")
            if SCREENSHOT:
                failed = [li for li in driver.find_elements(By.CSS_SELECTOR, "#tests li")
                          if li.get_attribute("data-status") == "failed"][0]
                failed.click()
                ready(driver)
                driver.save_screenshot(SCREENSHOT)
                print(f"  wrote {SCREENSHOT}")

            print("stackplay view")
            trace = sorted(os.listdir(os.path.join(folder, "traces")))[0]
            page = os.path.join(folder, "view.html")
            stackplay(["view", os.path.join("traces", trace), "-o", page], folder, 0)
            driver.get("file://" + page)
            ready(driver)
            check(driver.find_element(By.ID, "summary").text == "1 trace", "view lists the trace")
            check(len(driver.find_elements(By.CSS_SELECTOR, "#events li")) > 0, "view shows its events")
        finally:
            driver.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("browser test passed")


if __name__ == "__main__":
    main()
