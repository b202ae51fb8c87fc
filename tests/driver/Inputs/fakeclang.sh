#!/bin/sh
# A clang that hangs on hang.c (in a child process, to check that the whole
# process group is killed) and is $REAL_CLANG otherwise. With $CLANG_LOG set,
# each command line is appended to that file; with $HANG_STARTED set, that
# file is created when the hang begins.
[ -n "$CLANG_LOG" ] && echo "$*" >> "$CLANG_LOG"
for a in "$@"; do
  case "$a" in *hang.c) [ -n "$HANG_STARTED" ] && : > "$HANG_STARTED"; sleep 120; exit 0;; esac
done
exec "$REAL_CLANG" "$@"
