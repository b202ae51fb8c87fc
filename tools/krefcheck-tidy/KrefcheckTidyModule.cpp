//===- KrefcheckTidyModule.cpp - The krefcheck clang-tidy module ----------===//
//
// `clang-tidy --load krefcheck-tidy.so -checks='-*,krefcheck-*'`; linked
// into krefcheck-clangd too.
//
//=== ---------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "llvm/Config/llvm-config.h"
// LLVM 22 moved the registry into ClangTidyModule.h and deprecated this one.
#if LLVM_VERSION_MAJOR < 22
#include "ClangTidyModuleRegistry.h"
#endif
#include "RefcountCheck.h"
#include "Registration.h"
#include <memory>

using namespace clang::tidy;

namespace krefcheck::tidy {
namespace {

class KrefcheckModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    for (llvm::StringRef Checker : krefcheck::PublicCheckers)
      Factories.registerCheckFactory(
          ("krefcheck-" + Checker).str(),
          [Checker](llvm::StringRef Name, ClangTidyContext *Context) {
            return std::make_unique<RefcountCheck>(Name, Context, Checker);
          });
  }
};

} // namespace
} // namespace krefcheck::tidy

static ClangTidyModuleRegistry::Add<krefcheck::tidy::KrefcheckModule>
    X("krefcheck-module", "Reference-counting bugs (krefcheck's analyzer "
                          "checkers, run in-process).");
