//===- main.cpp - krefcheck-clangd: clangd with the krefcheck checks ------===//
//
// clangd itself, unchanged (Debian's libclangdMain), with the krefcheck
// clang-tidy module linked in: `.clangd` enables it with
// `Diagnostics: ClangTidy: Add: krefcheck-*`.
//
//===----------------------------------------------------------------------===//

#include <cstring>
#include <vector>

namespace clang::clangd {
int clangdMain(int argc, char *argv[]);
} // namespace clang::clangd

int main(int argc, char *argv[]) {
  // clangd derives the builtin headers' directory from its own path; point
  // it at the installed clang's unless the user did.
  std::vector<char *> Args(argv, argv + argc);
  bool HasResourceDir = false;
  for (int I = 1; I < argc; ++I)
    HasResourceDir |= std::strncmp(argv[I], "--resource-dir", 14) == 0 ||
                      std::strncmp(argv[I], "-resource-dir", 13) == 0;
  static char ResourceDir[] = "--resource-dir=" KREFCHECK_RESOURCE_DIR;
  if (!HasResourceDir)
    Args.insert(Args.begin() + 1, ResourceDir);
  Args.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()) - 1,
                                   Args.data());
}
