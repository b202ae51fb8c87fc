#!/usr/bin/env python3
"""cc-log.py COMPILER ARGS...: records the compile command in
./compile_commands.json (as the kernel's gen_compile_commands.py would),
then runs it. The compiler's own warnings are dropped: the test reads the
checker's output on the same stderr."""
import json, os, subprocess, sys
db = "compile_commands.json"
entries = json.load(open(db)) if os.path.exists(db) else []
src = [a for a in sys.argv[2:] if a.endswith(".c")][-1]
entries = [e for e in entries if e["file"] != src]
entries.append({"directory": os.getcwd(), "arguments": sys.argv[1:], "file": src})
json.dump(entries, open(db, "w"), indent=1)
sys.exit(subprocess.call(sys.argv[1:], stderr=subprocess.DEVNULL))
