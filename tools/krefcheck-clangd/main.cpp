//===- main.cpp - krefcheck-clangd: clangd with the krefcheck checks -------===//
//
// clangd itself, unchanged (Debian's libclangdMain), with the krefcheck
// clang-tidy module linked in: `.clangd` enables it with
// `Diagnostics: ClangTidy: Add: krefcheck-*`.
//
//===----------------------------------------------------------------------===//

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) {
  return clang::clangd::clangdMain(argc, argv);
}
