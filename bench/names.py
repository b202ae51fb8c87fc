#!/usr/bin/env python3
"""bench/names.py: where the kernel knowledge lives, C++ or the model file.

Counts the kernel-specific names the checkers know: function, type, field,
macro and word names they compare callees, types or fields with. In C++
those are the string literals of checker/*.cpp and checker/*.h that are C
identifiers, outside the files whose literals are vocabulary rather than
kernel names (the model-file parser's keys and kinds, option and checker
names, dump and state words); in the model file, the `name:` of every
row (`apis`, `locks`, `indexes`) and every entry of the name lists
(name-words, types, index-nodes, macros, calls, uncounted-fwnode-walkers,
bias-allow-list); a glob (`*_free`) counts once, like the prefix or suffix
test it replaces. The model-file parser is ModelFile.cpp, ModelApiRows.cpp,
ModelSections.cpp and ModelParser.h (ModelLookups.cpp and ModelLoading.cpp,
also split from ModelFile.cpp, hold its family and option names). Prints
both counts, the share in the model file, and with -v every C++ name with
its file, so that a name that should be a model row is easy to find.

    bench/names.py [-v] [CHECKER_DIR]
"""
import os
import re
import sys

# Files whose literals are the format's vocabulary, not kernel names.
# ModelApiRows.cpp, ModelSections.cpp and ModelParser.h are the rest of the
# model-file parser, ModelLookups.cpp and ModelLoading.cpp the rest of the
# model (all split from ModelFile.cpp): their literals are keys, kinds and
# family names too.
VOCABULARY_FILES = {"ModelFile.cpp", "ModelApiRows.cpp", "ModelSections.cpp",
                    "ModelParser.h", "ModelLookups.cpp", "ModelLoading.cpp",
                    "Registration.cpp", "Contracts.cpp", "Annotations.cpp",
                    "Rules.cpp", "Plugin.cpp"}
# Literals that are words of messages, state dumps or option values.
VOCABULARY = {"true", "false", "init", "get", "unknown", "plain", "kref",
              "kcref", "owned", "released", "escaped", "lost", "none"}
IDENT = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)"')


def cxx_names(root):
    found = []
    for name in sorted(os.listdir(root)):
        if not name.endswith((".cpp", ".h")) or name in VOCABULARY_FILES:
            continue
        text = open(os.path.join(root, name), encoding="utf-8").read()
        # Comments are prose, not names the code compares with.
        text = re.sub(r"//[^\n]*", "", text)
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for m in IDENT.finditer(text):
            lit = m.group(1)
            if lit in VOCABULARY or len(lit) < 3:
                continue
            if lit.startswith("refcount.") or lit[0].isupper() and lit[1:].islower():
                continue
            found.append((name, lit))
    return found


def yaml_names(path):
    names = []
    text = open(path, encoding="utf-8").read()
    for line in text.splitlines():
        s = line.split("#", 1)[0]
        m = re.search(r"\bname:\s*\"?([A-Za-z0-9_*]+)\"?", s)
        if m:
            names.append(m.group(1))
            continue
        # Entries of flow lists: `key: [a, b, ...]` and continuation lines.
        if "[" in s or (s.startswith("   ") and s.strip().endswith(("]", ","))):
            body = s.split("[", 1)[-1].split("]", 1)[0]
            for item in body.split(","):
                item = item.strip().strip('"')
                if re.fullmatch(r"[A-Za-z0-9_*]+", item):
                    names.append(item)
    return names


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "checker")
    model = os.path.join(root, "kernel-model.yaml")
    if not os.path.isfile(model):
        print(f"names.py: {model} not found", file=sys.stderr)
        return 2
    cxx = cxx_names(root)
    yml = yaml_names(model)
    if verbose:
        for f, n in cxx:
            print(f"  C++ {f}: {n}")
    total = len(cxx) + len(yml)
    print(f"kernel names in the model file: {len(yml)}")
    print(f"kernel names in C++:            {len(cxx)} (in {len({f for f, _ in cxx})} files)")
    print(f"share in the model file:        {100.0 * len(yml) / total:.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
