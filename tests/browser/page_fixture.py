"""What the browser tests of the search page share: the corpora they
index, a `quarry serve` of them, a headless Chromium, and test cases that
share one of each."""

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import unittest

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError:
    webdriver = None

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SKIP = 77
# Generous for a loaded machine; a wait that succeeds returns at once.
PATIENCE = 30

OPTIONS = argparse.Namespace()

HOSTILE_TITLE = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
HOSTILE_SOURCE = '<img src=x onerror="window.pwned = 5"><i>Nowhere</i>'
HOSTILE_BODY = 'hostile <b>bold</b> <script>window.pwned = 3</script> <img src=x onerror="alert(4)">'

# The sample corpus: three reports of one story.
RAUCOUS = "Mourinho in heated exchange with City players after derby defeat"
BUST_UP = "Mourinho and Ederson in dressing-room bust-up after Manchester derby"
CAMERAS = "United kept City's cameras out before the derby flashpoint"


def corpus_lines():
    """Articles beside the sample corpus: 25 about a zeppelin, one a day,
    for paging and sorting, and one of markup."""
    articles = [{
        "id": f"zeppelin-{day:02}",
        "title": f"Zeppelin sighted, day {day}",
        "body": f"A zeppelin was sighted over the harbour on day {day}.",
        "date": f"2017-01-{day:02}",
        "source": "Harbour Gazette" if day % 2 else "Coast News",
        "category": "news",
    } for day in range(1, 26)]
    articles.append({"id": "hostile", "title": HOSTILE_TITLE, "body": HOSTILE_BODY,
                     "date": "2017-02-01", "source": HOSTILE_SOURCE, "category": "x"})
    # Characters beyond the BMP take two UTF-16 units in JavaScript but one
    # code point in the API's offsets.
    articles.append({"id": "emoji", "title": "😀 Café airship 😀",
                     "body": "😀😀 An airship over the café, 🚀 the airship again.",
                     "date": "2017-02-02", "source": "Sky", "category": "x"})
    # A lighthouse now and then, for the timeline of dates: counts by month
    # in another order than the months', and a month without any between.
    lighthouse_days = ["2016-11-03", "2017-01-04", "2017-01-15", "2017-01-28", "2017-03-09",
                       "2017-03-21"]
    for n, day in enumerate(lighthouse_days):
        articles.append({"id": f"lighthouse-{n}", "title": f"Lighthouse log {day}",
                         "body": f"Entry {n} of the keeper: the lighthouse lamp, {LAMPS[n]}.",
                         "date": day + "T06:30:00", "source": "Keeper", "category": "log"})
    # The same news in English and in French, each saying its language.
    articles.append({"id": "tram-en", "title": "The tramways run again",
                     "body": "Repairs done, the tramways run again.",
                     "date": "2017-02-03", "source": "Wire", "category": "transport",
                     "language": "en"})
    articles.append({"id": "tram-fr", "title": "Les tramways roulent de nouveau",
                     "body": "Après une semaine de travaux, les tramways roulent de nouveau.",
                     "date": "2017-02-03", "source": "Wire", "category": "transport",
                     "language": "fr"})
    return "".join(json.dumps(article) + "\n" for article in articles)


LAMPS = ["oil smoke", "a cracked prism", "fog horn drills", "gull nests on the gallery",
         "a new wick", "storm shutters painted"]
# The lighthouse's matches by month, in date order, as the bars' titles say.
LIGHTHOUSE_MONTHS = ["2016-11: 1 article", "2017-01: 3 articles", "2017-03: 2 articles"]


def timeline_bars(driver):
    """The date facet's bars: each one's title and height, left to right."""
    bars = []
    for link in driver.find_elements(By.CSS_SELECTOR, "svg.timeline a"):
        rect = link.find_element(By.TAG_NAME, "rect")
        title = link.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        bars.append((title, int(rect.get_dom_attribute("x")), int(rect.get_dom_attribute("height"))))
    return bars


def check_lighthouse_timeline(test, driver):
    """The bars of the lighthouse's months: in date order, a gap for the
    month without one, heights as the counts."""
    bars = timeline_bars(driver)
    test.assertEqual([title for title, _, _ in bars], LIGHTHOUSE_MONTHS)
    xs = [x for _, x, _ in bars]
    test.assertEqual(xs, sorted(xs))
    # 2016-12 and 2017-02 have no bar: each a gap of one slot, five in all.
    slot = (xs[1] - xs[0]) // 2
    test.assertGreater(slot, 0)
    test.assertEqual(xs[2] - xs[1], 2 * slot)
    view_box = driver.find_element(By.CSS_SELECTOR, "svg.timeline").get_dom_attribute("viewBox")
    test.assertEqual(int(view_box.split()[2]), 5 * slot)
    # Heights in proportion to the counts (1, 3, 2), within rounding.
    heights = [height for _, _, height in bars]
    for height, count in zip(heights, [1, 3, 2]):
        test.assertLessEqual(abs(height * 3 - count * heights[1]), 3, heights)
    test.assertEqual([span.text for span in driver.find_elements(By.CSS_SELECTOR, ".dates .axis span")],
                     ["2016-11", "2017-03"])


class Server:
    """quarry serve on a free loopback port, over a fresh index."""

    def __init__(self, folder, lines=None, options=()):
        db = os.path.join(folder, "index")
        self.db = db
        extra = os.path.join(folder, "extra.jsonl")
        with open(extra, "w", encoding="utf-8") as file:
            file.write(corpus_lines() if lines is None else lines)
        subprocess.run([OPTIONS.quarry_index, "--quiet", "--db", db, OPTIONS.corpus, extra],
                       check=True)
        self.process = subprocess.Popen(
            [OPTIONS.quarry, "serve", "--quiet", "--db", db, "--listen", "127.0.0.1:0", "-j", "2",
             *options],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            raise RuntimeError("quarry serve said: " + line)
        self.url = line.split(" ")[-1].strip()

    def append_alert(self, alert):
        """Appends `alert` to the index's alert log, numbered after its last
        line, as a saved search's match is."""
        path = os.path.join(self.db, "alerts.jsonl")
        cursor = 1
        if os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                cursor += sum(1 for _ in file)
        line = json.dumps({"cursor": cursor, **alert, "revision": 1}, ensure_ascii=False)
        with open(path, "a", encoding="utf-8") as file:
            file.write(line + "\n")

    def stop(self):
        """Stops the server as SIGTERM does; a sanitizer's report fails the run."""
        self.process.terminate()
        code = self.process.wait(timeout=PATIENCE)
        self.process.stdout.close()
        if code != 0:
            raise RuntimeError(f"quarry serve exited {code}")


def browser(folder, javascript=True, width=1100, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--disable-extensions",
                     f"--window-size={width},{height}",
                     "--user-data-dir=" + tempfile.mkdtemp(dir=folder)]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(PATIENCE)
    return driver



@contextlib.contextmanager
def served(width, height):
    """A server of the sample corpus in a folder of its own, and a browser
    of `width` by `height`: stopped, and the folder removed, after."""
    folder = tempfile.mkdtemp(prefix="quarry-browser-")
    server = Server(folder)
    driver = browser(folder, width=width, height=height)
    try:
        yield server, driver
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)

class ServedTestCase(unittest.TestCase):
    """Tests that share one server, of the index of lines(), and one
    browser."""

    @classmethod
    def lines(cls):
        """The JSON lines the server's index holds; None: the sample corpus."""
        return None

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp(prefix="quarry-browser-")
        cls.server = Server(cls.folder, cls.lines())
        cls.driver = browser(cls.folder)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)


def made_up_word(story, n):
    """A word of no dictionary, the same for the same (story, n)."""
    syllables = ["ba", "ko", "mi", "tu", "re", "no", "vi", "la", "zo"]
    text, value = "", story * 100 + n + 1000
    while value:
        text += syllables[value % 9]
        value //= 9
    return text + "x"


def lantern_lines():
    """40 stories about lanterns, of one to three reports each, a week
    apart: many stories, so that a page of ten cannot count them as it
    ranks. A story's second report is a lightly edited copy of its first,
    its third another telling. An index of their own, as they would change
    what the sample articles are like."""
    articles = []
    for story in range(40):
        words = [made_up_word(story, n) for n in range(40)]
        other = [made_up_word(story, n) for n in range(100, 120)]
        bodies = ["lantern " + " ".join(words),
                  "lantern " + " ".join(words) + " " + made_up_word(story, 90),
                  "lantern " + " ".join(words[:20] + other)]
        for report in range(1 + story % 3):
            articles.append({"id": f"lantern-{story:02}-{report}", "title": f"Lantern {story}",
                             "body": bodies[report],
                             "date": f"2018-{1 + story // 8:02}-{1 + story % 8 * 3:02}",
                             "source": "Lamp Post", "category": "lights"})
    return "".join(json.dumps(article) + "\n" for article in articles)
