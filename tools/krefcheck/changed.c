/* Diff-aware selection (--changed-since REV, --files LIST): a TU is
 * analyzed when its source file changed, or when one of the files it
 * includes changed. Includes come from `clang -M` on the TU's own command
 * (run in parallel, only when a changed file could be included: .h, .hh,
 * .hpp, .hxx, .inc, .def, or a .c/.cc/.cpp that is not itself a TU).
 * Approximations: a TU whose `clang -M` fails is selected; a change to a
 * file that is not included in this configuration (another #ifdef branch's
 * header) selects nothing; compile flags, Makefiles and Kconfig changes are
 * not seen. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_lines(strvec *out, char *text, const char *base) {
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
      line[--n] = 0;
    if (!n || line[0] == '#')
      continue;
    sv_push_own(out, path_join_norm(base, line));
  }
}

void changed_since(const char *rev, strvec *out) {
  char *top = NULL;
  char *a1[] = {"git", "rev-parse", "--show-toplevel", NULL};
  if (run_capture(a1, NULL, &top, false) != 0)
    die_config("--changed-since needs a git work tree (git rev-parse failed here)");
  top[strcspn(top, "\n")] = 0;
  char *diff = NULL;
  char *a2[] = {"git", "diff", "--name-only", "--no-renames", (char *)rev, "--", NULL};
  if (run_capture(a2, top, &diff, false) != 0) {
    char *msg = NULL;
    char *a3[] = {"git", "diff", "--name-only", (char *)rev, "--", NULL};
    run_capture(a3, top, &msg, true);
    msg[strcspn(msg, "\n")] = 0;
    die_config("--changed-since %s: git diff failed: %s", rev, msg);
  }
  add_lines(out, diff, top);
  free(diff);
  char *untracked = NULL;
  char *a4[] = {"git", "ls-files", "--others", "--exclude-standard", NULL};
  if (run_capture(a4, top, &untracked, false) == 0)
    add_lines(out, untracked, top);
  free(untracked);
  free(top);
  sv_sort_unique(out);
}

void changed_from_list(const char *list, strvec *out) {
  char *text = read_file(list, NULL);
  if (!text)
    die_config("cannot read file list %s", list);
  add_lines(out, text, NULL);
  free(text);
  sv_sort_unique(out);
}

static bool maybe_included(const char *p) {
  static const char *const ext[] = {".h", ".hh", ".hpp", ".hxx", ".inc", ".def",
                                    ".c", ".cc", ".cpp", NULL};
  for (int i = 0; ext[i]; i++)
    if (str_ends(p, ext[i]))
      return true;
  return false;
}

/* Does the make rule in TEXT (from clang -M) name a changed file? */
static bool deps_hit(char *text, const char *dir, const strvec *changed) {
  char *tok = xmalloc(strlen(text) + 1);
  char *p = text;
  bool first = true, hit = false;
  while (*p && !hit) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n'))
      p += *p == '\\' ? 2 : 1;
    if (!*p)
      break;
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\\' && p[1] == '\n')
        break;
      if (*p == '\\' && p[1] == ' ') {
        tok[n++] = ' ';
        p += 2;
      } else if (*p == '$' && p[1] == '$') {
        tok[n++] = '$';
        p += 2;
      } else
        tok[n++] = *p++;
    }
    tok[n] = 0;
    if (first) { /* the target "x.o:" */
      if (n && tok[n - 1] == ':')
        first = false;
      continue;
    }
    char *abs = path_join_norm(dir, tok);
    hit = sv_bsearch(changed, abs);
    free(abs);
  }
  free(tok);
  return hit;
}

static void dep_done(job_t *j, size_t i, void *ctx) {
  (void)j;
  (void)i;
  (void)ctx;
}

void changed_select(const cdb_t *db, const char *clang, const strvec *changed,
                    unsigned jobs, double timeout, bool *sel) {
  bool *want = xcalloc(db->n, sizeof *want);
  bool headers = false;
  for (size_t c = 0; c < changed->n && !headers; c++) {
    if (!maybe_included(changed->v[c]))
      continue;
    bool is_tu = false;
    for (size_t i = 0; i < db->n && !is_tu; i++)
      is_tu = !strcmp(db->tus[i].file, changed->v[c]);
    headers = !is_tu;
  }
  size_t nj = 0;
  job_t *js = xcalloc(db->n, sizeof *js);
  size_t *idx = xcalloc(db->n, sizeof *idx);
  char *tmp = NULL;
  for (size_t i = 0; i < db->n; i++) {
    if (!sel[i])
      continue;
    if (sv_bsearch(changed, db->tus[i].file)) {
      want[i] = true;
      continue;
    }
    if (!headers)
      continue;
    if (!tmp) {
      const char *t = getenv("TMPDIR");
      tmp = xasprintf("%s/krefcheck-deps.XXXXXX", t && *t ? t : "/tmp");
      if (!mkdtemp(tmp))
        die_config("cannot create a temporary directory under %s", t && *t ? t : "/tmp");
    }
    job_t *j = &js[nj];
    cdb_rewrite(&db->tus[i], clang, &j->argv);
    sv_push(&j->argv, "-M");
    sv_push(&j->argv, "-MF");
    sv_push_own(&j->argv, xasprintf("%s/%zu.d", tmp, i));
    sv_push(&j->argv, "-w");
    j->cwd = db->tus[i].directory;
    j->stderr_path = xasprintf("%s/%zu.log", tmp, i);
    idx[nj++] = i;
  }
  if (nj)
    run_jobs(js, nj, jobs, timeout, dep_done, NULL);
  for (size_t k = 0; k < nj; k++) {
    size_t i = idx[k];
    char *dpath = xasprintf("%s/%zu.d", tmp, i);
    char *text = js[k].status == JOB_OK ? read_file(dpath, NULL) : NULL;
    /* No dependency information: analyze it rather than miss a change. */
    want[i] = !text || deps_hit(text, db->tus[i].directory, changed);
    free(text);
    unlink(dpath);
    unlink(js[k].stderr_path);
    free(dpath);
    free(js[k].stderr_path);
    sv_free(&js[k].argv);
  }
  if (tmp) {
    rmdir(tmp);
    free(tmp);
  }
  for (size_t i = 0; i < db->n; i++)
    sel[i] = want[i];
  free(want);
  free(js);
  free(idx);
}
