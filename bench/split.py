#!/usr/bin/env python3
"""The fixed tuning/validation split of kernel directories (issue 21, item 6).

    bench/split.py [--half tuning|validation] [--set default|new|heldout]
                   [--file LIST] [DIR...]

A directory belongs to the *tuning* half when the first byte of
sha1(name) is even, to the *validation* half when it is odd. The name is
the path relative to the kernel tree, without "./" or a trailing "/"
("drivers/clk", not "drivers/clk/"). The hash depends on nothing but the
name, so the split never changes when directories are added or removed.

Prints one line per directory, "DIR<TAB>HALF" (or, with --half, only the
names of that half, one a line: the input of bench/corpus-of.sh).

Directories come from the arguments, from --file LIST (one a line,
# comments) and from --set:
  default   the 30 directories of bench/corpus-of.sh's default list
            (bench/lists/dirs-swept.txt): all of them were used to fit
            rules in rounds 3 and 4, so neither half of them is held out;
  new       the directories no validation round has swept
            (bench/lists/dirs-new.txt);
  heldout   the held-out set: the validation half of "new"
            (same as --set new --half validation).
Exit 2 on bad input (unknown option or set, a missing list, a name that is
empty or absolute).
"""
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = {"default": "dirs-swept.txt", "new": "dirs-new.txt", "heldout": "dirs-new.txt"}


def die(msg):
    print(f"split.py: {msg}", file=sys.stderr)
    sys.exit(2)


def normalize(d):
    n = d.strip()
    while n.startswith("./"):
        n = n[2:]
    n = n.rstrip("/")
    if not n or n.startswith("/"):
        die(f"'{d}': want a directory relative to the kernel tree")
    return n


def half(d):
    return "tuning" if hashlib.sha1(normalize(d).encode()).digest()[0] % 2 == 0 else "validation"


def read_list(path):
    try:
        with open(path) as f:
            return [l.split("#", 1)[0].strip() for l in f if l.split("#", 1)[0].strip()]
    except OSError as e:
        die(f"cannot read '{path}': {e.strerror}")


def main(argv):
    want, dirs, i = None, [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a in ("--half", "--set", "--file"):
            if i + 1 >= len(argv):
                die(f"{a} wants a value")
            v = argv[i + 1]
            i += 2
            if a == "--half":
                if v not in ("tuning", "validation"):
                    die(f"--half wants tuning or validation, not '{v}'")
                want = v
            elif a == "--set":
                if v not in SETS:
                    die(f"unknown set '{v}' (default, new, heldout)")
                dirs += read_list(os.path.join(HERE, "lists", SETS[v]))
                if v == "heldout":
                    if want == "tuning":
                        die("--set heldout is the validation half")
                    want = "validation"
            else:
                dirs += read_list(v)
            continue
        if a.startswith("-"):
            die(f"unknown option '{a}' (see --help)")
        dirs.append(a)
        i += 1
    if not dirs:
        die("no directory given (see --help)")
    seen = set()
    for d in map(normalize, dirs):
        if d in seen:
            continue
        seen.add(d)
        h = half(d)
        if want is None:
            print(f"{d}\t{h}")
        elif h == want:
            print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
