//===- LifetimeAPI.cpp - The object get/put API table, looked up ----------===//
//
// The rows live in the model (ModelFile.h): checker/kernel-model.yaml and the
// user's model file, and annotations on declarations (Annotations.h).
//
//===----------------------------------------------------------------------===//

#include "LifetimeAPI.h"
#include "ModelFile.h"
#include "clang/AST/Decl.h"

using namespace krefcheck;

const LifetimeAPI *krefcheck::lookupLifetimeAPI(llvm::StringRef Name) {
  return activeModel().lifetimeAPI(Name);
}

const LifetimeAPI *krefcheck::lookupLifetimeAPI(const clang::FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const LifetimeAPI *A = activeModel().annotatedAPI(FD))
    return A;
  const clang::IdentifierInfo *II = FD->getIdentifier();
  return II ? lookupLifetimeAPI(II->getName()) : nullptr;
}

llvm::StringRef krefcheck::releaseNameFor(Family F) {
  switch (F) {
  case Family::Node:
    return "of_node_put()";
  case Family::Device:
    return "put_device()";
  case Family::PmRuntime:
    return "pm_runtime_put()";
  case Family::NetDev:
    return "dev_put()";
  case Family::Sock:
    return "sock_put()";
  case Family::Net:
    return "put_net()";
  case Family::Dentry:
    return "dput()";
  case Family::Kref:
    return "kref_put()";
  default:
    break;
  }
  // A user family's name comes from the active model, which is per thread
  // (clangd analyses files on several threads at once).
  static thread_local std::string User;
  User = activeModel().releaseName(F);
  return User;
}

bool krefcheck::isLifetimeFamily(Family F) { return F != Family::PmRuntime; }

bool krefcheck::escapesOnStore(Family F) { return F != Family::PmRuntime; }
