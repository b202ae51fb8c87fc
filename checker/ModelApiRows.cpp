//===- ModelApiRows.cpp - The model file's `apis` rows --------------------===//
//
// One `apis:` entry of a model file: its kind (a counting op, a get/put of
// the lifetime model or a role such as err-test or logging), the keys each
// kind takes, and the row it becomes (a CountAPI, a LifetimeAPI, a RoleRow).
// Documented in docs/configuration.md; ModelFile.cpp reads the section and
// merges the rows.
//
//===----------------------------------------------------------------------===//

#include "ModelParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace krefcheck;
using llvm::cast;
using llvm::dyn_cast_or_null;
using llvm::StringRef;

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
    {"managed-allocator",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::ManagedAllocator}},
    {"same-result",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::SameResult}},
    {"integrity-check",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::IntegrityCheck}},
    {"keeps-nothing",
     {false, CountOp::Read, LifeOp::Borrow, CallRole::KeepsNothing}},
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
    // put: the advice of a tracked row's leak reports (the matching put).
    if (Key == "put")
      return K.COp == CountOp::Init || K.COp == CountOp::Get ||
             K.COp == CountOp::TryGet;
    if (Key == "tracked")
      return K.COp == CountOp::Init || K.COp == CountOp::Get ||
             K.COp == CountOp::TryGet || K.COp == CountOp::Put ||
             K.COp == CountOp::PutTest || K.COp == CountOp::PutLock;
    return false;
  }
  if (Key == "family")
    return true;
  if (Key == "fails")
    return K.LOp == LifeOp::Acquire || K.LOp == LifeOp::ConsumeAcquire ||
           K.LOp == LifeOp::Store;
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
  if (Key == "names")
    return K.LOp == LifeOp::Borrow;
  if (Key == "null-if-negative" || Key == "first-reference" ||
      Key == "kept-on-success" || Key == "put-only" || Key == "undo")
    return K.LOp == LifeOp::Acquire;
  return false;
}

bool isKnownRowKey(StringRef Key) {
  static const char *const Keys[] = {"name",
                                     "kind",
                                     "arg",
                                     "counter",
                                     "value",
                                     "lock",
                                     "release",
                                     "tracked",
                                     "family",
                                     "fails",
                                     "returns-arg",
                                     "consumes",
                                     "put",
                                     "advice",
                                     "bound-to-caller",
                                     "creates",
                                     "acpi-uncounted",
                                     "null-if-negative",
                                     "first-reference",
                                     "undo",
                                     "kept-on-success",
                                     "put-only",
                                     "names"};
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
    // tracked: true | created | false. `created` follows the count only on
    // objects this path created (rule created-atomic-count): an atomic_t is
    // a lifetime count in some structures and a plain counter in most.
    bool Tracked = false, CreatedOnly = false;
    if (Values.count("tracked")) {
      std::string S;
      if (!scalar(Values["tracked"], "tracked", S))
        return false;
      if (S != "true" && S != "false" && S != "created")
        return fail(Values["tracked"],
                    "'tracked' must be true, created or false, not '" + S +
                        "'");
      Tracked = S != "false";
      CreatedOnly = S == "created";
    }
    R.Count = C;
    if (Tracked) {
      // A counted reference on the object the counter is in: refcount.Model
      // evaluates the call, the lifetime model only observes it.
      LifetimeAPI L{};
      // An init creates the first count of a fresh object.
      L.Op = (C.Op == CountOp::Init || C.Op == CountOp::Get ||
              C.Op == CountOp::TryGet)
                 ? LifeOp::Acquire
                 : LifeOp::Release;
      L.InitsFresh = C.Op == CountOp::Init;
      L.RefArg = int(C.CounterArg);
      L.Fail = C.Op == CountOp::TryGet ? Failure::Zero : Failure::Never;
      L.Observe = true;
      L.CreatedOnly = CreatedOnly;
      L.ReleaseInCaller = L.Op == LifeOp::Release && !C.ReleaseArg;
      L.Src =
          Builtin ? ContractSource::BuiltinModel : ContractSource::UserModel;
      R.Put = C.Family == CounterFamily::Refcount ? "refcount_dec_and_test()"
              : C.Family == CounterFamily::Atomic ? "atomic_dec_and_test()"
                                                  : "kref_put()";
      if (Values.count("put")) {
        std::string Put;
        if (!identifier(Values["put"], "put", Put))
          return false;
        R.Put = Put + "()";
      }
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
    // A store says failure by an integer result: an index insert that
    // fails keeps nothing (idr_alloc() < 0).
    if (L.Op == LifeOp::Store && Values.count("fails") &&
        L.Fail != Failure::Never && !isIntegerFailure(L.Fail))
      return fail(Values["fails"],
                  "a 'stores' row fails by its integer result: 'fails' must "
                  "be negative, errno, not-positive, zero or never");
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
    if (Values.count("null-if-negative")) {
      // Only a new reference returned or NULL can say so: the argument's
      // sign decides the result, not whether a count was taken on it.
      if (Arg != RetVal ||
          (L.Fail != Failure::Null && L.Fail != Failure::NullOrErrPtr))
        return fail(Values["null-if-negative"],
                    "'null-if-negative' needs 'arg: return' and 'fails: "
                    "null' (or null-or-err-ptr): it says which argument "
                    "makes the result NULL");
      if (!ArgOf("null-if-negative", false, L.NullIfNegativeArg))
        return false;
    }
    if (Values.count("first-reference")) {
      // The object's count starts here (device_initialize(dev)): like a
      // tracked init row, it creates the path's first reference only on
      // memory the path allocated (rule fresh-object-init).
      if (Arg == RetVal)
        return fail(Values["first-reference"],
                    "'first-reference' needs an 'arg' number: the object "
                    "whose count the function sets up");
      if (!boolean(Values["first-reference"], "first-reference", L.InitsFresh))
        return false;
    }
    if (Values.count("names") && !boolean(Values["names"], "names", L.Names))
      return false;
    if (Values.count("put-only")) {
      if (!L.InitsFresh)
        return fail(Values["put-only"],
                    "'put-only' needs 'first-reference: true': it says that "
                    "the object whose count the function sets up may only be "
                    "put, never freed directly");
      if (!boolean(Values["put-only"], "put-only", L.PutOnly))
        return false;
    }
    if (Values.count("kept-on-success")) {
      // Registers what it set up (device_register()): kept on success,
      // still the caller's after a failure told by the integer result.
      if (Arg == RetVal)
        return fail(Values["kept-on-success"],
                    "'kept-on-success' needs an 'arg' number: the object the "
                    "function keeps when it succeeds");
      if (!oneOf<Failure>(Values["kept-on-success"], "kept-on-success",
                          "failure convention", Failures, L.KeptOnSuccess))
        return false;
      if (!isIntegerFailure(L.KeptOnSuccess))
        return fail(Values["kept-on-success"],
                    "'kept-on-success' is told by the integer result: it "
                    "must be negative, errno, not-positive or zero");
    }
    if (Values.count("undo")) {
      // What undoes the registration (device_unregister()), for the
      // advice of rule registered-until-success.
      if (!Values.count("kept-on-success"))
        return fail(Values["undo"], "'undo' names what undoes a "
                                    "registration: it needs 'kept-on-success'");
      std::string Undo;
      if (!identifier(Values["undo"], "undo", Undo))
        return false;
      R.Undo = Undo + "()";
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
       << ',' << R.Life->NullIfNegativeArg << R.Life->InitsFresh << ','
       << unsigned(R.Life->KeptOnSuccess) << R.Life->PutOnly << R.Life->Names
       << ',' << R.Put << ',' << R.Advice << ',' << R.Undo;
  return true;
}
