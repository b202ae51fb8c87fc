#!/usr/bin/env python3
"""rc.py [--max-seconds N] EXPECTED_STATUS CMD...: runs CMD (its output goes
through), succeeds only if it exits with EXPECTED_STATUS (and, with
--max-seconds, within N seconds)."""
import subprocess, sys, time
args = sys.argv[1:]
limit = None
if args[0] == "--max-seconds":
    limit = float(args[1])
    args = args[2:]
want = int(args[0])
t0 = time.monotonic()
rc = subprocess.call(args[1:])
dt = time.monotonic() - t0
sys.stdout.flush()
if rc != want:
    print(f"rc.py: exit status {rc}, expected {want}", file=sys.stderr)
    sys.exit(1)
if limit is not None and dt > limit:
    print(f"rc.py: took {dt:.1f}s, limit {limit}s", file=sys.stderr)
    sys.exit(1)
