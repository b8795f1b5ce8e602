#!/usr/bin/env python3
"""`stackplay studio` in a real browser: headless Chromium driven by Selenium (`make test-browser`).

Starts `stackplay studio` on a scratch folder and, through the page as a person would: runs a
file and reads its results; edits the file on disk and sees the re-run; opens a failing test at
its failing action on the live screen (and in the trace viewer); drags a notification card
120 pt with the mouse (Selenium's pointer actions, not script calls) and sees it leave, reporting
the frames drawn per second while dragging; switches to right to left and drags again; records a
few gestures with one picked expectation, saves them, and runs the saved file under `stackplay`
and `stackplay --mirror`. Then checks the door: no token, 403; a foreign Host, refused.
Usage: studio_test.py STACKPLAY [SCREENSHOT_DIR] [README_PNG]
"""
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

STACKPLAY = os.path.abspath(sys.argv[1])
SHOTS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
README_PNG = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None

CARDS = """
local function lock_screen()
  local screen = stackplay.screen {}
  local stack = screen:notification_stack { items = { "messages", "calendar", "mail" }, dismissible = true }
  return screen, stack
end

test("a drag past 110 pt clears a card", { tags = { "swipe" } }, function()
  local screen, stack = lock_screen()
  stack:tap(); screen:settle()
  stack:drag("calendar", { x = -120 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "mail" }
end)

test("a short drag keeps the card", { tags = { "swipe", "edge" } }, function()
  local screen, stack = lock_screen()
  stack:tap(); screen:settle()
  stack:drag("calendar", { x = -%d }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
end)
"""


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"  ok   {message}")


def wait(driver, condition, message, timeout=15):
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.05,
                      ignored_exceptions=[StaleElementReferenceException]).until(lambda d: condition())
    except Exception:
        raise AssertionError(f"timed out: {message}")
    print(f"  ok   {message}")


def browser():
    options = Options()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1500,950"]:
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    return webdriver.Chrome(service=Service(driver_path), options=options)


def shot(driver, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SHOTS, f"studio-{name}.png"))


def steady(read):
    """`read()`, again when the page redrew what it was reading (results and frames redraw)."""
    for _ in range(20):
        try:
            return read()
        except StaleElementReferenceException:
            time.sleep(0.02)
    return read()


def test_row(driver, name):
    def read():
        for row in driver.find_elements(By.CSS_SELECTOR, "#test-tree li.test"):
            if row.get_attribute("data-name") == name:
                return row
        return None
    return steady(read)


def status(driver, name):
    return steady(lambda: (lambda row: row.get_attribute("data-status") if row else None)(test_row(driver, name)))


def tags_of(driver, name):
    return steady(lambda: [t.text for t in test_row(driver, name).find_elements(By.CLASS_NAME, "tag")])


def state(driver, component, key):
    def read():
        cells = driver.find_elements(
            By.CSS_SELECTOR, f'#state table[data-component="{component}"] tr[data-key="{key}"] td.value')
        return cells[0].text if cells else None
    return steady(read)


def resting(driver):
    return driver.find_element(By.ID, "screen").get_attribute("data-resting") == "true"


def card(driver, card_id):
    found = driver.find_elements(By.CSS_SELECTOR, f'#screen .card[data-id="{card_id}"]')
    return found[0] if found else None


def drag(driver, card_id, points):
    """Drags the card with the mouse by `points` (model points, the page's scale applied), in
    small steps about one display frame apart, as a hand would."""
    actions = ActionChains(driver, duration=16)
    actions.move_to_element(card(driver, card_id)).click_and_hold()
    move_by(driver, actions, points)
    actions.pause(0.05).release().perform()


def move_by(driver, actions, points, steps=30):
    """Adds `steps` moves that sum to `points` model points sideways (whole CSS pixels each, as
    the mouse moves)."""
    scale = driver.execute_script("return window.studio.scale")
    pixels = round(points * scale + (0.5 if points > 0 else -0.5))
    done = 0
    for i in range(1, steps + 1):
        to = round(pixels * i / steps)
        actions.move_by_offset(to - done, 0)
        done = to


def fps_while_dragging(driver):
    times = driver.execute_script("return window.studio.stats.drawTimes")
    if len(times) < 2:
        return 0.0
    return (len(times) - 1) / ((times[-1] - times[0]) / 1000)


def open_fresh(driver, direction="ltr"):
    Select(driver.find_element(By.ID, "set-direction")).select_by_value(direction)
    driver.find_element(By.CSS_SELECTOR, "#fresh summary").click()
    driver.find_element(By.ID, "fresh-open").click()
    wait(driver, lambda: state(driver, "notifications", "ids") == '{ "messages", "calendar", "mail", "fitness" }'
         and state(driver, "notifications", "expanded") == "false",
         f"New screen opens a fresh notification stack ({direction})")


def open_stack(driver):
    ActionChains(driver).click(card(driver, "messages")).perform()
    wait(driver, lambda: state(driver, "notifications", "expanded") == "true" and resting(driver),
         "a click on the closed pile opens it, and the springs come to rest")


def main():
    folder = tempfile.mkdtemp(prefix="stackplay-studio-")
    studio = None
    driver = None
    try:
        with open(os.path.join(folder, "cards.lua"), "w") as f:
            f.write(CARDS % 60)
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        studio = subprocess.Popen([STACKPLAY, "studio", folder], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env)
        first = studio.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64}))", first)
        check(match is not None, f"stackplay studio prints a 127.0.0.1 URL with a token ({first.strip()})")
        url, port, token = match.group(1), int(match.group(2)), match.group(3)

        print("the door")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/")
            check(False, "a request without the token is refused")
        except urllib.error.HTTPError as error:
            check(error.code == 403, f"a request without the token gets 403 ({error.code})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={'0' * 64}")
            check(False, "a wrong token is refused")
        except urllib.error.HTTPError as error:
            check(error.code == 403, "a wrong token gets 403")
        connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.request("GET", f"/?token={token}", headers={"Host": f"rebound.example:{port}"})
        answer = connection.getresponse()
        check(answer.status == 403 and b"Host" in answer.read(), "a foreign Host (DNS rebinding) is refused")
        connection.request("GET", f"/?token={token}", headers={"Origin": "http://evil.example"})
        answer = connection.getresponse()
        check(answer.status == 403 and b"Origin" in answer.read(), "a foreign Origin is refused")
        connection.request("GET", f"/?token={token}")
        answer = connection.getresponse()
        check(answer.status == 200 and b"stackplay studio" in answer.read(), "the token opens the page")
        connection.close()

        driver = browser()
        driver.get(url)
        wait(driver, lambda: driver.find_element(By.ID, "connection").text == "connected", "the page connects")
        wait(driver, lambda: test_row(driver, "a short drag keeps the card") is not None,
             "the Tests pane lists the file's tests before any run")
        tags = tags_of(driver, "a short drag keeps the card")
        check(tags == ["swipe", "edge"], f"a test shows its tags ({tags})")

        print("Tests: run a file")
        driver.find_element(By.CSS_SELECTOR, '#test-tree li.file button.run').click()
        wait(driver, lambda: status(driver, "a drag past 110 pt clears a card") == "passed"
             and status(driver, "a short drag keeps the card") == "passed", "running the file shows both passed")
        driver.find_element(By.ID, "test-filter").send_keys("edge")
        shown = steady(lambda: [r.get_attribute("data-name") for r in driver.find_elements(
            By.CSS_SELECTOR, "#test-tree li.test") if r.is_displayed()])
        check(shown == ["a short drag keeps the card"],
              "the filter keeps the test tagged 'edge'")
        driver.find_element(By.ID, "test-filter").clear()
        driver.find_element(By.ID, "test-filter").send_keys(" ")
        driver.find_element(By.ID, "test-filter").clear()

        print("Tests: watch")
        with open(os.path.join(folder, "cards.lua"), "w") as f:
            f.write(CARDS % 130)  # the short drag is now long: the card leaves and the test fails
        wait(driver, lambda: status(driver, "a short drag keeps the card") == "failed",
             "saving the file re-runs it: the page shows the new failure", timeout=20)
        shot(driver, "tests")

        print("Tests: open the failing test at its failing action")
        steady(lambda: test_row(driver, "a short drag keeps the card").click())
        chosen = Select(driver.find_element(By.ID, "detail-action")).first_selected_option.text
        check("stack:drag" in chosen and "where it failed" in chosen,
              f"the action list preselects the action where it failed ({chosen})")
        driver.find_element(By.ID, "detail-open").click()
        wait(driver, lambda: "a short drag keeps the card" in driver.find_element(By.ID, "origin").text,
             "the live screen shows the failing test")
        wait(driver, lambda: state(driver, "notifications", "ids") == '{ "messages", "mail" }',
             "rebuilt by replaying its trace to that action: the card is gone, as the failure says")
        driver.find_element(By.ID, "detail-viewer").click()
        driver.switch_to.frame(driver.find_element(By.ID, "viewer"))
        WebDriverWait(driver, 10).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        check("short drag" in driver.find_element(By.ID, "title").text, "the trace viewer shows the result")
        check(len(driver.find_elements(By.CSS_SELECTOR, "#actions li.failing")) == 1,
              "the viewer marks the failing expectation")
        driver.switch_to.default_content()
        shot(driver, "viewer")
        driver.find_element(By.ID, "tab-live").click()

        print("Live screen: drag a card 120 pt")
        open_fresh(driver)
        open_stack(driver)
        drag(driver, "calendar", -120)
        fps = fps_while_dragging(driver)
        wait(driver, lambda: state(driver, "notifications", "ids") == '{ "messages", "mail", "fitness" }'
             and card(driver, "calendar") is None, "a 120 pt drag to the left clears the calendar card")
        print(f"  frames drawn per second while dragging: {fps:.1f} (target 60)")
        if SHOTS:
            with open(os.path.join(SHOTS, "studio-fps.txt"), "w") as f:
                f.write(f"{fps:.1f} frames a second\n")
        check(fps >= 20, f"the page draws frames while dragging ({fps:.1f} a second; the target is 60)")
        trips = driver.execute_script("return window.studio.stats.roundTrips.slice().sort((a, b) => a - b)")
        if trips:
            print(f"  page round trips: p50 {trips[len(trips) // 2]:.2f} ms, "
                  f"p99 {trips[int(len(trips) * 0.99)]:.2f} ms over {len(trips)}")

        print("Live screen: right to left")
        Select(driver.find_element(By.ID, "set-direction")).select_by_value("rtl")
        wait(driver, lambda: driver.find_element(By.ID, "screen").get_attribute("data-direction") == "rtl",
             "the direction toggle turns the live screen right to left")
        actions = ActionChains(driver, duration=16)
        actions.move_to_element(card(driver, "mail")).click_and_hold()
        move_by(driver, actions, 120, steps=15)
        actions.perform()
        wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#screen .guide.x")) == 1,
             "while a finger drags a card, the 110 pt threshold guide shows")
        shot(driver, "drag-rtl")
        ActionChains(driver).release().perform()
        wait(driver, lambda: state(driver, "notifications", "ids") == '{ "messages", "fitness" }',
             "in right to left, a 120 pt drag to the right clears the card")

        print("Live screen: sticky cards scroll with the wheel, as a finger drags them")
        driver.find_element(By.CSS_SELECTOR, "#fresh summary").click()
        driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="notification_stack"]').click()
        driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="sticky_stacked_cards"]').click()
        driver.find_element(By.ID, "fresh-open").click()
        wait(driver, lambda: state(driver, "sticky", "scroll_offset") == "0", "New screen opens sticky cards")
        check(len(driver.find_elements(By.CSS_SELECTOR, "#screen .guide.y")) >= 2, "the sticky cards' pin lines show")
        ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(card(driver, "messages")), 0, 200).perform()
        wait(driver, lambda: float(state(driver, "sticky", "scroll_offset") or 0) > 100,
             "the wheel scrolls the sticky cards")
        shot(driver, "sticky")
        driver.find_element(By.CSS_SELECTOR, "#fresh summary").click()
        driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="sticky_stacked_cards"]').click()
        driver.find_element(By.CSS_SELECTOR, 'input[name="kind"][value="notification_stack"]').click()
        driver.find_element(By.CSS_SELECTOR, "#fresh summary").click()

        print("Record")
        Select(driver.find_element(By.ID, "set-direction")).select_by_value("ltr")
        open_fresh(driver)
        driver.find_element(By.ID, "record").click()
        wait(driver, lambda: driver.find_element(By.ID, "record").get_attribute("aria-pressed") == "true",
             "Record starts")
        open_stack(driver)
        drag(driver, "mail", -120)
        wait(driver, lambda: state(driver, "notifications", "ids") == '{ "messages", "calendar", "fitness" }'
             and resting(driver), "the recorded drag clears the mail card")
        driver.find_element(By.ID, "pick").click()
        ActionChains(driver).move_to_element(card(driver, "calendar")).click().perform()
        menu = driver.find_element(By.ID, "pick-menu")
        check(menu.is_displayed(), "picking a card offers what to expect of it")
        menu.find_element(By.CSS_SELECTOR, 'button[data-field="x"]').click()
        wait(driver, lambda: ':card("calendar").x):to_be_near(16' in driver.find_element(By.ID, "lua").text,
             "the picked expectation (the calendar card's x) is written into the scenario")
        lua = driver.find_element(By.ID, "lua").text
        check(":ids()" not in lua, "a picked expectation replaces the default ones")
        check(':drag("mail"' in lua, f"the drag is written as a drag of the card it started on:\n{lua}")
        shot(driver, "record")
        if README_PNG:
            driver.save_screenshot(README_PNG)
        name = driver.find_element(By.ID, "save-name")
        name.clear()
        name.send_keys("recorded_swipe.lua")
        driver.find_element(By.ID, "save").click()
        wait(driver, lambda: "passes under stackplay --mirror" in driver.find_element(By.ID, "save-result").text,
             "Save writes the file and runs it")
        result = driver.find_element(By.ID, "save-result").text
        check("✗" not in result, f"the page says the saved scenario passes, as written and mirrored ({result})")
        saved = os.path.join(folder, "recorded_swipe.lua")
        for args in [[], ["--mirror"]]:
            run = subprocess.run([STACKPLAY] + args + [saved], capture_output=True, text=True, env=env)
            check(run.returncode == 0, f"the saved scenario passes under stackplay {' '.join(args)}\n{run.stdout}{run.stderr}")
        before = open(saved).read()
        driver.execute_script("window.confirm = () => false")
        driver.find_element(By.ID, "save").click()
        time.sleep(0.5)
        check(open(saved).read() == before, "saving again over the file needs a confirmation (declined: unchanged)")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(errors == [], f"no errors in the console {errors}")
        print("studio_test: all passed")
    finally:
        if driver:
            driver.quit()
        if studio:
            studio.terminate()
            studio.wait(5)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
