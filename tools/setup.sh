#!/usr/bin/env bash
# Sets up a Debian machine for krefcheck and builds it:
#   tools/setup.sh [LLVM_MAJOR]        (default 19; 22 is supported too)
# Installs what is missing with apt-get (as root or through sudo), configures
# with CMake into build/ (build-llvmNN/ for other majors) and builds.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:-${KREFCHECK_LLVM_VERSION:-19}}
case "$major" in 19|22) ;; *) echo "setup.sh: unsupported LLVM major '$major' (use 19 or 22)" >&2; exit 2;; esac

pkgs=(cmake ninja-build python3 git "clang-$major" "llvm-$major-dev" "libclang-$major-dev"
      "llvm-$major-tools" "clang-tools-$major" "lld-$major" libjansson-dev pkg-config
      # the clang-tidy module is tested under the stock clang-tidy; linking
      # krefcheck-clangd takes the remote-index libraries Debian's clangd uses
      "clang-tidy-$major" libgrpc++-dev libprotobuf-dev libabsl-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}"
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A real browser for the HTML report's test (tests/driver/html-browser.test):
# Debian's chromium. Optional: where it cannot be installed that test is
# UNSUPPORTED and says why.
if ! command -v chromium >/dev/null 2>&1; then
  echo "setup.sh: installing chromium (for the HTML report's browser test)"
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  if ! { "${sudo[@]}" apt-get update -qq &&
         "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }; then
    echo "setup.sh: warning: chromium could not be installed; tests/driver/html-browser.test will be UNSUPPORTED" >&2
  fi
fi

build=build
[ "$major" = 19 ] || build="build-llvm$major"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DKREFCHECK_LLVM_VERSION="$major" \
    -DCMAKE_C_COMPILER="clang-$major" -DCMAKE_CXX_COMPILER="clang++-$major" \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld \
    -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
echo "setup.sh: built $build/lib/krefcheck.so for $("/usr/lib/llvm-$major/bin/clang" --version | head -1)"
