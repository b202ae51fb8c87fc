/* Compiler-style text: file:line:col: warning: message [checker], then the
 * path notes. Paths are relative to the current directory when under it. */
#include "krefcheck.h"

#include <stdlib.h>
#include <string.h>

const char *job_status_name(job_status s) {
  switch (s) {
  case JOB_OK: return "ok";
  case JOB_FAILED: return "error";
  case JOB_CRASHED: return "crash";
  case JOB_TIMEOUT: return "timeout";
  case JOB_SPAWN: return "spawn";
  }
  return "?";
}

void output_text(FILE *out, const report_t *r) {
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed)
      continue;
    fprintf(out, "%s:%u:%u: warning: %s [%s]\n", display_path(f->file, r->root), f->line,
            f->col, f->message, f->checker);
    for (size_t k = 0; k < f->nnotes; k++) {
      const note_t *n = &f->notes[k];
      fprintf(out, "%s:%u:%u: note: %s\n", display_path(n->file, r->root), n->line, n->col,
              n->message);
    }
  }
}

char *report_summary(const report_t *r) {
  size_t shown = r->fs->n - r->suppressed;
  char *s = xasprintf("%zu TUs: %zu analyzed, %zu failed (%zu timed out); %zu finding%s",
                      r->tus_total, r->tus_analyzed, r->tus_failed, r->tus_timed_out, shown,
                      shown == 1 ? "" : "s");
  /* Findings by checker (the list is sorted by location: count by scan). */
  strvec seen = {0};
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed || sv_contains(&seen, f->checker))
      continue;
    sv_push(&seen, f->checker);
    size_t n = 0;
    for (size_t k = 0; k < r->fs->n; k++)
      n += !r->fs->v[k].suppressed && !strcmp(r->fs->v[k].checker, f->checker);
    char *t = xasprintf("%s%s%s %zu", s, seen.n == 1 ? " (" : ", ", f->checker, n);
    free(s);
    s = t;
  }
  char *t = xasprintf("%s%s", s, seen.n ? ")" : "");
  free(s);
  s = t;
  if (r->baseline_used) {
    t = xasprintf("%s; %zu in the baseline", s, r->suppressed);
    free(s);
    s = t;
  }
  t = xasprintf("%s; %.1f s", s, r->seconds);
  free(s);
  sv_free(&seen);
  return t;
}
