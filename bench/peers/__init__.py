"""The peers Quarry's benchmarks measure it beside: Lucene (lucene.py, over
the harness in the shared folder's peers/lucene/) and python3-xapian over a
Quarry index (xapian_snippets.py, reading the stored articles with
quarry_store.py)."""
