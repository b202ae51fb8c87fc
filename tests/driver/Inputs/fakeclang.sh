#!/bin/sh
# A clang that hangs on hang.c (in a child process, to check that the whole
# process group is killed) and is $REAL_CLANG otherwise.
for a in "$@"; do
  case "$a" in *hang.c) sleep 120; exit 0;; esac
done
exec "$REAL_CLANG" "$@"
