#!/usr/bin/env python3
"""Propose the seeded bugs of a held-out set (recall by deletion).

    bench/seeds.py [-n N] KERNEL_TREE TUS

TUS lists the files of the set that compiled (bench/corpus-of.sh's
tus.txt: one path a line, relative to KERNEL_TREE or absolute). The rule
is set 8's (docs/validation-sweep.md section 18): rank the files by their
number of put calls (PUT_RE), and for each take the first put that sits
in an error branch -- a test of ret/err/error/rc, IS_ERR() or "!x" in the
2 lines before and a return or goto in the 3 after -- or under an error
label (err*, fail*, out*, put*, free*, unwind*, cleanup*, error*,
disable*, undo*) in the 3 lines before. Files with no such put are
skipped (printed on stderr). Prints "FILE LINE" for the first N files:
the input of bench/seed.sh -f, once each seed has been read (deleting the
put must leave a count taken on that path). Exit 2 on bad input.
"""
import os
import re
import sys

PUT_RE = re.compile(r"\b(of_node_put|fwnode_handle_put|put_device|pm_runtime_put\w*|"
                    r"pci_dev_put|usb_put_\w+|kobject_put|dev_put|netdev_put|"
                    r"i2c_put_adapter|put_net)\s*\(")
TEST_RE = re.compile(r"\bif\s*\(.*(\b(ret|err|error|rc)\b|IS_ERR|!\s*\w)")
EXIT_RE = re.compile(r"\b(return|goto)\b")
LABEL_RE = re.compile(r"^(err|fail|out|put|free|unwind|cleanup|error|disable|undo)\w*:")


def die(msg):
    print(f"seeds.py: {msg}", file=sys.stderr)
    sys.exit(2)


def first_error_put(lines):
    for i, line in enumerate(lines):
        if not PUT_RE.search(line) or line.lstrip().startswith(("*", "//", "/*")):
            continue
        before2 = lines[max(0, i - 2):i]
        after3 = lines[i + 1:i + 4]
        before3 = lines[max(0, i - 3):i]
        if any(TEST_RE.search(b) for b in before2) and any(EXIT_RE.search(a) for a in after3):
            return i + 1
        if any(LABEL_RE.match(b.strip()) for b in before3):
            return i + 1
    return None


def main(argv):
    n, args, i = 10, [], 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a == "-n":
            if i + 1 >= len(argv) or not argv[i + 1].isdigit():
                die("-n wants a number")
            n = int(argv[i + 1])
            i += 2
            continue
        if a.startswith("-"):
            die(f"unknown option '{a}' (see --help)")
        args.append(a)
        i += 1
    if len(args) != 2:
        die("want KERNEL_TREE and TUS (see --help)")
    tree, tus = args
    try:
        with open(tus) as f:
            files = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except OSError as e:
        die(f"cannot read '{tus}': {e.strerror}")
    ranked = []
    for path in files:
        rel = os.path.relpath(path, tree) if os.path.isabs(path) else path
        try:
            with open(os.path.join(tree, rel), errors="replace") as f:
                lines = f.read().split("\n")
        except OSError as e:
            die(f"cannot read '{rel}': {e.strerror}")
        puts = sum(len(PUT_RE.findall(l)) for l in lines)
        if puts:
            ranked.append((-puts, rel, lines))
    ranked.sort(key=lambda r: (r[0], r[1]))
    taken = 0
    for negputs, rel, lines in ranked:
        if taken == n:
            break
        line = first_error_put(lines)
        if line is None:
            print(f"skipped {rel} ({-negputs} puts, none in an error branch)", file=sys.stderr)
            continue
        print(f"{rel} {line}")
        taken += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
