#!/usr/bin/env bash
# How often each rule of the lifetime model's rule registry (checker/Rules.def)
# fires on a corpus, and whether turning it off changes any report.
#
#   bench/rules.sh [-j N] [-p PLUGIN] [-d CORPUS_DIR] [-k 6.1|6.12] [-o OUT]
#                  [--ablate] [--only RULE,RULE] LIST
#
# LIST: TU paths relative to the kernel tree, one a line (# comments). Each TU
# is analyzed with the default set (`refcount`) and refcount:RuleStats=true
# through ../shared/corpus/analyze-tu.py (CORPUS_DIR: $KCORPUS or
# ~/.cache/kcorpus; the driver corpus is ~/.cache/kcorpus-of; -k 6.12 reads
# CORPUS_DIR/linux-source-6.12, e.g. bench/corpus-of.sh --kernel 6.12's
# ~/.cache/kcorpus-of-6.12). Prints, per
# rule, how many times it fired and in how many TUs, and the rules that fired
# nowhere (candidates to delete or to turn into a model-file row).
#
# --ablate: for every rule that fired, analyze the TUs where it fired again
# with refcount:DisableRules=RULE and print the reports that appear or
# disappear (file:line: checker message). A rule whose removal changes no
# report on the corpus silences nothing there. --only RULE,RULE ablates the
# named rules only.
#
# OUT (default build/rules/) keeps stats.tsv (tu, rule, count), the warnings
# of each run and ablation.txt. Exit 2 on a configuration error.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=2 plugin=$here/build/lib/krefcheck.so corpus=${KCORPUS:-$HOME/.cache/kcorpus}
out=$here/build/rules ablate=0 list= only= kernel=6.1
usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -p) plugin=$2; shift 2 ;;
    -d) corpus=$2; shift 2 ;;
    -k) kernel=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --ablate) ablate=1; shift ;;
    --only) only=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "rules.sh: unknown option '$1'" >&2; usage ;;
    *) list=$1; shift ;;
  esac
done
analyze=${ANALYZE_TU:-$here/../shared/corpus/analyze-tu.py}
[ -n "$list" ] || usage
[ -f "$list" ] || { echo "rules.sh: TU list '$list' not found" >&2; exit 2; }
case $kernel in 6.1|6.12) ;; *) echo "rules.sh: -k wants 6.1 or 6.12, not '$kernel'" >&2; exit 2 ;; esac
[ -f "$plugin" ] || { echo "rules.sh: plugin '$plugin' not found (run tools/setup.sh)" >&2; exit 2; }
[ -f "$analyze" ] || { echo "rules.sh: $analyze not found (set ANALYZE_TU)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "rules.sh: corpus '$corpus' not found (../shared/corpus/linux-6.1.sh or bench/corpus-of.sh)" >&2; exit 2; }
mkdir -p "$out/runs"
mapfile -t tus < <(grep -v '^\s*\(#\|$\)' "$list")

# run_tu TU TAG [DISABLED]: warnings of the TU to $out/runs/TAG/<tu>.txt and
# its rule stats (when not ablating) to .stats.
run_tu() {
  local tu=$1 tag=$2 disabled=${3:-} dir=$out/runs/$2
  local safe=${tu//\//_}
  mkdir -p "$dir"
  local cfg=(-Xclang -analyzer-config -Xclang refcount:RuleStats=true)
  [ -z "$disabled" ] || cfg=(-Xclang -analyzer-config -Xclang "refcount:DisableRules=$disabled")
  python3 "$analyze" --dir "$corpus" --kernel "$kernel" --checkers core "$tu" -- -Xclang -load -Xclang "$plugin" \
    -Xclang -analyzer-checker=refcount "${cfg[@]}" >"$dir/$safe.log" 2>&1 || true
  grep -E '^[^ ].*: warning: .*\[refcount\.' "$dir/$safe.log" | sed 's/ \[refcount/\t[refcount/' | sort -u >"$dir/$safe.txt" || true
  grep '^krefcheck-rule-stats: ' "$dir/$safe.log" | awk -v tu="$tu" '{print tu "\t" $3 "\t" $4}' >"$dir/$safe.stats" || true
  grep '^krefcheck-cost: ' "$dir/$safe.log" | awk '{print $4}' >"$dir/$safe.nodes" || true
}
export -f run_tu
export out plugin corpus analyze kernel

start=$(date +%s)
printf '%s\n' "${tus[@]}" | xargs -P "$jobs" -I{} bash -c 'run_tu "$1" base' _ {}
cat "$out"/runs/base/*.stats >"$out/stats.tsv" 2>/dev/null || : >"$out/stats.tsv"
echo "rules.sh: ${#tus[@]} TUs in $(( $(date +%s) - start )) s; reports: $(cat "$out"/runs/base/*.txt 2>/dev/null | wc -l); exploded nodes: $(cat "$out"/runs/base/*.nodes 2>/dev/null | awk '{s+=$1} END{print s+0}')"
python3 - "$out/stats.tsv" "$here/checker/Rules.def" <<'PY'
import collections, re, sys
fired, tus = collections.Counter(), collections.defaultdict(set)
for line in open(sys.argv[1]):
    tu, rule, n = line.rstrip("\n").split("\t")
    fired[rule] += int(n); tus[rule].add(tu)
rules = re.findall(r'^RULE\(\w+, "([^"]+)"', open(sys.argv[2]).read(), re.M)
print(f"{'rule':24} {'fired':>8} {'TUs':>5}")
for r in rules:
    print(f"{r:24} {fired[r]:8d} {len(tus[r]):5d}")
print("fired nowhere: " + (", ".join(r for r in rules if not fired[r]) or "none"))
PY
[ "$ablate" = 1 ] || exit 0

: >"$out/ablation.txt"
for rule in $(cut -f2 "$out/stats.tsv" | sort -u); do
  [ -z "$only" ] || [[ ",$only," == *",$rule,"* ]] || continue
  mapfile -t where < <(awk -F'\t' -v r="$rule" '$2 == r {print $1}' "$out/stats.tsv" | sort -u)
  printf '%s\n' "${where[@]}" | xargs -P "$jobs" -I{} bash -c 'run_tu "$1" "off-$2" "$2"' _ {} "$rule"
  changed=0
  for tu in "${where[@]}"; do
    safe=${tu//\//_}
    d=$(diff "$out/runs/base/$safe.txt" "$out/runs/off-$rule/$safe.txt" | grep '^[<>]' || true)
    if [ -n "$d" ]; then
      changed=$((changed + $(printf '%s\n' "$d" | wc -l)))
      printf '== %s off, %s\n%s\n' "$rule" "$tu" "$(printf '%s\n' "$d" | sed 's/^</  gone:/; s/^>/  new: /')" >>"$out/ablation.txt"
    fi
  done
  printf '%-24s off: %d report(s) change in %d TU(s)\n' "$rule" "$changed" "${#where[@]}"
done
echo "rules.sh: details in $out/ablation.txt"
