"""What Quarry's benchmarks share: where the shared folder, the built
programs and the peers are; their arguments; query files; running, timing and
measuring programs; and the figures they print.

Each benchmark is a script in bench/, which Python puts on the path of the
modules it imports, so `import benchlib` finds this file. A script sets
`sys.dont_write_bytecode` before that import, so that running it leaves no
__pycache__ in the repository.

SHARED_DIR names the shared folder (corpora/, bench/queries-news.tsv, eval/,
tools/, peers/); without it, `shared` beside the repository. TMPDIR names
where indexes and the cache of generated corpora and built peers go.
"""

import argparse
import contextlib
import gzip
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SHARED_DIR") or REPO.parent / "shared")
TMP = Path(os.environ.get("TMPDIR") or "/tmp")
# Generated corpora and the built Lucene peer, kept from one run to the next.
CACHE = TMP / "quarry-bench-cache"

NEWS_QUERIES = SHARED / "bench" / "queries-news.tsv"
REUTERS = SHARED / "corpora" / "reuters21578.jsonl.gz"
BBC = SHARED / "corpora" / "bbc-fulltext.jsonl.gz"
SYNTH_CORPUS = SHARED / "tools" / "synth-corpus"

# The running benchmark's name, which its messages start with.
PROG = Path(sys.argv[0]).name


# --- Messages. ----------------------------------------------------------------


def die(message):
    """Prints "PROG: message" on standard error and exits 1."""
    print(f"{PROG}: {message}", file=sys.stderr)
    sys.exit(1)


def note(message):
    """Prints "PROG: message" on standard error at once: progress, or a peer
    left out."""
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def show_end(text, lines=None):
    """Writes the end of a failed program's standard error (str or bytes):
    its last `lines` lines, or without `lines` its last 2,000 characters."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if lines is None:
        sys.stderr.write(text[-2000:])
    else:
        sys.stderr.writelines(text.splitlines(keepends=True)[-lines:])


def guarded(main):
    """Runs main; a closed pipe (`| head`) or Ctrl-C ends the benchmark with
    exit 1 and no traceback."""
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(1)


# --- Arguments. ---------------------------------------------------------------


def argument_parser(doc):
    """A parser named bench/PROG, described by the first paragraph of the
    script's docstring."""
    return argparse.ArgumentParser(prog=f"bench/{PROG}", description=doc.split("\n\n")[0])


def add_build(parser):
    """--build DIR: the CMake build folder, `build` in the repository by
    default."""
    parser.add_argument("--build", type=Path, default=REPO / "build", metavar="DIR",
                        help="CMake build folder holding the programs (default: build)")


def add_number(parser, flag, default, help, metavar="N", type=int):
    """An option taking a number, whose help ends with its default."""
    parser.add_argument(flag, type=type, default=default, metavar=metavar,
                        help=f"{help} (default: {default})")


def require_positive(parser, args, *names):
    """A usage error (exit 2) for the first of the options `names` (as
    argparse stores them: query_runs) that is below 1."""
    for name in names:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} needs a positive number")


# --- Programs and files. ------------------------------------------------------

# The folder of the build that holds each program.
_PROGRAM_FOLDERS = {"quarry": "query", "quarry-index": "indexer", "quarry-xapian-replay": "bench"}


def program(build, name):
    """The path of the program `name` (quarry, quarry-index,
    quarry-xapian-replay) in the build folder `build`, as given."""
    return Path(build) / _PROGRAM_FOLDERS[name] / name


def programs(build):
    """(quarry, quarry-index) of the build folder `build`."""
    return program(build, "quarry"), program(build, "quarry-index")


def require_programs(paths, missing="{} not found: run make build first"):
    """Dies with missing.format(path) for the first of `paths` that is not an
    executable."""
    for path in paths:
        if not os.access(path, os.X_OK):
            die(missing.format(path))


def require_files(paths, hint):
    """Dies with "cannot read PATH (hint)" for the first of `paths` that is
    not a file."""
    for path in paths:
        if not Path(path).is_file():
            die(f"cannot read {path} ({hint})")


def peer_python(modules=("xapian", "zstandard")):
    """A Python that imports `modules`: this one, or the system's when this
    one is another (a virtualenv, pyenv) that cannot see Debian's
    python3-xapian. None when neither can."""
    probe = f"import {', '.join(modules)}"
    for python in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if not os.access(python, os.X_OK):
            continue
        if subprocess.run([python, "-c", probe], capture_output=True).returncode == 0:
            return python
    return None


@contextlib.contextmanager
def work_folder(prefix, folder=None, keep=False):
    """A folder for indexes and outputs: `folder` when given (made when
    missing, and kept), else a new one in $TMPDIR named after prefix, removed
    at the end unless keep."""
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        yield folder
        return
    work = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield work
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


# --- Corpora and query files. -------------------------------------------------


def open_text(path):
    """A UTF-8 text file, gzipped when its name ends in .gz."""
    opener = gzip.open if str(path).endswith(".gz") else open
    return opener(path, "rt", encoding="utf-8")


def read_json_lines(path):
    """The objects of a JSON Lines file (gzipped when named .gz), blank lines
    left out."""
    with open_text(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def read_queries(path, log=False):
    """[(qid, query)] from a query file, in file order.

    Each line that is not blank holds a query: "qid<TAB>query" (as
    bench/queries-news.tsv and eval/time/queries.tsv, and as `quarry --batch`
    reads), or the query alone, whose id is then its line number, counting
    every line.

    log=True reads a log of queries people typed: bytes that are not UTF-8
    are replaced, a line "number<space>query" gives its number as the id when
    every line starts so ("37790 hack"), and a query that is blank once its id
    is taken away is left out.
    """
    with open(path, encoding="utf-8", errors="replace" if log else "strict") as lines:
        rows = [(number, line.rstrip("\r\n")) for number, line in enumerate(lines, 1)]
    rows = [(number, line) for number, line in rows if line.strip()]
    numbered = log and all(re.match(r"[0-9]+ ", line) for _, line in rows)
    queries = []
    for number, line in rows:
        qid, tab, query = line.partition("\t")
        if not tab:
            qid, query = str(number), line
            if numbered:
                qid, _, query = line.partition(" ")
        if not log or query.strip():
            queries.append((qid, query))
    return queries


def batch_text(queries):
    """What `quarry --batch` reads: a "qid<TAB>query" line for each pair."""
    return "".join(f"{qid}\t{query}\n" for qid, query in queries)


def oneoff_queries(queries):
    """The first query of each shape: one, two, three and four words, and a
    phrase; the queries bench/scale and bench/counts time one process each."""
    picked = {}
    for _, query in queries:
        shape = "phrase" if query.startswith('"') else f"{len(query.split())} words"
        if shape in ("phrase", "1 words", "2 words", "3 words", "4 words"):
            picked.setdefault(shape, query)
    return list(picked.values())[:5]


def synthetic_corpus(docs, seed=None, announce=True):
    """tools/synth-corpus's `docs` articles (of `seed`, when given) as JSON
    Lines, written once into the cache and reused; says so when it writes
    them, if announce."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / (f"synth-{docs}.jsonl" if seed is None else f"synth-{docs}-seed{seed}.jsonl")
    if not path.exists():
        if announce:
            note(f"writing {path} (once)")
        part = path.with_suffix(".part")
        command = [str(SYNTH_CORPUS), "--docs", str(docs)]
        if seed is not None:
            command += ["--seed", str(seed)]
        with open(part, "wb") as out:
            subprocess.run(command, stdout=out, check=True)
        part.rename(path)
    return path


# --- Xapian omega's scriptindex, the peer of quarry-index. --------------------

# The same fields for every corpus: the id as a unique boolean term, the
# title with and without the S prefix, the body.
SCRIPTINDEX_SCRIPT = """\
id : unique=Q boolean=Q field=id
title : index=S index field=title
body : index field=body
"""
_QUARRY_SUMMARY = re.compile(r"^quarry-index: (\d+) added, (\d+) updated, (\d+) unchanged", re.M)
_SCRIPTINDEX_SUMMARY = re.compile(
    r"^records \(added, replaced, deleted, skipped\) = \((\d+), (\d+),", re.M)


def write_scriptindex_input(corpus, dump):
    """Writes the articles of `corpus` (JSON Lines, gzipped or not) as
    scriptindex reads them: records of field=value lines separated by a blank
    line, a value's further lines starting with "=". Returns the number of
    articles and the bytes of their bodies."""
    articles = body_bytes = 0
    with open_text(corpus) as src, open(dump, "w", encoding="utf-8") as dst:
        for line in src:
            article = json.loads(line)
            for field in ("id", "title", "body"):
                value = (article.get(field) or "").replace("\r", " ").replace("\n", "\n=")
                dst.write(f"{field}={value}\n")
            dst.write("\n")
            articles += 1
            body_bytes += len((article.get("body") or "").encode("utf-8"))
    return {"articles": articles, "body_bytes": body_bytes}


def quarry_index_articles(stderr, default):
    """Articles quarry-index saw, from the last of its summary lines
    "quarry-index: A added, U updated, N unchanged, ..."; default when there
    is none."""
    found = _QUARRY_SUMMARY.findall(stderr)
    return sum(map(int, found[-1])) if found else default


def scriptindex_articles(stdout, default):
    """Records scriptindex added or replaced, from its line
    "records (added, replaced, deleted, skipped) = (A, R, D, S)"; default
    when there is none."""
    found = _SCRIPTINDEX_SUMMARY.search(stdout)
    return sum(map(int, found.groups())) if found else default


# --- Running and timing programs. ---------------------------------------------


def run(cmd, ok_codes=(0,), failure=None, **options):
    """Runs cmd to its end, its output captured as text, and returns the
    CompletedProcess. When it exits with a code not in ok_codes, shows the
    end of its standard error and dies with `failure` (default: "failed:
    COMMAND"); or, when failure is a function, dies with what it makes of the
    CompletedProcess, and shows nothing else."""
    done = subprocess.run([str(part) for part in cmd], capture_output=True, text=True, **options)
    if done.returncode not in ok_codes:
        if callable(failure):
            die(failure(done))
        show_end(done.stderr)
        die(failure or f"failed: {' '.join(map(str, cmd))}")
    return done


def index_with_quarry(quarry_index, db, corpus, *options, ok_codes=(0, 3), failure=None,
                      show_skipped=False):
    """Indexes corpus into db with quarry-index and its options; returns the
    wall seconds it took. Exit 3 says some articles were skipped (Reuters has
    an empty one): it counts as success unless ok_codes say otherwise, and
    show_skipped then shows what quarry-index said. Otherwise dies as run()
    does, with failure (default: "quarry-index failed on CORPUS")."""
    start = time.perf_counter()
    done = run([quarry_index, *options, "--db", db, corpus], ok_codes,
               failure or f"quarry-index failed on {corpus}")
    if done.returncode == 3 and show_skipped:
        show_end(done.stderr)
    return time.perf_counter() - start


def timed(cmd, out_path, ok_codes=(0,), failure=None):
    """Runs cmd with its standard output in out_path; returns its wall
    seconds, measured from outside. Dies as run() does when it fails."""
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        done = subprocess.run([str(part) for part in cmd], stdout=out, stderr=subprocess.PIPE)
        seconds = time.perf_counter() - start
    if done.returncode not in ok_codes:
        show_end(done.stderr)
        die(failure or f"failed: {' '.join(map(str, cmd))}")
    return seconds


class Measured:
    """One command run under /usr/bin/time -v, its standard output in
    out_path: wall and CPU seconds (user + system), peak resident memory in
    MiB, and its standard error. When it exits with a code not in ok_codes,
    shows the end of its standard error (its last `tail_lines` lines, when
    given) and dies with failure (default: "failed (CODE): COMMAND")."""

    def __init__(self, cmd, out_path, ok_codes=(0,), failure=None, tail_lines=None):
        cmd = [str(part) for part in cmd]
        time_path = out_path.with_suffix(".time")
        with open(out_path, "wb") as out:
            done = subprocess.run(["/usr/bin/time", "-v", "-o", time_path, *cmd],
                                  stdout=out, stderr=subprocess.PIPE)
        self.stderr = done.stderr.decode("utf-8", "replace")
        if done.returncode not in ok_codes:
            show_end(self.stderr, tail_lines)
            die(failure or f"failed ({done.returncode}): {shlex.join(cmd)}")
        report = dict(line.strip().split(": ", 1) for line in time_path.read_text().split("\n")
                      if ": " in line)
        self.wall = sum(float(part) * 60 ** i for i, part in
                        enumerate(reversed(report["Elapsed (wall clock) time (h:mm:ss or m:ss)"]
                                           .split(":"))))
        self.cpu = float(report["User time (seconds)"]) + float(report["System time (seconds)"])
        self.rss_mib = int(report["Maximum resident set size (kbytes)"]) / 1024
        self.out_path = out_path


def disk_bytes(path, folders=False):
    """Bytes allocated to a file or to the files below a folder; with folders,
    to the folders too, as `du` counts them."""
    path = Path(path)
    if path.is_file():
        return path.stat().st_blocks * 512
    entries = path.rglob("*")
    if folders:
        return path.stat().st_blocks * 512 + sum(e.stat().st_blocks * 512 for e in entries)
    return sum(e.stat().st_blocks * 512 for e in entries if e.is_file())


# --- wrk, the HTTP load generator. --------------------------------------------


def wrk_script(queries, folder):
    """Writes FOLDER/queries.lua, a wrk script whose requests are GET
    /api/search?n=10&q=… of the queries in turn, each thread from its own place
    in the list, and returns its path."""
    paths = ["/api/search?n=10&q=" + urllib.parse.quote(q, safe="") for q in queries]
    lua = "paths = {\n" + "".join(f'  "{p}",\n' for p in paths) + "}\n"
    lua += """
local counter = 0
function setup(thread)
  thread:set("start", counter * 397)
  counter = counter + 1
end
function init(args)
  at = start
end
function request()
  at = at % #paths + 1
  return wrk.format("GET", paths[at])
end
"""
    path = Path(folder) / "queries.lua"
    path.write_text(lua)
    return path


def parse_wrk(output):
    """What wrk --latency printed: requests (count and per second), latency
    p50, p99 and max in ms, non-2xx (or 3xx) answers and socket errors (connect,
    read, write and timeout added up)."""
    def number(pattern, default=0.0):
        match = re.search(pattern, output)
        return float(match.group(1)) if match else default

    def ms(text):
        value, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]

    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", output, re.M))
    summary = re.search(r"^\s+Latency\s+\S+\s+\S+\s+(\S+)", output, re.M)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                       output)
    return {
        "requests": int(number(r"(\d+) requests in ")),
        "rps": number(r"Requests/sec:\s+([\d.]+)"),
        "p50": ms(latency["50"]),
        "p99": ms(latency["99"]),
        "max": ms(summary.group(1)) if summary else float("nan"),
        "non2xx": int(number(r"Non-2xx or 3xx responses: (\d+)")),
        "socket_errors": sum(int(n) for n in errors.groups()) if errors else 0,
    }


# --- The machine. -------------------------------------------------------------


def cpu_model():
    """The processor's name, from /proc/cpuinfo."""
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


# --- Figures. -----------------------------------------------------------------


def percentile(values, fraction, rank="nearest"):
    """The value at `fraction` (0.99 for p99) of the values in order, nan when
    there are none. rank says which one: "nearest", the nearest-rank
    percentile (the ceil(n x fraction)-th smallest); "lower", the one at index
    int(fraction x (n - 1)), as bench/serve takes it; "floor", the one at
    index int(n x fraction), the last at most, as bench/typed-queries takes
    it."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    n = len(ordered)
    index = {"nearest": max(0, math.ceil(n * fraction) - 1),
             "lower": int(fraction * (n - 1)),
             "floor": min(n - 1, int(n * fraction))}[rank]
    return ordered[index]


def ratio(a, b):
    """a / b as "1.23x"; "n/a" when b is 0."""
    return f"{a / b:.2f}x" if b else "n/a"


def top_ids(answers):
    """qid -> the ids of its hits in rank order, from `quarry --batch`'s JSON
    answers (or a peer's in the same form)."""
    return {a["qid"]: [hit["id"] for hit in a.get("hits", [])] for a in answers}


def shared_top_ids(ours, theirs):
    """For each query `ours` answers with hits, the share of its ids that
    `theirs` (qid -> ids) has too."""
    return [len(set(ids) & set(theirs.get(qid, []))) / len(ids) for qid, ids in ours.items()
            if ids]
