/* krefcheck: the command-line CI lint gate over a compilation database.
 * Shared types and the small helpers every part uses. */
#ifndef KREFCHECK_H
#define KREFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- util.c ---------------------------------------------------------- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);
/* Reads a whole file; NULL (errno set) on failure. *len may be NULL. */
char *read_file(const char *path, size_t *len);
/* Lexically normalizes PATH (joined to BASE when relative): removes ".",
 * "..", duplicate slashes. Always returns a new absolute path. */
char *path_join_norm(const char *base, const char *path);
/* Path of P relative to DIR if P is DIR or under it, else NULL. */
const char *path_under(const char *p, const char *dir);
/* Line LINE (1-based) of FILE, without the newline; NULL if unavailable.
 * Caches the last files read. */
const char *source_line(const char *file, unsigned line);
unsigned long long fnv1a64(const void *data, size_t n, unsigned long long h);
double now_seconds(void);

typedef struct {
  char **v;
  size_t n, cap;
} strvec;
void sv_push(strvec *sv, const char *s);       /* copies s */
void sv_push_own(strvec *sv, char *s);         /* takes s */
void sv_free(strvec *sv);
bool sv_contains(const strvec *sv, const char *s);
void sv_sort_unique(strvec *sv);
bool sv_bsearch(const strvec *sv, const char *s); /* on a sorted vector */

extern const char *progname;
/* Prints "krefcheck: error: ..." and exits 2 (usage/config error). */
void die_config(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* ---- cdb.c: compile database and command rewrite ---------------------- */
typedef struct {
  char *file;      /* absolute, normalized source path */
  char *directory; /* working directory of the command */
  strvec args;     /* original arguments, args.v[0] is the compiler */
  long long cost;  /* scheduling estimate (source size) */
} tu_t;

typedef struct {
  tu_t *tus;
  size_t n;
  char *dir; /* absolute directory holding the database */
} cdb_t;

/* Loads PATH (a compile_commands.json). Exits 2 on a missing, malformed or
 * empty database. */
void cdb_load(cdb_t *db, const char *path);
/* Rewrites TU's command for analysis: drops -c, -o X, dependency-file and
 * -Werror flags, replaces the compiler with CLANG. Returns new argv
 * (without the analyzer flags). */
void cdb_rewrite(const tu_t *tu, const char *clang, strvec *out);
/* Exposed for tests: is this argument dropped, and does it eat the next? */
int cdb_drop_arg(const char *arg, bool *eats_next);

/* ---- runner.c: parallel child processes ------------------------------ */
typedef enum { JOB_OK, JOB_FAILED, JOB_CRASHED, JOB_TIMEOUT, JOB_SPAWN } job_status;
typedef struct job {
  strvec argv;
  const char *cwd;
  char *stderr_path; /* where the child's stdout+stderr go */
  /* results */
  job_status status;
  int exit_code; /* exit status, or signal number for JOB_CRASHED */
  double seconds;
  /* runner internal */
  int pid;
  double started;
} job_t;
/* Called in the parent after each job finishes (in completion order). */
typedef void (*job_done_fn)(job_t *job, size_t index, void *ctx);
/* Runs all jobs with at most JOBS at a time; TIMEOUT seconds each (0: none):
 * the job's process group is killed past it. */
void run_jobs(job_t *jobs, size_t n, unsigned jobs_max, double timeout,
              job_done_fn done, void *ctx);
/* Called about once a second while jobs run (NULL: none). */
extern void (*run_jobs_tick)(void *ctx);
/* Runs argv to completion, stdout captured into *out (may be NULL).
 * Returns exit status, -1 if it could not run or was signalled. */
int run_capture(char *const argv[], const char *cwd, char **out, bool merge_stderr);
/* Last N lines of a file (new string, may be empty). */
char *file_tail(const char *path, unsigned nlines);

/* ---- plist.c: the subset of XML property lists clang writes ---------- */
typedef enum { PL_DICT, PL_ARRAY, PL_STRING, PL_INTEGER, PL_REAL, PL_TRUE, PL_FALSE } pl_type;
typedef struct plist {
  pl_type type;
  char *str;        /* PL_STRING, PL_REAL (text) */
  long long integer;
  size_t n;         /* children of dict/array */
  char **keys;      /* dict keys, parallel to kids */
  struct plist **kids;
} plist_t;
/* Parses TEXT; on error returns NULL and sets *err to a message
 * ("line N: ..."). */
plist_t *plist_parse(const char *text, size_t len, char **err);
void plist_free(plist_t *p);
const plist_t *pl_get(const plist_t *dict, const char *key);
const char *pl_str(const plist_t *dict, const char *key);   /* NULL if absent */
long long pl_int(const plist_t *dict, const char *key, long long dflt);

/* ---- findings.c ------------------------------------------------------- */
typedef struct {
  char *file; /* absolute */
  unsigned line, col;
  char *message;
  char *kind; /* "event", "note", "control" */
  unsigned depth;
} note_t;

typedef struct {
  char *checker;
  char *message;
  char *category, *type;
  char *file; /* absolute */
  unsigned line, col;
  char *function; /* issue_context, may be "" */
  note_t *notes;
  size_t nnotes;
  strvec tus; /* TUs that reported it */
  char *fingerprint;
  bool suppressed; /* in the baseline */
} finding_t;

typedef struct {
  finding_t *v;
  size_t n, cap;
} findings_t;

/* Adds the diagnostics of one TU's plist (paths relative to TU_DIR).
 * Returns the number of diagnostics read, -1 on a parse error (*err). */
int findings_add_plist(findings_t *fs, const plist_t *root, const char *tu_dir,
                       const char *tu_file, char **err);
/* Sorts, merges duplicates (same checker, location and message) and computes
 * fingerprints: paths are taken relative to ROOT when under it. */
void findings_finish(findings_t *fs, const char *root);
/* Fingerprint of one finding (exposed for tests). */
char *finding_fingerprint(const finding_t *f, const char *root);
const char *display_path(const char *abs, const char *root);

/* ---- checkers.c: clang, plugin and the checker registry --------------- */
typedef struct {
  char *name;
  char *description;
  bool hidden; /* modeling checker: listed only by -analyzer-checker-help-developer */
} checker_info;
typedef struct {
  checker_info *v;
  size_t n;
  char *clang_version; /* "clang version X.Y.Z" of --clang */
} registry_t;
/* Verifies clang runs and the plugin was built for it (exits 2 otherwise),
 * then loads the list of checkers the plugin and clang provide. */
void registry_load(registry_t *r, const char *clang, const char *plugin);
/* Checks a comma-separated list of checker/package names; exits 2 naming the
 * first unknown one. */
void registry_check_list(const registry_t *r, const char *list);
const char *registry_description(const registry_t *r, const char *checker);
/* The analyzer API version string a plugin file was built with, or NULL. */
char *plugin_api_version(const char *plugin_path, char **err);
const char *checker_help_uri(const char *checker, char *buf, size_t n);
/* Runs the plugin's checkers LIST once on an empty TU with MODEL as its
 * model file: exits 2 with the plugin's "FILE:LINE:COL: ..." message when
 * the plugin rejects it. */
void model_check(const char *clang, const char *plugin, const char *checkers,
                 const char *model);

/* ---- output ----------------------------------------------------------- */
typedef struct {
  job_status status;
  int code;
  bool status_signal; /* code is a signal number (clang itself was killed) */
  char *file;
  char *stderr_tail;
  double seconds;
} failure_t;

typedef struct {
  const findings_t *fs;
  const failure_t *failures;
  size_t nfailures;
  const registry_t *reg;
  const char *root;
  const char *checkers;
  size_t tus_total, tus_analyzed, tus_failed, tus_timed_out;
  size_t suppressed;
  double seconds;
  bool baseline_used;
} report_t;

void output_text(FILE *out, const report_t *r);
void output_json(FILE *out, const report_t *r);
void output_sarif(FILE *out, const report_t *r);
/* Writes the HTML report's pages into the existing directory DIR. */
void output_html(const char *dir, const report_t *r);
/* "N TUs: N analyzed, ...; N findings (checker N, ...); N.N s" */
char *report_summary(const report_t *r);
const char *job_status_name(job_status s);

/* ---- outfile.c: reports written whole or not at all ------------------ */
/* A directory holding this file is an HTML report krefcheck may replace. */
#define HTML_MARKER ".krefcheck-html-report"
typedef struct {
  char *path;   /* as given */
  char *target; /* the path replaced (a symbolic link's target) */
  char *tmp;    /* temporary file or directory next to target */
  FILE *f;      /* files: the stream to write */
  unsigned mode;
  bool directory;
  int slot;
} outfile_t;
/* Checks that PATH can be written (exits 2 otherwise) and, for a file,
 * opens a temporary file next to it (o->f). For DIRECTORY, an existing PATH
 * must be an empty directory or an earlier HTML report. SIGINT/SIGTERM
 * from now on removes the temporary file and says PATH was not written. */
void outfile_open(outfile_t *o, const char *path, bool directory);
/* Directories: creates the temporary directory to fill (call with signals
 * held) and returns its path. */
char *outfile_begin_dir(outfile_t *o);
/* Renames the complete report into place; exits 2 on a write error. */
void outfile_commit(outfile_t *o);
/* Blocks SIGINT/SIGTERM while the reports are written and renamed. */
void outfiles_hold_signals(void);
void outfiles_release_signals(void);
/* For signal handlers: removes pending temporary files and says so. */
void outfiles_abandon(int sig);

/* ---- baseline.c -------------------------------------------------------- */
void baseline_write(FILE *out, const char *path, const findings_t *fs, const char *root);
/* Marks findings present in the baseline as suppressed; returns their
 * number. Exits 2 if PATH cannot be read or parsed. */
size_t baseline_apply(const char *path, findings_t *fs);

/* ---- changed.c --------------------------------------------------------- */
/* Files changed since REV (git diff --name-only + untracked), absolute.
 * Exits 2 if git fails. */
void changed_since(const char *rev, strvec *out);
/* Reads a list file (one path per line, '-' for stdin). Exits 2 if it
 * cannot be read. */
void changed_from_list(const char *list, strvec *out);
/* Selects the TUs (indices in SEL, in/out) whose source or included headers
 * are in CHANGED (sorted, absolute). Headers are found with `clang -M`. */
void changed_select(const cdb_t *db, const char *clang, const strvec *changed,
                    unsigned jobs, double timeout, bool *sel);

#endif
