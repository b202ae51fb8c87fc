#!/usr/bin/env bash
# Behaviour comparison of two builds of the plugin on kernel TUs: the reports
# only one of them gives (issue 15: a rewrite must not change them).
#
#   bench/compare.sh [OPTIONS] OLD.so NEW.so LIST        # run both, compare
#   bench/compare.sh [OPTIONS] --save OUT.tsv PLUGIN.so LIST
#                                                       # run one, save its reports
#   bench/compare.sh [OPTIONS] --against SAVED.tsv NEW.so [LIST]
#                                                       # run one, compare with a saved run
#   bench/compare.sh --against SAVED.tsv OTHER.tsv      # compare two saved runs
#
# OPTIONS:
#   -C DIR       corpus: a kernel tree holding compile_commands.json, or its
#                parent (default $KCORPUS or ~/.cache/kcorpus: the defconfig
#                corpus of ../shared/corpus/linux-6.1.sh; the driver corpus is
#                -C ~/.cache/kcorpus-of, from bench/corpus-of.sh)
#   -j N         TUs at once (default 2: the machine is shared)
#   -t SEC       time limit per TU (default 240)
#   -c CHECKERS  checkers (default `refcount`, the default set)
#   -k KREFCHECK the driver (default build/bin/krefcheck of this tree, else of
#                the main checkout; `cmake --build build --target krefcheck-cli`)
#   -o OUT       work directory: plugin copies, krefcheck's JSON (default
#                build/compare)
#   --save FILE  also save the (new) run's reports to FILE (TSV, below)
#   --cdb FILE   compile database to take the TUs' commands from (default
#                TREE/compile_commands.json; with --against, that or else the
#                database the saved run used). Its commands must be for TREE:
#                e.g. the database of a corpus still being built, extracted
#                from `make -n` in a copy of the tree with the same .config
#
# Each plugin runs through krefcheck, the CI driver, exactly as
# bench/sweep.sh runs it (`krefcheck --cdb ... --plugin P --checkers C
# --timeout T --format json`, from the kernel tree, on a private copy of the
# plugin). LIST holds TU paths relative to the kernel tree (one a line,
# # comments; a path ending in / means every TU of the database under it);
# every one must be in the database. With --against, the TUs default to the
# saved run's, and LIST, if given, must name the same TUs.
#
# A report is keyed by (file, line, checker, message), counted with
# multiplicity; a report in a header reached from several TUs counts once
# (krefcheck merges them). Prints, for each side, reports, TUs with a report,
# failures (timeout, crash, compile error: each named) and wall and CPU
# seconds (CPU: user + sys of krefcheck and its clang children), then the
# reports only one side gives and the TUs that failed on one side only.
#
# Saved TSV: `#`-lines hold the run (plugin path and sha256, clang, checkers,
# corpus tree, TU count, failures, seconds, one `#tu` line per TU and one
# `#failure` line per failed TU); then a header line and one row per report:
# file, line, checker, message, function, the TUs it came from.
#
# The new/old wall and CPU ratios printed at the end are only indicative
# (the two runs are not interleaved and, against a saved run, not even on
# the same day's load): bench/overhead.sh -B measures cost.
#
# Exit 0: the same reports and failures (--save alone: the run finished);
# 1: they differ; 2: bad input (missing plugin, corpus, driver, TU not in
# the database, ...).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
main=$(cd "$here" && cd "$(git rev-parse --git-common-dir 2>/dev/null || echo .git)/.." 2>/dev/null && pwd || echo "$here")
krefcheck=$here/build/bin/krefcheck
[ -x "$krefcheck" ] || krefcheck=$main/build/bin/krefcheck
exec python3 - "$here" "$krefcheck" "$@" <<'PY'
import hashlib, json, os, resource, shutil, subprocess, sys, time
from collections import Counter

here, krefcheck_default, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
USAGE = """usage: compare.sh [-C DIR] [-j N] [-t SEC] [-c CHECKERS] [-k KREFCHECK] [-o OUT] [--save FILE]
         OLD.so NEW.so LIST | --save OUT.tsv PLUGIN.so LIST | --against SAVED.tsv NEW.so [LIST]
         | --against SAVED.tsv OTHER.tsv   (see the header of bench/compare.sh)"""


def die(msg):
    print(f"compare.sh: {msg}", file=sys.stderr)
    sys.exit(2)


opts = {"-C": os.environ.get("KCORPUS", os.path.expanduser("~/.cache/kcorpus")), "-j": "2",
        "-t": "240", "-c": "refcount", "-k": krefcheck_default,
        "-o": os.path.join(here, "build", "compare"), "--save": None, "--against": None,
        "--cdb": None}
pos, i = [], 0
while i < len(argv):
    a = argv[i]
    if a in ("-h", "--help"):
        print(USAGE)
        sys.exit(0)
    if a in opts:
        if i + 1 >= len(argv):
            die(f"{a} wants a value\n{USAGE}")
        opts[a] = argv[i + 1]
        i += 2
    elif a.startswith("-") and a != "-":
        die(f"unknown option '{a}'\n{USAGE}")
    else:
        pos.append(a)
        i += 1
for k in ("-j", "-t"):
    if not opts[k].isdigit() or (k == "-j" and int(opts[k]) < 1):
        die(f"{k} wants a count, not '{opts[k]}'")

# ---- saved runs -------------------------------------------------------------

def clean(s):
    return " ".join(str(s).split())


def save(run, path):
    with open(path, "w") as f:
        f.write("# krefcheck compare.sh run v1\n")
        for k in ("plugin", "sha256", "clang", "checkers", "tree", "cdb", "timeout", "jobs",
                  "date"):
            f.write(f"#{k}\t{run[k]}\n")
        f.write(f"#summary\ttus={len(run['tus'])}\tanalyzed={run['analyzed']}\t"
                f"failed={len(run['failures'])}\treports={sum(run['reports'].values())}\t"
                f"tus_with_reports={len(run['tus_with'])}\twall_s={run['wall']:.1f}\t"
                f"cpu_s={run['cpu']:.1f}\n")
        for t in run["tus"]:
            f.write(f"#tu\t{t}\n")
        for t, (why, secs) in sorted(run["failures"].items()):
            f.write(f"#failure\t{t}\t{why}\t{secs:.1f}\n")
        f.write("file\tline\tchecker\tmessage\tfunction\ttus\n")
        for r in sorted(run["rows"], key=lambda r: (r[0], int(r[1]), r[2], r[3])):
            f.write("\t".join(map(str, r)) + "\n")


def load(path):
    if not os.path.isfile(path):
        die(f"saved run '{path}' not found")
    run = {"tus": [], "failures": {}, "rows": [], "reports": Counter(), "tus_with": set()}
    with open(path) as f:
        first = f.readline()
        if not first.startswith("# krefcheck compare.sh run"):
            die(f"'{path}' is not a run saved by compare.sh --save")
        for l in f:
            l = l.rstrip("\n")
            if l.startswith("#"):
                k, _, v = l[1:].partition("\t")
                if k == "tu":
                    run["tus"].append(v)
                elif k == "failure":
                    t, why, secs = v.split("\t")
                    run["failures"][t] = (why, float(secs))
                elif k == "summary":
                    kv = dict(x.split("=", 1) for x in v.split("\t"))
                    run["analyzed"] = int(kv["analyzed"])
                    run["wall"], run["cpu"] = float(kv["wall_s"]), float(kv["cpu_s"])
                else:
                    run[k] = v
            elif l.startswith("file\tline\t"):
                continue
            elif l:
                file, line, checker, message, function, tus = l.split("\t")
                run["rows"].append((file, line, checker, message, function, tus))
                run["reports"][(file, int(line), checker, message)] += 1
                run["tus_with"].update(t for t in tus.split(",") if t)
    run["path"] = path
    return run

# ---- running ----------------------------------------------------------------

CDB = None  # the database file in use


def find_tree(d, saved_cdb=None):
    """The kernel tree (D or D/linux-source-6.1) and, in CDB, its database."""
    global CDB
    dirs = [c for c in (d, os.path.join(d, "linux-source-6.1")) if os.path.isdir(c)]
    if opts["--cdb"]:
        if not os.path.isfile(opts["--cdb"]):
            die(f"--cdb: '{opts['--cdb']}' not found")
        if not dirs:
            die(f"no corpus tree at {d}")
        CDB = os.path.abspath(opts["--cdb"])
        return os.path.abspath(dirs[-1])
    for cand in dirs:
        if os.path.isfile(os.path.join(cand, "compile_commands.json")):
            CDB = os.path.join(os.path.abspath(cand), "compile_commands.json")
            return os.path.abspath(cand)
    if dirs and saved_cdb and os.path.isfile(saved_cdb):
        CDB = saved_cdb
        return os.path.abspath(dirs[-1])
    die(f"no corpus: no compile_commands.json in {d} or {d}/linux-source-6.1 "
        "(../shared/corpus/linux-6.1.sh or bench/corpus-of.sh builds one; -C DIR)")


def db_files(tree):
    try:
        db = json.load(open(CDB))
    except (OSError, ValueError) as e:
        die(f"cannot read {CDB}: {e}")
    return {os.path.normpath(os.path.relpath(os.path.join(e["directory"], e["file"]), tree))
            for e in db}


def read_list(path, db):
    if not os.path.isfile(path):
        die(f"TU list '{path}' not found")
    tus, missing = [], []
    for l in open(path):
        t = l.split("#", 1)[0].strip()
        if not t:
            continue
        if t.endswith("/"):
            under = sorted(f for f in db if f.startswith(t) and f.endswith(".c"))
            (tus.extend(under) if under else missing.append(t))
        elif os.path.normpath(t) in db:
            tus.append(os.path.normpath(t))
        else:
            missing.append(t)
    if missing:
        die(f"{len(missing)} TU(s) of '{path}' not in the corpus database: "
            + " ".join(missing[:20]) + (" ..." if len(missing) > 20 else ""))
    if not tus:
        die(f"TU list '{path}' is empty")
    return sorted(set(tus))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def run_plugin(plugin, tag, tree, tus):
    if not os.path.isfile(plugin):
        die(f"plugin '{plugin}' not found")
    kc = opts["-k"]
    if not (os.path.isfile(kc) and os.access(kc, os.X_OK)):
        die(f"driver '{kc}' not found (cmake --build build --target krefcheck-cli, "
            "after the cmake line of tools/setup.sh; or -k)")
    out = os.path.abspath(opts["-o"])
    os.makedirs(out, exist_ok=True)
    # A private copy, so that rebuilding during the run does not disturb it.
    copy = os.path.join(out, f"{tag}.so")
    shutil.copyfile(plugin, copy)
    js = os.path.join(out, f"{tag}.json")
    cmd = [kc, "--cdb", CDB, "--plugin", copy,
           "--checkers", opts["-c"], "-j", opts["-j"], "--timeout", opts["-t"],
           "--format", "json", "-o", js] + tus
    print(f"compare: {tag}: {plugin} on {len(tus)} TUs (-j {opts['-j']}, -t {opts['-t']})",
          flush=True)
    if os.path.exists(js):
        os.unlink(js)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    with open(os.path.join(out, f"{tag}.stderr"), "w") as f:
        f.write(p.stderr)
    if p.returncode not in (0, 1, 3) or not os.path.isfile(js):
        sys.stderr.write(p.stderr[-3000:])
        die(f"krefcheck failed (exit {p.returncode}) with {plugin}")
    r = json.load(open(js))
    run = {"plugin": os.path.abspath(plugin), "sha256": sha256(plugin),
           "clang": r["tool"]["clang"], "checkers": opts["-c"], "tree": tree, "cdb": CDB,
           "timeout": opts["-t"], "jobs": opts["-j"],
           "date": time.strftime("%Y-%m-%d %H:%M:%S"), "tus": tus,
           "analyzed": r["summary"]["analyzed"], "wall": wall, "cpu": cpu,
           "failures": {f["file"]: (f["reason"], f["seconds"]) for f in r["failures"]},
           "rows": [], "reports": Counter(), "tus_with": set(), "path": js}
    for f in r["findings"]:
        ftus = sorted(f.get("tus") or [])
        run["rows"].append((f["file"], f["line"], f["checker"], clean(f["message"]),
                            clean(f["function"]), ",".join(ftus)))
        run["reports"][(f["file"], f["line"], f["checker"], clean(f["message"]))] += 1
        run["tus_with"].update(ftus)
    return run

# ---- modes ------------------------------------------------------------------

def summary(tag, run):
    n = sum(run["reports"].values())
    fails = run["failures"]
    print(f"{tag}: {n} reports in {len(run['tus_with'])} TUs; {len(run['tus'])} TUs, "
          f"{len(fails)} failed; {run['wall']:.0f} s wall, {run['cpu']:.0f} s CPU"
          f"  [{run['path']}]")
    by = Counter(k[2] for k in run["reports"].elements())
    if by:
        print("  " + ", ".join(f"{c} {v}" for c, v in sorted(by.items())))
    for t, (why, secs) in sorted(fails.items()):
        print(f"  failed ({why}, {secs:.0f} s): {t}")


def compare(old, new):
    if old["checkers"] != new["checkers"]:
        die(f"checkers differ: '{old['checkers']}' vs '{new['checkers']}'")
    if sorted(old["tus"]) != sorted(new["tus"]):
        a, b = set(old["tus"]), set(new["tus"])
        die(f"the two runs are on different TUs ({len(a - b)} only in old, "
            f"{len(b - a)} only in new)")
    summary("old", old)
    summary("new", new)
    fn = {}
    for side in (old, new):
        for file, line, checker, message, function, _ in side["rows"]:
            fn[(file, int(line), checker, message)] = function
    only_old = old["reports"] - new["reports"]
    only_new = new["reports"] - old["reports"]
    common = sum((old["reports"] & new["reports"]).values())
    for tag, diff in (("only in old", only_old), ("only in new", only_new)):
        if diff:
            print(f"{tag} ({sum(diff.values())}):")
            for k in sorted(diff.elements()):
                print(f"  {k[0]}:{k[1]}\t{k[2]}\t{fn.get(k, '')}\t{k[3]}")
    fo, fnw = old["failures"], new["failures"]
    fdiff = sorted(set(fo) ^ set(fnw))
    for t in fdiff:
        side, (why, _) = ("old", fo[t]) if t in fo else ("new", fnw[t])
        print(f"failed in {side} only ({why}): {t}")
    both = sorted(set(fo) & set(fnw))
    if both:
        print(f"failed in both ({len(both)}; their reports are not compared): " + " ".join(both))
    same = not only_old and not only_new and not fdiff
    ratio = f"; new/old wall {new['wall'] / old['wall']:.2f}, CPU {new['cpu'] / old['cpu']:.2f}" \
        if old["wall"] > 0 and old["cpu"] > 0 else ""
    print(f"compare: {'SAME' if same else 'DIFFERENT'}: {common} reports in common, "
          f"{sum(only_old.values())} only in old, {sum(only_new.values())} only in new, "
          f"{len(fdiff)} TU(s) failed on one side only{ratio}")
    return 0 if same else 1


against = opts["--against"]
if against and len(pos) == 1 and pos[0].endswith(".tsv"):
    sys.exit(compare(load(against), load(pos[0])))

if against:
    if len(pos) not in (1, 2):
        die(USAGE)
    old = load(against)
    tree = find_tree(opts["-C"] if "-C" in argv else old["tree"], old.get("cdb"))
    db = db_files(tree)
    if len(pos) == 2:
        tus = read_list(pos[1], db)
        if tus != sorted(old["tus"]):
            die(f"LIST '{pos[1]}' names other TUs than {against} ({len(tus)} vs "
                f"{len(old['tus'])}); leave it out to run the saved run's TUs")
    else:
        tus = sorted(old["tus"])
        missing = [t for t in tus if t not in db]
        if missing:
            die(f"{len(missing)} TU(s) of {against} not in {tree}'s database: "
                + " ".join(missing[:20]))
    if opts["-c"] != old["checkers"]:
        die(f"-c {opts['-c']}: the saved run used '{old['checkers']}'")
    new = run_plugin(pos[0], "new", tree, tus)
    if opts["--save"]:
        save(new, opts["--save"])
        print(f"compare: saved new's reports to {opts['--save']}")
    sys.exit(compare(old, new))

if opts["--save"] and len(pos) == 2:
    tree = find_tree(opts["-C"])
    tus = read_list(pos[1], db_files(tree))
    run = run_plugin(pos[0], "saved", tree, tus)
    save(run, opts["--save"])
    run["path"] = opts["--save"]
    summary("saved", run)
    sys.exit(0)

if len(pos) != 3:
    die(USAGE)
tree = find_tree(opts["-C"])
tus = read_list(pos[2], db_files(tree))
for p in pos[:2]:
    if not os.path.isfile(p):
        die(f"plugin '{p}' not found")
old = run_plugin(pos[0], "old", tree, tus)
new = run_plugin(pos[1], "new", tree, tus)
if opts["--save"]:
    save(new, opts["--save"])
    print(f"compare: saved new's reports to {opts['--save']}")
sys.exit(compare(old, new))
PY
