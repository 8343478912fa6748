"""The search page of `quarry serve` in headless Chromium, used as a reporter
would: type a query, read the hits, open one, open a story's other reports,
show every report, find articles like one and go back, page forward, sort by
date, narrow by a bar of the timeline of dates, narrow by language and search
one language, complete a word, use the keyboard and a phone's width, and with
JavaScript off. An article whose title and body are markup shows as text and
runs nothing.

Run by CTest (tests/CMakeLists.txt) with the programs' paths:
    /usr/bin/python3 tests/browser/search_page_test.py --quarry build/query/quarry \
        --quarry-index build/indexer/quarry-index --corpus corpus
With --screenshot FILE it also saves the results of a search as a PNG.

Needs Debian's chromium, chromium-driver and python3-selenium (make deps).
Without them it exits 77, which CTest reports as skipped, except under CI
(CI set in the environment), where it fails: CI must run it.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import unittest
import urllib.request

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    webdriver = None

# The fixture is imported from this folder; no cache is written into the
# source tree.
sys.dont_write_bytecode = True
from page_fixture import (  # noqa: E402
    CHROMIUM,
    CHROMEDRIVER,
    SKIP,
    PATIENCE,
    OPTIONS,
    HOSTILE_TITLE,
    HOSTILE_SOURCE,
    RAUCOUS,
    BUST_UP,
    CAMERAS,
    check_lighthouse_timeline,
    Server,
    browser,
    served,
    ServedTestCase,
    lantern_lines)


class SearchPageTest(ServedTestCase):

    def query_typed(self):
        """What the search box holds."""
        return self.driver.find_element(By.ID, "q").get_attribute("value")

    def wait(self):
        # A page being replaced leaves stale elements: look again.
        return WebDriverWait(self.driver, PATIENCE,
                             ignored_exceptions=[StaleElementReferenceException])

    def search(self, query, reports="One per story"):
        """Types `query` in the box and presses Enter, as a person would,
        with the hits of a story shown once or each (reports)."""
        self.driver.get(self.server.url + "/")
        self.wait_ready()
        Select(self.driver.find_element(By.ID, "collapse")).select_by_visible_text(reports)
        box = self.driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys(query + Keys.ENTER)
        self.wait_for_count()
        # Drawn by the script from /api/search, not by a page load.
        self.assertNotIn(self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready"),
                         (None, "0"))

    def wait_ready(self):
        # The script marks the body once it has taken over the page.
        self.wait().until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))

    def wait_for_count(self, text=None):
        def drawn(driver):
            counts = driver.find_elements(By.ID, "count")
            return counts and (text is None or counts[0].text == text)
        self.wait().until(drawn)

    def hits(self):
        return self.driver.find_elements(By.CSS_SELECTOR, "li.hit")

    def titles(self):
        return [hit.find_element(By.CSS_SELECTOR, ".title").text for hit in self.hits()]

    def open_reports(self, hit):
        """Opens "+N more reports" from the keyboard; their titles once
        they have come."""
        summary = hit.find_element(By.CSS_SELECTOR, ".more summary")
        summary.send_keys(Keys.ENTER)
        return self.wait().until(lambda d: report_titles(hit))

    def assert_no_script_ran(self):
        self.assertIsNone(self.driver.execute_script("return window.pwned"))
        with self.assertRaises(NoAlertPresentException):
            self.driver.switch_to.alert.text

    def test_search_shows_a_story_once_with_highlighted_words(self):
        self.search("penalty Herrera")
        self.assertEqual(self.driver.find_element(By.ID, "count").text, "3 articles match, 1 story")
        self.assertEqual(self.titles(), [RAUCOUS])
        hit = self.hits()[0]
        marked = {mark.text.lower() for mark in hit.find_elements(By.CSS_SELECTOR, ".snippet mark")}
        self.assertEqual(marked, {"penalty", "herrera"})
        self.assertEqual(hit.find_element(By.CSS_SELECTOR, ".more summary").text, "+2 more reports")
        self.assertIn("q=penalty%20Herrera", self.driver.current_url)
        self.assertEqual(self.driver.title, "penalty Herrera — Quarry")

    def test_more_reports_open_the_others(self):
        self.search("penalty Herrera")
        hit = self.hits()[0]
        self.assertFalse(hit.find_element(By.CSS_SELECTOR, ".reports").is_displayed())
        self.assertEqual(self.open_reports(hit), [BUST_UP, CAMERAS])
        hit.find_element(By.LINK_TEXT, CAMERAS).click()
        self.wait().until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "article h1")))
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "article h1").text, CAMERAS)

    def test_all_reports_shows_every_article(self):
        self.search("penalty Herrera", reports="All reports")
        self.assertEqual(self.driver.find_element(By.ID, "count").text, "3 articles match")
        self.assertEqual(sorted(self.titles()), sorted([RAUCOUS, BUST_UP, CAMERAS]))
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".more"), [])
        self.assertIn("collapse=none", self.driver.current_url)
        Select(self.driver.find_element(By.ID, "collapse")).select_by_visible_text("One per story")
        self.wait_for_count("3 articles match, 1 story")
        self.assertEqual(self.titles(), [RAUCOUS])
        self.assertNotIn("collapse", self.driver.current_url)

    def test_more_like_this_shows_the_others_and_not_itself(self):
        self.search("penalty Herrera", reports="All reports")
        hit = next(hit for hit in self.hits()
                   if hit.find_element(By.CSS_SELECTOR, ".title").text == RAUCOUS)
        hit.find_element(By.LINK_TEXT, "More like this").click()
        self.wait_for_like(RAUCOUS)
        self.assertEqual(sorted(self.titles()), sorted([BUST_UP, CAMERAS]))
        self.assertEqual(self.driver.title, "Articles like " + RAUCOUS + " — Quarry")
        self.assertIn("like=000_574c536d11495eda.txt", self.driver.current_url)
        self.driver.find_element(By.LINK_TEXT, "← Results for penalty Herrera").click()
        self.wait_for_count("3 articles match")
        self.assertEqual(len(self.hits()), 3)
        self.assertEqual(self.query_typed(), "penalty Herrera")

    def test_more_like_this_by_stories_shows_its_own_marked(self):
        self.search("penalty Herrera")
        self.hits()[0].find_element(By.LINK_TEXT, "More like this").click()
        self.wait_for_like(RAUCOUS)
        # Its own story is the hit most like it, one report of it shown, marked.
        titles = self.titles()
        self.assertEqual(len(titles), 1)
        self.assertIn(titles[0], {BUST_UP, CAMERAS})
        self.assertEqual(self.hits()[0].find_element(By.CSS_SELECTOR, ".same-story").text,
                         "same story")
        self.assertNotIn("show all reports", self.driver.find_element(By.ID, "main").text)

    def wait_for_like(self, title):
        """Waits for the page of articles like the one of `title`."""
        self.wait().until(lambda d: [like.text for like in d.find_elements(By.CSS_SELECTOR, "p.like")]
                          == ["Articles like " + title])
        self.wait_for_count()

    def test_highlights_count_code_points(self):
        self.search("airship café")
        hit = self.hits()[0]
        self.assertEqual([m.text for m in hit.find_elements(By.CSS_SELECTOR, ".title mark")],
                         ["Café", "airship"])
        self.assertEqual([m.text for m in hit.find_elements(By.CSS_SELECTOR, ".snippet mark")],
                         ["airship", "café", "airship"])

    def test_open_a_hit(self):
        self.search("penalty Herrera")
        first = self.hits()[0].find_element(By.CSS_SELECTOR, ".title a")
        title = first.text
        first.click()
        self.wait().until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "article h1")))
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "article h1").text, title)
        body = self.driver.find_element(By.CSS_SELECTOR, "article .body")
        marked = {mark.text.lower() for mark in body.find_elements(By.TAG_NAME, "mark")}
        self.assertEqual(marked, {"penalty", "herrera"})
        self.driver.find_element(By.CSS_SELECTOR, ".back a").click()
        self.wait_for_count("3 articles match, 1 story")

    def test_an_articles_paragraphs_are_set_apart(self):
        self.search("penalty Herrera")
        self.hits()[0].find_element(By.CSS_SELECTOR, ".title a").click()
        self.wait().until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "article h1")))
        paragraphs = self.driver.find_elements(By.CSS_SELECTOR, "article .body p")
        self.assertGreater(len(paragraphs), 2)
        first, second = (p.rect for p in paragraphs[:2])
        self.assertGreater(second["y"] - (first["y"] + first["height"]), 0)

    def test_a_highlight_covers_its_word_and_not_the_space_after_it(self):
        self.search("airship café")
        for mark in self.hits()[0].find_elements(By.CSS_SELECTOR, ".title mark"):
            # The box of the mark against the box of its text alone.
            mark_box, text_box = self.driver.execute_script(
                "const range = document.createRange();"
                "range.selectNodeContents(arguments[0]);"
                "return [arguments[0].getBoundingClientRect().toJSON(),"
                " range.getBoundingClientRect().toJSON()];", mark)
            self.assertLessEqual(mark_box["right"], text_box["right"] + 0.5, mark.text)
            self.assertGreaterEqual(mark_box["left"], text_box["left"] - 0.5, mark.text)

    def test_page_forward_and_back(self):
        self.search("zeppelin", reports="All reports")
        self.assertEqual(self.driver.find_element(By.ID, "count").text, "25 articles match")
        first_page = self.titles()
        self.assertEqual(len(first_page), 10)
        self.driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
        self.wait().until(lambda d: d.find_element(By.CSS_SELECTOR, ".range").text == "11–20 of 25")
        second_page = self.titles()
        self.assertEqual(len(second_page), 10)
        self.assertFalse(set(first_page) & set(second_page))
        self.assertIn("offset=10", self.driver.current_url)
        self.driver.back()
        self.wait().until(lambda d: d.find_element(By.CSS_SELECTOR, ".range").text == "1–10 of 25")
        self.assertEqual(self.titles(), first_page)

    def test_sort_by_date(self):
        self.search("zeppelin", reports="All reports")
        Select(self.driver.find_element(By.ID, "sort")).select_by_visible_text("Oldest first")
        self.wait().until(lambda d: "sort=date" in d.current_url)
        self.wait().until(lambda d: self.titles()[:2] == ["Zeppelin sighted, day 1",
                                                         "Zeppelin sighted, day 2"])
        Select(self.driver.find_element(By.ID, "sort")).select_by_visible_text("Newest first")
        self.wait().until(lambda d: self.titles()[:1] == ["Zeppelin sighted, day 25"])
        dates = [d.text for d in self.driver.find_elements(By.CSS_SELECTOR, ".hit .date")]
        self.assertEqual(dates, sorted(dates, reverse=True))

    def test_newest_relevant_weighs_relevance_by_age(self):
        # The oldest log alone holds both words.
        self.search("lamp oil", reports="All reports")
        self.assertEqual(self.titles()[0], "Lighthouse log 2016-11-03")
        Select(self.driver.find_element(By.ID, "sort")).select_by_visible_text("Newest relevant")
        self.wait().until(lambda d: "sort=recent" in d.current_url)
        self.wait().until(lambda d: self.titles()[:1] == ["Lighthouse log 2017-03-21"])

    def test_a_facet_narrows_the_search(self):
        self.search("zeppelin", reports="All reports")
        link = self.driver.find_element(By.LINK_TEXT, "Coast News")
        link.click()
        self.wait_for_count("12 articles match")
        self.assertEqual(self.query_typed(), 'zeppelin source:"Coast News"')

    def test_dates_are_a_timeline_whose_bars_narrow_the_search(self):
        self.search("lighthouse", reports="All reports")
        self.wait_for_count("6 articles match")
        check_lighthouse_timeline(self, self.driver)
        # The section is a chart, not a list of dates.
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".dates li"), [])
        self.driver.find_elements(By.CSS_SELECTOR, "svg.timeline rect")[2].click()
        self.wait_for_count("2 articles match")
        self.assertEqual(self.query_typed(), "lighthouse date:2017-03")

    def test_each_hit_says_its_language_and_a_facet_narrows_to_one(self):
        self.search("tramways", reports="All reports")
        self.wait_for_count("2 articles match")
        languages = [span.text for span in self.driver.find_elements(By.CSS_SELECTOR, ".hit .language")]
        self.assertEqual(sorted(languages), ["en", "fr"])
        self.driver.find_element(By.LINK_TEXT, "fr").click()
        self.wait_for_count("1 article matches")
        self.assertEqual(self.query_typed(), "tramways language:fr")
        self.assertEqual(self.titles(), ["Les tramways roulent de nouveau"])

    def test_one_language_is_kept_until_every_language_is_asked(self):
        self.driver.get(self.server.url + "/?q=tramways&collapse=none&language=fr")
        self.wait_ready()
        self.wait_for_count("1 article matches")
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "p.language").text,
                         "Only articles in fr: search every language")
        # The next query typed searches French articles too.
        box = self.driver.find_element(By.ID, "q")
        box.clear()
        box.send_keys("tramways roulent" + Keys.ENTER)
        self.wait().until(lambda d: "roulent" in d.current_url)
        self.wait_for_count("1 article matches")
        self.assertIn("language=fr", self.driver.current_url)
        self.assertEqual(self.titles(), ["Les tramways roulent de nouveau"])
        self.driver.find_element(By.LINK_TEXT, "search every language").click()
        self.wait_for_count("2 articles match")
        self.assertNotIn("language", self.driver.current_url)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "p.language"), [])

    def test_hostile_markup_shows_as_text_and_runs_nothing(self):
        self.search("hostile")
        self.assertEqual(self.titles(), [HOSTILE_TITLE])
        snippet = self.hits()[0].find_element(By.CSS_SELECTOR, ".snippet")
        self.assertIn("<b>bold</b>", snippet.text)
        self.assertEqual(snippet.find_elements(By.TAG_NAME, "b"), [])
        self.assertEqual(self.hits()[0].find_element(By.CSS_SELECTOR, ".source").text,
                         HOSTILE_SOURCE)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "main img, main script, main i"),
                         [])
        self.assert_no_script_ran()
        self.hits()[0].find_element(By.CSS_SELECTOR, ".title a").click()
        self.wait().until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "article h1")))
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "article h1").text, HOSTILE_TITLE)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "main img, main script"), [])
        self.assert_no_script_ran()

    def test_completion_offers_indexed_words_in_the_case_typed(self):
        self.driver.get(self.server.url + "/")
        self.wait_ready()
        self.driver.find_element(By.ID, "q").send_keys("penalty Herr")
        options = "return [...document.querySelectorAll('#completions option')].map(o => o.value)"
        self.wait().until(lambda d: d.execute_script(options) == ["penalty Herrera"])

    def test_a_page_past_the_last_hit_says_so(self):
        self.driver.get(self.server.url + "/?q=zeppelin&collapse=none&offset=30")
        self.wait_ready()
        self.wait().until(lambda d: d.find_elements(By.ID, "past-end"))
        self.assertEqual(self.driver.find_element(By.ID, "past-end").text,
                         "No hits here: the page starts at 31, past the last of 25 articles.")
        self.driver.get(self.server.url + "/?q=penalty%20Herrera&offset=10")
        self.wait_ready()
        self.wait().until(lambda d: d.find_elements(By.ID, "past-end"))
        self.assertEqual(self.driver.find_element(By.ID, "past-end").text,
                         "No hits here: the page starts at 11, past the last of 1 story.")

    def test_keyboard_slash_focuses_the_box(self):
        self.search("zeppelin")
        self.driver.find_element(By.TAG_NAME, "body").click()
        self.driver.switch_to.active_element.send_keys("/")
        self.assertEqual(self.driver.switch_to.active_element.get_attribute("id"), "q")

    def test_an_alert_that_arrives_while_the_page_is_open_is_listed(self):
        self.driver.get(self.server.url + "/")
        self.wait_ready()
        panel = self.driver.find_element(By.ID, "alerts")
        self.assertFalse(panel.is_displayed())
        self.server.append_alert({"alert": "derby", "id": "000_574c536d11495eda.txt",
                                  "title": "A <b>raucous</b> derby", "date": "2017-12-10",
                                  "snippet": "", "language": "en"})
        link = self.wait().until(lambda d: d.find_element(By.CSS_SELECTOR, "#alerts li.alert a"))
        self.assertTrue(panel.is_displayed())
        self.assertEqual(link.text, "A <b>raucous</b> derby")
        self.assertEqual(link.get_attribute("href"),
                         self.server.url + "/articles/000_574c536d11495eda.txt")
        self.assertEqual(panel.find_element(By.CSS_SELECTOR, ".alert-name").text, "derby")

    def test_no_content_security_policy_violation(self):
        self.search("penalty Herrera")
        errors = [entry["message"] for entry in self.driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]
        self.assertEqual(errors, [])


class StoryCountTest(ServedTestCase):
    """The count line over many stories, on an index of its own."""

    @classmethod
    def lines(cls):
        return lantern_lines()

    def search(self, query):
        self.driver.get(self.server.url + "/")
        WebDriverWait(self.driver, PATIENCE).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        self.driver.find_element(By.ID, "q").send_keys(query + Keys.ENTER)
        WebDriverWait(self.driver, PATIENCE, ignored_exceptions=[StaleElementReferenceException]) \
            .until(lambda d: d.find_elements(By.ID, "count"))

    def test_count_says_the_exact_number_of_stories(self):
        # Every story shown on one page, one hit each: as many hits as
        # there are stories.
        every = self.server.url + "/api/search?q=lantern&n=100&snippets=false"
        with urllib.request.urlopen(every, timeout=PATIENCE) as response:
            answer = json.load(response)
        self.assertLessEqual(answer["total"], 100)
        stories = len(answer["hits"])
        self.assertLess(stories, answer["total"])
        self.assertEqual(answer["stories"], stories)
        self.search("lantern")
        self.assertEqual(self.driver.find_element(By.ID, "count").text,
                         f"{answer['total']} articles match, {stories} stories")


class NarrowScreenTest(unittest.TestCase):
    def test_fits_a_phone_width(self):
        with served(width=390, height=844) as (server, driver):
            driver.get(server.url + "/?q=penalty+Herrera")
            self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "li.hit")), 1)
            # The reports' ids are long words: open, they still fit.
            driver.find_element(By.CSS_SELECTOR, ".more summary").click()
            width = driver.execute_script("return document.documentElement.clientWidth")
            scroll = driver.execute_script("return document.documentElement.scrollWidth")
            self.assertLessEqual(scroll, width)


class TokenTest(unittest.TestCase):
    """A server that asks for a token: the page asks for it once, then
    searches and streams alerts as without one."""

    TOKEN = "browser-test-token-5d1f0c2b9e"

    def test_signing_in_once_opens_the_page_its_searches_and_alerts(self):
        folder = tempfile.mkdtemp(prefix="quarry-browser-")
        tokens = os.path.join(folder, "tokens")
        with open(tokens, "w", encoding="utf-8") as file:
            file.write(self.TOKEN + "\n")
        os.chmod(tokens, 0o600)
        server = Server(folder, options=("--token-file", tokens))
        driver = browser(folder)
        wait = WebDriverWait(driver, PATIENCE, ignored_exceptions=[StaleElementReferenceException])
        try:
            driver.get(server.url + "/")
            self.assertEqual(driver.find_elements(By.ID, "q"), [])
            driver.find_element(By.ID, "token").send_keys("wrong-token-wrong-token" + Keys.ENTER)
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "p[role=alert]"))
            driver.find_element(By.ID, "token").send_keys(self.TOKEN + Keys.ENTER)
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
            # The cookie is the server's alone: the page's script cannot read it.
            self.assertEqual(driver.execute_script("return document.cookie"), "")
            driver.find_element(By.ID, "q").send_keys("penalty Herrera" + Keys.ENTER)
            wait.until(lambda d: d.find_elements(By.ID, "count"))
            self.assertEqual(driver.find_element(By.ID, "count").text, "3 articles match, 1 story")
            server.append_alert({"alert": "derby", "id": "000_574c536d11495eda.txt",
                                 "title": "Derby", "date": "2017-12-10", "snippet": "",
                                 "language": "en"})
            link = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#alerts li.alert a"))
            self.assertEqual(link.text, "Derby")
        finally:
            driver.quit()
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)


class WithoutJavaScriptTest(unittest.TestCase):
    def test_a_plain_query_works(self):
        folder = tempfile.mkdtemp(prefix="quarry-browser-")
        server = Server(folder)
        driver = browser(folder, javascript=False)
        try:
            driver.get(server.url + "/")
            box = driver.find_element(By.ID, "q")
            box.send_keys("penalty Herrera" + Keys.ENTER)
            WebDriverWait(driver, PATIENCE).until(
                lambda d: d.find_elements(By.ID, "count"))
            self.assertIsNone(driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
            self.assertEqual(driver.find_element(By.ID, "count").text, "3 articles match, 1 story")
            self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, "li.hit mark")) > 0, True)
            hits = driver.find_elements(By.CSS_SELECTOR, "li.hit")
            self.assertEqual([hit.find_element(By.CSS_SELECTOR, ".title").text for hit in hits],
                             [RAUCOUS])
            hits[0].find_element(By.CSS_SELECTOR, ".more summary").click()
            self.assertEqual(report_titles(hits[0]), [BUST_UP, CAMERAS])
            # Articles like it, every report shown: the other two.
            hits[0].find_element(By.LINK_TEXT, "More like this").click()
            WebDriverWait(driver, PATIENCE).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.like"))
            hits = driver.find_elements(By.CSS_SELECTOR, "li.hit")
            self.assertEqual(len(hits), 1)
            self.assertIn(hits[0].find_element(By.CSS_SELECTOR, ".title").text, {BUST_UP, CAMERAS})
            self.assertEqual(hits[0].find_element(By.CSS_SELECTOR, ".same-story").text,
                             "same story")
            driver.find_element(By.LINK_TEXT, "← Results for penalty Herrera").click()
            WebDriverWait(driver, PATIENCE).until(lambda d: "like=" not in d.current_url)
            self.assertEqual(driver.find_element(By.ID, "count").text, "3 articles match, 1 story")
            # The same timeline as the script draws, each bar a link.
            driver.get(server.url + "/?q=lighthouse&collapse=none")
            self.assertEqual(driver.find_element(By.ID, "count").text, "6 articles match")
            check_lighthouse_timeline(self, driver)
            driver.find_elements(By.CSS_SELECTOR, "svg.timeline rect")[0].click()
            WebDriverWait(driver, PATIENCE).until(lambda d: "2016-11" in d.current_url)
            self.assertEqual(driver.find_element(By.ID, "count").text, "1 article matches")
            driver.get(server.url + "/?q=hostile")
            self.assertEqual(driver.find_element(By.CSS_SELECTOR, "li.hit .title").text,
                             HOSTILE_TITLE)
            # One language, kept by the form for the next query.
            driver.get(server.url + "/?q=tramways&language=fr")
            self.assertEqual(driver.find_element(By.ID, "count").text, "1 article matches")
            box = driver.find_element(By.ID, "q")
            box.clear()
            box.send_keys("tramways roulent" + Keys.ENTER)
            WebDriverWait(driver, PATIENCE).until(lambda d: "roulent" in d.current_url)
            self.assertIn("language=fr", driver.current_url)
            self.assertEqual(driver.find_element(By.ID, "count").text, "1 article matches")
            driver.find_element(By.LINK_TEXT, "search every language").click()
            WebDriverWait(driver, PATIENCE).until(lambda d: "language" not in d.current_url)
            self.assertEqual(driver.find_element(By.ID, "count").text, "2 articles match")
            driver.get(server.url + "/?q=penalty%20Herrera&offset=10")
            self.assertEqual(driver.find_element(By.ID, "past-end").text,
                             "No hits here: the page starts at 11, past the last of 1 story.")
        finally:
            driver.quit()
            server.stop()
            shutil.rmtree(folder, ignore_errors=True)


def report_titles(hit):
    """The titles "+N more reports" lists under `hit`, once each shows its
    title rather than its id."""
    titles = [link.text for link in hit.find_elements(By.CSS_SELECTOR, ".reports li a")]
    return titles if titles and not any(title.endswith(".txt") for title in titles) else None


def screenshot(path):
    """The results of a search, as the README shows them."""
    with served(width=900, height=640) as (server, driver):
        driver.get(server.url + "/?q=penalty+Herrera")
        driver.find_element(By.CSS_SELECTOR, ".more summary").click()
        WebDriverWait(driver, PATIENCE).until(report_titles)
        driver.save_screenshot(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quarry", required=True)
    parser.add_argument("--quarry-index", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--screenshot")
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
    if arguments.screenshot:
        screenshot(arguments.screenshot)
        return 0
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
