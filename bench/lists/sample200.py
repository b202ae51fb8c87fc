#!/usr/bin/env python3
"""Regenerates bench/lists/sample200.txt: a fixed random sample of 200
defconfig-corpus TUs for bench/compare.sh, beyond the 13 of defconfig13.txt.

    bench/lists/sample200.py [TREE [CDB]] > bench/lists/sample200.txt

TREE: the defconfig corpus tree (default $KCORPUS/linux-source-6.1 or
~/.cache/kcorpus/linux-source-6.1); CDB its database (default
TREE/compile_commands.json). Population: the .c TUs of its
compile_commands.json under drivers/, fs/, net/, kernel/, lib/ whose source
calls a get/put API (GETPUT below), less defconfig13.txt; sorted, then
random.Random(SEED).sample(population, 200). Same database, same list.
"""
import json, os, random, re, sys

SEED, N = 20261204, 200
PREFIXES = ("drivers/", "fs/", "net/", "kernel/", "lib/")
GETPUT = re.compile(
    r"\b(kref_(get|put|init)\w*|refcount_(inc|dec|add|sub)\w*|atomic_(long_)?dec_and_test"
    r"|of_node_(get|put)|of_find_\w+|of_get_\w+|of_parse_phandle\w*|fwnode_handle_(get|put)"
    r"|get_device|put_device|kobject_(get|put)|pm_runtime_(get|put|resume_and_get)\w*"
    r"|pci_(get|dev_put)\w*|bus_find_device\w*|class_find_device|dev_(hold|put)"
    r"|dev_get_by_\w+|sock_(hold|put)|dget|dput|iput|igrab|path_(get|put)"
    r"|(get|put)_(task_struct|pid|net|cred|file|nsproxy)|fput|fget\w*)\s*\(")

here = os.path.dirname(os.path.abspath(__file__))
tree = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get("KCORPUS", os.path.expanduser("~/.cache/kcorpus")), "linux-source-6.1")
cdb = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tree, "compile_commands.json")
if not os.path.isfile(cdb):
    print(f"sample200.py: no compile database {cdb} (../shared/corpus/linux-6.1.sh)", file=sys.stderr)
    sys.exit(2)
db = json.load(open(cdb))
skip = {l.strip() for l in open(os.path.join(here, "defconfig13.txt"))
        if l.strip() and not l.startswith("#")}
pop = set()
for e in db:
    rel = os.path.normpath(os.path.relpath(os.path.join(e["directory"], e["file"]), tree))
    if rel.endswith(".c") and rel.startswith(PREFIXES) and rel not in skip:
        with open(os.path.join(tree, rel), errors="replace") as f:
            if GETPUT.search(f.read()):
                pop.add(rel)
pop = sorted(pop)
if len(pop) < N:
    print(f"sample200.py: only {len(pop)} TUs to draw {N} from (a partial database?)", file=sys.stderr)
    sys.exit(2)
pick = sorted(random.Random(SEED).sample(pop, N))
print(f"# {N} defconfig-corpus TUs drawn by bench/lists/sample200.py (seed {SEED})")
print(f"# from {len(pop)} TUs under {', '.join(PREFIXES)} that call get/put APIs,")
print("# less defconfig13.txt. Paths relative to the kernel tree.")
print("\n".join(pick))
