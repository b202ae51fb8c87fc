//===- ModelFile.cpp - Reads model files (YAML) into the API tables -------===//
//
// The format is documented in docs/configuration.md. The parser walks the
// node tree of llvm/Support/YAMLParser.h itself (rather than YAMLTraits) so
// that every error names the line and column of the offending node.
//
//===----------------------------------------------------------------------===//

#include "ModelFile.h"
#include "Annotations.h"
#include "Contracts.h"
#include "ModelParser.h"
#include "Rules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/StaticAnalyzer/Core/AnalyzerOptions.h"
#include "clang/StaticAnalyzer/Core/CheckerManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace krefcheck;
using llvm::ArrayRef;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;
using llvm::StringRef;

namespace {
const char BuiltinText[] =
#include "kernel-model.inc"
    ;

/// The top-level keys, for messages.
const char TopKeys[] = "apis, disable, counters, bias-allow-list, name-words, "
                       "types, uncounted-fwnode-walkers, locks, indexes, "
                       "index-nodes, macros, calls";

const char *const BuiltinFamilies[] = {"node", "device", "pm-runtime", "netdev",
                                       "sock", "net",    "dentry",     "kref"};
} // namespace

StringRef krefcheck::builtinModelText() {
  return StringRef(BuiltinText, sizeof(BuiltinText) - 1);
}

bool krefcheck::globMatches(StringRef Pattern, StringRef Name) {
  size_t Star = Pattern.find('*');
  if (Star == StringRef::npos)
    return Pattern == Name;
  StringRef Head = Pattern.take_front(Star);
  if (!Name.consume_front(Head))
    return false;
  Pattern = Pattern.drop_front(Star + 1);
  // Try every split point for the rest (patterns are short).
  for (size_t I = 0; I <= Name.size(); ++I)
    if (globMatches(Pattern, Name.drop_front(I)))
      return true;
  return false;
}

const RoleRow *Model::role(StringRef Name) const {
  auto It = Roles.find(Name);
  if (It != Roles.end())
    return &It->second;
  for (const auto &[Pattern, Row] : RoleGlobs)
    if (globMatches(Pattern, Name))
      return &Row;
  return nullptr;
}

bool krefcheck::fieldMatches(StringRef Spec, const clang::FieldDecl *FD) {
  Spec = Spec.trim();
  Spec.consume_front("struct ");
  Spec.consume_front("union ");
  auto [Rec, Field] = Spec.rsplit("::");
  if (Field.empty())
    return FD->getName() == Rec;
  if (FD->getName() != Field)
    return false;
  // The field may sit in an anonymous struct or union of the named one.
  for (const clang::RecordDecl *RD = FD->getParent(); RD;
       RD = dyn_cast<clang::RecordDecl>(RD->getDeclContext())) {
    if (RD->getName() == Rec)
      return true;
    if (!RD->isAnonymousStructOrUnion())
      return false;
  }
  return false;
}

Model::Model() = default;
Model::~Model() = default;

Family Model::family(StringRef Name) {
  for (unsigned I = 0; I < std::size(BuiltinFamilies); ++I)
    if (Name == BuiltinFamilies[I])
      return static_cast<Family>(I);
  for (unsigned I = 0; I < UserFamilies.size(); ++I)
    if (UserFamilies[I] == Name)
      return static_cast<Family>(unsigned(Family::FirstUser) + I);
  UserFamilies.push_back(Name.str());
  return static_cast<Family>(unsigned(Family::FirstUser) + UserFamilies.size() -
                             1);
}

std::string Model::familyName(Family F) const {
  unsigned I = unsigned(F);
  if (I < std::size(BuiltinFamilies))
    return BuiltinFamilies[I];
  I -= unsigned(Family::FirstUser);
  return I < UserFamilies.size() ? UserFamilies[I] : "user";
}

std::string Model::releaseName(Family F) const {
  std::string Best;
  for (const auto &KV : Lifetime)
    if (KV.second.Fam == F && KV.second.Op == LifeOp::Release &&
        (Best.empty() || KV.first() < Best))
      Best = KV.first().str();
  if (Best.empty() && Ctx) {
    // An annotated family: the first function of the TU annotated as its put.
    for (const clang::Decl *D : Ctx->getTranslationUnitDecl()->decls()) {
      const auto *FD = dyn_cast<clang::FunctionDecl>(D);
      const LifetimeAPI *A = FD ? annotatedAPI(FD) : nullptr;
      if (A && A->Fam == F && A->Op == LifeOp::Release)
        return FD->getName().str() + "()";
    }
  }
  return Best.empty() ? "the matching put" : Best + "()";
}

const LifetimeAPI *Model::annotatedAPI(const clang::FunctionDecl *FD) const {
  FD = FD->getCanonicalDecl();
  auto It = Annotated.find(FD);
  if (It != Annotated.end())
    return It->second.get();
  std::optional<LifetimeAPI> A =
      annotatedContract(FD, const_cast<Model &>(*this).family("user"));
  auto &Slot = Annotated[FD];
  if (A)
    Slot = std::make_unique<LifetimeAPI>(*A);
  return Slot.get();
}

const CounterConfig *Model::counterConfig(const clang::FieldDecl *FD) const {
  auto It = FieldConfigs.find(FD);
  if (It != FieldConfigs.end())
    return It->second.get();
  std::optional<CounterConfig> Result;
  for (const CounterConfig &C : Counters) {
    if (!fieldMatches(C.Field, FD))
      continue;
    if (!Result)
      Result = C;
    if (C.Style) {
      Result->Style = C.Style;
      Result->Lock = C.Lock;
    }
    Result->Refcount |= C.Refcount;
  }
  if (std::optional<FieldAnnotation> A = annotatedField(FD)) {
    if (!Result) {
      Result.emplace();
      Result->Field = FD->getName().str();
    }
    if (A->Style) {
      Result->Style = A->Style;
      Result->Lock = A->Lock;
    }
    Result->Refcount |= A->Refcount;
  }
  auto &Slot = FieldConfigs[FD];
  if (Result)
    Slot = std::make_unique<CounterConfig>(*Result);
  return Slot.get();
}

bool ModelParser::fail(yaml::Node *N, const llvm::Twine &Msg) {
  if (!Error.empty())
    return false;
  unsigned Line = 0, Col = 0;
  if (N) {
    std::tie(Line, Col) = SM.getLineAndColumn(N->getSourceRange().Start);
  }
  Error =
      (FileName + ":" + llvm::Twine(Line) + ":" + llvm::Twine(Col) + ": " + Msg)
          .str();
  return false;
}

bool ModelParser::scalar(yaml::Node *N, StringRef What, std::string &Out) {
  auto *S = dyn_cast_or_null<yaml::ScalarNode>(N);
  if (!S)
    return fail(N, "'" + What + "' must be a single value");
  Storage.clear();
  Out = S->getValue(Storage).str();
  if (Out.empty())
    return fail(N, "'" + What + "' must not be empty");
  return true;
}

static bool isIdentifier(StringRef S) {
  if (S.empty() || !(isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(
      S, [](char C) { return isalnum((unsigned char)C) || C == '_'; });
}

bool ModelParser::identifier(yaml::Node *N, StringRef What, std::string &Out) {
  if (!scalar(N, What, Out))
    return false;
  if (!isIdentifier(Out))
    return fail(N, "'" + What + "' must be a C identifier, not '" + Out + "'");
  return true;
}

bool ModelParser::boolean(yaml::Node *N, StringRef What, bool &Out) {
  std::string S;
  if (!scalar(N, What, S))
    return false;
  if (S == "true" || S == "false") {
    Out = S == "true";
    return true;
  }
  return fail(N, "'" + What + "' must be true or false, not '" + S + "'");
}

bool ModelParser::argNumber(yaml::Node *N, StringRef What, bool AllowReturn,
                            int &Out) {
  std::string S;
  if (!scalar(N, What, S))
    return false;
  if (AllowReturn && S == "return") {
    Out = RetVal;
    return true;
  }
  unsigned V;
  if (StringRef(S).getAsInteger(10, V) || V < 1 || V > 64)
    return fail(N,
                "'" + What + "' must be an argument number (1 is the first)" +
                    (AllowReturn ? " or 'return'" : "") + ", not '" + S + "'");
  Out = int(V) - 1;
  return true;
}

bool ModelParser::nameList(
    yaml::Node *N, StringRef What,
    std::vector<std::pair<std::string, yaml::Node *>> &Out) {
  auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(N);
  if (!Seq)
    return fail(N, "'" + What + "' must be a list");
  for (yaml::Node &Item : *Seq) {
    std::string S;
    if (!scalar(&Item, What, S))
      return false;
    Out.emplace_back(S, &Item);
  }
  return true;
}

namespace {
struct KindInfo {
  bool Counting;
  CountOp COp;
  LifeOp LOp;
  CallRole Role = CallRole::None;
};
template <typename T> using Names = std::pair<const char *, T>;
const Names<KindInfo> Kinds[] = {
    {"init", {true, CountOp::Init, LifeOp::Acquire}},
    {"get", {true, CountOp::Get, LifeOp::Acquire}},
    {"test-for-zero-get", {true, CountOp::TryGet, LifeOp::Acquire}},
    {"put", {true, CountOp::Put, LifeOp::Release}},
    {"put-and-test", {true, CountOp::PutTest, LifeOp::Release}},
    {"put-and-lock", {true, CountOp::PutLock, LifeOp::Release}},
    {"read", {true, CountOp::Read, LifeOp::Acquire}},
    {"acquire", {false, CountOp::Get, LifeOp::Acquire}},
    {"acquire-next", {false, CountOp::Get, LifeOp::ConsumeAcquire}},
    {"release", {false, CountOp::Put, LifeOp::Release}},
    {"consume", {false, CountOp::Put, LifeOp::Consume}},
    {"borrow", {false, CountOp::Put, LifeOp::Borrow}},
    {"stores", {false, CountOp::Put, LifeOp::Store}},
    {"err-test", {false, CountOp::Read, LifeOp::Borrow, CallRole::ErrTest}},
    {"err-or-null-test",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::ErrOrNullTest}},
    {"err-value", {false, CountOp::Read, LifeOp::Borrow, CallRole::ErrValue}},
    {"value-only", {false, CountOp::Read, LifeOp::Borrow, CallRole::ValueOnly}},
    {"makes-err-ptr",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::MakesErrPtr}},
    {"acpi-node-test",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::AcpiNodeTest}},
    {"driver-data",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::DriverData}},
    {"claim-bit", {false, CountOp::Read, LifeOp::Borrow, CallRole::ClaimBit}},
    {"logging", {false, CountOp::Read, LifeOp::Borrow, CallRole::Logging}},
    {"allocator", {false, CountOp::Read, LifeOp::Borrow, CallRole::Allocator}},
    {"same-result",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::SameResult}},
};
const Names<Failure> Failures[] = {
    {"never", Failure::Never},       {"null", Failure::Null},
    {"err-ptr", Failure::ErrPtr},    {"null-or-err-ptr", Failure::NullOrErrPtr},
    {"negative", Failure::NegErrno}, {"not-positive", Failure::NotPositive},
    {"errno", Failure::Errno},       {"zero", Failure::Zero},
};
const Names<CounterFamily> CounterTypes[] = {
    {"kref", CounterFamily::Kref},
    {"refcount", CounterFamily::Refcount},
    {"atomic", CounterFamily::Atomic},
};
const Names<PutStyleKind> Styles[] = {
    {"plain", PutStyleKind::Plain},
    {"kref", PutStyleKind::Kref},
    {"kcref", PutStyleKind::Kcref},
};

/// Which keys an API row of each kind may have.
bool keyApplies(StringRef Key, const KindInfo &K) {
  if (K.Role != CallRole::None)
    return Key == "name" || Key == "kind" ||
           (Key == "arg" && K.Role == CallRole::DriverData);
  if (Key == "name" || Key == "kind" || Key == "arg")
    return true;
  if (K.Counting) {
    if (Key == "counter")
      return true;
    if (Key == "value")
      return K.COp == CountOp::Init;
    if (Key == "lock")
      return K.COp == CountOp::PutLock;
    if (Key == "release")
      return K.COp == CountOp::PutTest || K.COp == CountOp::PutLock;
    if (Key == "tracked")
      return K.COp == CountOp::Get || K.COp == CountOp::TryGet ||
             K.COp == CountOp::Put || K.COp == CountOp::PutTest ||
             K.COp == CountOp::PutLock;
    return false;
  }
  if (Key == "family")
    return true;
  if (Key == "fails")
    return K.LOp == LifeOp::Acquire || K.LOp == LifeOp::ConsumeAcquire;
  if (Key == "returns-arg")
    return K.LOp == LifeOp::Acquire;
  if (Key == "consumes")
    return K.LOp == LifeOp::ConsumeAcquire;
  if (Key == "put" || Key == "advice" || Key == "bound-to-caller" ||
      Key == "creates")
    return K.LOp == LifeOp::Acquire || K.LOp == LifeOp::ConsumeAcquire;
  if (Key == "acpi-uncounted")
    return K.LOp == LifeOp::Acquire || K.LOp == LifeOp::ConsumeAcquire ||
           K.LOp == LifeOp::Release;
  return false;
}

/// A C identifier in which `*` may stand for any run of characters.
bool isNamePattern(StringRef S) {
  return !S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_*") == StringRef::npos;
}

bool isKnownRowKey(StringRef Key) {
  static const char *const Keys[] = {
      "name",        "kind",          "arg",     "counter", "value",
      "lock",        "release",       "tracked", "family",  "fails",
      "returns-arg", "consumes",      "put",     "advice",  "bound-to-caller",
      "creates",     "acpi-uncounted"};
  return llvm::is_contained(Keys, Key);
}
} // namespace

bool ModelParser::parseRow(yaml::Node *N, Row &R) {
  auto *Map = dyn_cast_or_null<yaml::MappingNode>(N);
  if (!Map)
    return fail(N, "an 'apis' entry must be a mapping such as "
                   "{name: foo_get, kind: acquire, arg: 1}");
  R.At = N;
  // Collect the keys first: which keys apply depends on the kind.
  llvm::StringMap<yaml::Node *> Values;
  llvm::StringMap<yaml::Node *> KeyNodes;
  for (yaml::KeyValueNode &KV : *Map) {
    std::string Key;
    if (!scalar(KV.getKey(), "key", Key))
      return false;
    if (!isKnownRowKey(Key))
      return fail(KV.getKey(), "unknown key '" + Key + "' in an 'apis' entry");
    if (Values.count(Key))
      return fail(KV.getKey(), "key '" + Key + "' given twice");
    Values[Key] = KV.getValue();
    KeyNodes[Key] = KV.getKey();
  }
  if (!Values.count("name"))
    return fail(N, "an 'apis' entry needs a 'name'");
  if (!scalar(Values["name"], "name", R.Name))
    return false;
  if (!Values.count("kind"))
    return fail(N, "API '" + R.Name + "' needs a 'kind'");
  KindInfo KI;
  if (!oneOf<KindInfo>(Values["kind"], "kind", "kind", Kinds, KI))
    return false;
  if (KI.Role != CallRole::None ? !isNamePattern(R.Name)
                                : !isIdentifier(R.Name))
    return fail(Values["name"],
                "'name' must be a C identifier" +
                    llvm::Twine(KI.Role != CallRole::None
                                    ? " (with '*' for any characters)"
                                    : "") +
                    ", not '" + R.Name + "'");
  Storage.clear();
  R.Kind = cast<yaml::ScalarNode>(Values["kind"])->getValue(Storage).str();
  const KindInfo *K = &KI;
  for (const auto &KV : KeyNodes)
    if (!keyApplies(KV.first(), *K))
      return fail(KV.second, "key '" + KV.first() +
                                 "' does not apply to kind '" + R.Kind + "'");

  auto ArgOf = [&](StringRef Key, bool AllowReturn, int &Out) {
    auto It = Values.find(Key);
    return It == Values.end() || argNumber(It->second, Key, AllowReturn, Out);
  };
  if (K->Role != CallRole::None) {
    RoleRow Role;
    Role.Role = K->Role;
    Role.Src =
        Builtin ? ContractSource::BuiltinModel : ContractSource::UserModel;
    if (K->Role == CallRole::DriverData) {
      if (!Values.count("arg"))
        return fail(N, "API '" + R.Name +
                           "' of kind 'driver-data' needs the device 'arg'");
      if (!ArgOf("arg", false, Role.Arg))
        return false;
    }
    R.Role = Role;
    llvm::raw_string_ostream OS(R.Key);
    OS << R.Kind << '|' << Role.Arg;
    return true;
  }
  bool AcquireKind = !K->Counting && (K->LOp == LifeOp::Acquire ||
                                      K->LOp == LifeOp::ConsumeAcquire);
  int Arg = K->LOp == LifeOp::ConsumeAcquire && !K->Counting ? RetVal : 0;
  if (!ArgOf("arg", AcquireKind, Arg))
    return false;
  if (!K->Counting && K->LOp == LifeOp::ConsumeAcquire && Arg != RetVal)
    return fail(Values["arg"], "kind 'acquire-next' returns the new reference: "
                               "'arg' can only be 'return'");

  if (K->Counting) {
    CountAPI C{};
    C.Op = K->COp;
    C.CounterArg = unsigned(Arg);
    if (Values.count("counter")) {
      if (!oneOf<CounterFamily>(Values["counter"], "counter", "counter",
                                CounterTypes, C.Family))
        return false;
    } else if (StringRef(R.Name).starts_with("kref_")) {
      C.Family = CounterFamily::Kref;
    } else if (StringRef(R.Name).starts_with("refcount_")) {
      C.Family = CounterFamily::Refcount;
    } else if (StringRef(R.Name).starts_with("atomic") ||
               StringRef(R.Name).starts_with("_atomic")) {
      C.Family = CounterFamily::Atomic;
    } else {
      return fail(N, "API '" + R.Name +
                         "' needs a 'counter' (kref, refcount or atomic)");
    }
    int V;
    if (Values.count("value")) {
      if (!ArgOf("value", false, V))
        return false;
      C.ValueArg = unsigned(V);
    }
    if (Values.count("lock")) {
      if (!ArgOf("lock", false, V))
        return false;
      C.LockArg = unsigned(V);
    } else if (C.Op == CountOp::PutLock) {
      return fail(N, "API '" + R.Name +
                         "' of kind 'put-and-lock' needs a 'lock' argument");
    }
    if (Values.count("release")) {
      if (!ArgOf("release", false, V))
        return false;
      C.ReleaseArg = unsigned(V);
    }
    bool Tracked = false;
    if (Values.count("tracked") &&
        !boolean(Values["tracked"], "tracked", Tracked))
      return false;
    R.Count = C;
    if (Tracked) {
      // A counted reference on the object the counter is in: refcount.Model
      // evaluates the call, the lifetime model only observes it.
      LifetimeAPI L{};
      L.Op = (C.Op == CountOp::Get || C.Op == CountOp::TryGet)
                 ? LifeOp::Acquire
                 : LifeOp::Release;
      L.RefArg = int(C.CounterArg);
      L.Fail = C.Op == CountOp::TryGet ? Failure::Zero : Failure::Never;
      L.Observe = true;
      L.Src =
          Builtin ? ContractSource::BuiltinModel : ContractSource::UserModel;
      R.Put = C.Family == CounterFamily::Refcount ? "refcount_dec_and_test()"
                                                  : "kref_put()";
      R.Life = L;
      R.FamilyName = "kref";
    }
  } else {
    LifetimeAPI L{};
    L.Op = K->LOp;
    L.RefArg = Arg;
    L.Src = Builtin ? ContractSource::BuiltinModel : ContractSource::UserModel;
    R.FamilyName = "user";
    for (auto [Key, Flag] :
         {std::pair<const char *, bool *>{"bound-to-caller", &L.BoundToCaller},
          {"creates", &L.Creates},
          {"acpi-uncounted", &L.AcpiUncounted}})
      if (Values.count(Key) && !boolean(Values[Key], Key, *Flag))
        return false;
    if (Values.count("put")) {
      std::string Put;
      if (!identifier(Values["put"], "put", Put))
        return false;
      R.Put = Put + "()";
    }
    if (Values.count("advice") && !scalar(Values["advice"], "advice", R.Advice))
      return false;
    if (Values.count("family")) {
      if (!scalar(Values["family"], "family", R.FamilyName))
        return false;
      // Built-in families are spelled with '-' (pm-runtime).
      if (!isIdentifier(R.FamilyName) &&
          !llvm::is_contained(BuiltinFamilies, StringRef(R.FamilyName)))
        return fail(Values["family"], "'family' must be a name such as "
                                      "'drm_gem', not '" +
                                          R.FamilyName + "'");
    }
    if (Values.count("fails") &&
        !oneOf<Failure>(Values["fails"], "fails", "failure convention",
                        Failures, L.Fail))
      return false;
    if (Values.count("returns-arg")) {
      bool B;
      if (!boolean(Values["returns-arg"], "returns-arg", B))
        return false;
      if (B && Arg == RetVal)
        return fail(Values["returns-arg"],
                    "'returns-arg' needs an 'arg' number: the acquired "
                    "argument is what the function returns");
      L.ReturnsArg = B;
    }
    if (L.Op == LifeOp::ConsumeAcquire) {
      if (!Values.count("consumes"))
        return fail(N, "API '" + R.Name +
                           "' of kind 'acquire-next' needs 'consumes' (the "
                           "argument whose reference it puts)");
      if (!ArgOf("consumes", false, L.ConsumedArg))
        return false;
    }
    R.Life = L;
  }
  // A canonical spelling of the row, to compare duplicates.
  llvm::raw_string_ostream OS(R.Key);
  OS << R.Kind << '|' << R.FamilyName << '|';
  if (R.Count)
    OS << unsigned(R.Count->Family) << ',' << R.Count->CounterArg << ','
       << R.Count->ValueArg.value_or(99) << ',' << R.Count->LockArg.value_or(99)
       << ',' << R.Count->ReleaseArg.value_or(99) << ',' << bool(R.Life);
  else if (R.Life)
    OS << R.Life->RefArg << ',' << R.Life->ConsumedArg << ','
       << unsigned(R.Life->Fail) << ',' << R.Life->ReturnsArg << ','
       << R.Life->BoundToCaller << R.Life->Creates << R.Life->AcpiUncounted
       << ',' << R.Put << ',' << R.Advice;
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

static void captureDiag(const llvm::SMDiagnostic &D, void *Ctx) {
  auto *Out = static_cast<std::pair<unsigned, std::string> *>(Ctx);
  if (!Out->second.empty())
    return;
  Out->first = unsigned(D.getColumnNo() + 1);
  Out->second =
      (llvm::Twine(D.getLineNo()) + ":" + llvm::Twine(D.getColumnNo() + 1) +
       ": YAML syntax error: " + D.getMessage())
          .str();
}

bool ModelParser::parse(StringRef Text) {
  std::pair<unsigned, std::string> Syntax;
  SM.setDiagHandler(captureDiag, &Syntax);
  yaml::Stream Stream(Text, SM, /*ShowColors=*/false);
  auto SyntaxError = [&] {
    if (Error.empty())
      Error = (FileName + ":" + Syntax.second).str();
    return false;
  };

  std::vector<Row> Rows;
  std::vector<std::pair<std::string, yaml::Node *>> Disable, Bias, Walkers;
  std::vector<CounterConfig> Counters;
  yaml::document_iterator DI = Stream.begin();
  if (DI != Stream.end()) {
    yaml::Node *Root = DI->getRoot();
    if (!Syntax.second.empty())
      return SyntaxError();
    if (Root && !isa<yaml::NullNode>(Root)) {
      auto *Top = dyn_cast<yaml::MappingNode>(Root);
      if (!Top)
        return fail(Root, "a model file is a mapping of the keys " +
                              llvm::Twine(TopKeys));
      for (yaml::KeyValueNode &KV : *Top) {
        std::string Key;
        if (!Syntax.second.empty())
          return SyntaxError();
        if (!scalar(KV.getKey(), "key", Key))
          return false;
        yaml::Node *V = KV.getValue();
        if (!Syntax.second.empty())
          return SyntaxError();
        if (Key == "apis") {
          auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V);
          if (!Seq)
            return fail(V, "'apis' must be a list");
          for (yaml::Node &Item : *Seq) {
            Row R;
            if (!parseRow(&Item, R))
              return Syntax.second.empty() ? false : SyntaxError();
            Rows.push_back(std::move(R));
          }
        } else if (Key == "disable") {
          if (!nameList(V, "disable", Disable))
            return false;
        } else if (Key == "bias-allow-list") {
          if (!nameList(V, "bias-allow-list", Bias))
            return false;
        } else if (Key == "name-words") {
          if (!parseNameLists(V, Key,
                              {{"takes-ownership", &M.Words.TakesOwnership},
                               {"releases", &M.Words.Releases},
                               {"undoes-votes", &M.Words.UndoesVotes},
                               {"looks-up", &M.Words.LooksUp}},
                              /*Globs=*/false))
            return false;
        } else if (Key == "types") {
          if (!parseNameLists(
                  V, Key,
                  {{"counted-objects", &M.Types.CountedObjects},
                   {"list-nodes", &M.Types.ListNodes},
                   {"nodes", &M.Types.Nodes},
                   {"handle-device-fields", &M.Types.HandleDeviceFields},
                   {"lock-records", &M.Types.LockRecords},
                   {"lifetime-counters", &M.Types.LifetimeCounters},
                   {"atomic-counters", &M.Types.AtomicCounters}},
                  /*Globs=*/false))
            return false;
        } else if (Key == "uncounted-fwnode-walkers") {
          if (!nameList(V, Key, Walkers))
            return false;
          for (const auto &[W, At] : Walkers)
            if (!isNamePattern(W))
              return fail(At, "'uncounted-fwnode-walkers' entries are "
                              "function names (with '*'), not '" +
                                  W + "'");
        } else if (Key == "counters") {
          auto *Seq = dyn_cast_or_null<yaml::SequenceNode>(V);
          if (!Seq)
            return fail(V, "'counters' must be a list");
          for (yaml::Node &Item : *Seq) {
            CounterConfig C;
            if (!parseCounter(&Item, C))
              return false;
            Counters.push_back(std::move(C));
          }
        } else {
          bool Handled = false;
          if (!parseSection(Key, V, Handled))
            return Syntax.second.empty() ? false : SyntaxError();
          if (!Handled)
            return fail(KV.getKey(), "unknown key '" + Key +
                                         "' (expected one of: " + TopKeys +
                                         ")");
        }
      }
    }
    // Parse the rest of the stream: a syntax error after the first document
    // is still an error.
    for (++DI; DI != Stream.end(); ++DI)
      DI->skip();
  }
  if (!Syntax.second.empty() || Stream.failed())
    return SyntaxError();

  // A name listed twice in one file must say the same thing twice.
  llvm::StringMap<const Row *> Seen;
  for (const Row &R : Rows) {
    auto [It, New] = Seen.try_emplace(R.Name, &R);
    if (New || It->second->Key == R.Key)
      continue;
    unsigned Line =
        SM.getLineAndColumn(It->second->At->getSourceRange().Start).first;
    if (It->second->Kind != R.Kind)
      return fail(R.At, "API '" + R.Name + "' is listed with kind '" + R.Kind +
                            "' here and with kind '" + It->second->Kind +
                            "' on line " + llvm::Twine(Line));
    return fail(R.At, "API '" + R.Name +
                          "' is listed twice with different "
                          "arguments (first on line " +
                          llvm::Twine(Line) + ")");
  }
  if (!checkSections())
    return false;
  for (const auto &[Name, At] : Disable) {
    if (!isIdentifier(Name))
      return fail(At,
                  "'disable' entries are function names, not '" + Name + "'");
    if (!M.Lifetime.count(Name) && !M.Counting.count(Name) &&
        !M.Roles.count(Name) && !Seen.count(Name) && !hasSectionRow(Name))
      return fail(At, "cannot disable '" + Name +
                          "': no model file read before this one has it");
  }

  // The whole file is valid: merge it (a row of this file wins over its
  // own disable entry).
  for (const auto &D : Disable) {
    M.Lifetime.erase(D.first);
    M.Counting.erase(D.first);
    M.Roles.erase(D.first);
  }
  for (const Row &R : Rows) {
    M.Lifetime.erase(R.Name);
    M.Counting.erase(R.Name);
    M.Roles.erase(R.Name);
    if (R.Role) {
      if (StringRef(R.Name).contains('*')) {
        llvm::erase_if(M.RoleGlobs,
                       [&](const auto &G) { return G.first == R.Name; });
        M.RoleGlobs.emplace_back(R.Name, *R.Role);
      } else {
        M.Roles[R.Name] = *R.Role;
      }
      continue;
    }
    if (R.Count) {
      auto &C = M.Counting[R.Name] = *R.Count;
      C.Name = M.Counting.find(R.Name)->first();
    }
    if (R.Life) {
      LifetimeAPI L = *R.Life;
      L.Fam = M.family(R.FamilyName);
      L.Put = M.Saver.save(R.Put);
      L.Advice = M.Saver.save(R.Advice);
      auto &Slot = M.Lifetime[R.Name] = L;
      Slot.Name = M.Lifetime.find(R.Name)->first();
    }
  }
  for (const auto &B : Bias)
    M.BiasAllowList.insert(B.first);
  for (const auto &W : Walkers)
    M.UncountedFwnodeWalkers.push_back(W.first);
  for (CounterConfig &C : Counters)
    M.Counters.push_back(std::move(C));
  mergeSections(Disable);
  return true;
}

bool Model::addFile(StringRef Text, StringRef FileName, std::string &Error) {
  Error.clear();
  ModelParser P(*this, FileName, Error);
  return P.parse(Text);
}

//===----------------------------------------------------------------------===//
// The model of the analysis in progress.
//===----------------------------------------------------------------------===//

namespace {
// The model is per thread and forgotten after each analysis (resetModel),
// like the TU caches (TUCache.h): clangd (krefcheck-clangd) analyzes several
// files at once, each may have its own .krefcheck.yaml, and the next AST or
// CheckerManager may reuse the address of a freed one.
std::unique_ptr<Model> &activeSlot() {
  static thread_local std::unique_ptr<Model> Active;
  return Active;
}

/// The analysis the active model was loaded for, and whether that went well.
struct LoadState {
  const void *Mgr = nullptr;
  const void *AST = nullptr;
  bool OK = false;
};
LoadState &loadState() {
  static thread_local LoadState State;
  return State;
}

std::unique_ptr<Model> builtinModel(std::string &Error) {
  auto M = std::make_unique<Model>();
  M->addFile(builtinModelText(), "<built-in>/kernel-model.yaml", Error);
  return M;
}

/// The user's model file: the option, else the nearest .krefcheck.yaml from
/// the main file's directory up to the root; empty when there is none.
std::string findModelFile(clang::ento::CheckerManager &Mgr) {
  const auto &Config = Mgr.getAnalyzerOptions().Config;
  auto It = Config.find("refcount:ModelFile");
  if (It != Config.end() && !It->second.empty())
    return It->second;
  const clang::SourceManager &SM = Mgr.getASTContext().getSourceManager();
  clang::FileID Main = SM.getMainFileID();
  if (Main.isInvalid())
    return "";
  llvm::SmallString<256> Dir(SM.getFilename(SM.getLocForStartOfFile(Main)));
  if (Dir.empty() || llvm::sys::fs::make_absolute(Dir))
    return "";
  llvm::sys::path::remove_filename(Dir);
  for (StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Candidate(D);
    llvm::sys::path::append(Candidate, ".krefcheck.yaml");
    if (llvm::sys::fs::exists(Candidate))
      return std::string(Candidate);
  }
  return "";
}
} // namespace

Model &krefcheck::activeModel() {
  std::unique_ptr<Model> &Active = activeSlot();
  if (!Active) {
    std::string Error;
    Active = builtinModel(Error);
  }
  return *Active;
}

bool krefcheck::loadModel(clang::ento::CheckerManager &Mgr) {
  // Every checker's registration asks; the first one of an analysis loads.
  LoadState &State = loadState();
  if (State.Mgr == &Mgr && State.AST == &Mgr.getASTContext())
    return State.OK;
  State.Mgr = &Mgr;
  State.AST = &Mgr.getASTContext();

  std::string Error;
  std::unique_ptr<Model> M = builtinModel(Error);
  const auto &Config = Mgr.getAnalyzerOptions().Config;
  auto Option = [&](StringRef Key) -> StringRef {
    auto It = Config.find(Key);
    return It == Config.end() ? StringRef() : StringRef(It->second);
  };
  configureContractDump(Option("refcount:DumpContracts") == "true");
  if (Error.empty())
    configureRules(Option("refcount:DisableRules"),
                   Option("refcount:RuleStats") == "true", Error);
  if (Error.empty()) {
    std::string Path = findModelFile(Mgr);
    if (!Path.empty()) {
      auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
      if (!Buf)
        Error =
            Path + ": cannot read the model file: " + Buf.getError().message();
      else
        M->addFile((*Buf)->getBuffer(), Path, Error);
    }
  }
  State.OK = Error.empty();
  if (!State.OK) {
    clang::DiagnosticsEngine &Diags = Mgr.getASTContext().getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << ("krefcheck: " + Error);
    // Nothing runs on this TU; keep a usable model for any lookup anyway.
    std::string Ignored;
    M = builtinModel(Ignored);
  }
  M->Ctx = &Mgr.getASTContext();
  activeSlot() = std::move(M);
  return State.OK;
}

void krefcheck::resetModel() {
  activeSlot().reset();
  loadState() = LoadState();
}
