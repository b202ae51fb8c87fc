#!/usr/bin/env bash
# bench/corpus-of.sh: a second kernel corpus for the driver directories that
# x86_64 defconfig does not build, where most device-tree, runtime-PM and
# PCI references are taken (SoC, pinctrl, clk, phy, ASoC, DRM bridges,
# Ethernet and DSA drivers, ...).
#
#   bench/corpus-of.sh [-j N] [--dir DIR] [--kernel 6.1|6.12] [--set heldout]
#                      [--files LIST] [DIRS...]
#
# Unpacks Debian's linux-source-6.1 (the tarball of ../shared/corpus; with
# --kernel 6.12 Debian's linux-source-6.12, the current kernel, into
# DIR/linux-source-6.12) into DIR (default $KCORPUS_OF or
# ~/.cache/kcorpus-of; for 6.12 ~/.cache/kcorpus-of-6.12), configures it with
# allmodconfig (COMPILE_TEST and OF on) minus the compiler instrumentation
# that only slows the analyzer (KASAN, UBSAN, KCOV, GCOV, KCSAN, lockdep,
# FORTIFY_SOURCE, debug info), and compiles, as single objects, only the
# .c files under DIRS that call one of the modelled get/lookup APIs: the
# other files cannot hold a reference krefcheck follows, and compiling them
# would cost as much as analysing the rest. Writes
# DIR/linux-source-<kernel>/compile_commands.json and prints the list of TUs in
# DIR/tus.txt (the input of bench/sweep.sh -f).
#
# Without DIRS the 30 directories below are built (all swept in rounds 3-4).
# --set heldout adds the held-out validation directories instead
# (bench/split.py --set heldout: the validation half of
# bench/lists/dirs-new.txt, directories no round has swept; see
# docs/validation-sweep.md section 6). --files LIST compiles the .c files
# named in LIST (paths relative to the kernel tree, one a line, # comments),
# as they are, without the API filter; with --files alone no directory is
# scanned (e.g. --files bench/lists/driver96.txt: only the 96 TUs with a
# round-4 finding, 7 minutes from scratch under load instead of ~25). Both
# may be given, and DIRS too: the candidates are the union. tus.txt and candidates.txt describe the
# last run only; compile_commands.json keeps every object built so far.
#
# Objects that fail to compile are skipped (make -k), so the database lists
# what compiled. Safe to re-run: make only rebuilds what changed. Exit 2 on
# bad input (unknown option, missing LIST, tarball or build tools).
set -euo pipefail

JOBS=2
DIR= KERNEL=6.1
HERE=$(cd "$(dirname "$0")" && pwd)
FILES= SET=
need() { [[ $# -ge 2 && -n $2 ]] || { echo "corpus-of.sh: $1 wants a value (see --help)" >&2; exit 2; }; }
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) need "$@"; JOBS=$2; shift 2 ;;
    --dir) need "$@"; DIR=$2; shift 2 ;;
    --kernel) need "$@"; KERNEL=$2; shift 2 ;;
    --files) need "$@"; FILES=$2; shift 2 ;;
    --set) need "$@"; SET=$2; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "corpus-of.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
DIRS=("$@")
case $KERNEL in
  6.1) DIR=${DIR:-${KCORPUS_OF:-$HOME/.cache/kcorpus-of}} ;;
  6.12) DIR=${DIR:-$HOME/.cache/kcorpus-of-6.12} ;;
  *) echo "corpus-of.sh: --kernel wants 6.1 or 6.12, not '$KERNEL'" >&2; exit 2 ;;
esac
TARBALL=/usr/src/linux-source-$KERNEL.tar.xz
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "corpus-of.sh: -j wants a positive count, not '$JOBS'" >&2; exit 2; }
if [[ -n $FILES ]]; then
  [[ -f $FILES ]] || { echo "corpus-of.sh: --files: list '$FILES' not found" >&2; exit 2; }
  FILES=$(cd "$(dirname "$FILES")" && pwd)/$(basename "$FILES")
fi
if [[ -n $SET ]]; then
  [[ $SET == heldout ]] || { echo "corpus-of.sh: unknown set '$SET' (only 'heldout')" >&2; exit 2; }
  mapfile -t -O "${#DIRS[@]}" DIRS < <(python3 "$HERE/split.py" --set heldout)
fi
if [[ ${#DIRS[@]} -eq 0 && -z $FILES ]]; then
  # Ordered by how often their files take device-tree references.
  DIRS=(drivers/soc drivers/pinctrl drivers/clk drivers/phy
        drivers/gpu/drm/bridge sound/soc drivers/memory drivers/bus
        drivers/remoteproc drivers/regulator drivers/cpufreq drivers/thermal
        drivers/iommu drivers/irqchip drivers/mtd drivers/leds drivers/spi
        drivers/mmc/host drivers/i2c/busses drivers/tty/serial
        drivers/pci/controller drivers/dma drivers/net/dsa drivers/net/ethernet
        drivers/mfd drivers/power drivers/gpio drivers/video drivers/usb
        drivers/media/platform)
fi

[[ -r $TARBALL ]] || { echo "corpus-of.sh: $TARBALL not found (apt-get install linux-source-$KERNEL, or run ../shared/corpus/linux-6.1.sh first)" >&2; exit 2; }
for t in clang-19 ld.lld-19 make flex bison bc; do
  command -v "$t" >/dev/null || { echo "corpus-of.sh: $t not found (run ../shared/corpus/linux-6.1.sh once: it installs the build packages)" >&2; exit 2; }
done

mkdir -p "$DIR"
TREE=$DIR/linux-source-$KERNEL
MAKE=(make -C "$TREE" LLVM=-19 -s)
log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }

if [[ ! -f $TREE/Makefile ]]; then
  log "unpacking $TARBALL"
  tar -xJf "$TARBALL" -C "$DIR"
fi

API_RE='of_node_get|of_find_|of_get_|of_parse_phandle|for_each_[a-z_]*node|of_graph_get|of_cpu_device_node_get|fwnode_get_|fwnode_graph_get|fwnode_handle_get|device_get_named_child_node|device_get_next_child_node|pm_runtime_get|pci_get_|bus_find_device|class_find_device|driver_find_device|device_find_child|get_device\(|kobject_get|dev_get_by_|dev_hold|usb_get_dev|usb_get_intf'
for d in "${DIRS[@]}"; do
  [[ -d $TREE/$d ]] || { echo "corpus-of.sh: no directory '$d' in $TREE" >&2; exit 2; }
done
{
  if [[ ${#DIRS[@]} -gt 0 ]]; then
    (cd "$TREE" && grep -rlE "$API_RE" --include='*.c' "${DIRS[@]}")
  fi
  if [[ -n $FILES ]]; then
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' -e 's#^\./##' "$FILES" | grep -v '^$'
  fi
} | sort -u >"$DIR/candidates.txt"
missing=$(cd "$TREE" && while read -r f; do [[ -f $f && $f == *.c ]] || echo "$f"; done <"$DIR/candidates.txt")
if [[ -n $missing ]]; then
  echo "corpus-of.sh: not a .c file of $TREE:" $missing >&2
  exit 2
fi
log "$(wc -l <"$DIR/candidates.txt") candidate files (${#DIRS[@]} directories${FILES:+, list $FILES})"

if [[ ! -f $TREE/.kcorpus-of-configured ]]; then
  log "allmodconfig minus instrumentation"
  "${MAKE[@]}" allmodconfig >/dev/null
  "$TREE/scripts/config" --file "$TREE/.config" \
    --enable OF --enable COMPILE_TEST --disable WERROR \
    --disable KASAN --disable KCSAN --disable UBSAN --disable KCOV \
    --disable GCOV_KERNEL --disable PROVE_LOCKING --disable DEBUG_LOCK_ALLOC \
    --disable LOCK_STAT --disable FORTIFY_SOURCE --disable CFI_CLANG \
    --disable DEBUG_INFO --enable DEBUG_INFO_NONE --disable KMSAN \
    --enable LTO_NONE --disable LTO_CLANG_THIN --disable LTO_CLANG_FULL
  "${MAKE[@]}" olddefconfig >/dev/null
  grep -qx 'CONFIG_OF=y' "$TREE/.config" || { echo "corpus-of.sh: CONFIG_OF did not stick" >&2; exit 1; }
  touch "$TREE/.kcorpus-of-configured"
fi

log "make prepare"
"${MAKE[@]}" -j"$JOBS" prepare >/dev/null


# Single-object targets compile a file whatever its Makefile line says, so a
# file behind an unset option still gets a command if its headers compile.
sed 's/\.c$/.o/' "$DIR/candidates.txt" | xargs -n 40 "${MAKE[@]}" -k -j"$JOBS" >"$DIR/build.log" 2>&1 || true

log "compile_commands.json"
(cd "$TREE" && python3 scripts/clang-tools/gen_compile_commands.py -d . -o compile_commands.json)
python3 - "$TREE" "$DIR/candidates.txt" "$DIR/tus.txt" <<'EOF'
import json, os, sys
tree, cand, out = sys.argv[1:]
db = {os.path.relpath(os.path.join(e["directory"], e["file"]), tree) for e in json.load(open(os.path.join(tree, "compile_commands.json")))}
want = [l.strip() for l in open(cand) if l.strip()]
got = [f for f in want if f in db]
open(out, "w").write("".join(f + "\n" for f in got))
print(f"{len(got)} of {len(want)} candidate files compiled; list in {out}")
EOF
