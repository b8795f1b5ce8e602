#!/usr/bin/env python3
"""`stackplay mutate --html` in a real browser: headless Chromium driven by Selenium (`make test-browser`).

Mutates a one-test suite (a swipe of exactly 110 pt) with --suggest, --html and --artifacts, then
opens the page as a person would: no console error; the score as Stryker counts it; the mutants in
a section a SPEC id, reached from the navigation; the survivor with what it changes (in words and
in the source's terms) and the test --suggest wrote for it beside it; the equivalent mutant
Ignored with its reason; and the killed mutant's link, which opens the trace viewer of the test
that killed it on that test, with no console error either.
Usage: mutation_page_test.py STACKPLAY [SCREENSHOT.png]
"""
import os
import shutil
import sys
import tempfile

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import browser, check, ready, stackplay  # noqa: E402

SCREENSHOT = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None

SUITE = """test("exactly 110 pt springs back", function()
  local screen = stackplay.screen { width = 390, height = 844 }
  local stack = screen:notification_stack {
    items = { "messages", "calendar", "mail" }, card_height = 70, dismissible = true,
    expanded = true, x = 16, y = 180, width = 358,
  }
  stack:drag("calendar", { x = -110 }); screen:settle()
  expect(stack:ids()):to_equal { "messages", "calendar", "mail" }
end)
"""


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def main():
    folder = tempfile.mkdtemp(prefix="stackplay-mutation-page-")
    try:
        with open(os.path.join(folder, "exact.lua"), "w") as f:
            f.write(SUITE)
        run = stackplay(["mutate", ".", "--mutants", "N13.strict,N13.threshold+,S3.floor+", "--suggest",
                         "suggested", "--html", "mutation.html", "--artifacts", "out"], folder, 0)
        check("suggested: suggested/N13.threshold+.lua" in run.stdout, "--suggest wrote a test for the survivor")
        page = os.path.join(folder, "mutation.html")
        driver = browser()
        try:
            print("mutation.html")
            driver.get("file://" + page)
            check(console_errors(driver) == [], "no errors in the console")
            check(driver.find_element(By.CSS_SELECTOR, "h1 .score").text == "50%",
                  "the score: 1 detected of 2 valid (the ignored equivalent is in no score)")
            specs = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "nav a")]
            check(specs == ["N13", "S3"], f"the navigation names each SPEC id ({specs})")
            check("weak" in driver.find_element(By.CSS_SELECTOR, 'nav a[href="#N13"]').get_attribute("class"),
                  "a SPEC id with a survivor is marked")
            survivor = driver.find_element(By.ID, "N13.threshold+")
            check(survivor.find_element(By.CSS_SELECTOR, ".status").text.lower() == "survived",
                  "the survivor says it survived")
            check("a card leaves past 140 pt, not 110" in survivor.text, "what it changes, in words")
            check(survivor.find_element(By.CSS_SELECTOR, ".replacement code").text == "swipeThreshold = 140",
                  "and in the source's terms")
            suggestion = survivor.find_element(By.CSS_SELECTOR, "details.suggestion pre")
            check(suggestion.is_displayed() and "N13.threshold+" in suggestion.text and "expect(" in suggestion.text,
                  "the suggested test is beside it, shown")
            ignored = driver.find_element(By.ID, "S3.floor+")
            check("Ignored" in ignored.get_attribute("class") and "equivalent:" in ignored.text,
                  "the equivalent mutant is Ignored with its reason")
            driver.find_element(By.CSS_SELECTOR, 'nav a[href="#S3"]').click()
            check(driver.execute_script("return location.hash") == "#S3", "the navigation jumps to the SPEC id")
            driver.execute_script("window.scrollTo(0, 0)")
            if SCREENSHOT:
                os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
                driver.save_screenshot(SCREENSHOT)
                print(f"  wrote {SCREENSHOT}")

            print("the killed mutant's link: the trace viewer of the test that killed it")
            killed = driver.find_element(By.ID, "N13.strict")
            link = killed.find_element(By.CSS_SELECTOR, "a.trace")
            check(link.text == "./exact.lua: exactly 110 pt springs back", "the link names the killing test")
            link.click()
            ready(driver)
            check(driver.current_url.split("#")[0].endswith("/out/mutants/N13.strict/report.html"),
                  "it opens that mutant's trace viewer")
            check(driver.find_element(By.ID, "title-text").text == "./exact.lua: exactly 110 pt springs back",
                  "on the killing test")
            check(console_errors(driver) == [], "no errors in the viewer's console")
        finally:
            driver.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("mutation page: all checks passed")


if __name__ == "__main__":
    main()
