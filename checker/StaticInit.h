//===- StaticInit.h - constant initializers of static tables ----*- C++ -*-===//
//
// Drivers describe themselves with static tables (`static struct snd_soc_card
// card = { .num_links = ARRAY_SIZE(links), ... }`) and loop over them through
// a pointer (`for_each_card_prelinks(card, i, link)`). The analyzer treats a
// writable global as unknown, so it also walks such a loop zero times and
// reports what the loop body would have stored as leaked. These helpers let
// the lifetime model take a loop bound from the table's initializer.
//
//===----------------------------------------------------------------------===//

#ifndef KREFCHECK_STATICINIT_H
#define KREFCHECK_STATICINIT_H

#include "clang/AST/Stmt.h"
#include "clang/StaticAnalyzer/Core/PathSensitive/MemRegion.h"
#include <cstdint>
#include <optional>

namespace clang {
class ParentMap;
}

namespace krefcheck {

/// The integer a field of a global variable is initialized with
/// (`card.num_links` of `static struct snd_soc_card card = {...}`), if R is
/// such a field and its initializer is a non-zero constant; 1 for a pointer
/// field initialized with the address of an object (`.dai_link = links`).
std::optional<int64_t> staticFieldInitializer(const clang::ento::MemRegion *R);

/// Whether E is part of a loop's condition (`n` or `a` in
/// `for (i = 0; i < n && (p = &a[i]); i++)`).
bool isInLoopCondition(const clang::Stmt *E, const clang::ParentMap &PM);

} // namespace krefcheck

#endif
