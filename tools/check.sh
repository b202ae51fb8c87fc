#!/usr/bin/env bash
# Runs every test: sets up and builds for LLVM 19 and LLVM 22, then runs the
# lit suite of each.  tools/check.sh [19|22] runs one major only.
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("$@")
((${#majors[@]})) || majors=(19 22)
for m in "${majors[@]}"; do
  tools/setup.sh "$m"
  build=build
  [ "$m" = 19 ] || build="build-llvm$m"
  echo "== lit suite, LLVM $m"
  cmake --build "$build" --target check
done
