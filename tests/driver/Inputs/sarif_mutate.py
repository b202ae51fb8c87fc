#!/usr/bin/env python3
"""Writes a copy of a SARIF log with one schema violation (python3 stdlib).

The negative half of the schema test: jsonschema_check.py must reject each
of these.
usage: sarif_mutate.py IN OUT MUTATION
       sarif_mutate.py --each SCHEMA IN TMP
  writes every mutation to TMP in turn, runs jsonschema_check.py on it and
  prints its output and "MUTATION rc=N".
"""
import json
import os
import subprocess
import sys


def region(d):
    return d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]


def put(obj, key, value):
    obj[key] = value


MUTATIONS = {
    "unknown-property": lambda d: put(d["runs"][0]["results"][0], "severity", "high"),
    "missing-required": lambda d: d["runs"][0]["tool"]["driver"].pop("name"),
    "bad-enum": lambda d: put(d["runs"][0]["results"][0], "level", "fatal"),
    "bad-type": lambda d: put(region(d), "startLine", "11"),
    "bad-minimum": lambda d: put(region(d), "startLine", 0),
    "bad-uri": lambda d: put(d["runs"][0]["originalUriBaseIds"]["SRCROOT"], "uri", "file:///a b/"),
    "bad-version": lambda d: put(d, "version", "2.0.0"),
}

def mutate(src, dst, name):
    doc = json.load(open(src))
    MUTATIONS[name](doc)
    json.dump(doc, open(dst, "w"), indent=1)


def each(schema, src, tmp):
    checker = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jsonschema_check.py")
    for name in MUTATIONS:
        mutate(src, tmp, name)
        r = subprocess.run([sys.executable, checker, schema, tmp], capture_output=True, text=True)
        print(r.stdout, end="")
        print(f"{name} rc={r.returncode}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--each":
        sys.exit(each(*sys.argv[2:]))
    if len(sys.argv) != 4 or sys.argv[3] not in MUTATIONS:
        sys.exit("usage: sarif_mutate.py IN OUT {" + ",".join(MUTATIONS) + "}")
    mutate(*sys.argv[1:])
