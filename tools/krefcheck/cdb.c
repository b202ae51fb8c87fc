/* The compilation database (read with libclang) and the rewrite of each
 * compile command into an analyzer command. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <clang-c/CXCompilationDatabase.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *take(CXString s) {
  const char *c = clang_getCString(s);
  char *r = xstrdup(c ? c : "");
  clang_disposeString(s);
  return r;
}

/* jansson first: it gives a precise message for a malformed file, and
 * tells an empty database from a broken one; libclang then splits the
 * "command" strings exactly as clang's tools do. */
static void validate_json(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    die_config("compile database %s: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    die_config("compile database %s is a directory (use -p DIR or --cdb FILE)", path);
  json_error_t e;
  json_t *root = json_load_file(path, 0, &e);
  if (!root)
    die_config("compile database %s is malformed: line %d: %s", path, e.line, e.text);
  if (!json_is_array(root))
    die_config("compile database %s is malformed: expected a JSON array of commands", path);
  if (json_array_size(root) == 0)
    die_config("compile database %s is empty: no compile commands", path);
  size_t i;
  json_t *ent;
  json_array_foreach(root, i, ent) {
    if (!json_is_object(ent) || !json_is_string(json_object_get(ent, "directory")) ||
        !json_is_string(json_object_get(ent, "file")) ||
        (!json_is_string(json_object_get(ent, "command")) &&
         !json_is_array(json_object_get(ent, "arguments"))))
      die_config("compile database %s is malformed: entry %zu lacks "
                 "directory/file/command", path, i + 1);
  }
  json_decref(root);
}

void cdb_load(cdb_t *db, const char *path) {
  validate_json(path);
  char *abs = path_join_norm(NULL, path);
  char *dir = xstrdup(abs);
  *strrchr(dir, '/') = 0;
  if (!dir[0])
    strcpy(dir, "/");
  db->dir = dir;

  /* libclang only loads DIR/compile_commands.json: link other names. */
  char *load_dir = dir, *tmp = NULL;
  if (!str_ends(abs, "/compile_commands.json")) {
    const char *t = getenv("TMPDIR");
    tmp = xasprintf("%s/krefcheck-cdb.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmp))
      die_config("cannot create a temporary directory: %s", strerror(errno));
    char *link = xasprintf("%s/compile_commands.json", tmp);
    if (symlink(abs, link) != 0)
      die_config("cannot link %s: %s", abs, strerror(errno));
    free(link);
    load_dir = tmp;
  }
  CXCompilationDatabase_Error err;
  CXCompilationDatabase cdb = clang_CompilationDatabase_fromDirectory(load_dir, &err);
  if (err != CXCompilationDatabase_NoError || !cdb)
    die_config("compile database %s could not be loaded by libclang", path);
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(cdb);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  if (n == 0)
    die_config("compile database %s is empty: no compile commands", path);
  db->tus = xcalloc(n, sizeof *db->tus);
  db->n = 0;
  for (unsigned i = 0; i < n; i++) {
    CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
    tu_t *tu = &db->tus[db->n];
    char *d = take(clang_CompileCommand_getDirectory(c));
    tu->directory = path_join_norm(dir, d);
    free(d);
    char *f = take(clang_CompileCommand_getFilename(c));
    tu->file = path_join_norm(tu->directory, f);
    free(f);
    unsigned na = clang_CompileCommand_getNumArgs(c);
    for (unsigned a = 0; a < na; a++)
      sv_push_own(&tu->args, take(clang_CompileCommand_getArg(c, a)));
    if (tu->args.n == 0) {
      free(tu->file);
      free(tu->directory);
      continue;
    }
    /* The same file may be listed twice (several configurations): keep the
     * first, like analyze-build. */
    bool dup = false;
    for (size_t k = 0; k < db->n && !dup; k++)
      dup = strcmp(db->tus[k].file, tu->file) == 0;
    if (dup) {
      free(tu->file);
      free(tu->directory);
      sv_free(&tu->args);
      continue;
    }
    db->n++;
  }
  clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(cdb);
  if (tmp) {
    char *link = xasprintf("%s/compile_commands.json", tmp);
    unlink(link);
    free(link);
    rmdir(tmp);
    free(tmp);
  }
  free(abs);
  if (db->n == 0)
    die_config("compile database %s is empty: no compile commands", path);
}

/* 0: keep; 1: drop. *eats_next: the flag takes the next argument too. */
int cdb_drop_arg(const char *a, bool *eats_next) {
  *eats_next = false;
  static const char *const with_value[] = {"-o", "-MF", "-MT", "-MQ", "-MJ", NULL};
  for (int i = 0; with_value[i]; i++) {
    size_t l = strlen(with_value[i]);
    if (strncmp(a, with_value[i], l) == 0) {
      if (i == 0 && a[l] != 0 && str_starts(a, "-ob"))
        continue; /* -object..., -objcmt-...: not an output file */
      if (a[l] == 0)
        *eats_next = true;
      return 1; /* "-o" + "X" or "-oX" */
    }
  }
  static const char *const exact[] = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD",
                                      "-MP", "-MG", "-fsyntax-only", "--analyze",
                                      "-save-temps", "-pipe", NULL};
  for (int i = 0; exact[i]; i++)
    if (strcmp(a, exact[i]) == 0)
      return 1;
  if (str_starts(a, "-Werror") || str_starts(a, "-Wp,-MD,") ||
      str_starts(a, "-Wp,-MMD,") || str_starts(a, "-save-temps=") ||
      str_starts(a, "--serialize-diagnostics") || str_starts(a, "-fdiagnostics-format"))
    return 1;
  return 0;
}

void cdb_rewrite(const tu_t *tu, const char *clang, strvec *out) {
  sv_push(out, clang);
  for (size_t i = 1; i < tu->args.n; i++) {
    const char *a = tu->args.v[i];
    bool eats;
    if (cdb_drop_arg(a, &eats)) {
      if (eats)
        i++;
      continue;
    }
    /* -Wp,... may mix dependency options with others: keep the rest. */
    if (str_starts(a, "-Wp,") && (strstr(a, ",-MD,") || strstr(a, ",-MMD,"))) {
      continue;
    }
    sv_push(out, a);
  }
}
