#!/usr/bin/env python3
"""Checks that krefcheck's messages survive the editor: each diagnostic
krefcheck-clangd publishes for the examples carries the plugin's message
letter for letter, and each path note the plugin's note (tests/ide/
messages.test runs it).

  messages.py CLANGD CLANG PLUGIN EXAMPLES KERNEL_HEADERS WORKDIR

clangd capitalizes the first letter of every diagnostic message (and of
each note it publishes as a diagnostic of its own): a message that starts
with a function's name would show a function that does not exist. For
every example (examples/*.c, examples/custom_api/ with its model):
- the plugin's warnings and notes under clang (-analyzer-output=text) are
  read, and none may start with a lower-case letter or an underscore;
- an editor that takes notes as related information (VS Code, Neovim's
  client) gets each warning's message exactly, and notes that are the
  plugin's notes word for word (clangd keeps the part of the path near the
  warning);
- an editor that does not gets the warning's message as the first
  paragraph of the diagnostic's, and each note in the main file as a
  diagnostic whose first paragraph is the plugin's note.
Exits 1 with the reason on the first difference."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402

clangd, clang, plugin, examples, headers, work = sys.argv[1:7]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
files = []
for name in sorted(os.listdir(examples)):
    if name.endswith(".c"):
        shutil.copy(os.path.join(examples, name), work)
        files.append(name)
os.makedirs(os.path.join(work, "custom_api"))
for name in ("gadget.c", ".krefcheck.yaml"):
    shutil.copy(os.path.join(examples, "custom_api", name),
                os.path.join(work, "custom_api"))
files.append("custom_api/gadget.c")
flags = ["-std=gnu11", "-I", headers]
with open(os.path.join(work, "compile_commands.json"), "w") as f:
    json.dump([{"directory": work, "file": n,
                "arguments": ["clang"] + flags + ["-c", n]} for n in files], f)
with open(os.path.join(work, ".clangd"), "w") as f:
    f.write("Diagnostics:\n  ClangTidy:\n    Add: krefcheck-*\n"
            "    FastCheckFilter: None\n")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


DIAG = re.compile(r"^(\S+?):(\d+):(\d+): (warning|note): (.*)$")


def plugin_findings(name):
    """[(line, message, [(line, note), ...])] under clang with the plugin."""
    out = subprocess.run(
        [clang, "--analyze", "--analyzer-no-default-checks"] + flags +
        ["-Xclang", "-load", "-Xclang", plugin, "-Xclang",
         "-analyzer-checker=core,refcount", "-Xclang",
         "-analyzer-output=text", name, "-o", "/dev/null"],
        cwd=work, stderr=subprocess.PIPE, text=True).stderr
    found = []
    for line in out.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        msg = m.group(5)
        if m.group(4) == "warning":
            c = re.search(r" \[refcount\.[A-Za-z]+\]$", msg)
            if not c:
                continue  # a compiler warning
            found.append((int(m.group(2)), msg[:c.start()], []))
        elif found and "expanded from macro" not in msg:
            found[-1][2].append((int(m.group(2)), msg))
    return found


def krefcheck(diags):
    return [d for d in diags if str(d.get("code", "")).startswith("krefcheck-")]


expected = {}
for name in files:
    expected[name] = plugin_findings(name)
    for line, msg, notes in expected[name]:
        for text in [msg] + [n for _, n in notes]:
            if re.match(r"[a-z_]", text):
                fail(f"{name}:{line}: a message starts with an identifier or a "
                     f"lower-case word, which clangd capitalizes: {text!r}")
total = sum(len(v) for v in expected.values())
if total < 6:
    fail(f"the plugin reported only {total} findings on the examples")

# 1. An editor that takes the notes as related information.
log = open(os.path.join(work, "clangd-related.log"), "w")
client = lsp.Client([clangd, "--background-index=false"], work, log)
client.initialize(work)
for name in files:
    path = os.path.join(work, name)
    with open(path) as f:
        client.open(path, f.read())
    want = expected[name]
    diags = krefcheck(client.wait_diagnostics(
        lsp.file_uri(path), lambda d: len(krefcheck(d)) == len(want)))
    got = sorted((d["range"]["start"]["line"] + 1, d["message"],
                  [(n["location"]["range"]["start"]["line"] + 1, n["message"])
                   for n in d.get("relatedInformation", [])]) for d in diags)
    for g, w in zip(got, sorted(want)):
        if g[:2] != w[:2]:
            fail(f"{name}:{w[0]}: clangd shows {g[1]!r}, the plugin says {w[1]!r}")
        # clangd keeps a part of the path (the notes near the warning); each
        # it shows must be one of the plugin's, word for word.
        plugin_notes = {m for _, m in w[2]}
        if not g[2] or any(m not in plugin_notes for _, m in g[2]):
            fail(f"{name}:{w[0]}: clangd's notes {g[2]} are not among the "
                 f"plugin's {w[2]}")
    print(f"related information: {name}: {len(got)} warnings, "
          f"{sum(len(g[2]) for g in got)} notes, as the plugin's")
client.shutdown()

# 2. An editor without related information: notes are appended to the
# message and published as diagnostics of their own.
log = open(os.path.join(work, "clangd-plain.log"), "w")
client = lsp.Client([clangd, "--background-index=false"], work, log)
client.request("initialize", {"processId": None, "rootUri": lsp.file_uri(work),
                              "capabilities": {}})
client.notify("initialized", {})
for name in files:
    path = os.path.join(work, name)
    with open(path) as f:
        client.open(path, f.read())
    want = expected[name]
    diags = client.wait_diagnostics(
        lsp.file_uri(path), lambda d: len(krefcheck(d)) == len(want))
    mains = sorted((d["range"]["start"]["line"] + 1,
                    d["message"].split("\n\n")[0]) for d in krefcheck(diags))
    if mains != sorted((w[0], w[1]) for w in want):
        fail(f"{name}: clangd shows {mains}, the plugin says "
             f"{sorted((w[0], w[1]) for w in want)}")
    notes = {(n, m) for w in want for n, m in w[2]}
    shown = [(d["range"]["start"]["line"] + 1, d["message"].split("\n\n")[0])
             for d in diags if not str(d.get("code", "")).startswith("krefcheck-")
             and d.get("severity", 1) >= 3]
    for s in shown:
        if s not in notes:
            fail(f"{name}: clangd shows the note {s}, not one of the plugin's")
    print(f"no related information: {name}: {len(mains)} warnings and "
          f"{len(shown)} notes, as the plugin's")
client.shutdown()
print("PASS")
