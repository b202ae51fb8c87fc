//===- ModelFile.cpp - Reads model files (YAML) into the model ------------===//
//
// The core of the model-file parser: the readers of values every section
// uses (scalars, identifiers, booleans, argument numbers, lists), the walk
// over a file's top-level keys, the checks across the whole file (duplicate
// rows, `disable:` entries) and the merge into the model, done only when the
// whole file is valid. The `apis` rows are parsed in ModelApiRows.cpp, the
// other sections in ModelSections.cpp.
//
// The format is documented in docs/configuration.md. The parser walks the
// node tree of llvm/Support/YAMLParser.h itself (rather than YAMLTraits) so
// that every error names the line and column of the offending node.
//
//===----------------------------------------------------------------------===//

#include "ModelParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace krefcheck;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;
using llvm::StringRef;

namespace {
/// The top-level keys, for messages.
const char TopKeys[] = "apis, disable, counters, bias-allow-list, name-words, "
                       "types, uncounted-fwnode-walkers, locks, indexes, "
                       "index-nodes, macros, calls";
} // namespace

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

bool krefcheck::isIdentifier(StringRef S) {
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

/// A C identifier in which `*` may stand for any run of characters.
bool krefcheck::isNamePattern(StringRef S) {
  return !S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789_*") == StringRef::npos;
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
                   {"release-fields", &M.Types.ReleaseFields},
                   {"lock-records", &M.Types.LockRecords},
                   {"rcu-heads", &M.Types.RcuHeads},
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
      L.Undo = M.Saver.save(R.Undo);
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
