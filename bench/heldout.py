#!/usr/bin/env python3
"""Draw the next held-out set of kernel files (issue 21's validation split).

    bench/heldout.py [-n N] [--except LIST]... [--pool] KERNEL_TREE

The pool is set 10's rule (docs/validation-sweep.md section 20): the .c
files of KERNEL_TREE under TOPS that call a modelled get/lookup API
(bench/corpus-of.sh's API_RE) or a lifetime API of the code's own counts
(LIFETIME_RE), whose own directory is in the validation half
(bench/split.py), not under one of the 30 swept directories
(bench/lists/dirs-swept.txt), and that no bench/lists/*.txt names. The set
is the N files of the pool with the smallest sha1(path), each marked
"# strict" when no list names any file of its directory.

--except LIST ignores a list when deciding what is "named" (e.g.
--except heldout10.txt --except seeds-heldout10.txt reproduces set 10 from
the 6.12 tree: a check that this script is set 10's rule). --pool prints the
whole pool, sorted, unmarked. Exit 2 on bad input.
"""
import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import split  # noqa: E402  (bench/split.py: the half of a directory)

TOPS = ("drivers sound net fs kernel block crypto security mm lib arch/x86 "
        "virt io_uring ipc init").split()
LIFETIME_RE = (r"kref_init|kref_get|kref_put|refcount_set|refcount_inc|"
               r"refcount_dec_and_test|atomic_dec_and_test|put_device\(|"
               r"of_node_put|pm_runtime_put|dma_fence_get|sock_hold|dev_put\(|"
               r"mmget|get_task_struct|fget|fdget|iget|dget|kobject_put")


def die(msg):
    print(f"heldout.py: {msg}", file=sys.stderr)
    sys.exit(2)


def api_re():
    with open(os.path.join(HERE, "corpus-of.sh")) as f:
        m = re.search(r"^API_RE='([^']*)'", f.read(), re.M)
    if not m:
        die("bench/corpus-of.sh has no API_RE line")
    return m.group(1)


def named_files(skips):
    """Every .c path any list names, and their directories."""
    files = set()
    lists = os.path.join(HERE, "lists")
    for name in sorted(os.listdir(lists)):
        if not name.endswith(".txt") or name in skips:
            continue
        with open(os.path.join(lists, name)) as f:
            for line in f:
                for tok in re.findall(r"[\w./+-]+\.c\b", line.split("#", 1)[0]):
                    files.add(tok.lstrip("./"))
    return files


def main(argv):
    n, skips, pool_only, tree = 160, set(), False, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a in ("-n", "--except"):
            if i + 1 >= len(argv):
                die(f"{a} wants a value")
            if a == "-n":
                if not argv[i + 1].isdigit():
                    die(f"-n wants a number, not '{argv[i + 1]}'")
                n = int(argv[i + 1])
            else:
                skips.add(argv[i + 1])
                if not os.path.isfile(os.path.join(HERE, "lists", argv[i + 1])):
                    die(f"no list bench/lists/{argv[i + 1]}")
            i += 2
            continue
        if a == "--pool":
            pool_only = True
        elif a.startswith("-"):
            die(f"unknown option '{a}' (see --help)")
        elif tree:
            die("one kernel tree only")
        else:
            tree = a
        i += 1
    if not tree or not os.path.isdir(os.path.join(tree, "drivers")):
        die("want the root of a kernel source tree")
    swept = split.read_list(os.path.join(HERE, "lists", "dirs-swept.txt"))
    named = named_files(skips)
    named_dirs = {os.path.dirname(f) for f in named}
    tops = [t for t in TOPS if os.path.isdir(os.path.join(tree, t))]
    pattern = api_re() + "|" + LIFETIME_RE
    out = subprocess.run(["grep", "-rlE", "--include=*.c", pattern] + tops,
                         cwd=tree, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        die(f"grep failed: {out.stderr.strip()}")
    pool = []
    for path in out.stdout.split():
        d = os.path.dirname(path)
        if split.half(d) != "validation" or path in named:
            continue
        if any(path.startswith(s.rstrip("/") + "/") for s in swept):
            continue
        pool.append(path)
    if pool_only:
        print("\n".join(sorted(pool)))
        return 0
    pool.sort(key=lambda p: hashlib.sha1(p.encode()).hexdigest())
    print(f"# pool: {len(pool)} files", file=sys.stderr)
    for path in pool[:n]:
        strict = os.path.dirname(path) not in named_dirs
        print(path + ("  # strict" if strict else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
