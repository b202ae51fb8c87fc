#!/usr/bin/env python3
"""reword-messages.py FILE...: rewrites the expected diagnostics in test
files (and examples in docs) to the wording of issue 20, in place.

clangd capitalizes the first letter of every diagnostic message, so a
message that starts with a kernel function's name shows a function that
does not exist ("Kref_get() on ..."). The checkers now lead with words:

    kref_get() on 'X' ...            ->  Call to kref_get() on 'X' ...
    of_node_put() puts 'X' again ... ->  The call to of_node_put() puts 'X' again ...
      (likewise "F() returns/takes/is a plain decrement/drops/works on/
       succeeded/failed/puts the previous ...")
    krefcheck configuration error:   ->  Bad krefcheck configuration:
    krefcheck: the analyzer crashed on this file
                                     ->  The krefcheck analysis crashed on this file

Only a message's start is rewritten: a call right after "warning: ",
"note: ", "error: " (compiler-style output, FileCheck lines), "{{" (the
-verify lines expected-warning{{...}}/expected-note{{...}}, whose text is a
substring of the message and here starts it), a JSON "message": " or an
LSP dict's 'message': '. Text in the middle of a message ("... before
kref_get(); use ...", "Plain atomic_inc() on an internal reference") is left
alone. Running it again changes nothing (idempotent). Prints each file it
changed and the number of rewrites.
"""
import re
import sys

# Where a message starts.
ANCHOR = r"""((?:warning|note|error): |\{\{|"message": "|'message': ')"""
CALL = r"([A-Za-z_][A-Za-z0-9_]*\(\))"
# Call-first messages whose call is followed by a verb: "The call to F() ...".
VERBS = (r"puts |returns a counted reference|takes a runtime-PM usage count|"
         r"is a plain decrement|drops '|works on the insides|succeeded: |"
         r"failed: ")

RULES = [
    # GetOnZero: "F() on 'X' ..." (a noun phrase): "Call to F() on 'X' ...".
    (re.compile(ANCHOR + CALL + r" on '"), r"\1Call to \2 on '"),
    (re.compile(ANCHOR + CALL + r" (" + VERBS + r")"), r"\1The call to \2 \3"),
    (re.compile(ANCHOR + r"krefcheck configuration error: "),
     r"\1Bad krefcheck configuration: "),
    (re.compile(ANCHOR + r"krefcheck: the analyzer crashed on this file"),
     r"\1The krefcheck analysis crashed on this file"),
]


def reword(text):
    n = 0
    for pat, rep in RULES:
        text, k = pat.subn(rep, text)
        n += k
    return text, n


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    for p in paths:
        with open(p, encoding="utf-8") as f:
            old = f.read()
        new, n = reword(old)
        if new != old:
            with open(p, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"{p}: {n} rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
