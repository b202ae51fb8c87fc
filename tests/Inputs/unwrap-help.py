# Joins -analyzer-checker-option-help's wrapped description lines, so each
# option is one line: "NAME (TYPE) DESCRIPTION (default: VALUE)".
import re
import sys

entry = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if re.match(r"^  \S", line):
        if entry:
            print(entry)
        entry = re.sub(r"\s+", " ", line.strip())
    elif entry and line.strip():
        entry += " " + line.strip()
    else:
        if entry:
            print(entry)
        entry = None
if entry:
    print(entry)
