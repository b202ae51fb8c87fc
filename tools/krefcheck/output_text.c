/* Compiler-style text: file:line:col: warning: message [checker], then the
 * path notes. Paths are relative to the current directory when under it. */
#include "krefcheck.h"

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
