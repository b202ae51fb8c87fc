//===- ModelSections.cpp - The model file's lock and index sections -------===//
//
// The sections of a model file that the lifetime model does not read: the
// lock functions (`locks:`) of the lock model. Documented in
// docs/configuration.md; errors have the style of ModelFile.cpp's
// ("FILE:LINE:COL: what is wrong").
//
//===----------------------------------------------------------------------===//

#include "ModelParser.h"
#include "llvm/ADT/STLExtras.h"

using namespace krefcheck;
using llvm::ArrayRef;
using llvm::dyn_cast_or_null;
using llvm::StringRef;

namespace {
template <typename T> using Names = std::pair<const char *, T>;
const Names<LockOp> LockKinds[] = {
    {"lock", LockOp::Acquire},
    {"unlock", LockOp::Release},
    {"trylock", LockOp::TryAcquire},
    {"trylock-zero", LockOp::TryAcquireOnZero},
    {"rcu-lock", LockOp::RcuLock},
    {"rcu-unlock", LockOp::RcuUnlock},
    {"passes-lock", LockOp::PassesLock},
};

} // namespace

bool ModelParser::rowKeys(yaml::Node *N, StringRef Section, StringRef Noun,
                          ArrayRef<StringRef> Others,
                          llvm::StringMap<yaml::Node *> &Values,
                          std::string &Name) {
  auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
  if (!Map)
    return fail(N, "a '" + Section +
                       "' entry must be a mapping such as {name: ..., kind: "
                       "...}");
  for (yaml::KeyValueNode &KV : *Map) {
    std::string Key;
    if (!scalar(KV.getKey(), "key", Key))
      return false;
    if (Key != "name" && Key != "kind" && !llvm::is_contained(Others, Key))
      return fail(KV.getKey(),
                  "unknown key '" + Key + "' in a '" + Section + "' entry");
    if (Values.count(Key))
      return fail(KV.getKey(), "key '" + Key + "' given twice");
    Values[Key] = KV.getValue();
  }
  if (!Values.count("name"))
    return fail(N, "a '" + Section + "' entry needs a 'name'");
  if (!identifier(Values["name"], "name", Name))
    return false;
  if (!Values.count("kind"))
    return fail(N, Noun + " '" + Name + "' needs a 'kind'");
  return true;
}

bool ModelParser::parseLock(yaml::Node *N) {
  llvm::StringMap<yaml::Node *> Values;
  std::string Name;
  if (!rowKeys(N, "locks", "lock", {"arg"}, Values, Name))
    return false;
  LockAPI API{};
  if (!oneOf<LockOp>(Values["kind"], "kind", "kind", LockKinds, API.Op))
    return false;
  if (auto It = Values.find("arg"); It != Values.end()) {
    if (API.Op == LockOp::RcuLock || API.Op == LockOp::RcuUnlock) {
      Storage.clear();
      return fail(
          It->second,
          "key 'arg' does not apply to kind '" +
              llvm::cast<yaml::ScalarNode>(Values["kind"])->getValue(Storage) +
              "'");
    }
    int Arg;
    if (!argNumber(It->second, "arg", false, Arg))
      return false;
    API.LockArg = unsigned(Arg);
  }
  SectionRow R;
  R.At = N;
  R.Name = Name;
  R.Key = "locks|" + std::to_string(unsigned(API.Op)) + "|" +
          std::to_string(API.LockArg);
  SectionRows.push_back(std::move(R));
  LockRows.push_back(API);
  LockNames.push_back(Name);
  return true;
}

bool ModelParser::parseSection(StringRef Key, yaml::Node *V, bool &Handled) {
  Handled = true;
  if (Key == "locks") {
    auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V);
    if (!Seq)
      return fail(V, "'locks' must be a list");
    for (yaml::Node &Item : *Seq)
      if (!parseLock(&Item))
        return false;
    return true;
  }
  Handled = false;
  return true;
}

bool ModelParser::checkSections() {
  // A name listed twice in one section must say the same thing twice.
  llvm::StringMap<const SectionRow *> Seen;
  for (const SectionRow &R : SectionRows) {
    StringRef Section = StringRef(R.Key).split('|').first;
    auto [It, New] = Seen.try_emplace((Section + "|" + R.Name).str(), &R);
    if (New || It->second->Key == R.Key)
      continue;
    unsigned Line =
        SM.getLineAndColumn(It->second->At->getSourceRange().Start).first;
    return fail(R.At, "'" + R.Name + "' is listed twice in '" + Section +
                          "' with different kinds or arguments (first on "
                          "line " +
                          llvm::Twine(Line) + ")");
  }
  return true;
}

bool ModelParser::hasSectionRow(StringRef Name) const {
  return M.Locks.count(Name) || llvm::is_contained(LockNames, Name);
}

void ModelParser::mergeSections(
    ArrayRef<std::pair<std::string, yaml::Node *>> Disable) {
  for (const auto &D : Disable)
    M.Locks.erase(D.first);
  for (auto [API, Name] : llvm::zip(LockRows, LockNames)) {
    auto &Slot = M.Locks[Name] = API;
    Slot.Name = M.Locks.find(Name)->first();
  }
}
