/* JSON output: findings (with notes, TUs and fingerprints), failures and
 * the summary, in one object. */
#include "krefcheck.h"

#include <jansson.h>

json_t *json_summary(const report_t *r);

json_t *json_summary(const report_t *r) {
  json_t *by = json_object();
  size_t shown = 0;
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed)
      continue;
    shown++;
    json_t *c = json_object_get(by, f->checker);
    json_object_set_new(by, f->checker, json_integer(c ? json_integer_value(c) + 1 : 1));
  }
  return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:f}", "tus", (json_int_t)r->tus_total,
                   "analyzed", (json_int_t)r->tus_analyzed, "failed",
                   (json_int_t)r->tus_failed, "timed_out", (json_int_t)r->tus_timed_out,
                   "findings", (json_int_t)shown, "suppressed_by_baseline",
                   (json_int_t)r->suppressed, "by_checker", by, "seconds", r->seconds);
}

void output_json(FILE *out, const report_t *r) {
  json_t *findings = json_array();
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed)
      continue;
    json_t *notes = json_array(), *tus = json_array();
    for (size_t k = 0; k < f->nnotes; k++) {
      const note_t *n = &f->notes[k];
      json_array_append_new(notes, json_pack("{s:s,s:i,s:i,s:s,s:s,s:i}", "file",
                                             display_path(n->file, r->root), "line", n->line,
                                             "column", n->col, "message", n->message, "kind",
                                             n->kind, "depth", n->depth));
    }
    for (size_t k = 0; k < f->tus.n; k++)
      json_array_append_new(tus, json_string(display_path(f->tus.v[k], r->root)));
    json_array_append_new(
        findings, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:o,s:o}", "checker",
                            f->checker, "message", f->message, "category", f->category,
                            "type", f->type, "file", display_path(f->file, r->root), "line",
                            f->line, "column", f->col, "function", f->function,
                            "fingerprint", f->fingerprint, "notes", notes, "tus", tus));
  }
  json_t *fails = json_array();
  for (size_t i = 0; i < r->nfailures; i++) {
    const failure_t *x = &r->failures[i];
    json_array_append_new(fails, json_pack("{s:s,s:s,s:i,s:f,s:s}", "file",
                                           display_path(x->file, r->root), "reason",
                                           job_status_name(x->status), "code", x->code,
                                           "seconds", x->seconds, "stderr_tail",
                                           x->stderr_tail));
  }
  json_t *root = json_pack("{s:i,s:{s:s,s:s,s:s},s:o,s:o,s:o}", "version", 1, "tool", "name",
                           "krefcheck", "version", KREFCHECK_VERSION, "clang",
                           r->reg->clang_version, "findings", findings, "failures", fails,
                           "summary", json_summary(r));
  json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(root);
}
