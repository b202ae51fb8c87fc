//===- TUCache.h - A per-TU database cached for the analysis ----*- C++ -*-===//
//
// Some checkers share a database computed once from the whole TU (put
// styles, counter uses). It is cached per thread, because clangd
// (krefcheck-clangd) analyzes several files at once, and forgotten after
// each analysis (krefcheck::resetTUCaches), because a later AST may reuse
// the address of a freed one.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_TUCACHE_H
#define KREFCHECK_TUCACHE_H

namespace clang {
class ASTContext;
} // namespace clang

namespace krefcheck {

template <typename DB> class TUCache {
public:
  /// The database of \p Ctx, computed by \p Build(DB &) on first use.
  template <typename BuildFn>
  static const DB &get(const clang::ASTContext &Ctx, BuildFn Build) {
    if (For != &Ctx) {
      Cached = DB();
      Build(Cached);
      For = &Ctx;
    }
    return Cached;
  }
  static void reset() {
    For = nullptr;
    Cached = DB();
  }

private:
  static thread_local const clang::ASTContext *For;
  static thread_local DB Cached;
};

template <typename DB>
thread_local const clang::ASTContext *TUCache<DB>::For = nullptr;
template <typename DB> thread_local DB TUCache<DB>::Cached;

} // namespace krefcheck

#endif
