"""What the search page says beside its hits, in headless Chromium, with
JavaScript and without: a query searched as its spelling suggestion offers
to search the query as typed, and a facet of more values than it lists
says how many more.

Run by CTest (tests/CMakeLists.txt) as search_page_test.py is, with the
same arguments and the same needs (exits 77 without them, but under CI).
"""

import argparse
import json
import os
import sys
import unittest

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None

sys.dont_write_bytecode = True
from page_fixture import (  # noqa: E402
    CHROMIUM,
    CHROMEDRIVER,
    SKIP,
    PATIENCE,
    OPTIONS,
    browser,
    ServedTestCase)

# Twelve kite clubs, each with a report: a word in enough articles to be
# suggested, and a source facet of twelve values, two past those listed.
CLUBS = 12


def kite_lines():
    return "".join(json.dumps({
        "id": f"kite-{club:02}", "title": f"Kites over the dunes, club {club}",
        "body": f"The kites of club {club} flew over the dunes all afternoon.",
        "date": f"2019-05-{club:02}", "source": f"Kite Club {club:02}", "category": "clubs",
    }) + "\n" for club in range(1, CLUBS + 1))


class SearchPageHintsTest(ServedTestCase):

    @classmethod
    def lines(cls):
        return kite_lines()

    def wait(self, driver=None):
        return WebDriverWait(driver or self.driver, PATIENCE,
                             ignored_exceptions=[StaleElementReferenceException])

    def count(self, driver=None):
        return self.wait(driver).until(lambda d: d.find_element(By.ID, "count")).text

    def search(self, query):
        """Types `query` in the box and presses Enter, as a person would."""
        self.driver.get(self.server.url + "/")
        self.wait().until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        self.driver.find_element(By.ID, "q").send_keys(query + Keys.ENTER)
        self.wait().until(lambda d: d.find_elements(By.ID, "count"))

    def check_search_instead(self, driver):
        """On the page of a corrected search: says so as the command line
        does, and its link searches the query as typed."""
        suggestion = driver.find_element(By.CSS_SELECTOR, "p.suggestion")
        self.assertEqual(suggestion.text, "Showing results for kites; search instead for kytes")
        self.assertEqual(self.count(driver), f"{CLUBS} articles match")
        suggestion.find_element(By.LINK_TEXT, "kytes").click()
        self.wait(driver).until(lambda d: "correct=never" in d.current_url)
        self.wait(driver).until(lambda d: self.count(d) == "No articles match.")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "p.suggestion").text,
                         "Did you mean kites")
        self.assertEqual(driver.find_element(By.ID, "q").get_attribute("value"), "kytes")

    def test_a_corrected_search_offers_the_query_as_typed(self):
        self.search("kytes")
        self.check_search_instead(self.driver)
        # Drawn by the script, and back to the corrected search.
        self.assertNotIn(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready"),
                         (None, "0"))
        self.driver.back()
        self.wait().until(lambda d: self.count(d) == f"{CLUBS} articles match")

    def test_a_facet_says_how_many_values_it_does_not_list(self):
        self.search("kites")
        facet = self.driver.find_element(By.CSS_SELECTOR, ".facet:not(.dates)")
        self.assertEqual(len(facet.find_elements(By.CSS_SELECTOR, "li a")), 10)
        self.assertEqual(facet.find_element(By.CSS_SELECTOR, "li.rest").text, "2 more")

    def test_without_javascript_the_same(self):
        driver = browser(self.folder, javascript=False)
        try:
            driver.get(self.server.url + "/?q=kytes")
            self.check_search_instead(driver)
            self.assertIsNone(driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
            driver.get(self.server.url + "/?q=kites")
            facet = driver.find_element(By.CSS_SELECTOR, ".facet:not(.dates)")
            self.assertEqual(facet.find_element(By.CSS_SELECTOR, "li.rest").text, "2 more")
        finally:
            driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quarry", required=True)
    parser.add_argument("--quarry-index", required=True)
    parser.add_argument("--corpus", required=True)
    arguments, rest = parser.parse_known_args()
    OPTIONS.__dict__.update(vars(arguments))
    missing = [name for name, present in [
        ("python3-selenium", webdriver is not None),
        ("chromium", os.access(CHROMIUM, os.X_OK)),
        ("chromium-driver", os.access(CHROMEDRIVER, os.X_OK))] if not present]
    if missing:
        print("browser tests need " + ", ".join(missing) + " (make deps installs them)",
              file=sys.stderr)
        return 1 if os.environ.get("CI") else SKIP
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
