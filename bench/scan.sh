#!/usr/bin/env bash
# Scans kernel corpus TUs with the plugin, in parallel, one log per TU.
#
#   bench/scan.sh [-j N] [-c CHECKERS] [-C CORE] [-p PLUGIN] [-o OUTDIR] LIST
#
# LIST holds TU paths relative to the corpus kernel tree (one a line; a path
# ending in / means the whole directory). CHECKERS defaults to `refcount`
# (the core checkers run too, as in a normal analysis; -C '' runs none, which
# makes syntactic checkers such as BiasedCount cheap). Writes
# OUTDIR/logs/<tu>.log, OUTDIR/summary.tsv (tu, seconds, exit, warnings) and
# prints totals: TUs, failures (crash/non-zero exit), warnings per checker,
# wall seconds. The corpus comes from ../shared/corpus/linux-6.1.sh
# ($KCORPUS or ~/.cache/kcorpus).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc) checkers=refcount core=core plugin=$here/build/lib/krefcheck.so out=$here/build/scan
while getopts j:c:C:p:o: opt; do
  case $opt in
    j) jobs=$OPTARG ;; c) checkers=$OPTARG ;; C) core=$OPTARG ;; p) plugin=$OPTARG ;; o) out=$OPTARG ;;
    *) echo "usage: $0 [-j N] [-c CHECKERS] [-C CORE] [-p PLUGIN] [-o OUTDIR] LIST" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
list=${1:?usage: $0 [-j N] [-c CHECKERS] [-p PLUGIN] [-o OUTDIR] LIST}
analyze=${ANALYZE_TU:-$here/../shared/corpus/analyze-tu.py}
[ -f "$plugin" ] || { echo "scan.sh: plugin '$plugin' not found (build first)" >&2; exit 2; }
[ -x "$analyze" ] || { echo "scan.sh: '$analyze' not found: set ANALYZE_TU" >&2; exit 2; }
[ -f "$list" ] || { echo "scan.sh: TU list '$list' not found" >&2; exit 2; }
# A private copy, so that rebuilding during a scan does not disturb it.
mkdir -p "$out/logs"
cp "$plugin" "$out/krefcheck.so"
export KREF_PLUGIN=$out/krefcheck.so KREF_CHECKERS=$checkers KREF_CORE=$core KREF_OUT=$out KREF_ANALYZE=$analyze

scan_one() {
  tu=$1
  log=$KREF_OUT/logs/$(echo "$tu" | tr / _).log
  start=$(date +%s.%N)
  rc=0
  "$KREF_ANALYZE" --checkers "$KREF_CORE" "$tu" -- -Xclang -load -Xclang "$KREF_PLUGIN" \
    -Xclang -analyzer-checker="$KREF_CHECKERS" >"$log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  n=$(grep -c 'warning: .*\[refcount\.' "$log" || true)
  printf '%s\t%.1f\t%s\t%s\n' "$tu" "$(echo "$end - $start" | bc)" "$rc" "$n"
}
export -f scan_one

wall_start=$(date +%s)
grep -v '^\s*\(#\|$\)' "$list" | xargs -P "$jobs" -I{} bash -c 'scan_one "$@"' _ {} \
  | tee "$out/summary.tsv.tmp" >/dev/null
sort "$out/summary.tsv.tmp" >"$out/summary.tsv" && rm -f "$out/summary.tsv.tmp"
wall=$(( $(date +%s) - wall_start ))

tus=$(wc -l <"$out/summary.tsv")
fails=$(awk -F'\t' '$3 != 0' "$out/summary.tsv" | wc -l)
echo "scan: $tus TUs, $fails failed (non-zero exit), ${wall}s wall with -j$jobs"
awk -F'\t' '$3 != 0 {print "  failed: " $1 " (exit " $3 ")"}' "$out/summary.tsv"
cat "$out"/logs/*.log 2>/dev/null | grep -o 'warning: .*\[refcount\.[A-Za-z]*\]' \
  | sed 's/.*\[\(refcount\.[A-Za-z]*\)\]/\1/' | sort | uniq -c | sed 's/^/  /' || true
echo "scan: crashes: $(grep -l 'PLEASE submit a bug report\|Assertion .* failed\|Stack dump' "$out"/logs/*.log 2>/dev/null | wc -l)"
