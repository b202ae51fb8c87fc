#!/usr/bin/env bash
# bench/seed.sh: recall by seeded bugs. Deletes one line (a put) of a kernel
# file on a copy, analyzes the copy with the file's own compile command and
# the default refcount set, and prints the refcount reports.
#
#   bench/seed.sh [-k 6.1|6.12] [-d CORPUS_DIR] -p PLUGIN FILE LINE
#   bench/seed.sh [-k ...] [-d ...] -p PLUGIN -f SEEDS   # "FILE LINE" lines
#
# FILE is relative to the kernel tree; the copy is FILE's directory's
# kc_seed_<name>.c, removed afterwards. The line is replaced by an empty
# statement, so line numbers stay. With -f, each seed is printed as
# "== FILE:LINE" followed by its reports (none: the seed was missed).
# Exit 2 on bad input (unknown option, missing plugin, file or line).
set -euo pipefail
KERNEL=6.1 DIR="" PLUGIN="" LIST=""
die() { echo "seed.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    -k) KERNEL=${2:?}; shift 2 ;;
    -d) DIR=${2:?}; shift 2 ;;
    -p) PLUGIN=${2:?}; shift 2 ;;
    -f) LIST=${2:?}; shift 2 ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
  esac
done
[ -n "$PLUGIN" ] && [ -f "$PLUGIN" ] || die "no plugin (-p PLUGIN)"
PLUGIN=$(realpath "$PLUGIN") # the analysis runs in the kernel tree
case "$KERNEL" in 6.1|6.12) ;; *) die "unknown kernel '$KERNEL' (6.1 or 6.12)" ;; esac
[ -n "$DIR" ] || DIR=$([ "$KERNEL" = 6.12 ] && echo ~/.cache/kcorpus-of-6.12 || echo ~/.cache/kcorpus-of)
TREE="$DIR/linux-source-$KERNEL"
[ -d "$TREE" ] || die "no kernel tree in '$DIR' (bench/corpus-of.sh builds one)"
HERE=$(cd "$(dirname "$0")" && pwd)
ANALYZE="$HERE/../../shared/corpus/analyze-tu.py"
[ -f "$ANALYZE" ] || die "missing $ANALYZE"

seed_one() {
  local file=$1 line=$2
  [ -f "$TREE/$file" ] || die "no file '$file' in $TREE"
  local n; n=$(wc -l < "$TREE/$file")
  [[ "$line" =~ ^[0-9]+$ ]] && [ "$line" -ge 1 ] && [ "$line" -le "$n" ] ||
    die "'$line' is not a line of $file"
  local copy; copy="$(dirname "$file")/kc_seed_$(basename "$file")"
  sed "${line}s/.*/\t;/" "$TREE/$file" > "$TREE/$copy"
  local cmd
  cmd=$(python3 "$ANALYZE" --dir "$DIR" --kernel "$KERNEL" --print-cmd \
          --checkers core "$file" -- -Xclang -load -Xclang "$PLUGIN" \
          -Xclang -analyzer-checker=refcount | tail -1) || {
    rm -f "$TREE/$copy"; die "no compile command for '$file'"; }
  cmd=${cmd//$file/$copy}
  (cd "$TREE" && eval "$cmd" 2>&1 || true) |
    grep -E 'warning:.*\[refcount' | sed "s/kc_seed_//" | sort -u || true
  rm -f "$TREE/$copy"
}

if [ -n "$LIST" ]; then
  [ -f "$LIST" ] || die "cannot read '$LIST'"
  grep -v '^#' "$LIST" | while read -r f l; do
    [ -n "$f" ] || continue
    echo "== $f:$l"
    seed_one "$f" "$l"
  done
else
  [ $# -eq 2 ] || die "want FILE LINE (or -f SEEDS)"
  seed_one "$1" "$2"
fi
