//===- ModelParser.h - The model-file parser (private) ----------*- C++ -*-===//
//
// The parser of model files, private to the files that read them:
//
//   ModelFile.cpp      the core: value readers, the walk over a file's
//                      top-level keys, the checks across a file, the merge
//   ModelApiRows.cpp   the `apis` rows (counting, get/put and role rows)
//   ModelSections.cpp  the other sections (`counters`, `locks`, `indexes`
//                      and the name lists of the other checkers)
//
// and the spelling of the built-in families, which ModelLookups.cpp shares.
//
//===----------------------------------------------------------------------===//
#ifndef KREFCHECK_MODELPARSER_H
#define KREFCHECK_MODELPARSER_H

#include "ModelFile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace krefcheck {

namespace yaml = llvm::yaml;

/// The built-in families' names in model files, in the order of Family.
inline constexpr const char *BuiltinFamilies[] = {
    "node", "device", "pm-runtime", "netdev", "sock", "net", "dentry", "kref"};

/// A C identifier.
bool isIdentifier(llvm::StringRef S);
/// A C identifier in which `*` may stand for any run of characters.
bool isNamePattern(llvm::StringRef S);

/// Reads one file. Rows are collected first and merged only when the whole
/// file is valid, so a bad file leaves the model as it was.
class ModelParser {
public:
  ModelParser(Model &M, llvm::StringRef FileName, std::string &Error)
      : M(M), FileName(FileName), Error(Error) {}

  bool parse(llvm::StringRef Text);

private:
  struct Row {
    yaml::Node *At = nullptr;
    std::string Name;
    std::string Kind;
    std::optional<LifetimeAPI> Life;
    std::optional<CountAPI> Count;
    std::optional<RoleRow> Role;
    /// `put:` and `advice:` (saved into the model's storage on merge).
    std::string Put, Advice, Undo;
    std::string FamilyName;
    /// Everything but the position, to tell identical duplicates apart.
    std::string Key;
  };

  bool fail(yaml::Node *N, const llvm::Twine &Msg);
  bool scalar(yaml::Node *N, llvm::StringRef What, std::string &Out);
  bool identifier(yaml::Node *N, llvm::StringRef What, std::string &Out);
  bool boolean(yaml::Node *N, llvm::StringRef What, bool &Out);
  bool argNumber(yaml::Node *N, llvm::StringRef What, bool AllowReturn,
                 int &Out);
  /// A scalar that must be one of Table's names; Noun names it in errors
  /// ("unknown kind 'x' (expected one of: ...)").
  template <typename T>
  bool oneOf(yaml::Node *N, llvm::StringRef Key, llvm::StringRef Noun,
             llvm::ArrayRef<std::pair<const char *, T>> Table, T &Out) {
    std::string S;
    if (!scalar(N, Key, S))
      return false;
    std::string Names;
    for (const auto &[Name, Value] : Table) {
      if (S == Name) {
        Out = Value;
        return true;
      }
      Names += (Names.empty() ? "" : ", ") + std::string(Name);
    }
    return fail(N, "unknown " + Noun + " '" + S +
                       "' (expected one of: " + Names + ")");
  }
  bool nameList(yaml::Node *N, llvm::StringRef What,
                std::vector<std::pair<std::string, yaml::Node *>> &Out);

  // ModelApiRows.cpp: one `apis` entry.
  bool parseRow(yaml::Node *N, Row &R);

  // ModelSections.cpp: `counters` entries, and the sections besides `apis`,
  // `disable`, `counters` and the lifetime model's lists.
  bool parseCounter(yaml::Node *N, CounterConfig &C);
  /// Parses section Key when it is one of them (Handled); false on an error.
  bool parseSection(llvm::StringRef Key, yaml::Node *V, bool &Handled);
  /// After all sections: checks this file's rows of those sections.
  bool checkSections();
  /// Whether a model file read before, or this one, has a row named so.
  bool hasSectionRow(llvm::StringRef Name) const;
  /// Merges the sections into the model, after removing the rows `disable`
  /// names.
  void
  mergeSections(llvm::ArrayRef<std::pair<std::string, yaml::Node *>> Disable);
  /// The keys of a row of Section (a mapping with `name`, `kind` and the
  /// keys Others); Noun names the row in errors ("lock 'x' needs a kind").
  bool rowKeys(yaml::Node *N, llvm::StringRef Section, llvm::StringRef Noun,
               llvm::ArrayRef<llvm::StringRef> Others,
               llvm::StringMap<yaml::Node *> &Values, std::string &Name);
  bool parseLock(yaml::Node *N);
  bool parseIndex(yaml::Node *N);
  /// A mapping of Lists' keys to lists of names (with `*` when Globs).
  bool parseNameLists(yaml::Node *N, llvm::StringRef What,
                      llvm::ArrayRef<std::pair<std::string, NameSet *>> Lists,
                      bool Globs);

  /// A row of a section of ModelSections.cpp.
  struct SectionRow {
    yaml::Node *At = nullptr;
    std::string Name;
    /// The section, then everything but the position: duplicates that say
    /// the same are fine.
    std::string Key;
  };
  std::vector<SectionRow> SectionRows;
  std::vector<LockAPI> LockRows;
  /// The names of LockRows.
  std::vector<std::string> LockNames;
  std::vector<std::pair<std::string, IndexAPI>> IndexRows;
  /// The entries of this file's name lists, and the model's list of each.
  std::vector<std::pair<NameSet *, std::string>> ListItems;

  Model &M;
  llvm::StringRef FileName;
  /// Rows of the built-in file are BuiltinModel contracts, others UserModel.
  bool Builtin = FileName.starts_with("<built-in>");
  std::string &Error;
  llvm::SourceMgr SM;
  llvm::SmallString<64> Storage;
};

} // namespace krefcheck

#endif
