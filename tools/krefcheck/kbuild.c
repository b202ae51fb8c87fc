/* krefcheck-kbuild: the checker entry point for kbuild's C=1/C=2, the way
 * sparse and Smatch run:
 *
 *     make LLVM=-19 C=1 CHECK=/path/krefcheck-kbuild drivers/of/
 *
 * kbuild runs `$(CHECK) $(CHECKFLAGS) $(c_flags) file.c` for each C file it
 * rebuilds (C=1) or for every C file (C=2), in the top of the object tree.
 * CHECKFLAGS are sparse's (-Wbitwise, --arch=x86, -mlittle-endian, -m64...),
 * c_flags the compiler's. This runs clang's analyzer with the krefcheck
 * plugin on the file with the compiler's flags, exactly as `krefcheck -p`
 * does from the compile database, and prints the findings on stderr in
 * compiler format. It exits 0 (the build goes on) unless KREFCHECK_WERROR=1
 * asks for a failing status on findings or a failed analysis. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KREFCHECK_DEFAULT_CLANG
#define KREFCHECK_DEFAULT_CLANG "clang"
#endif
#ifndef KREFCHECK_DEFAULT_PLUGIN
#define KREFCHECK_DEFAULT_PLUGIN "krefcheck.so"
#endif

static const char usage_text[] =
    "usage: krefcheck-kbuild [CHECKFLAGS] [COMPILER FLAGS] FILE.c\n"
    "\n"
    "kbuild's checker entry point: make C=1 CHECK=krefcheck-kbuild (files rebuilt)\n"
    "or C=2 (all files). Analyzes FILE.c with the krefcheck plugin and the\n"
    "compiler's flags; prints findings on stderr in compiler format.\n"
    "\n"
    "Environment:\n"
    "  KREFCHECK_WERROR=1     exit 1 on findings or a failed analysis (stops make)\n"
    "  KREFCHECK_CHECKERS     checkers or packages (default: refcount)\n"
    "  KREFCHECK_MODEL        model file (-analyzer-config refcount:ModelFile=FILE)\n"
    "  KREFCHECK_TIMEOUT      seconds before a file's analysis is killed (default 600)\n"
    "  KREFCHECK_CLANG        clang to run (default: the one the plugin was built for)\n"
    "  KREFCHECK_PLUGIN       analyzer plugin (default: the one built with this tool)\n";

static const char *env_or(const char *name, const char *dflt) {
  const char *v = getenv(name);
  return v && *v ? v : dflt;
}

/* Sparse's own options, wherever they appear: its warning switches (clang
 * would only warn about unknown ones, but the names would be noise), the
 * architecture and endianness it is told explicitly. */
static bool sparse_only(const char *a) {
  static const char *const warnings[] = {"bitwise",
                                         "return-void",
                                         "unknown-attribute",
                                         "context",
                                         "decl",
                                         "cast-to-as",
                                         "cast-from-as",
                                         "cast-truncate",
                                         "default-bitfield-sign",
                                         "do-while",
                                         "enum-mismatch",
                                         "external-function-has-definition",
                                         "init-cstring",
                                         "memcpy-max-count",
                                         "non-pointer-null",
                                         "old-initializer",
                                         "one-bit-signed-bitfield",
                                         "paren-string",
                                         "ptr-subtraction-blows",
                                         "sizeof-bool",
                                         "sparse-all",
                                         "sparse-error",
                                         "transparent-union",
                                         "typesign",
                                         "address-space",
                                         "constexpr-not-const",
                                         "flexible-array-array",
                                         "flexible-array-nested",
                                         "flexible-array-union",
                                         "pointer-arith",
                                         "shadow",
                                         "universal-initializer",
                                         "bitwise-pointer",
                                         NULL};
  if (str_starts(a, "--arch=") || !strcmp(a, "-mlittle-endian") || !strcmp(a, "-mbig-endian") ||
      !strcmp(a, "-D__STDC__") || str_starts(a, "-D__STDC__="))
    return true;
  if (!str_starts(a, "-W") || str_starts(a, "-Wp,") || str_starts(a, "-Wa,") ||
      str_starts(a, "-Wl,"))
    return false;
  const char *w = a + 2;
  if (str_starts(w, "no-"))
    w += 3;
  for (int i = 0; warnings[i]; i++)
    if (!strcmp(w, warnings[i]))
      return true;
  return false;
}

static void job_done(job_t *j, size_t i, void *ctx) {
  (void)j;
  (void)i;
  (void)ctx;
}

int main(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    printf("krefcheck-kbuild %s\nplugin built for %s (%s)\n", KREFCHECK_VERSION,
           KREFCHECK_CLANG_VERSION, KREFCHECK_DEFAULT_CLANG);
    return 0;
  }
  progname = "krefcheck-kbuild";
  bool werror = !strcmp(env_or("KREFCHECK_WERROR", "0"), "1");
  const char *clang = env_or("KREFCHECK_CLANG", KREFCHECK_DEFAULT_CLANG);
  const char *plugin = env_or("KREFCHECK_PLUGIN", KREFCHECK_DEFAULT_PLUGIN);
  const char *checkers = env_or("KREFCHECK_CHECKERS", "refcount");
  const char *model = getenv("KREFCHECK_MODEL");
  char *end;
  double timeout = strtod(env_or("KREFCHECK_TIMEOUT", "600"), &end);
  if (*end || timeout < 0) {
    fprintf(stderr, "krefcheck-kbuild: error: KREFCHECK_TIMEOUT wants seconds, not '%s'\n",
            getenv("KREFCHECK_TIMEOUT"));
    return 2;
  }

  /* kbuild passes the source last. */
  const char *file = argc > 1 ? argv[argc - 1] : NULL;
  if (!file || file[0] == '-' || !(str_ends(file, ".c") || str_ends(file, ".i"))) {
    fprintf(stderr, "krefcheck-kbuild: error: no C file at the end of the command line "
                    "(kbuild runs $(CHECK) $(CHECKFLAGS) $(c_flags) FILE.c; see "
                    "krefcheck-kbuild --help)\n");
    return 2;
  }
  if (access(file, R_OK) != 0) {
    fprintf(stderr, "krefcheck-kbuild: error: cannot read %s: %s\n", file, strerror(errno));
    return 2;
  }

  /* CHECKFLAGS come first and c_flags start with the dependency-file flag
   * -Wp,-MMD,...: before it, keep only defines and include paths (the
   * user's CF=); sparse's flags are dropped wherever they are. */
  int cflags_at = 1;
  for (int i = 1; i < argc - 1; i++)
    if (str_starts(argv[i], "-Wp,-MMD,") || str_starts(argv[i], "-Wp,-MD,")) {
      cflags_at = i;
      break;
    }
  tu_t tu = {0};
  sv_push(&tu.args, clang);
  for (int i = 1; i < argc - 1; i++) {
    const char *a = argv[i];
    if (sparse_only(a))
      continue;
    if (i < cflags_at && !(str_starts(a, "-D") || str_starts(a, "-U") || str_starts(a, "-I")))
      continue;
    sv_push(&tu.args, a);
  }
  sv_push(&tu.args, file);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    strcpy(cwd, "/");
  tu.directory = cwd;
  tu.file = path_join_norm(cwd, file);

  const char *t = getenv("TMPDIR");
  char *tmp = xasprintf("%s/krefcheck-kbuild.XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmp)) {
    fprintf(stderr, "krefcheck-kbuild: error: cannot create a temporary directory: %s\n",
            strerror(errno));
    return 2;
  }
  char *plist_path = xasprintf("%s/report.plist", tmp);
  job_t job = {0};
  cdb_rewrite(&tu, clang, &job.argv);
  const char *extra[] = {"--analyze",
                         "--analyzer-no-default-checks",
                         "-fno-crash-diagnostics",
                         "-Xclang",
                         "-load",
                         "-Xclang",
                         plugin,
                         "-Xclang",
                         "-analyzer-output=plist-multi-file",
                         "-Xclang",
                         "-analyzer-checker=core.builtin",
                         "-Xclang",
                         NULL};
  for (int k = 0; extra[k]; k++)
    sv_push(&job.argv, extra[k]);
  sv_push_own(&job.argv, xasprintf("-analyzer-checker=%s", checkers));
  if (model) {
    char *abs = path_join_norm(NULL, model);
    sv_push(&job.argv, "-Xclang");
    sv_push(&job.argv, "-analyzer-config");
    sv_push(&job.argv, "-Xclang");
    sv_push_own(&job.argv, xasprintf("refcount:ModelFile=%s", abs));
    free(abs);
  }
  sv_push(&job.argv, "-o");
  sv_push(&job.argv, plist_path);
  job.cwd = cwd;
  job.stderr_path = xasprintf("%s/clang.log", tmp);
  run_jobs(&job, 1, 1, timeout, job_done, NULL);

  findings_t fs = {0};
  char *problem = NULL;
  if (job.status == JOB_OK) {
    size_t len;
    char *text = read_file(plist_path, &len);
    char *err = NULL;
    plist_t *pl = text ? plist_parse(text, len, &err) : NULL;
    if (!text)
      problem = xstrdup("the analyzer wrote no plist report");
    else if (!pl || findings_add_plist(&fs, pl, cwd, tu.file, &err) < 0)
      problem = xasprintf("unreadable plist report: %s", err);
    free(err);
    plist_free(pl);
    free(text);
  } else if (job.status == JOB_TIMEOUT) {
    problem = xasprintf("analysis timed out after %.0f s and was killed", job.seconds);
  } else if (job.status == JOB_SPAWN) {
    problem = xasprintf("clang could not be started (%s)", clang);
  } else if (job.status == JOB_CRASHED) {
    problem = xasprintf("clang was killed by signal %d", job.exit_code);
  } else {
    char *log = read_file(job.stderr_path, NULL);
    const char *m = log ? strstr(log, "error: krefcheck: ") : NULL;
    if (m) {
      m += strlen("error: krefcheck: ");
      problem = xasprintf("bad model file: %.*s", (int)strcspn(m, "\n"), m);
    } else
      problem = xasprintf("analysis failed (exit status %d)", job.exit_code);
    free(log);
  }

  findings_finish(&fs, cwd);
  report_t r = {0};
  r.fs = &fs;
  r.root = cwd;
  output_text(stderr, &r);
  if (problem) {
    fprintf(stderr, "krefcheck-kbuild: error: %s: %s\n", display_path(tu.file, cwd), problem);
    char *tail = file_tail(job.stderr_path, 12);
    if (tail[0] && job.status != JOB_TIMEOUT) {
      fprintf(stderr, "krefcheck-kbuild: note: last lines of clang's output:\n");
      for (const char *l = tail; *l;) {
        size_t n = strcspn(l, "\n");
        fprintf(stderr, "    | %.*s\n", (int)n, l);
        l += n;
        if (*l)
          l++;
      }
    }
    free(tail);
  }
  unlink(plist_path);
  unlink(job.stderr_path);
  rmdir(tmp);
  return werror && (fs.n || problem) ? 1 : 0;
}
