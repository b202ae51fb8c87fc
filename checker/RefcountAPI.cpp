//===- RefcountAPI.cpp - The counting API table, looked up ---------------===//
//
// The rows live in the model (ModelFile.h): checker/kernel-model.yaml and the
// user's model file.
//
//===----------------------------------------------------------------------===//

#include "RefcountAPI.h"
#include "ModelFile.h"

using namespace krefcheck;

const CountAPI *krefcheck::lookupCountAPI(llvm::StringRef Name) {
  return activeModel().countAPI(Name);
}

llvm::StringRef krefcheck::tryGetNameFor(CounterFamily Fam) {
  switch (Fam) {
  case CounterFamily::Kref:
    return "kref_get_unless_zero()";
  case CounterFamily::Refcount:
    return "refcount_inc_not_zero()";
  case CounterFamily::Atomic:
    return "atomic_inc_not_zero()";
  }
  return "";
}
