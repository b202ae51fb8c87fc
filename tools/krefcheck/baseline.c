/* Baselines: a JSON file of finding fingerprints. --write-baseline stores
 * every current finding; --baseline hides the findings it lists. */
#include "krefcheck.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>

void baseline_write(FILE *out, const char *path, const findings_t *fs, const char *root) {
  json_t *arr = json_array();
  for (size_t i = 0; i < fs->n; i++) {
    const finding_t *f = &fs->v[i];
    /* checker/file/function/message are there for people reviewing the
     * file; only the fingerprint is compared. */
    json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s,s:s}", "fingerprint",
                                         f->fingerprint, "checker", f->checker, "file",
                                         display_path(f->file, root), "function",
                                         f->function, "message", f->message));
  }
  json_t *doc = json_pack("{s:i,s:s,s:o}", "version", 1, "tool", "krefcheck", "findings", arr);
  if (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
    die_config("cannot write baseline %s: %s", path, strerror(errno));
  json_decref(doc);
}

size_t baseline_apply(const char *path, findings_t *fs) {
  json_error_t e;
  json_t *doc = json_load_file(path, 0, &e);
  if (!doc) {
    if (e.line <= 0)
      die_config("cannot read baseline %s: %s", path, e.text);
    die_config("baseline %s is malformed: line %d: %s", path, e.line, e.text);
  }
  json_t *arr = json_object_get(doc, "findings");
  if (!json_is_array(arr) || json_integer_value(json_object_get(doc, "version")) != 1)
    die_config("baseline %s is not a krefcheck baseline (version 1)", path);
  strvec fps = {0};
  size_t i;
  json_t *ent;
  json_array_foreach(arr, i, ent) {
    const char *fp = json_string_value(json_object_get(ent, "fingerprint"));
    if (!fp)
      die_config("baseline %s is malformed: entry %zu has no fingerprint", path, i + 1);
    sv_push(&fps, fp);
  }
  json_decref(doc);
  sv_sort_unique(&fps);
  size_t n = 0;
  for (size_t k = 0; k < fs->n; k++)
    if (sv_bsearch(&fps, fs->v[k].fingerprint)) {
      fs->v[k].suppressed = true;
      n++;
    }
  sv_free(&fps);
  return n;
}
