#!/usr/bin/env python3
"""Checks the documentation a user reads: the README stays a front door (at most
250 lines), every relative link in it and in docs/ leads to a file that exists
and, with a #fragment, to a heading of that file, and every option the
programs' --help lists is documented somewhere in README.md, CONTRIBUTING.md or
docs/. Prints each problem on a line of its own and exits 1 when there is one.

    check_docs.py --source DIR --quarry BIN --quarry-index BIN
"""
import argparse
import pathlib
import re
import subprocess
import sys

README_MOST_LINES = 250
# Links are [text](target) outside code; images too.
LINK = re.compile(r"\]\(([^)\s]+)\)")
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")


def github_slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped,
    spaces as hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def without_code(text):
    """The text with fenced blocks and inline code taken out, so that a
    bracket in an example is not read as a link."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path):
    found = set()
    inside_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside_fence = not inside_fence
        elif not inside_fence and re.match(r"#{1,6} ", line):
            found.add(github_slug(line.lstrip("#")))
    return found


def check_links(source, pages):
    problems = []
    for page in pages:
        for target in LINK.findall(without_code(page.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            path_part, _, fragment = target.partition("#")
            linked = (page.parent / path_part).resolve() if path_part else page
            name = page.relative_to(source)
            if not linked.exists():
                problems.append(f"{name}: link to {target}: no such file")
            elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
                problems.append(f"{name}: link to {target}: no such heading")
    return problems


def help_options(command):
    result = subprocess.run(command + ["--help"], capture_output=True, text=True, check=False)
    options = set()
    for line in result.stdout.splitlines():
        # An option's row starts with it: "  -n,--limit N   Hits per query".
        row = re.match(r"\s+(-\w,)?(--[a-z][a-z0-9-]*)", line)
        if row:
            options.add(row.group(2))
    return options


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True, type=pathlib.Path)
    parser.add_argument("--quarry", required=True)
    parser.add_argument("--quarry-index", required=True)
    args = parser.parse_args()
    source = args.source.resolve()

    readme = source / "README.md"
    pages = [readme, source / "CONTRIBUTING.md", source / "bench" / "README.md"]
    pages += sorted((source / "docs").glob("*.md"))
    problems = []
    lines = len(readme.read_text(encoding="utf-8").splitlines())
    if lines > README_MOST_LINES:
        problems.append(f"README.md: {lines} lines, more than {README_MOST_LINES}")
    problems += check_links(source, pages)

    documented = set()
    for page in pages:
        documented |= set(OPTION.findall(page.read_text(encoding="utf-8")))
    programs = {
        "quarry": [args.quarry],
        "quarry serve": [args.quarry, "serve"],
        "quarry alert": [args.quarry, "alert"],
        "quarry alerts": [args.quarry, "alerts"],
        "quarry-index": [args.quarry_index],
    }
    for name, command in programs.items():
        options = help_options(command)
        if not options:
            problems.append(f"{name} --help lists no option")
        for option in sorted(options - documented - {"--help"}):
            problems.append(f"{name} {option}: in --help, in no document")

    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
