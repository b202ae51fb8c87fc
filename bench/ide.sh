#!/usr/bin/env bash
# Editor latency of krefcheck-clangd vs `clang --analyze` with the plugin on
# kernel corpus TUs (bench/ide.py says how). Not a test.
#
#   bench/ide.sh [-b BUILD] [-r ROUNDS] [TU...]
#
# Defaults: build/ (LLVM 19, the corpus's clang), 1 round, drivers/of/base.c
# lib/kobject.c fs/kernfs/dir.c. The corpus is $KCORPUS or ~/.cache/kcorpus.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/build rounds=1
while getopts b:r: opt; do
  case $opt in
    b) build=$OPTARG ;; r) rounds=$OPTARG ;;
    *) echo "usage: $0 [-b BUILD] [-r ROUNDS] [TU...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(($#)) || set -- drivers/of/base.c lib/kobject.c fs/kernfs/dir.c
tree=${KCORPUS:-$HOME/.cache/kcorpus}/linux-source-6.1
analyze=${ANALYZE_TU:-$here/../shared/corpus/analyze-tu.py}
[ -f "$tree/compile_commands.json" ] || { echo "ide.sh: no corpus at $tree" >&2; exit 2; }
[ -f "$analyze" ] || { echo "ide.sh: '$analyze' not found: set ANALYZE_TU" >&2; exit 2; }
cmake --build "$build" -j2 --target krefcheck krefcheck-clangd >/dev/null
exec python3 "$here/bench/ide.py" --clangd "$build/bin/krefcheck-clangd" \
  --plugin "$build/lib/krefcheck.so" --analyze-tu "$analyze" --tree "$tree" \
  --rounds "$rounds" "$@"
