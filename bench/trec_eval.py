"""The measures of trec_eval 9 that bench/eval-time reports, computed as
trec_eval computes them.

As a program: python3 bench/trec_eval.py QRELS RUN prints them as
`trec_eval -c -m map -m P.1,10 -m ndcg_cut.10 -m Rprec -m recip_rank` would.

Points where a home-made scorer usually differs from trec_eval:
- The ranks written in the run are ignored: documents are ordered by score,
  highest first, and equal scores by document id in *descending* string
  order. The score is the number as written, so ties include scores that
  differ only past the printed digits.
- A query of the judgments that the run does not answer scores 0 on every
  measure and still counts in the mean (trec_eval -c); queries of the run
  that have no judgments are left out.
- A document is relevant when its judgment is 1 or more; nDCG's gain is the
  judgment itself, discounted by log2(rank + 1) (trec_eval 9; 8.x did not
  discount rank 2), and the ideal ranking comes from the judgments alone.
- A document listed twice for one query is an error, as in trec_eval.
"""

import math
import sys
from collections import defaultdict

# Measure names in the order they are printed, with trec_eval's own names.
MEASURES = {
    "MAP": "map",
    "P@1": "P_1",
    "P@10": "P_10",
    "nDCG@10": "ndcg_cut_10",
    "R-prec": "Rprec",
    "MRR": "recip_rank",
}


class FormatError(ValueError):
    pass


def records(lines, name, layout):
    """The fields of each line that is not blank, every line holding the
    fields `layout` names ("qid 0 docid judgment"); a FormatError naming
    name and the line number otherwise."""
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != len(layout.split()):
            raise FormatError(f"{name}:{number}: expected '{layout}'")
        yield fields


def read_qrels(path):
    """{qid: {docid: judgment}} from lines "qid iteration docid judgment"."""
    qrels = defaultdict(dict)
    with open(path, encoding="utf-8") as lines:
        for qid, _, docid, judgment in records(lines, path, "qid 0 docid judgment"):
            qrels[qid][docid] = int(judgment)
    return dict(qrels)


def parse_run(lines, name="run"):
    """{qid: [(docid, score), …]} in file order, from lines
    "qid Q0 docid rank score tag"."""
    run = defaultdict(list)
    for qid, _, docid, _, score, _ in records(lines, name, "qid Q0 docid rank score tag"):
        run[qid].append((docid, float(score)))
    return dict(run)


def read_run(path):
    with open(path, encoding="utf-8") as lines:
        return parse_run(lines, str(path))


def ranked(entries):
    """The document ids in trec_eval's order: score descending, then id
    descending. Python compares str by code point, which for UTF-8 is the
    byte order that strcmp uses."""
    by_id = sorted(entries, key=lambda entry: entry[0], reverse=True)
    docids = [docid for docid, _ in sorted(by_id, key=lambda entry: entry[1], reverse=True)]
    if len(set(docids)) != len(docids):
        raise FormatError("a document is listed twice for one query")
    return docids


def relevant_in(gains, cutoff):
    return sum(1 for gain in gains[:cutoff] if gain >= 1)


def query_measures(docids, judgments):
    """The measures of one ranked list against one query's judgments."""
    gains = [judgments.get(docid, 0) for docid in docids]
    relevant = sum(1 for judgment in judgments.values() if judgment >= 1)
    found, precision_sum, first = 0, 0.0, 0
    for rank, gain in enumerate(gains, 1):
        if gain >= 1:
            found += 1
            precision_sum += found / rank
            first = first or rank
    dcg = sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains[:10], 1) if gain > 0)
    ideal = sorted((judgment for judgment in judgments.values() if judgment > 0), reverse=True)
    ideal_dcg = sum(gain / math.log2(rank + 1) for rank, gain in enumerate(ideal[:10], 1))
    return {
        "MAP": precision_sum / relevant if relevant else 0.0,
        "P@1": relevant_in(gains, 1) / 1,
        "P@10": relevant_in(gains, 10) / 10,
        "nDCG@10": dcg / ideal_dcg if ideal_dcg > 0 else 0.0,
        "R-prec": relevant_in(gains, relevant) / relevant if relevant else 0.0,
        "MRR": 1 / first if first else 0.0,
    }


def evaluate(run, qrels):
    """({qid: {measure: value}}, {measure: mean}) over the queries of qrels."""
    per_query = {qid: query_measures(ranked(run.get(qid, [])), judgments)
                 for qid, judgments in qrels.items()}
    means = {measure: (sum(values[measure] for values in per_query.values()) / len(per_query)
                       if per_query else 0.0)
             for measure in MEASURES}
    return per_query, means


def main(argv):
    if len(argv) != 3:
        print("usage: python3 bench/trec_eval.py QRELS RUN", file=sys.stderr)
        return 2
    try:
        per_query, means = evaluate(read_run(argv[2]), read_qrels(argv[1]))
    except (OSError, FormatError, ValueError) as error:
        print(f"trec_eval.py: {error}", file=sys.stderr)
        return 1
    print(f"{'num_q':<22}\tall\t{len(per_query)}")
    for measure, name in MEASURES.items():
        print(f"{name:<22}\tall\t{means[measure]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
