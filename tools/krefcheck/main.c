/* krefcheck: run the refcount analyzer plugin over a compilation database
 * and gate CI on the result. See docs/ci.md and `krefcheck --help`. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KREFCHECK_DEFAULT_CLANG
#define KREFCHECK_DEFAULT_CLANG "clang"
#endif
#ifndef KREFCHECK_DEFAULT_PLUGIN
#define KREFCHECK_DEFAULT_PLUGIN "krefcheck.so"
#endif
#ifndef KREFCHECK_CLANG_VERSION
#define KREFCHECK_CLANG_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: krefcheck [-p BUILD_DIR | --cdb FILE] [-j N] [--checkers LIST]\n"
    "                 [--format text|sarif|json|html] [-o FILE|DIR] [--baseline FILE]\n"
    "                 [--write-baseline FILE] [--changed-since GIT_REV | --files LIST]\n"
    "                 [--timeout SEC] [--clang PATH] [--plugin PATH] [--model FILE]\n"
    "                 [FILES...]\n"
    "\n"
    "Runs the Clang Static Analyzer with the krefcheck plugin on every translation\n"
    "unit of a compilation database (compile_commands.json), in parallel, and\n"
    "reports reference-counting bugs.\n"
    "\n"
    "  -p BUILD_DIR          directory holding compile_commands.json (default: .)\n"
    "  --cdb FILE            the compilation database file itself\n"
    "  -j N                  TUs analyzed at once (default: number of CPUs)\n"
    "  --checkers LIST       comma-separated checkers or packages (default: refcount)\n"
    "  --format FMT          text (compiler style, default), json, sarif (2.1.0) or\n"
    "                        html (a static report: -o DIR, then open DIR/index.html)\n"
    "  -o FILE               write the report to FILE instead of standard output\n"
    "                        (written whole: a temporary file renamed into place)\n"
    "  --baseline FILE       report only findings whose fingerprint is not in FILE\n"
    "  --write-baseline FILE store the fingerprints of all current findings in FILE\n"
    "  --changed-since REV   only TUs whose source or included headers changed since\n"
    "                        the git revision REV (working tree and untracked files too)\n"
    "  --files LIST          same, with the changed paths read from LIST ('-': stdin)\n"
    "  --timeout SEC         kill a TU's analysis after SEC seconds (default 600; 0: none)\n"
    "  --clang PATH          clang to run (default: the one the plugin was built for)\n"
    "  --plugin PATH         analyzer plugin (default: the one built with this tool)\n"
    "  --model FILE          refcount model file passed to the plugin\n"
    "                        (-analyzer-config refcount:ModelFile=FILE); without\n"
    "                        it the plugin uses the nearest .krefcheck.yaml\n"
    "  FILES...              only TUs that are, or are under, these paths\n"
    "  -h, --help            this help\n"
    "  --version             versions of krefcheck and of the clang it targets\n"
    "\n"
    "Exit status: 0 no (new) findings; 1 findings; 2 usage or configuration error;\n"
    "3 some TUs could not be analyzed (crash, timeout, compile error): findings of\n"
    "the other TUs are still reported.\n";

static void usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "krefcheck: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see krefcheck --help)\n");
  exit(2);
}

typedef struct {
  const cdb_t *db;
  job_t *jobs;
  size_t *tu_of_job;
  findings_t fs;
  failure_t *failures;
  size_t nfailures, done, total, timed_out;
  char *model_error; /* the plugin's "krefcheck: FILE:LINE:COL: ..." error */
  bool progress;
  double t0;
  char *tmp;
} scan_t;

static bool looks_crashed(const char *log) {
  return strstr(log, "PLEASE submit a bug report") ||
         strstr(log, "frontend command failed due to signal") ||
         strstr(log, "Stack dump:");
}

/* For a crash, the useful lines are the analyzer's "Stack dump:" context
 * (which function was being analyzed) and the driver's last words, not the
 * frames in between. Long lines are cut. */
static char *crash_excerpt(const char *path) {
  char *log = read_file(path, NULL);
  if (!log)
    return xstrdup("");
  strvec lines = {0};
  for (char *l = strtok(log, "\n"); l; l = strtok(NULL, "\n"))
    sv_push_own(&lines, strlen(l) > 240 ? xasprintf("%.240s...", l) : xstrdup(l));
  free(log);
  size_t dump = lines.n;
  for (size_t i = 0; i < lines.n; i++)
    if (str_starts(lines.v[i], "Stack dump:")) {
      dump = i;
      break;
    }
  strvec keep = {0};
  if (dump < lines.n) {
    /* "Stack dump:", its numbered context lines, then whatever follows the
     * frames (the driver's error line). */
    for (size_t i = dump; i < lines.n; i++) {
      const char *l = lines.v[i] + strspn(lines.v[i], " ");
      if (l[0] != '#')
        sv_push(&keep, lines.v[i]);
    }
  } else {
    for (size_t i = lines.n > 12 ? lines.n - 12 : 0; i < lines.n; i++)
      sv_push(&keep, lines.v[i]);
  }
  size_t len = 1;
  for (size_t i = 0; i < keep.n; i++)
    len += strlen(keep.v[i]) + 1;
  char *out = xcalloc(1, len);
  for (size_t i = 0; i < keep.n; i++) {
    strcat(out, keep.v[i]);
    if (i + 1 < keep.n)
      strcat(out, "\n");
  }
  sv_free(&lines);
  sv_free(&keep);
  return out;
}

static void progress_line(scan_t *s) {
  double el = now_seconds() - s->t0;
  double eta = s->done ? el / s->done * (s->total - s->done) : 0;
  fprintf(stderr, "\r\033[K[%zu/%zu TUs] %zu reports, %zu failed, %.0fs elapsed, ETA %.0fs",
          s->done, s->total, s->fs.n, s->nfailures, el, eta);
  fflush(stderr);
}

static void progress_tick(void *ctx) {
  scan_t *s = ctx;
  if (s->progress)
    progress_line(s);
}

static void add_failure(scan_t *s, const tu_t *tu, job_t *j, job_status st, const char *extra) {
  failure_t f = {0};
  f.status = st;
  f.code = j->exit_code;
  f.status_signal = j->status == JOB_CRASHED;
  f.file = xstrdup(tu->file);
  char *tail = st == JOB_CRASHED ? crash_excerpt(j->stderr_path) : file_tail(j->stderr_path, 12);
  f.stderr_tail = extra ? xasprintf("%s%s%s", extra, tail[0] ? "\n" : "", tail) : tail;
  if (extra)
    free(tail);
  f.seconds = j->seconds;
  s->failures = xrealloc(s->failures, (s->nfailures + 1) * sizeof *s->failures);
  s->failures[s->nfailures++] = f;
  if (st == JOB_TIMEOUT)
    s->timed_out++;
}

static void job_done(job_t *j, size_t i, void *ctx) {
  scan_t *s = ctx;
  const tu_t *tu = &s->db->tus[s->tu_of_job[i]];
  char *plist_path = xasprintf("%s/%zu.plist", s->tmp, i);
  s->done++;
  if (j->status == JOB_OK) {
    size_t len;
    char *text = read_file(plist_path, &len);
    char *err = NULL;
    plist_t *pl = text ? plist_parse(text, len, &err) : NULL;
    if (!text)
      add_failure(s, tu, j, JOB_FAILED, "the analyzer wrote no plist report");
    else if (!pl || findings_add_plist(&s->fs, pl, tu->directory, tu->file, &err) < 0) {
      char *m = xasprintf("unreadable plist report: %s", err);
      add_failure(s, tu, j, JOB_FAILED, m);
      free(m);
    }
    free(err);
    plist_free(pl);
    free(text);
  } else {
    job_status st = j->status;
    if (st == JOB_FAILED) {
      char *log = read_file(j->stderr_path, NULL);
      if (log && looks_crashed(log))
        st = JOB_CRASHED;
      /* A bad model file fails every TU the same way: a configuration
         error, reported once. */
      const char *m = log ? strstr(log, "error: krefcheck: ") : NULL;
      if (m && !s->model_error) {
        m += strlen("error: krefcheck: ");
        s->model_error = xasprintf("%.*s", (int)strcspn(m, "\n"), m);
      }
      free(log);
    }
    add_failure(s, tu, j, st, NULL);
  }
  unlink(plist_path);
  unlink(j->stderr_path);
  free(plist_path);
  if (s->progress)
    progress_line(s);
}

static void print_failure(const failure_t *f, const char *root) {
  const char *p = display_path(f->file, root);
  switch (f->status) {
  case JOB_TIMEOUT:
    fprintf(stderr, "krefcheck: error: %s: analysis timed out after %.0f s and was killed\n",
            p, f->seconds);
    break;
  case JOB_CRASHED:
    if (f->code > 128 && f->code < 192) /* the driver's 128 + signal */
      fprintf(stderr, "krefcheck: error: %s: clang crashed (exit status %d, signal %d)\n", p,
              f->code, f->code - 128);
    else
      fprintf(stderr, "krefcheck: error: %s: clang crashed (%s %d)\n", p,
              f->status_signal ? "signal" : "exit status", f->code);
    break;
  case JOB_SPAWN:
    fprintf(stderr, "krefcheck: error: %s: clang could not be started\n", p);
    break;
  default:
    fprintf(stderr, "krefcheck: error: %s: analysis failed (exit status %d)\n", p, f->code);
  }
  if (f->stderr_tail[0]) {
    fprintf(stderr, "krefcheck: note: last lines of clang's output for %s:\n", p);
    const char *l = f->stderr_tail;
    while (*l) {
      size_t n = strcspn(l, "\n");
      fprintf(stderr, "    | %.*s\n", (int)n, l);
      l += n;
      if (*l)
        l++;
    }
  }
}

static char *default_plugin(void) {
  if (access(KREFCHECK_DEFAULT_PLUGIN, R_OK) == 0)
    return xstrdup(KREFCHECK_DEFAULT_PLUGIN);
  /* Installed layout: bin/krefcheck and lib/krefcheck/krefcheck.so. */
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    *strrchr(exe, '/') = 0;
    const char *cands[] = {"../lib/krefcheck/krefcheck.so", "../lib/krefcheck.so", NULL};
    for (int i = 0; cands[i]; i++) {
      char *p = path_join_norm(exe, cands[i]);
      if (access(p, R_OK) == 0)
        return p;
      free(p);
    }
  }
  return xstrdup(KREFCHECK_DEFAULT_PLUGIN);
}

static const cdb_t *sort_db;
static int by_cost(const void *a, const void *b) {
  const tu_t *x = &sort_db->tus[*(const size_t *)a], *y = &sort_db->tus[*(const size_t *)b];
  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  return strcmp(x->file, y->file);
}

enum {
  OPT_CDB = 256, OPT_CHECKERS, OPT_FORMAT, OPT_BASELINE, OPT_WRITE_BASELINE,
  OPT_CHANGED, OPT_FILES, OPT_TIMEOUT, OPT_CLANG, OPT_PLUGIN, OPT_MODEL, OPT_VERSION
};

int main(int argc, char **argv) {
  const char *build_dir = NULL, *cdb_file = NULL, *checkers = "refcount", *format = "text";
  const char *out_path = NULL, *baseline = NULL, *write_baseline = NULL;
  const char *changed_rev = NULL, *files_list = NULL, *model = NULL;
  const char *clang = KREFCHECK_DEFAULT_CLANG;
  char *plugin = NULL;
  long jobs = sysconf(_SC_NPROCESSORS_ONLN);
  double timeout = 600;
  static const struct option longopts[] = {
      {"cdb", required_argument, 0, OPT_CDB},
      {"checkers", required_argument, 0, OPT_CHECKERS},
      {"format", required_argument, 0, OPT_FORMAT},
      {"baseline", required_argument, 0, OPT_BASELINE},
      {"write-baseline", required_argument, 0, OPT_WRITE_BASELINE},
      {"changed-since", required_argument, 0, OPT_CHANGED},
      {"files", required_argument, 0, OPT_FILES},
      {"timeout", required_argument, 0, OPT_TIMEOUT},
      {"clang", required_argument, 0, OPT_CLANG},
      {"plugin", required_argument, 0, OPT_PLUGIN},
      {"model", required_argument, 0, OPT_MODEL},
      {"help", no_argument, 0, 'h'},
      {"version", no_argument, 0, OPT_VERSION},
      {0, 0, 0, 0}};
  opterr = 0;
  int c;
  while ((c = getopt_long(argc, argv, ":p:j:o:h", longopts, NULL)) != -1) {
    char *end;
    switch (c) {
    case 'p': build_dir = optarg; break;
    case OPT_CDB: cdb_file = optarg; break;
    case 'j':
      jobs = strtol(optarg, &end, 10);
      if (*end || jobs < 1 || jobs > 1024)
        usage_error("-j wants a number of jobs from 1 to 1024, not '%s'", optarg);
      break;
    case OPT_CHECKERS: checkers = optarg; break;
    case OPT_FORMAT:
      if (strcmp(optarg, "text") && strcmp(optarg, "json") && strcmp(optarg, "sarif") &&
          strcmp(optarg, "html"))
        usage_error("--format must be text, json, sarif or html, not '%s'", optarg);
      format = optarg;
      break;
    case 'o': out_path = optarg; break;
    case OPT_BASELINE: baseline = optarg; break;
    case OPT_WRITE_BASELINE: write_baseline = optarg; break;
    case OPT_CHANGED: changed_rev = optarg; break;
    case OPT_FILES: files_list = optarg; break;
    case OPT_TIMEOUT:
      timeout = strtod(optarg, &end);
      if (*end || timeout < 0)
        usage_error("--timeout wants seconds (0: none), not '%s'", optarg);
      break;
    case OPT_CLANG: clang = optarg; break;
    case OPT_PLUGIN: plugin = xstrdup(optarg); break;
    case OPT_MODEL: model = optarg; break;
    case 'h': fputs(usage_text, stdout); return 0;
    case OPT_VERSION:
      printf("krefcheck %s\nplugin built for %s (%s)\n", KREFCHECK_VERSION,
             KREFCHECK_CLANG_VERSION, KREFCHECK_DEFAULT_CLANG);
      return 0;
    case ':': usage_error("option %s needs an argument", argv[optind - 1]); break;
    default: usage_error("unknown option '%s'", argv[optind - 1]);
    }
  }
  if (build_dir && cdb_file)
    usage_error("%s", "-p and --cdb are exclusive");
  if (changed_rev && files_list)
    usage_error("%s", "--changed-since and --files are exclusive");
  if (!plugin)
    plugin = default_plugin();

  /* Configuration checks, cheapest first, all before any analysis. */
  char *cdb_path = cdb_file ? xstrdup(cdb_file)
                            : xasprintf("%s/compile_commands.json", build_dir ? build_dir : ".");
  registry_t reg;
  registry_load(&reg, clang, plugin);
  registry_check_list(&reg, checkers);
  if (model && access(model, R_OK) != 0)
    die_config("cannot read model file %s: %s", model, strerror(errno));
  if (baseline) {
    findings_t none = {0};
    baseline_apply(baseline, &none);
  }
  if (!strcmp(format, "html") && !out_path)
    usage_error("%s", "--format html needs -o DIR (the report's directory)");
  cdb_t db = {0};
  cdb_load(&db, cdb_path);
  /* Reports are written under temporary names and renamed into place when
   * complete: an interrupted run leaves the previous ones as they were. */
  FILE *out = stdout;
  outfile_t out_file, baseline_file;
  if (out_path) {
    outfile_open(&out_file, out_path, !strcmp(format, "html"));
    out = out_file.f;
  }
  if (write_baseline)
    outfile_open(&baseline_file, write_baseline, false);

  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    strcpy(cwd, "/");
  const char *root = cwd;

  /* Selection: FILES..., then --changed-since / --files. */
  bool *sel = xcalloc(db.n, sizeof *sel);
  for (size_t i = 0; i < db.n; i++)
    sel[i] = optind >= argc;
  for (int a = optind; a < argc; a++) {
    bool any = false;
    for (int pass = 0; pass < 2 && !any; pass++) {
      char *p = path_join_norm(pass ? db.dir : NULL, argv[a]);
      for (size_t i = 0; i < db.n; i++)
        if (path_under(db.tus[i].file, p)) {
          sel[i] = true;
          any = true;
        }
      free(p);
    }
    if (!any)
      die_config("no translation unit of %s is, or is under, '%s'", cdb_path, argv[a]);
  }
  if (changed_rev || files_list) {
    strvec changed = {0};
    if (changed_rev)
      changed_since(changed_rev, &changed);
    else
      changed_from_list(files_list, &changed);
    changed_select(&db, clang, &changed, (unsigned)jobs, timeout, sel);
    sv_free(&changed);
  }

  /* The model files the TUs will read, checked once each before any TU
   * runs: --model, else every .krefcheck.yaml the plugin will find above a
   * selected source. A bad one is a configuration error. */
  if (model)
    model_check(clang, plugin, checkers, model);
  else {
    strvec dirs = {0}, models = {0};
    for (size_t i = 0; i < db.n; i++) {
      if (!sel[i])
        continue;
      char *d = xstrdup(db.tus[i].file);
      *strrchr(d, '/') = 0;
      if (sv_contains(&dirs, d)) {
        free(d);
        continue;
      }
      sv_push(&dirs, d);
      for (;;) {
        char *cand = xasprintf("%s/.krefcheck.yaml", d);
        if (access(cand, F_OK) == 0) {
          if (!sv_contains(&models, cand))
            sv_push(&models, cand);
          free(cand);
          break;
        }
        free(cand);
        char *slash = strrchr(d, '/');
        if (!slash || slash == d)
          break;
        *slash = 0;
      }
      free(d);
    }
    for (size_t k = 0; k < models.n; k++)
      model_check(clang, plugin, checkers, models.v[k]);
    sv_free(&dirs);
    sv_free(&models);
  }

  scan_t s = {0};
  s.db = &db;
  const char *t = getenv("TMPDIR");
  s.tmp = xasprintf("%s/krefcheck.XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(s.tmp))
    die_config("cannot create a temporary directory: %s", strerror(errno));
  s.jobs = xcalloc(db.n, sizeof *s.jobs);
  s.tu_of_job = xcalloc(db.n, sizeof *s.tu_of_job);
  /* Biggest sources first (longest-processing-time-first scheduling): a
   * large TU started last would leave the other workers idle at the end.
   * Reports are sorted afterwards, so the order does not show. */
  size_t *order = xcalloc(db.n, sizeof *order);
  size_t nsel = 0;
  for (size_t i = 0; i < db.n; i++)
    if (sel[i]) {
      struct stat st;
      db.tus[i].cost = stat(db.tus[i].file, &st) == 0 ? (long long)st.st_size : 0;
      order[nsel++] = i;
    }
  sort_db = &db;
  qsort(order, nsel, sizeof *order, by_cost);
  for (size_t o = 0; o < nsel; o++) {
    size_t i = order[o];
    job_t *j = &s.jobs[s.total];
    cdb_rewrite(&db.tus[i], clang, &j->argv);
    const char *extra[] = {"--analyze", "--analyzer-no-default-checks", "-fno-crash-diagnostics",
                           "-Xclang", "-load", "-Xclang", plugin, "-Xclang",
                           "-analyzer-output=plist-multi-file", NULL};
    for (int k = 0; extra[k]; k++)
      sv_push(&j->argv, extra[k]);
    /* The analyzer's models of compiler builtins (core.builtin reports
     * nothing): without them `if (unlikely(p == NULL))` tests an unknown
     * value and every path takes both branches (false leaks). */
    sv_push(&j->argv, "-Xclang");
    sv_push(&j->argv, "-analyzer-checker=core.builtin");
    sv_push(&j->argv, "-Xclang");
    sv_push_own(&j->argv, xasprintf("-analyzer-checker=%s", checkers));
    if (model) {
      char *abs = path_join_norm(NULL, model);
      sv_push(&j->argv, "-Xclang");
      sv_push(&j->argv, "-analyzer-config");
      sv_push(&j->argv, "-Xclang");
      sv_push_own(&j->argv, xasprintf("refcount:ModelFile=%s", abs));
      free(abs);
    }
    sv_push(&j->argv, "-o");
    sv_push_own(&j->argv, xasprintf("%s/%zu.plist", s.tmp, s.total));
    j->cwd = db.tus[i].directory;
    j->stderr_path = xasprintf("%s/%zu.log", s.tmp, s.total);
    s.tu_of_job[s.total++] = i;
  }
  free(order);
  s.progress = isatty(2) && s.total > 0;
  s.t0 = now_seconds();
  run_jobs_tick = progress_tick;
  run_jobs(s.jobs, s.total, (unsigned)jobs, timeout, job_done, &s);
  run_jobs_tick = NULL;
  if (s.progress)
    fputs("\r\033[K", stderr);
  rmdir(s.tmp);

  findings_finish(&s.fs, root);
  size_t suppressed = baseline ? baseline_apply(baseline, &s.fs) : 0;
  outfiles_hold_signals();
  if (write_baseline) {
    baseline_write(baseline_file.f, write_baseline, &s.fs, root);
    outfile_commit(&baseline_file);
  }

  report_t r = {0};
  r.fs = &s.fs;
  r.failures = s.failures;
  r.nfailures = s.nfailures;
  r.reg = &reg;
  r.root = root;
  r.checkers = checkers;
  r.tus_total = s.total;
  r.tus_failed = s.nfailures;
  r.tus_analyzed = s.total - s.nfailures;
  r.tus_timed_out = s.timed_out;
  r.suppressed = suppressed;
  r.seconds = now_seconds() - s.t0;
  r.baseline_used = baseline != NULL;
  if (!strcmp(format, "json"))
    output_json(out, &r);
  else if (!strcmp(format, "sarif"))
    output_sarif(out, &r);
  else if (!strcmp(format, "html"))
    output_html(outfile_begin_dir(&out_file), &r);
  else
    output_text(out, &r);
  if (out_path)
    outfile_commit(&out_file);
  fflush(stdout);
  outfiles_release_signals();

  for (size_t i = 0; i < s.nfailures && !s.model_error; i++)
    print_failure(&s.failures[i], root);
  size_t shown = s.fs.n - suppressed;
  char *summary = report_summary(&r);
  fprintf(stderr, "krefcheck: %s\n", summary);
  free(summary);
  if (write_baseline)
    fprintf(stderr, "krefcheck: wrote %zu fingerprints to %s\n", s.fs.n, write_baseline);

  if (s.model_error) {
    fprintf(stderr, "krefcheck: error: bad model file: %s\n", s.model_error);
    return 2;
  }
  if (s.nfailures)
    return 3;
  if (shown && !write_baseline)
    return 1;
  return 0;
}
