#!/usr/bin/env python3
"""Answers a file of queries over a Quarry index with python3-xapian alone:
the peer of `quarry --batch FILE -j 1`.

Usage: xapian_snippets.py DB QUERIES [--limit N] [--snippet-bytes N] [--bm25 PARAMS]

QUERIES holds one query a line, `qid<TAB>query` or a bare query. For each,
writes a JSON line {qid, query, total, hits: [{rank, id, score, snippet}],
took_ms} in input order, or {qid, query, error} when Xapian's QueryParser
rejects it. took_ms covers parsing, matching, reading each hit's document
and its snippet, as Quarry's does.

Xapian's QueryParser (English stemmer, STEM_ALL_Z, default operator OR)
sees Quarry's terms: Quarry indexes every word's stem under Z, with
positions, so phrases match too. BM25 takes the parameters given as
--bm25 in quarry's own form (k1=1.2,b=0.75), so that a caller can give both
tools the same. Needs python3-xapian.
"""

import argparse
import json
import sys
import time
from pathlib import Path

import xapian

sys.dont_write_bytecode = True  # no __pycache__ in the repository
# bench/, whose modules a script run from bench/peers/ does not see.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchlib import read_queries  # noqa: E402
from peers.quarry_store import ArticleReader  # noqa: E402

# BM25Weight's parameters in the order it takes them, with the defaults
# Lucene uses for k1 and b, and Xapian's for the rest.
BM25_DEFAULTS = {"k1": 1.2, "k2": 0.0, "k3": 1.0, "b": 0.75, "min_normlen": 0.5}


def bm25_parameters(text):
    """BM25Weight's arguments from "k1=1.2,b=0.75" (unnamed ones keep their
    defaults)."""
    parameters = dict(BM25_DEFAULTS)
    for item in filter(None, text.split(",")):
        name, equals, value = item.partition("=")
        if not equals or name.strip() not in parameters:
            raise argparse.ArgumentTypeError(f"'{item}' is not one of "
                                             f"{', '.join(parameters)} = NUMBER")
        parameters[name.strip()] = float(value)
    return tuple(parameters.values())


class Searcher:
    """Xapian's QueryParser, BM25 and MSet.snippet() over a Quarry index.
    stemming names the QueryParser's strategy: STEM_ALL_Z (this program's)
    or STEM_SOME (bench/query-throughput's peer); titles adds each hit's
    title to its answer."""

    def __init__(self, db_path, limit, snippet_bytes, bm25, stemming="STEM_ALL_Z", titles=False):
        self.db = xapian.Database(db_path)
        self.reader = ArticleReader(self.db)
        self.stemmer = xapian.Stem("english")
        self.parser = xapian.QueryParser()
        self.parser.set_stemmer(self.stemmer)
        self.parser.set_stemming_strategy(getattr(xapian.QueryParser, stemming))
        self.parser.set_database(self.db)
        self.parser.set_default_op(xapian.Query.OP_OR)
        self.enquire = xapian.Enquire(self.db)
        self.enquire.set_weighting_scheme(xapian.BM25Weight(*bm25))
        self.limit = limit
        self.snippet_bytes = snippet_bytes
        self.titles = titles

    def answer(self, qid, query, snippets=True):
        """The JSON answer to one query, as a dict."""
        start = time.perf_counter()
        try:
            self.enquire.set_query(self.parser.parse_query(query, xapian.QueryParser.FLAG_DEFAULT))
        except xapian.QueryParserError as error:
            return {"qid": qid, "query": query, "error": str(error)}
        mset = self.enquire.get_mset(0, self.limit)
        hits = []
        for match in mset:
            article = self.reader.article(match.document)
            hit = {"rank": match.rank + 1, "id": article["id"]}
            if self.titles:
                hit["title"] = article.get("title", "")
            hit["score"] = match.weight
            if snippets:
                snippet = mset.snippet(article.get("body", ""), self.snippet_bytes, self.stemmer)
                hit["snippet"] = snippet.decode("utf-8", "replace")  # the bindings give bytes
            hits.append(hit)
        took_ms = (time.perf_counter() - start) * 1000
        return {"qid": qid, "query": query, "total": mset.get_matches_estimated(), "hits": hits,
                "took_ms": took_ms}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db")
    parser.add_argument("queries")
    parser.add_argument("--limit", type=int, default=10, help="hits per query (default: 10)")
    parser.add_argument("--snippet-bytes", type=int, default=200,
                        help="length of each snippet (default: 200, about Quarry's 30 words)")
    parser.add_argument("--bm25", type=bm25_parameters, default=bm25_parameters(""),
                        metavar="PARAMS", help="BM25 parameters (default: k1=1.2,b=0.75)")
    args = parser.parse_args()
    searcher = Searcher(args.db, args.limit, args.snippet_bytes, args.bm25)
    out = sys.stdout
    for qid, query in read_queries(args.queries):
        out.write(json.dumps(searcher.answer(qid, query), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)
