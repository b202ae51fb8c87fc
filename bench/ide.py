#!/usr/bin/env python3
"""Editor latency of krefcheck-clangd against the analyzer it wraps (a
benchmark, not a test; bench/ide.sh runs it).

For each kernel corpus TU: the wall time of `clang --analyze` with the
plugin (the core and refcount checkers, as scan.sh runs them), then the time
from textDocument/didOpen to the first textDocument/publishDiagnostics of
krefcheck-clangd (preamble, parse, clang-tidy checks with the analyzer),
measured in the same run, alternating which goes first each round. Prints a
TSV line per measurement and the ratio per TU (clangd / clang, goal <= 1.2)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tests", "ide"))
import lsp  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--clangd", required=True)
ap.add_argument("--plugin", required=True)
ap.add_argument("--analyze-tu", required=True, help="corpus analyze-tu.py")
ap.add_argument("--tree", required=True, help="kernel tree with compile_commands.json")
ap.add_argument("--rounds", type=int, default=1)
ap.add_argument("tus", nargs="+")
args = ap.parse_args()


def clang_analyze(tu):
    cmd = [sys.executable, args.analyze_tu, "--checkers", "core", tu, "--",
           "-Xclang", "-load", "-Xclang", args.plugin,
           "-Xclang", "-analyzer-checker=refcount"]
    t0 = time.monotonic()
    out = subprocess.run(cmd, cwd=args.tree, capture_output=True, text=True)
    secs = time.monotonic() - t0
    if out.returncode != 0:
        sys.exit("ide.py: clang --analyze failed on %s:\n%s" % (tu, out.stderr[-2000:]))
    return secs, sum(1 for line in out.stderr.splitlines()
                     if "warning: " in line and "[refcount." in line)


def clangd_open(tu, config_home):
    with open(os.path.join(config_home, "clangd.log"), "w") as log:
        client = lsp.Client([args.clangd, "--background-index=false",
                             "--compile-commands-dir=" + args.tree,
                             "--enable-config"], args.tree, log)
        client.initialize(args.tree)
        path = os.path.join(args.tree, tu)
        with open(path, errors="replace") as f:
            text = f.read()
        t0 = time.monotonic()
        client.open(path, text)
        diags = client.wait_diagnostics(lsp.file_uri(path), lambda d: True, timeout=900)
        secs = time.monotonic() - t0
        client.shutdown()
    refcount = [d for d in diags if str(d.get("code", "")).startswith("krefcheck-")]
    errors = [d for d in diags if d.get("severity") == 1 and d not in refcount]
    if errors:
        sys.exit("ide.py: clangd reports errors in %s (the analysis would not run): %s"
                 % (tu, json.dumps(errors[:3])))
    return secs, len(refcount)


config_home = tempfile.mkdtemp(prefix="krefcheck-ide-bench-")
os.makedirs(os.path.join(config_home, "clangd"))
with open(os.path.join(config_home, "clangd", "config.yaml"), "w") as f:
    f.write("Diagnostics:\n  ClangTidy:\n    Add: krefcheck-*\n"
            "    FastCheckFilter: None\n")
# clangd reads the user configuration from $XDG_CONFIG_HOME/clangd/.
os.environ["XDG_CONFIG_HOME"] = config_home

print("tu\tround\ttool\tseconds\treports")
best = {}
for rnd in range(args.rounds):
    for i, tu in enumerate(args.tus):
        order = ["clang", "clangd"] if (rnd + i) % 2 == 0 else ["clangd", "clang"]
        for tool in order:
            secs, n = clang_analyze(tu) if tool == "clang" else clangd_open(tu, config_home)
            print("%s\t%d\t%s\t%.1f\t%d" % (tu, rnd, tool, secs, n), flush=True)
            best.setdefault((tu, tool), []).append(secs)
shutil.rmtree(config_home)
print("\ntu\tclang --analyze (s)\tkrefcheck-clangd didOpen->diagnostics (s)\tratio")
for tu in args.tus:
    c = min(best[(tu, "clang")])
    d = min(best[(tu, "clangd")])
    print("%s\t%.1f\t%.1f\t%.2f" % (tu, c, d, d / c))
