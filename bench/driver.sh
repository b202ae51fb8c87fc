#!/usr/bin/env bash
# krefcheck vs analyze-build on the same kernel TUs with the same checkers.
#
#   bench/driver.sh [KERNEL_TREE]
#
# KERNEL_TREE holds compile_commands.json (default: the corpus of
# /work/shared/corpus/linux-6.1.sh, $KCORPUS/linux-source-6.1). Picks N=40
# TUs (every TU of fs/kernfs/ and drivers/of/, then lib/ in path order),
# runs `analyze-build --enable-checker refcount,core.builtin` with the default checkers
# disabled (what krefcheck runs by default: the refcount checkers and the
# core.builtin models), then
# `krefcheck -j JOBS` (default 2; analyze-build uses one worker per CPU),
# and prints both wall times and the ratio krefcheck / analyze-build.
# Environment: BUILD (default build/), KREFCHECK, PLUGIN, N, JOBS, OUT,
# REPEAT (rounds, alternating which tool runs first; default 1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-${KCORPUS:-$HOME/.cache/kcorpus}/linux-source-6.1}
build=${BUILD:-$here/build}
krefcheck=${KREFCHECK:-$build/bin/krefcheck}
plugin=${PLUGIN:-$build/lib/krefcheck.so}
n=${N:-40}
jobs=${JOBS:-2}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/krefcheck-bench.XXXXXX")}
[ -f "$tree/compile_commands.json" ] || { echo "driver.sh: no compile_commands.json in $tree" >&2; exit 2; }
[ -x "$krefcheck" ] || { echo "driver.sh: $krefcheck not built" >&2; exit 2; }
# The clang the plugin was built for: "plugin built for clang version X (PATH)".
clang=$("$krefcheck" --version | sed -n 's/^plugin built for .*(\(.*\))$/\1/p')
major=$("$clang" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
analyze_build=$(dirname "$clang")/analyze-build
[ -x "$analyze_build" ] || analyze_build=analyze-build-$major
mkdir -p "$out"

# The TU subset, as "command" entries (analyze-build cannot read "arguments").
python3 - "$tree/compile_commands.json" "$out/cdb.json" "$n" <<'PY'
import json, os, shlex, sys
db = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
def rel(e):
    return os.path.relpath(os.path.join(e["directory"], e["file"]), e["directory"])
ents = sorted((e for e in db if e["file"].endswith(".c")), key=rel)
pick = [e for e in ents if rel(e).startswith(("fs/kernfs/", "drivers/of/"))]
pick += [e for e in ents if rel(e).startswith("lib/") and e not in pick]
pick = pick[:n]
for e in pick:
    if "arguments" in e:
        e["command"] = shlex.join(e.pop("arguments"))
json.dump(pick, open(sys.argv[2], "w"), indent=1)
print(f"{len(pick)} TUs: {rel(pick[0])} ... {rel(pick[-1])}")
PY

# timed FILE CMD...: runs CMD, writes "wall cpu" (seconds; cpu = user+sys
# of CMD and all its children) to FILE, returns CMD's exit status. CPU time
# is the steadier figure on a shared machine; wall time is the goal's.
timed() {
  local file=$1; shift
  python3 - "$file" "$@" <<'PY'
import resource, subprocess, sys, time
t0 = time.monotonic()
rc = subprocess.call(sys.argv[2:])
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(f"{wall:.2f} {ru.ru_utime + ru.ru_stime:.2f}\n")
sys.exit(rc)
PY
}
# analyze-build cannot drop the default checkers, so it disables them; what
# is left is exactly krefcheck's set (refcount + core.builtin, whose models
# of __builtin_expect() and friends krefcheck always runs): compare with
# -analyzer-list-enabled-checkers when changing either.
ab_disable=core.BitwiseShift,core.CallAndMessage,core.DivideZero,core.NonNullParamChecker
ab_disable+=,core.NullDereference,core.StackAddressEscape,core.UndefinedBinaryOperatorResult
ab_disable+=,core.VLASize,core.uninitialized,core.CallAndMessageModeling
ab_disable+=,core.DynamicTypePropagation,core.NonnilStringConstants,core.StackAddrEscapeBase
ab_disable+=,unix,deadcode,cplusplus,security,nullability,apiModeling
run_ab() {  # analyze-build; writes its wall and CPU time to $out/ab.$1
  rm -rf "$out/analyze-build"
  timed "$out/ab.$1" "$analyze_build" --cdb "$out/cdb.json" --use-analyzer "$clang" --load-plugin "$plugin" \
    --enable-checker refcount,core.builtin --disable-checker "$ab_disable" \
    --plist-multi-file -o "$out/analyze-build" >"$out/analyze-build.log" 2>&1 || true
}
run_k() {  # krefcheck; writes its wall and CPU time to $out/k.$1
  local rc=0
  timed "$out/k.$1" "$krefcheck" --cdb "$out/cdb.json" -j "$jobs" --format json \
    -o "$out/krefcheck.json" 2>"$out/krefcheck.log" || rc=$?
  echo "$rc" >"$out/k.rc"
}
echo "analyze-build: $analyze_build (workers: $(nproc)), krefcheck -j $jobs, clang $clang"
# REPEAT rounds, alternating which tool goes first, so that a load change on
# a shared machine does not favour one of them.
repeat=${REPEAT:-1}
for ((r = 1; r <= repeat; r++)); do
  if ((r % 2)); then run_ab "$r"; run_k "$r"; else run_k "$r"; run_ab "$r"; fi
  read -r abw abc <"$out/ab.$r"
  read -r kw kc <"$out/k.$r"
  echo "round $r: analyze-build ${abw} s (cpu ${abc} s), krefcheck ${kw} s (cpu ${kc} s)"
done
tail -1 "$out/krefcheck.log"

python3 - "$out" "$repeat" <<'PY'
import glob, json, plistlib, sys
out, repeat = sys.argv[1], int(sys.argv[2])
ab = 0
for f in glob.glob(f"{out}/analyze-build/*/*.plist"):
    try:
        ab += len(plistlib.load(open(f, "rb"))["diagnostics"])
    except Exception:
        pass
k = json.load(open(f"{out}/krefcheck.json"))
rc = int(open(f"{out}/k.rc").read())
def times(tool):
    rows = [open(f"{out}/{tool}.{r}").read().split() for r in range(1, repeat + 1)]
    return sum(float(w) for w, _ in rows), sum(float(c) for _, c in rows)
a, ac = times("ab")
b, bc = times("k")
print(f"analyze-build: {a:7.1f} s wall, {ac:7.1f} s cpu in {repeat} round(s), "
      f"{ab} diagnostics (per TU, before dedupe)")
print(f"krefcheck:     {b:7.1f} s wall, {bc:7.1f} s cpu in {repeat} round(s), "
      f"{k['summary']['findings']} findings, {k['summary']['failed']} failed TUs (exit {rc})")
print(f"ratio krefcheck/analyze-build: wall {b / a:.3f}, cpu {bc / ac:.3f}")
PY
echo "outputs in $out"
