//===- ModelSections.cpp - The model file's sections besides `apis` ------===//
//
// The sections of a model file besides the `apis` rows (ModelApiRows.cpp):
// the counter fields and their put styles (`counters:`), the lock functions
// (`locks:`) of the lock model, the kernel's indexes (`indexes:`,
// `index-nodes:`), the macros the checkers read in expansion chains
// (`macros:`) and the functions they read by name (`calls:`). Documented in
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
const Names<bool> IndexKinds[] = {{"lookup", false}, {"removal", true}};
/// The indexes, in the order of InternalOrigin.
const Names<InternalOrigin> Origins[] = {
    {"list", InternalOrigin::List},
    {"hlist", InternalOrigin::HList},
    {"rb-tree", InternalOrigin::RBTree},
    {"idr", InternalOrigin::IDR},
    {"xarray", InternalOrigin::XArray},
    {"radix-tree", InternalOrigin::RadixTree},
    {"rhashtable", InternalOrigin::RHashtable},
    {"rcu", InternalOrigin::RCU},
};
static_assert(std::size(Origins) == NumInternalOrigins);
/// The put styles of a `counters:` entry.
const Names<PutStyleKind> Styles[] = {
    {"plain", PutStyleKind::Plain},
    {"kref", PutStyleKind::Kref},
    {"kcref", PutStyleKind::Kcref},
};

/// A C identifier, or one with `*` for any characters when Glob.
bool isName(StringRef S, bool Glob) {
  if (S.empty() || isdigit((unsigned char)S[0]))
    return false;
  return llvm::all_of(S, [&](char C) {
    return isalnum((unsigned char)C) || C == '_' || (Glob && C == '*');
  });
}

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

bool ModelParser::parseIndex(yaml::Node *N) {
  llvm::StringMap<yaml::Node *> Values;
  std::string Name;
  if (!rowKeys(N, "indexes", "index function", {"index"}, Values, Name))
    return false;
  IndexAPI API;
  if (!oneOf<bool>(Values["kind"], "kind", "kind", IndexKinds, API.Removal))
    return false;
  auto It = Values.find("index");
  if (API.Removal && It != Values.end())
    return fail(It->second, "key 'index' does not apply to kind 'removal'");
  if (!API.Removal && It == Values.end())
    return fail(N, "index function '" + Name +
                       "' of kind 'lookup' needs the 'index' it looks up");
  if (!API.Removal &&
      !oneOf<InternalOrigin>(It->second, "index", "index", Origins, API.Origin))
    return false;
  SectionRow R;
  R.At = N;
  R.Name = Name;
  R.Key = "indexes|" + std::to_string(API.Removal) + "|" +
          std::to_string(unsigned(API.Origin));
  SectionRows.push_back(std::move(R));
  IndexRows.emplace_back(Name, API);
  return true;
}

bool ModelParser::parseNameLists(
    yaml::Node *N, StringRef What,
    ArrayRef<std::pair<std::string, NameSet *>> Lists, bool Globs) {
  auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
  std::string Expected;
  for (const auto &L : Lists)
    Expected += (Expected.empty() ? "" : ", ") + L.first;
  if (!Map)
    return fail(N, "'" + What + "' must be a mapping of the keys " + Expected);
  for (yaml::KeyValueNode &KV : *Map) {
    std::string Key;
    if (!scalar(KV.getKey(), "key", Key))
      return false;
    auto It =
        llvm::find_if(Lists, [&](const auto &L) { return Key == L.first; });
    if (It == Lists.end())
      return fail(KV.getKey(), "unknown key '" + Key + "' in '" + What +
                                   "' (expected one of: " + Expected + ")");
    std::vector<std::pair<std::string, yaml::Node *>> Items;
    if (!nameList(KV.getValue(), Key, Items))
      return false;
    for (const auto &[Item, At] : Items) {
      if (!isName(Item, Globs))
        return fail(At, "'" + Key + "' entries are names" +
                            (Globs ? " (with '*')" : "") + ", not '" + Item +
                            "'");
      ListItems.emplace_back(It->second, Item);
    }
  }
  return true;
}

bool ModelParser::parseCounter(yaml::Node *N, CounterConfig &C) {
  auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
  if (!Map)
    return fail(N, "a 'counters' entry must be a mapping such as "
                   "{field: foo::users, style: kref}");
  yaml::Node *StyleNode = nullptr, *LockNode = nullptr;
  bool HasField = false;
  for (yaml::KeyValueNode &KV : *Map) {
    std::string Key, V;
    if (!scalar(KV.getKey(), "key", Key))
      return false;
    if (Key == "field") {
      if (!scalar(KV.getValue(), "field", V))
        return false;
      StringRef S = StringRef(V).trim();
      S.consume_front("struct ");
      S.consume_front("union ");
      auto [Rec, Fld] = S.rsplit("::");
      if (!isIdentifier(Fld.empty() ? Rec : Fld) ||
          (!Fld.empty() && !isIdentifier(Rec)))
        return fail(KV.getValue(), "'field' must name a field as "
                                   "'struct foo::users' or 'users', not '" +
                                       V + "'");
      C.Field = S.str();
      HasField = true;
    } else if (Key == "style") {
      PutStyleKind Style;
      if (!oneOf<PutStyleKind>(KV.getValue(), "style", "style", Styles, Style))
        return false;
      C.Style = Style;
      StyleNode = KV.getValue();
    } else if (Key == "lock") {
      if (!scalar(KV.getValue(), "lock", V))
        return false;
      StringRef S = StringRef(V).trim();
      S.consume_front("struct ");
      C.Lock = S.str();
      LockNode = KV.getValue();
    } else if (Key == "refcount") {
      if (!boolean(KV.getValue(), "refcount", C.Refcount))
        return false;
    } else {
      return fail(KV.getKey(),
                  "unknown key '" + Key + "' in a 'counters' entry");
    }
  }
  if (!HasField)
    return fail(N, "a 'counters' entry needs a 'field'");
  if (C.Style == PutStyleKind::Kcref && C.Lock.empty())
    return fail(StyleNode,
                "style 'kcref' needs the 'lock' its final put takes");
  if (LockNode && C.Style != PutStyleKind::Kcref)
    return fail(LockNode, "'lock' applies only to style 'kcref'");
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
  if (Key == "indexes") {
    auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V);
    if (!Seq)
      return fail(V, "'indexes' must be a list");
    for (yaml::Node &Item : *Seq)
      if (!parseIndex(&Item))
        return false;
    return true;
  }
  if (Key == "index-nodes") {
    std::vector<std::pair<std::string, NameSet *>> Lists;
    for (const auto &[Name, O] : Origins)
      Lists.emplace_back(Name, &M.IndexNodes[unsigned(O)]);
    return parseNameLists(V, Key, Lists, /*Globs=*/false);
  }
  if (Key == "calls")
    return parseNameLists(
        V, Key,
        {{"zero-filled-allocators", &M.Calls.ZeroFilledAllocators},
         {"memory-allocators", &M.Calls.MemoryAllocators},
         {"lock-held-tests", &M.Calls.LockHeldTests},
         {"frees", &M.Calls.Frees},
         {"memory-frees", &M.Calls.MemoryFrees},
         {"non-freeing-releases", &M.Calls.NonFreeingReleases},
         {"add-unless", &M.Calls.AddUnless},
         {"lifetime-ops", &M.Calls.LifetimeOps},
         {"counting-implementations", &M.Calls.CountingImplementations},
         {"counter-type-implementations", &M.Calls.CounterTypeImplementations}},
        /*Globs=*/true);
  if (Key == "macros")
    return parseNameLists(V, Key,
                          {{"rcu-dereference", &M.Macros.RcuDereference},
                           {"container-of", &M.Macros.ContainerOf},
                           {"lock-held-asserts", &M.Macros.LockHeldAsserts},
                           {"assertions", &M.Macros.Assertions}},
                          /*Globs=*/true);
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
  return M.Locks.count(Name) || M.Indexes.count(Name) ||
         llvm::is_contained(LockNames, Name) ||
         llvm::any_of(IndexRows,
                      [&](const auto &R) { return R.first == Name; });
}

void ModelParser::mergeSections(
    ArrayRef<std::pair<std::string, yaml::Node *>> Disable) {
  for (const auto &D : Disable) {
    M.Locks.erase(D.first);
    M.Indexes.erase(D.first);
  }
  for (auto [API, Name] : llvm::zip(LockRows, LockNames)) {
    auto &Slot = M.Locks[Name] = API;
    Slot.Name = M.Locks.find(Name)->first();
  }
  for (const auto &[Name, API] : IndexRows)
    M.Indexes[Name] = API;
  for (auto &[Set, Item] : ListItems)
    Set->insert(Item);
}
