#!/usr/bin/env python3
"""Reads a test collection in the Glasgow (SMART) format and writes it as
bench/eval-time reads collections: docs.jsonl, queries.tsv, qrels.txt.

Usage: bench/glasgow.py RAW_DIR OUT_DIR

RAW_DIR holds the collection's three files, named as the classic collections
name them: the articles (MED.ALL, CISI.ALL, cran.all.1400), the queries
(MED.QRY, CISI.QRY, cran.qry) and the judgments (MED.REL, CISI.REL,
cranqrel). Records start with `.I N`; fields with `.T` (title), `.W` (text),
and `.A`, `.B`, `.X` (authors, source, references: left out).

Judgments come in three layouts: `Q 0 D 1` (MED, as TREC), `Q D 0 0.0`
(CISI) and `Q D LEVEL` (Cranfield, where 1 is the most relevant of four
levels and -1 marks no relevance: levels 1 to 4 become gains 4 to 1).
Cranfield's queries are numbered 1, 2, 4, 8, … but judged by their order, 1
to 225: queries are numbered by their order there.
"""

import json
import re
import sys
from pathlib import Path

RECORD = re.compile(r"^\.I\s+(\S+)\s*$")
FIELD = re.compile(r"^\.([A-Z])\s*$")


def find(raw_dir, patterns):
    for path in sorted(raw_dir.iterdir()):
        if any(re.fullmatch(pattern, path.name, re.IGNORECASE) for pattern in patterns):
            return path
    sys.exit(f"glasgow: no file like {patterns[0]} in {raw_dir}")


def records(path):
    """[(id, {field letter: text})] in file order."""
    found, fields, field = [], None, None
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\r\n")
            record = RECORD.match(line)
            if record:
                fields = {}
                found.append((record.group(1), fields))
                field = None
                continue
            marker = FIELD.match(line)
            if marker and fields is not None:
                field = marker.group(1)
                fields.setdefault(field, "")
                continue
            if fields is not None and field:
                fields[field] += line.strip() + " "
    return [(rid, {k: " ".join(v.split()) for k, v in fields.items()}) for rid, fields in found]


def judgments(path, cranfield):
    """[(qid, docid, gain)] with gain > 0."""
    out = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            parts = line.split()
            if not parts:
                continue
            if cranfield:
                level = int(parts[2])
                if 1 <= level <= 4:
                    out.append((parts[0], parts[1], 5 - level))
            elif len(parts) == 4 and parts[1] == "0":
                out.append((parts[0], parts[2], max(1, int(float(parts[3])))))
            else:
                out.append((parts[0], parts[1], 1))
    return out


def convert(raw_dir, out_dir):
    raw_dir, out_dir = Path(raw_dir), Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    docs = find(raw_dir, [r".*\.all", r".*\.all\..*"])
    queries = find(raw_dir, [r".*\.qry"])
    qrels = find(raw_dir, [r".*\.rel", r".*qrels?"])
    cranfield = qrels.name.lower() == "cranqrel"
    with open(out_dir / "docs.jsonl", "w", encoding="utf-8") as out:
        for rid, fields in records(docs):
            article = {"id": rid.lstrip("0") or "0", "title": fields.get("T", ""),
                       "body": fields.get("W", "")}
            out.write(json.dumps(article, ensure_ascii=False) + "\n")
    with open(out_dir / "queries.tsv", "w", encoding="utf-8") as out:
        for number, (rid, fields) in enumerate(records(queries), 1):
            qid = str(number) if cranfield else rid.lstrip("0") or "0"
            text = " ".join(part for part in (fields.get("T", ""), fields.get("W", "")) if part)
            out.write(f"{qid}\t{text}\n")
    with open(out_dir / "qrels.txt", "w", encoding="utf-8") as out:
        for qid, docid, gain in judgments(qrels, cranfield):
            out.write(f"{qid} 0 {docid} {gain}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    convert(sys.argv[1], sys.argv[2])
