#!/usr/bin/env bash
# What the refcount checkers cost on top of the core checkers, on kernel TUs.
#
#   bench/overhead.sh [-r REPS] [-c CHECKERS] [-p PLUGIN] [-B OLD] [-o OUT] [-P] [-S] [LIST]
#
# Analyzes each TU twice per round: `core` only, and `core` + CHECKERS
# (default `refcount`, the default set: what -analyzer-checker=refcount
# enables). Both runs load the plugin, so the difference is only what the
# enabled checkers do. The two configurations alternate which goes first and
# TUs are interleaved round by round, so a burst of load from other jobs on the
# machine hits both alike. REPS rounds (default 3). -P (paired) runs the two
# configurations of a TU at the same time, one per core: on a VM whose CPU
# time per run varies by 20% or more with the host's load, the pair then
# shares the same conditions (needs two free cores; half the wall time).
#
# -B OLD (old vs new, issue 15): instead of core vs core + CHECKERS, compare
# two builds of the plugin, OLD (e.g. /work/baseline/krefcheck-2c51ecf.so)
# and PLUGIN (the new one), both running core + CHECKERS on the same TUs,
# alternated and interleaved (and with -P paired) the same way; the ratios
# are new/old. Goal for a rewrite that must cost no more: CPU time and
# instructions median <= 1.05, max <= 1.25 (the noise of this machine),
# peak RSS <= 1.10. TUs where the two give a different number of warnings
# are named (bench/compare.sh says which reports differ).
#
# Per run it records wall seconds, CPU seconds (user + sys of clang, from
# wait4's rusage), peak RSS (ru_maxrss) and, where `perf stat -e instructions`
# can count them, instructions. CPU time and instructions are steadier than
# wall time on a shared machine; all are printed. Per TU the median of the
# rounds is taken for each configuration; the ratios refcount/core are printed
# per TU with their median and max over TUs, against the goal: time ratio
# median <= 1.10, max <= 1.5; RSS ratio <= 1.2.
#
# LIST: TU paths relative to the corpus tree, one a line (default: the 20
# refcount-heavy TUs below, picked by get/put call counts). The corpus comes
# from ../shared/corpus/linux-6.1.sh ($KCORPUS or ~/.cache/kcorpus); the
# command lines from its analyze-tu.py ($ANALYZE_TU). Raw rows go to
# OUT/runs.tsv (default build/overhead/); -S only summarizes the rows already
# there (of an interrupted run, say). Exit 1 if a goal other than wall time is
# missed or a run failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
reps=3 checkers=refcount plugin=$here/build/lib/krefcheck.so out=$here/build/overhead summarize=0 paired=0 old=
while getopts r:c:p:B:o:PS opt; do
  case $opt in
    r) reps=$OPTARG ;; c) checkers=$OPTARG ;; p) plugin=$OPTARG ;; o) out=$OPTARG ;;
    B) old=$OPTARG ;; S) summarize=1 ;; P) paired=1 ;;
    *) echo "usage: $0 [-r REPS] [-c CHECKERS] [-p PLUGIN] [-B OLD] [-o OUT] [-P] [-S] [LIST]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
list=${1:-}
# The corpus tools sit next to the main checkout (also from a git worktree).
main=$(cd "$here" && cd "$(git rev-parse --git-common-dir 2>/dev/null || echo .git)/.." 2>/dev/null && pwd || echo "$here")
analyze=${ANALYZE_TU:-$main/../shared/corpus/analyze-tu.py}
corpus=${KCORPUS:-$HOME/.cache/kcorpus}
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "overhead.sh: -r wants a positive count, not '$reps'" >&2; exit 2; }
if [ "$summarize" = 0 ]; then
  [ -f "$plugin" ] || { echo "overhead.sh: plugin '$plugin' not found (build first)" >&2; exit 2; }
  [ -z "$old" ] || [ -f "$old" ] || { echo "overhead.sh: -B: old plugin '$old' not found" >&2; exit 2; }
fi
[ -d "$corpus" ] || { echo "overhead.sh: no corpus at $corpus (../shared/corpus/linux-6.1.sh; or set KCORPUS)" >&2; exit 2; }
[ -f "$analyze" ] || { echo "overhead.sh: '$analyze' not found: set ANALYZE_TU" >&2; exit 2; }
[ -z "$list" ] || [ -f "$list" ] || { echo "overhead.sh: TU list '$list' not found" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ "$summarize" = 1 ]; then
  [ -f "$out/runs.tsv" ] || { echo "overhead.sh: -S: no $out/runs.tsv" >&2; exit 2; }
else
  # A private copy, so that rebuilding during the run does not disturb it.
  cp "$plugin" "$out/krefcheck.so"
  [ -z "$old" ] || cp "$old" "$out/krefcheck-old.so"
fi

exec python3 - "$analyze" "$corpus" "$out" "$reps" "$checkers" "$list" "$summarize" "$paired" "$old" <<'PY'
import importlib.machinery, os, shutil, statistics, subprocess, sys, time

analyze, corpus, out, reps, checkers, listfile, summarize, paired, old = sys.argv[1:]
reps, summarize, paired = int(reps), summarize == "1", paired == "1"
tu_mod = importlib.machinery.SourceFileLoader("analyze_tu", analyze).load_module()
tree = tu_mod.find_tree(corpus)
db = tu_mod.load_db(tree)

DEFAULT = """drivers/base/core.c drivers/of/base.c drivers/of/property.c
lib/kobject.c net/sunrpc/auth_gss/auth_gss.c drivers/base/power/main.c
fs/kernfs/dir.c kernel/events/core.c fs/proc/base.c fs/namei.c
net/unix/af_unix.c drivers/of/irq.c drivers/base/property.c fs/dcache.c
net/netlink/af_netlink.c drivers/of/address.c drivers/of/fdt.c
drivers/of/platform.c drivers/pci/quirks.c drivers/net/phy/phy_device.c""".split()
if listfile:
    tus = [l.strip() for l in open(listfile) if l.strip() and not l.lstrip().startswith("#")]
else:
    tus = DEFAULT
missing = [t for t in tus if t not in db]
if missing:
    sys.exit(f"overhead.sh: not in the corpus database: {', '.join(missing)}")

plugin = os.path.join(out, "krefcheck.so")
load = ["-Xclang", "-load", "-Xclang", plugin]
enable = ["-Xclang", "-analyzer-checker=" + checkers]
if summarize:
    # The configurations of the earlier run: core/refcount, or old/new (-B).
    cfgs = {l.split("\t")[2] for l in list(open(os.path.join(out, "runs.tsv")))[1:]}
    old = "old" if "old" in cfgs else ""
if old:
    A, B = "old", "new"
    CONFIGS = {"old": ["-Xclang", "-load", "-Xclang", os.path.join(out, "krefcheck-old.so")] + enable,
               "new": load + enable}
    WHAT = f"old | new plugin, both core+{checkers}"
else:
    A, B = "core", "refcount"
    CONFIGS = {"core": load, "refcount": load + enable}
    WHAT = f"core | core+{checkers}"

def perf_ok():
    """perf counts instructions here (not in most VMs: no PMU)."""
    if not shutil.which("perf"):
        return False
    p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions", "--", "true"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return p.returncode == 0 and any(
        l.split(",")[0].strip().isdigit() for l in p.stderr.splitlines())
use_perf = perf_ok() and not summarize
perf_out = os.path.join(out, "perf.txt")

def start(tu, cfg):
    e = db[tu]
    cwd = e["directory"] if os.path.isdir(e["directory"]) else tree
    cmd = tu_mod.rewrite(e["command"], "core", CONFIGS[cfg])
    pout = perf_out + "." + cfg
    if use_perf:
        cmd = ["perf", "stat", "-x,", "-e", "instructions", "-o", pout, "--"] + cmd
    logname = os.path.join(out, f"last.{cfg}.log")
    log = open(logname, "w")
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
    return p, t0, log, logname, pout

def finish(h, reaped=None):
    p, t0, log, logname, pout = h
    if reaped:
        status, ru, wall = reaped
    else:
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    log.close()
    text = open(logname, errors="replace").read()
    warns = text.count("[refcount.")
    instr = None
    if use_perf:
        for l in open(pout):
            f = l.split(",")
            if len(f) > 2 and f[2].startswith("instructions") and f[0].strip().isdigit():
                instr = int(f[0])
    return dict(wall=wall, cpu=ru.ru_utime + ru.ru_stime, rss=ru.ru_maxrss / 1024.0,
                instr=instr, rc=p.returncode, warns=warns)

def load_rows():
    """The rows of an earlier run, for -S (TUs with both configs only)."""
    rows = []
    for l in list(open(os.path.join(out, "runs.tsv")))[1:]:
        r, tu, cfg, wall, cpu, rss, instr, rc, warns = l.rstrip("\n").split("\t")
        rows.append(dict(round=int(r), tu=tu, cfg=cfg, wall=float(wall), cpu=float(cpu),
                         rss=float(rss), instr=int(instr) if instr else None, rc=int(rc),
                         warns=int(warns)))
    done = [t for t in tus if {m["cfg"] for m in rows if m["tu"] == t} == {A, B}]
    print(f"overhead: summary of {out}/runs.tsv: {len(done)} of {len(tus)} TUs measured, "
          f"{max(m['round'] for m in rows) + 1} round(s)")
    return rows, done

def measure():
    rows, fails = [], []
    raw = open(os.path.join(out, "runs.tsv"), "w")
    raw.write("round\ttu\tconfig\twall_s\tcpu_s\trss_mib\tinstructions\trc\twarnings\n")
    print(f"overhead: {len(tus)} TUs x {reps} rounds x 2 configs ({WHAT}); "
          f"{'paired (both at once); ' if paired else ''}"
          f"instructions: {'perf' if use_perf else 'not supported here (perf stat)'}",
          flush=True)
    t_start = time.monotonic()
    for r in range(reps):
        for i, tu in enumerate(tus):
            order = [A, B] if (r + i) % 2 == 0 else [B, A]
            if paired:
                hs = [start(tu, cfg) for cfg in order]
                # Reap whichever ends first, so each wall time is its own.
                reaped = {}
                while len(reaped) < len(hs):
                    pid, status, ru = os.wait4(-1, 0)
                    for h in hs:
                        if h[0].pid == pid:
                            reaped[pid] = (status, ru, time.monotonic() - h[1])
                results = [finish(h, reaped[h[0].pid]) for h in hs]
            else:
                results = [finish(start(tu, cfg)) for cfg in order]
            for cfg, m in zip(order, results):
                m.update(round=r, tu=tu, cfg=cfg)
                rows.append(m)
                instr = m["instr"] if m["instr"] is not None else ""
                raw.write(f"{r}\t{tu}\t{cfg}\t{m['wall']:.3f}\t{m['cpu']:.3f}\t"
                          f"{m['rss']:.1f}\t{instr}\t{m['rc']}\t{m['warns']}\n")
                raw.flush()
                if m["rc"] != 0:
                    fails.append((tu, cfg, m["rc"]))
        print(f"  round {r + 1}/{reps} done, {time.monotonic() - t_start:.0f}s", flush=True)
    raw.close()
    return rows, fails

if summarize:
    rows, tus = load_rows()
    fails = [(m["tu"], m["cfg"], m["rc"]) for m in rows if m["rc"] != 0]
    use_perf = any(m["instr"] is not None for m in rows)
else:
    rows, fails = measure()

def med(tu, cfg, key):
    v = [m[key] for m in rows if m["tu"] == tu and m["cfg"] == cfg and m[key] is not None]
    return statistics.median(v) if v else None

keys = ["wall", "cpu", "rss"] + (["instr"] if use_perf else [])
ratios = {k: [] for k in keys}
hdr = (f"{'TU':34} {'core s':>7} {'+ref s':>7}" if not old else f"{'TU':34} {'old s':>7} {'new s':>7}") \
    + f" {'wall':>6} {'cpu':>6} {'rss MiB':>8} {'rss':>6}"
if use_perf:
    hdr += f" {'instr':>6}"
print(hdr)
for tu in tus:
    line = f"{tu:34} {med(tu, A, 'wall'):7.1f} {med(tu, B, 'wall'):7.1f}"
    for k in keys:
        c, rc = med(tu, A, k), med(tu, B, k)
        ratio = rc / c if c else float("nan")
        ratios[k].append(ratio)
        if k == "rss":
            line += f" {rc:8.0f}"
        line += f" {ratio:6.2f}"
    print(line)

def summary(k):
    v = ratios[k]
    return statistics.median(v), max(v)
tot_c = sum(med(t, A, "wall") for t in tus)
tot_r = sum(med(t, B, "wall") for t in tus)
if old:
    print(f"total (median round): old {tot_c:.0f}s, new {tot_r:.0f}s (ratios are new/old)")
    GOALS = (("wall", "wall time", 1.05, 1.25), ("cpu", "CPU time", 1.05, 1.25),
             ("rss", "peak RSS", 1.10, 1.10), ("instr", "instructions", 1.05, 1.25))
    for tu in tus:
        wa = {m["warns"] for m in rows if m["tu"] == tu and m["cfg"] == A and m["rc"] == 0}
        wb = {m["warns"] for m in rows if m["tu"] == tu and m["cfg"] == B and m["rc"] == 0}
        if wa != wb:
            print(f"  warnings differ: {tu}: old {sorted(wa)}, new {sorted(wb)}")
else:
    print(f"total (median round): core {tot_c:.0f}s, core+{checkers} {tot_r:.0f}s")
    GOALS = (("wall", "wall time", 1.10, 1.5), ("cpu", "CPU time", 1.10, 1.5),
             ("rss", "peak RSS", 1.2, 1.2), ("instr", "instructions", 1.10, 1.5))
ok = True
for k, name, gmed, gmax in GOALS:
    if k not in ratios:
        continue
    m, x = summary(k)
    hit = m <= gmed and x <= gmax
    if k != "wall":  # wall time is only as good as the machine is quiet
        ok &= hit
    print(f"ratio {name:12}: median {m:.3f} max {x:.3f}  (goal median <= {gmed}, "
          f"max <= {gmax}: {'met' if hit else 'MISSED'})")
for tu, cfg, rc in fails:
    print(f"  failed: {tu} ({cfg}, exit {rc})")
print(f"overhead: raw rows in {out}/runs.tsv")
sys.exit(0 if ok and not fails else 1)
PY
