#!/usr/bin/env bash
# Sweeps the kernel corpus through krefcheck with an assertions build of the
# plugin: no TU may crash, assert or time out.
#
#   bench/sweep.sh [-j N] [-t SEC] [-c CHECKERS] [-p PLUGIN] [-k KREFCHECK]
#                  [-o OUT] [-f LIST] [PATH...]
#
# PATHs (relative to the kernel tree; a directory means every TU under it)
# and the paths listed in LIST (one a line, # comments) pick the TUs; none
# means the whole compile database. CHECKERS defaults to `refcount` (the
# default set). -j defaults to 1 (the machine is shared), -t to 600 s a TU.
#
# PLUGIN defaults to build-assert/lib/krefcheck.so, configured with
# -DKREFCHECK_ASSERTIONS=ON (asserts of the plugin and of the LLVM headers it
# inlines are live; -O1, quick to build), configured here if missing and
# brought up to date before each sweep. KREFCHECK defaults to
# build/bin/krefcheck (built by tools/setup.sh).
#
# Without a corpus ($KCORPUS or ~/.cache/kcorpus, from
# ../shared/corpus/linux-6.1.sh) it sweeps the bundled examples/ instead:
# the CI smoke test (tests/driver/sweep.test).
#
# Prints the TU count, the failures (crash / assert / timeout / compile
# error, each named), findings per checker and the total time; writes
# OUT/sweep.json (krefcheck's JSON) and OUT/findings.tsv (checker, file,
# line, function, message) for triage. Exit 0: no failure; 1: some TU failed;
# 2: configuration error.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=1 timeout=600 checkers=refcount plugin= krefcheck=$here/build/bin/krefcheck
out=$here/build/sweep list=
usage() {
  echo "usage: $0 [-j N] [-t SEC] [-c CHECKERS] [-p PLUGIN] [-k KREFCHECK] [-o OUT] [-f LIST] [PATH...]" >&2
  exit 2
}
while getopts j:t:c:p:k:o:f: opt; do
  case $opt in
    j) jobs=$OPTARG ;; t) timeout=$OPTARG ;; c) checkers=$OPTARG ;; p) plugin=$OPTARG ;;
    k) krefcheck=$OPTARG ;; o) out=$OPTARG ;; f) list=$OPTARG ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
paths=("$@")
if [ -n "$list" ]; then
  [ -f "$list" ] || { echo "sweep.sh: TU list '$list' not found" >&2; exit 2; }
  mapfile -t -O "${#paths[@]}" paths < <(grep -v '^\s*\(#\|$\)' "$list")
fi
[ -x "$krefcheck" ] || { echo "sweep.sh: '$krefcheck' not found (run tools/setup.sh)" >&2; exit 2; }

if [ -z "$plugin" ]; then
  plugin=$here/build-assert/lib/krefcheck.so
  if [ ! -f "$here/build-assert/build.ninja" ]; then
    major=$("$krefcheck" --version | sed -n 's/^plugin built for .*clang version \([0-9]*\).*/\1/p')
    echo "sweep.sh: configuring the assertions plugin in build-assert/ (LLVM ${major:-19})" >&2
    cmake -S "$here" -B "$here/build-assert" -G Ninja -DKREFCHECK_ASSERTIONS=ON \
      -DKREFCHECK_LLVM_VERSION="${major:-19}" -DCMAKE_C_COMPILER="clang-${major:-19}" \
      -DCMAKE_CXX_COMPILER="clang++-${major:-19}" -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld \
      -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_CXX_FLAGS_RELEASE=-O1 >/dev/null
  fi
  # Incremental: the sweep always runs the current sources.
  cmake --build "$here/build-assert" --target krefcheck -j 2 >/dev/null
fi
[ -f "$plugin" ] || { echo "sweep.sh: plugin '$plugin' not found" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# A private copy, so that rebuilding during the sweep does not disturb it.
cp "$plugin" "$out/krefcheck.so"

tree=${KCORPUS:-$HOME/.cache/kcorpus}/linux-source-6.1
if [ -f "$tree/compile_commands.json" ]; then
  cdb=$tree/compile_commands.json
else
  # CI smoke: the bundled examples against the mini kernel header.
  echo "sweep.sh: no corpus at $tree: sweeping the bundled examples" >&2
  tree=$here/examples cdb=$out/compile_commands.json
  python3 - "$here" "$cdb" <<'PY'
import glob, json, os, sys
here, cdb = sys.argv[1:]
ex = os.path.join(here, "examples")
json.dump([{"directory": ex, "file": f,
            "arguments": ["cc", "-std=gnu11", "-I", os.path.join(here, "tests", "Inputs"),
                          "-c", f, "-o", "/dev/null"]}
           for f in sorted(glob.glob(os.path.join(ex, "*.c")))], open(cdb, "w"), indent=1)
PY
fi

rc=0
(cd "$tree" && "$krefcheck" --cdb "$cdb" --plugin "$out/krefcheck.so" --checkers "$checkers" \
  -j "$jobs" --timeout "$timeout" --format json -o "$out/sweep.json" "${paths[@]}") \
  2>"$out/krefcheck.stderr" || rc=$?
# krefcheck: 0 clean, 1 findings, 3 some TU failed (reported below); 2 is ours to pass on.
if [ "$rc" = 2 ] || [ ! -s "$out/sweep.json" ]; then
  cat "$out/krefcheck.stderr" >&2
  exit 2
fi

exec python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
r = json.load(open(os.path.join(out, "sweep.json")))
s = r["summary"]
print(f"sweep: {s['tus']} TUs, {s['analyzed']} analyzed, {s['failed']} failed, "
      f"{s['findings']} findings, {s['seconds']:.0f} s ({r['tool']['clang']})")
kinds = {}
for f in r["failures"]:
    reason = f["reason"]
    if reason == "crash" and "assert" in f["stderr_tail"].lower():
        reason = "assert"
    kinds[reason] = kinds.get(reason, 0) + 1
    print(f"  failed ({reason}, {f['seconds']:.0f} s): {f['file']}")
print("failures: " + (", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "none"))
for c, n in sorted(s["by_checker"].items()):
    print(f"  {c}: {n}")
with open(os.path.join(out, "findings.tsv"), "w") as t:
    for f in sorted(r["findings"], key=lambda f: (f["file"], f["line"])):
        t.write(f"{f['checker']}\t{f['file']}:{f['line']}\t{f['function']}\t{f['message']}\n")
print(f"sweep: findings in {out}/findings.tsv")
sys.exit(1 if r["failures"] else 0)
PY
