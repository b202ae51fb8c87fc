#!/usr/bin/env bash
# The kernel's own Coccinelle refcount scripts on the directories we scan,
# timed, for comparison with krefcheck's findings (docs/validation-sweep.md).
#
#   bench/cocci.sh [-o OUT] [DIR...]
#
# Runs, in report mode with --very-quiet, scripts/coccinelle/
#   api/atomic_as_refcounter.cocci   (atomic_t used as a reference count)
#   iterators/for_each_child.cocci   (early exit from for_each_*_node without put)
#   free/put_device.cocci            (missing put_device after of_find_device_by_node)
# on each DIR of the corpus kernel tree (default: drivers/of drivers/base lib
# fs/kernfs net/sunrpc). Only the .c files that are in the compile database
# are given to spatch (the TUs krefcheck sees), with the tree's include
# paths. Prints per script and directory: files, reports, seconds; writes
# OUT/<script>.<dir>.txt (default build/cocci/). Installs Debian's
# coccinelle with apt-get if spatch is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/build/cocci
while getopts o: opt; do
  case $opt in
    o) out=$OPTARG ;; *) echo "usage: $0 [-o OUT] [DIR...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
dirs=("$@")
((${#dirs[@]})) || dirs=(drivers/of drivers/base lib fs/kernfs net/sunrpc)
tree=${KCORPUS:-$HOME/.cache/kcorpus}/linux-source-6.1
[ -f "$tree/compile_commands.json" ] || { echo "cocci.sh: no corpus at $tree (../shared/corpus/linux-6.1.sh)" >&2; exit 2; }
if ! command -v spatch >/dev/null; then
  echo "cocci.sh: installing coccinelle" >&2
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends coccinelle >/dev/null
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
scripts=(api/atomic_as_refcounter.cocci iterators/for_each_child.cocci free/put_device.cocci)
cd "$tree"
echo "cocci: $(spatch --version | head -1)"
printf '%-28s %-14s %6s %8s %8s\n' script dir files reports seconds
for d in "${dirs[@]}"; do
  d=${d%/}
  # The database's TUs under d (what krefcheck analyzes there).
  python3 - "$d" >"$out/files.$(echo "$d" | tr / _).txt" <<'PY'
import json, os, sys
d = sys.argv[1].rstrip("/") + "/"
for e in json.load(open("compile_commands.json")):
    f = os.path.normpath(os.path.relpath(os.path.join(e["directory"], e["file"]), e["directory"]))
    if f.startswith(d) and f.endswith(".c"):
        print(f)
PY
  files=$out/files.$(echo "$d" | tr / _).txt
  n=$(wc -l <"$files")
  for s in "${scripts[@]}"; do
    name=$(basename "$s" .cocci)
    log=$out/$name.$(echo "$d" | tr / _).txt
    start=$(date +%s.%N)
    # The script's own "// Options:" line, as `make coccicheck` uses it.
    read -r -a opts < <(sed -n 's|^// Options: *||p' "scripts/coccinelle/$s")
    # One spatch per file, in report mode (`make coccicheck MODE=report`).
    : >"$log"
    while read -r f; do
      spatch --very-quiet -D report --no-show-diff "${opts[@]}" --sp-file "scripts/coccinelle/$s" \
        -I arch/x86/include -I arch/x86/include/generated -I include \
        -I arch/x86/include/uapi -I arch/x86/include/generated/uapi -I include/uapi \
        -I include/generated/uapi --include include/linux/compiler-version.h \
        --include include/linux/kconfig.h "$f" >>"$log" 2>&1 || echo "spatch failed on $f" >>"$log"
    done <"$files"
    end=$(date +%s.%N)
    reports=$(grep -c '^[^ ]*\.c:[0-9]' "$log" || true)
    printf '%-28s %-14s %6s %8s %8.1f\n' "$name" "$d" "$n" "$reports" "$(echo "$end - $start" | bc)"
  done
done
echo "cocci: reports in $out/"
