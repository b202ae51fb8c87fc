#!/usr/bin/env bash
# README command one: set up (apt + CMake build) and analyze the bundled
# examples/, printing every finding with its path notes.
#   tools/demo.sh [LLVM_MAJOR]
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:-19}
tools/setup.sh "$major"
build=build
[ "$major" = 19 ] || build="build-llvm$major"
clang="/usr/lib/llvm-$major/bin/clang"
plugin="$PWD/$build/lib/krefcheck.so"
flags=(-std=gnu11 -I "$PWD/tests/Inputs")

# A compile database for the examples, as a build system would write it.
db="$build/examples/compile_commands.json"
mkdir -p "$(dirname "$db")"
{
  echo "["
  first=1
  for f in examples/*.c examples/*/*.c; do
    [ $first = 1 ] || echo ","
    first=0
    printf '  {"directory": "%s", "file": "%s", "arguments": ["%s", "-c", %s, "%s", "-o", "/dev/null"]}' \
      "$PWD" "$PWD/$f" "$clang" "$(printf '"%s", ' "${flags[@]}" | sed 's/, $//')" "$PWD/$f"
  done
  echo
  echo "]"
} >"$db"

echo "== krefcheck on examples/ (LLVM $major)"
if [ -x "$build/bin/krefcheck" ]; then
  rc=0
  "$build/bin/krefcheck" --cdb "$db" --clang "$clang" --plugin "$plugin" || rc=$?
  # Exit 1 means "findings": expected here, the examples are buggy on purpose.
  [ "$rc" -le 1 ] || exit "$rc"
else
  for f in examples/*.c examples/*/*.c; do
    "$clang" --analyze "${flags[@]}" -Xclang -load -Xclang "$plugin" \
      -Xclang -analyzer-checker=refcount -Xclang -analyzer-output=text \
      "$f" -o /dev/null
  done
fi
