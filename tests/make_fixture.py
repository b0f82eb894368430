#!/usr/bin/env python3
"""make_fixture.py - fixture runs made on the spot, not committed.

    make_fixture.py big N OUT     a copy of tests/fixtures/report/supported whose
                                  dispatch/direct_call has N samples (repetitions)

The report tests and tests/test_interrupt.sh use it for large runs (a 10^6-sample
benchmark is about 100 MB of JSON).
"""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPORTED = os.path.join(HERE, "fixtures", "report", "supported")


def big(n, out):
    shutil.copytree(SUPPORTED, out)
    path = os.path.join(out, "benchmarks.json")
    with open(path) as f:
        data = json.load(f)
    keep = [b for b in data["benchmarks"] if b["name"] != "dispatch/direct_call"]
    rng = random.Random(1)
    data["benchmarks"] = keep + [
        {"name": "dispatch/direct_call", "run_name": "dispatch/direct_call", "run_type": "iteration",
         "repetition_index": i, "real_time": round(1.0 + rng.random(), 4), "time_unit": "ns"}
        for i in range(n)]
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "big" or not sys.argv[2].isdigit():
        sys.exit(__doc__)
    big(int(sys.argv[2]), sys.argv[3])
