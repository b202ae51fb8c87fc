#!/usr/bin/env bash
# bench/corpus-of.sh: a second kernel corpus for the driver directories that
# x86_64 defconfig does not build, where most device-tree, runtime-PM and
# PCI references are taken (SoC, pinctrl, clk, phy, ASoC, DRM bridges,
# Ethernet and DSA drivers, ...).
#
#   bench/corpus-of.sh [-j N] [--dir DIR] [DIRS...]
#
# Unpacks Debian's linux-source-6.1 (the tarball of ../shared/corpus) into
# DIR (default $KCORPUS_OF or ~/.cache/kcorpus-of), configures it with
# allmodconfig (COMPILE_TEST and OF on) minus the compiler instrumentation
# that only slows the analyzer (KASAN, UBSAN, KCOV, GCOV, KCSAN, lockdep,
# FORTIFY_SOURCE, debug info), and compiles, as single objects, only the
# .c files under DIRS that call one of the modelled get/lookup APIs: the
# other files cannot hold a reference krefcheck follows, and compiling them
# would cost as much as analysing the rest. Writes
# DIR/linux-source-6.1/compile_commands.json and prints the list of TUs in
# DIR/tus.txt (the input of bench/sweep.sh --files-from).
#
# Objects that fail to compile are skipped (make -k), so the database lists
# what compiled. Safe to re-run: make only rebuilds what changed.
set -euo pipefail

JOBS=2
DIR=${KCORPUS_OF:-$HOME/.cache/kcorpus-of}
TARBALL=/usr/src/linux-source-6.1.tar.xz
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) JOBS=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "corpus-of.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
DIRS=("$@")
if [[ ${#DIRS[@]} -eq 0 ]]; then
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

[[ -r $TARBALL ]] || { echo "corpus-of.sh: $TARBALL not found (apt-get install linux-source-6.1, or run ../shared/corpus/linux-6.1.sh first)" >&2; exit 1; }
for t in clang-19 ld.lld-19 make flex bison bc; do
  command -v "$t" >/dev/null || { echo "corpus-of.sh: $t not found (run ../shared/corpus/linux-6.1.sh once: it installs the build packages)" >&2; exit 1; }
done

mkdir -p "$DIR"
TREE=$DIR/linux-source-6.1
MAKE=(make -C "$TREE" LLVM=-19 -s)
log() { printf '[%s] %s\n' "$(date +%T)" "$*"; }

if [[ ! -f $TREE/Makefile ]]; then
  log "unpacking $TARBALL"
  tar -xJf "$TARBALL" -C "$DIR"
fi

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

API_RE='of_node_get|of_find_|of_get_|of_parse_phandle|for_each_[a-z_]*node|of_graph_get|of_cpu_device_node_get|fwnode_get_|fwnode_graph_get|fwnode_handle_get|device_get_named_child_node|device_get_next_child_node|pm_runtime_get|pci_get_|bus_find_device|class_find_device|driver_find_device|device_find_child|get_device\(|kobject_get|dev_get_by_|dev_hold|usb_get_dev|usb_get_intf'
(cd "$TREE" && grep -rlE "$API_RE" --include='*.c' "${DIRS[@]}" | sort) >"$DIR/candidates.txt"
log "$(wc -l <"$DIR/candidates.txt") candidate files under ${#DIRS[@]} directories"

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
