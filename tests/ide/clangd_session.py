#!/usr/bin/env python3
"""Drives krefcheck-clangd over stdio as an editor would and checks the
refcount diagnostics it publishes (tests/ide/clangd.test runs it).

  clangd_session.py CLANGD INPUTS KERNEL_HEADERS WORKDIR

Sets up WORKDIR as a workspace (compile_commands.json, .clangd), then: the
bundled example session_table.c gets krefcheck-GetOnZero with its path note
as related information (and krefcheck-UnsafePromotion); after didChange to
the fix the former goes away; a clean file, opened at the same time,
gets no refcount diagnostic; a file without a compile command, a bad krefcheck
option and an analyzer crash each leave clangd serving (hover, code
actions); a .krefcheck.yaml next to a file is read (the custom_api example's
leak appears), a broken one is one error naming its line and clangd goes on
with the other files, and the fixed file is read on the next rebuild;
shutdown/exit is clean. Exits 1 with the reason on the first failure."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp  # noqa: E402

clangd, inputs, headers, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
for name in ("clean.c", "crash.c"):
    shutil.copy(os.path.join(inputs, name), work)
example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "examples", "session_table.c")
shutil.copy(example, os.path.join(work, "session.c"))
# The same bugs in a file that .clangd gives a bad krefcheck option.
shutil.copy(example, os.path.join(work, "badopt.c"))
# Outside any directory with a compilation database (clangd would infer a
# command from a database's neighbouring entries).
nocdb = tempfile.mkdtemp(prefix="krefcheck-nocdb-")
shutil.copy(os.path.join(inputs, "nocmd.c"), nocdb)
shutil.copy(os.path.join(inputs, "clangd.yaml"), os.path.join(work, ".clangd"))
# The custom_api example with its .krefcheck.yaml, and the same source under
# a broken one (an unknown kind on line 4).
custom = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "examples", "custom_api")
good_model = os.path.join(custom, ".krefcheck.yaml")
for sub, model in (("gadgets", good_model),
                   ("broken", os.path.join(headers, "models",
                                           "bad-unknown-kind.yaml"))):
    os.makedirs(os.path.join(work, sub))
    shutil.copy(os.path.join(custom, "gadget.c"), os.path.join(work, sub))
    shutil.copy(model, os.path.join(work, sub, ".krefcheck.yaml"))
with open(os.path.join(work, "compile_commands.json"), "w") as f:
    json.dump([{"directory": work, "file": name,
                "arguments": ["clang", "-std=gnu11", "-I", headers, "-c", name]}
               for name in ("session.c", "clean.c", "crash.c", "badopt.c",
                            "gadgets/gadget.c", "broken/gadget.c")], f)


def path(name):
    return os.path.join(work, name)


def read(name, where=work):
    with open(os.path.join(where, name)) as f:
        return f.read()


def fail(msg):
    print("FAIL: " + msg)
    # clangd's log ends with its stack trace when it aborted: show it in the
    # test's output, which is all a CI run keeps.
    log_path = os.path.join(work, "clangd.log")
    if os.path.exists(log_path):
        with open(log_path, errors="replace") as f:
            for line in f.read().splitlines()[-60:]:
                print("clangd.log: " + line)
    sys.exit(1)


def krefcheck(diags):
    return [d for d in diags if str(d.get("code", "")).startswith("krefcheck-")]


log = open(os.path.join(work, "clangd.log"), "w")
client = lsp.Client([clangd, "--background-index=false", "--log=verbose"],
                    work, log)
client.initialize(work)

# 1. The bugs, with their path notes as related information. The clean file
# is opened at the same time: clangd analyzes both on two threads.
client.open(path("session.c"), read("session.c"))
client.open(path("clean.c"), read("clean.c"))
diags = client.wait_diagnostics(lsp.file_uri(path("session.c")),
                                lambda d: krefcheck(d))
codes = sorted((d["code"], d["range"]["start"]["line"] + 1)
               for d in krefcheck(diags))
if codes != [("krefcheck-GetOnZero", 67), ("krefcheck-UnsafePromotion", 41)]:
    fail("expected GetOnZero at line 67 and UnsafePromotion at line 41, got %s"
         % json.dumps(krefcheck(diags)))
bug = [d for d in krefcheck(diags) if d["code"] == "krefcheck-GetOnZero"][0]
if bug["source"] != "clang-tidy":
    fail("wrong source: %s" % json.dumps(bug))
# (clangd capitalizes the first letter of every message: none starts with an
# identifier, so the message is the plugin's, letter for letter.)
if not bug["message"].startswith("Call to kref_get() on 's->ref' of a zero-filled object"):
    fail("unexpected message: %s" % bug["message"])
notes = bug.get("relatedInformation", [])
if not any("zero-filled" in n["message"] and
           n["location"]["uri"] == lsp.file_uri(path("session.c")) and
           n["location"]["range"]["start"]["line"] + 1 == 62  # kzalloc()
           for n in notes):
    fail("no path note at the kzalloc() as related information: %s"
         % json.dumps(notes))
print("bug: %s: %s (%d notes)" % (bug["code"], bug["message"], len(notes)))

# 2. Edit line 67 to the fix (kref_init() starts the count at one): its
# diagnostic goes away, the other one stays.
lines = read("session.c").split("\n")
if lines[66].strip() != "kref_get(&s->ref);":
    fail("session.c line 67 is not the kref_get() to fix: %r" % lines[66])
lines[66] = lines[66].replace("kref_get", "kref_init")
client.change(path("session.c"), "\n".join(lines), 2)
diags = client.wait_diagnostics(
    lsp.file_uri(path("session.c")),
    lambda d: not any(x["code"] == "krefcheck-GetOnZero" for x in krefcheck(d)))
print("fixed: %s" % [x["code"] for x in krefcheck(diags)])

# 3. The correct file gets none (its other diagnostics are published too).
diags = client.wait_diagnostics(lsp.file_uri(path("clean.c")), lambda d: True)
if krefcheck(diags):
    fail("clean file got %s" % json.dumps(krefcheck(diags)))
print("clean: %d diagnostics, none from krefcheck" % len(diags))

# 4. No compile command: clangd falls back to a default command (the kernel
# header is not found), says so in its log and keeps serving.
nocmd = os.path.join(nocdb, "nocmd.c")
client.open(nocmd, read("nocmd.c", nocdb))
diags = client.wait_diagnostics(lsp.file_uri(nocmd), lambda d: True)
if not any("not found" in d["message"] for d in diags):
    fail("nocmd.c: expected the missing-header error, got %s" % json.dumps(diags))
print("no compile command: %s" % diags[0]["message"])

# 5. A bad option: one diagnostic naming it on the file, the unknown check
# name flagged on .clangd by clangd's config validation.
client.open(path("badopt.c"), read("session.c"))
diags = client.wait_diagnostics(lsp.file_uri(path("badopt.c")),
                                lambda d: krefcheck(d))
errors = [d for d in krefcheck(diags)
          if d["message"].startswith("Bad krefcheck configuration: ")]
if len(errors) != 1 or "Threshold" not in errors[0]["message"] \
        or errors[0]["range"]["start"]["line"] != 0:
    fail("badopt.c: expected one configuration error naming Threshold on "
         "line 1, got %s" % json.dumps(krefcheck(diags)))
print("bad option: %s" % errors[0]["message"])
config_uri = lsp.file_uri(path(".clangd"))
config = client.wait_diagnostics(
    config_uri, lambda d: any("NoSuchChecker" in x["message"] for x in d))
print("config: %s" % [x["message"] for x in config])

# 6. The analyzer crashes on a file: a diagnostic says so and clangd goes on.
client.open(path("crash.c"), read("crash.c"))
diags = client.wait_diagnostics(lsp.file_uri(path("crash.c")),
                                lambda d: krefcheck(d))
if not any(d["message"].startswith("The krefcheck analysis crashed on this file")
           for d in krefcheck(diags)):
    fail("crash.c: expected the crash diagnostic, got %s" % json.dumps(diags))
print("crash: %s" % krefcheck(diags)[0]["message"])
hover = client.request("textDocument/hover", {
    "textDocument": {"uri": lsp.file_uri(path("clean.c"))},
    "position": {"line": 14, "character": 2}})  # refcount_set
if not hover or "refcount_set" not in json.dumps(hover):
    fail("hover after the crash: %s" % json.dumps(hover))
print("after the crash: hover on clean.c answered")
# clangd's code actions (tweaks, linked from their own archive) are there.
line = read("clean.c").split("\n")[10]
col = line.index("GFP_KERNEL")
actions = client.request("textDocument/codeAction", {
    "textDocument": {"uri": lsp.file_uri(path("clean.c"))},
    "range": {"start": {"line": 10, "character": col},
              "end": {"line": 10, "character": col}},
    "context": {"diagnostics": []}})
titles = [a.get("title", "") for a in actions or []]
if not any("Expand macro" in t for t in titles):
    fail("no 'Expand macro' code action on GFP_KERNEL: %s" % titles)
print("code actions: %s" % [t for t in titles if "Expand macro" in t])

# 7. Model files. A broken .krefcheck.yaml: one error on line 1 naming the
# model file, its line and column and the mistake; nothing else from
# krefcheck (the checkers do not run).
client.open(path("broken/gadget.c"), read("broken/gadget.c"))
diags = client.wait_diagnostics(lsp.file_uri(path("broken/gadget.c")),
                                lambda d: krefcheck(d))
bad = krefcheck(diags)
if len(bad) != 1 or bad[0]["severity"] != 1 \
        or bad[0]["range"]["start"]["line"] != 0 \
        or (path("broken/.krefcheck.yaml") + ":4:11: unknown kind 'aquire'"
            not in bad[0]["message"]):
    fail("broken/gadget.c: expected one error naming the model file's line 4, "
         "got %s" % json.dumps(bad))
print("broken model: %s" % bad[0]["message"])
# Other files go on, with their own model: the leak the good one teaches.
client.open(path("gadgets/gadget.c"), read("gadgets/gadget.c"))
diags = client.wait_diagnostics(lsp.file_uri(path("gadgets/gadget.c")),
                                lambda d: krefcheck(d))
leaks = [(d["code"], d["range"]["start"]["line"] + 1, d["message"])
         for d in krefcheck(diags)]
if [(c, n) for c, n, _ in leaks] != [("krefcheck-Leak", 27)] \
        or "gadget_put()" not in leaks[0][2]:
    fail("gadgets/gadget.c: expected the gadget_find() leak at line 27, got %s"
         % json.dumps(krefcheck(diags)))
print("model found: %s" % leaks[0][2])
# Fix the model file: the next rebuild of the file (an edit) reads it.
shutil.copy(good_model, path("broken/.krefcheck.yaml"))
client.change(path("broken/gadget.c"), read("broken/gadget.c") + "\n", 2)
diags = client.wait_diagnostics(
    lsp.file_uri(path("broken/gadget.c")),
    lambda d: any(x["code"] == "krefcheck-Leak" for x in krefcheck(d)))
if len(krefcheck(diags)) != 1:
    fail("broken/gadget.c after the fix: %s" % json.dumps(krefcheck(diags)))
print("model fixed: %s" % [x["code"] for x in krefcheck(diags)])

# 8. Clean shutdown.
rc = client.shutdown()
log.close()
if rc != 0:
    fail("clangd exited with %d" % rc)
with open(os.path.join(work, "clangd.log")) as f:
    text = f.read()
shutil.rmtree(nocdb)
for needle in ("Failed to find compilation database for " + nocmd,
               "krefcheck: " + path("badopt.c") + ": configuration error",
               "krefcheck: " + path("crash.c") + ": the analyzer crashed",
               "krefcheck: " + path("broken/gadget.c") +
               ": configuration error: " + path("broken/.krefcheck.yaml")):
    if needle not in text:
        fail("clangd.log lacks '%s'" % needle)
print("PASS")
