#!/usr/bin/env python3
"""deploy/local-cluster's --help describes every argument of each command and
the environment it reads: prints what it leaves undescribed, exits 1 then.

    local_cluster_help_test.py PATH-TO-local-cluster
"""
import re
import subprocess
import sys


def undescribed(program, command):
    text = subprocess.run([sys.executable, program, command, "--help"], capture_output=True,
                          text=True, check=True).stdout
    missing = []
    for line in text.splitlines():
        # An argument's row: "  DIR   what it is", "  --shards N  what it is".
        row = re.match(r"  (\S+(?: [A-Z]+)?)(\s{2,}\S.*)?$", line)
        if row and not line.startswith("   ") and not row.group(2):
            missing.append(f"{command}: {row.group(1)} is not described")
    if command == "start" and "QUARRY_INDEX" not in text:
        missing.append("start: QUARRY_INDEX is not described")
    return missing


def main():
    program = sys.argv[1]
    missing = undescribed(program, "start") + undescribed(program, "stop")
    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
