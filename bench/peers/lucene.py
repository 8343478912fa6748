"""Lucene as a peer of Quarry's benchmarks: the harness of the shared folder
(peers/lucene/LucenePeer.java, Lucene 8 as Debian ships it), compiled once
into a cache folder, and readers of what it prints.

The harness indexes the same JSON Lines (id, title, body; plain or gzipped)
and answers the same query files (qid<TAB>query) as Quarry's benchmarks.
Its search runs every pass in one JVM: the first pays for class loading and
JIT compilation, and the best of the later ones is the warm engine.
"""

import re
import shutil
import subprocess
from pathlib import Path

PACKAGES = "default-jdk-headless liblucene8-java libjackson2-databind-java"
INDEX_LINE = re.compile(r"^lucene index: (\d+) docs", re.M)
SEARCH_LINE = re.compile(r"^lucene search: (\d+) queries, ([\d.]+) s, (\d+) q/s, "
                         r"p50 ([\d.]+) ms, p99 ([\d.]+) ms", re.M)
# The sum of the totals a search pass ends its line with: "at least" when
# Lucene stopped counting at 1,000 matches of a query.
TOTAL_LINE = re.compile(r"^lucene search: .*, total (at least )?(\d+)\s*$", re.M)


class Lucene:
    """The compiled harness. Raises RuntimeError naming what is missing."""

    def __init__(self, shared, cache):
        source = Path(shared) / "peers" / "lucene"
        if not (source / "build.sh").exists():
            raise RuntimeError(f"{source}/build.sh not found: set SHARED_DIR to the shared folder")
        if shutil.which("java") is None or shutil.which("javac") is None:
            raise RuntimeError(f"java is missing: apt-get install {PACKAGES}")
        out = Path(cache) / "lucene-peer"
        classpath = out / "classpath"
        built = out / "LucenePeer.class"
        if not (built.exists() and classpath.exists()
                and built.stat().st_mtime >= (source / "LucenePeer.java").stat().st_mtime):
            done = subprocess.run(["sh", source / "build.sh", out], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"building the Lucene peer failed: {done.stderr.strip()}"
                                   f" (apt-get install {PACKAGES})")
        self.classpath = classpath.read_text().strip()
        jar = next(iter(p for p in self.classpath.split(":") if "lucene-core" in p), "")
        self.version = re.search(r"lucene-core-([\d.]+)\.jar", jar)
        self.version = f"Lucene {self.version.group(1)}" if self.version else "Lucene"

    def java(self, *args):
        return ["java", "-cp", self.classpath, "LucenePeer", *map(str, args)]

    def index_command(self, corpus, db, threads):
        return self.java("index", corpus, db, f"threads={threads}")

    def search_command(self, db, queries, limit, run_file, snippets, passes):
        return self.java("search", db, queries, limit, run_file,
                         *(["snippets"] if snippets else []), f"passes={passes}")


def indexed_docs(output):
    """Articles the index command says it added, or None."""
    match = INDEX_LINE.search(output)
    return int(match.group(1)) if match else None


def search_passes(output):
    """Each pass the search command printed: dicts of queries, seconds,
    qps, p50 and p99 (milliseconds)."""
    return [{"queries": int(m[0]), "seconds": float(m[1]), "qps": float(m[2]),
             "p50": float(m[3]), "p99": float(m[4])} for m in SEARCH_LINE.findall(output)]


def search_total(output):
    """(sum of the totals, whether it is a lower bound) of the last pass
    the search command printed, or None."""
    found = TOTAL_LINE.findall(output)
    return (int(found[-1][1]), bool(found[-1][0])) if found else None


def best_warm_pass(passes):
    """The fastest pass after the first (the first alone when there is one)."""
    warm = passes[1:] or passes
    return max(warm, key=lambda p: p["qps"])


def run_file_ids(path):
    """qid -> the ids of a TREC run file, in rank order."""
    ids = {}
    for line in open(path, encoding="utf-8"):
        parts = line.split()
        if len(parts) >= 4:
            ids.setdefault(parts[0], []).append((int(parts[3]), parts[2]))
    return {qid: [doc for _, doc in sorted(ranked)] for qid, ranked in ids.items()}
