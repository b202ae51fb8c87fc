/* SARIF 2.1.0 written by us (the analyzer's own SARIF writer mislabels
 * plugin checkers on clang 19 and crashes on 22). One run; rules from the
 * checker registry; results with codeFlows from the path notes and
 * partialFingerprints that do not depend on line numbers. */
#include "krefcheck.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static char *uri_encode(const char *path) {
  static const char hex[] = "0123456789ABCDEF";
  char *out = xmalloc(strlen(path) * 3 + 1), *o = out;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      *o++ = (char)*p;
    else {
      *o++ = '%';
      *o++ = hex[*p >> 4];
      *o++ = hex[*p & 15];
    }
  }
  *o = 0;
  return out;
}

static json_t *artifact(const char *file, const char *root) {
  const char *rel = root ? path_under(file, root) : NULL;
  if (rel && *rel) {
    char *u = uri_encode(rel);
    json_t *a = json_pack("{s:s,s:s}", "uri", u, "uriBaseId", "SRCROOT");
    free(u);
    return a;
  }
  char *u = uri_encode(file);
  char *full = xasprintf("file://%s", u);
  json_t *a = json_pack("{s:s}", "uri", full);
  free(u);
  free(full);
  return a;
}

static json_t *phys(const char *file, unsigned line, unsigned col, const char *root) {
  json_t *region = json_pack("{s:i}", "startLine", line ? line : 1);
  if (col)
    json_object_set_new(region, "startColumn", json_integer(col));
  return json_pack("{s:{s:o,s:o}}", "physicalLocation", "artifactLocation",
                   artifact(file, root), "region", region);
}

static bool in_list(const char *name, const char *list) {
  const char *p = list;
  while (*p) {
    size_t n = strcspn(p, ",");
    if ((strlen(name) == n && !strncmp(name, p, n)) ||
        (!strncmp(name, p, n) && name[n] == '.'))
      return true;
    p += n;
    if (*p == ',')
      p++;
  }
  return false;
}

void output_sarif(FILE *out, const report_t *r) {
  /* Rules: every enabled checker (hidden modeling ones excluded), plus any
   * checker that reported without being listed. */
  strvec ids = {0};
  for (size_t i = 0; i < r->reg->n; i++)
    if (in_list(r->reg->v[i].name, r->checkers) && !r->reg->v[i].hidden)
      sv_push(&ids, r->reg->v[i].name);
  for (size_t i = 0; i < r->fs->n; i++)
    if (!sv_contains(&ids, r->fs->v[i].checker))
      sv_push(&ids, r->fs->v[i].checker);
  json_t *rules = json_array();
  for (size_t i = 0; i < ids.n; i++) {
    const char *d = registry_description(r->reg, ids.v[i]);
    char uri[512];
    checker_help_uri(ids.v[i], uri, sizeof uri);
    char *shortd = xstrdup(d && *d ? d : ids.v[i]);
    char *fulld = xasprintf("%s (clang static analyzer checker %s; documentation: %s)",
                            shortd, ids.v[i], uri);
    json_array_append_new(
        rules, json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:s,s:{s:s}}", "id", ids.v[i], "name",
                         ids.v[i], "shortDescription", "text", shortd, "fullDescription",
                         "text", fulld, "helpUri", uri, "defaultConfiguration", "level",
                         "warning"));
    free(shortd);
    free(fulld);
  }

  json_t *results = json_array();
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed)
      continue;
    size_t rule = 0;
    while (rule < ids.n && strcmp(ids.v[rule], f->checker))
      rule++;
    json_t *loc = phys(f->file, f->line, f->col, r->root);
    if (f->function[0])
      json_object_set_new(loc, "logicalLocations",
                          json_pack("[{s:s,s:s}]", "name", f->function, "kind", "function"));
    json_t *res = json_pack("{s:s,s:i,s:s,s:{s:s},s:[o],s:{s:s}}", "ruleId", f->checker,
                            "ruleIndex", (int)rule, "level", "warning", "message", "text",
                            f->message, "locations", loc, "partialFingerprints",
                            "krefcheck/v1", f->fingerprint);
    if (f->nnotes) {
      json_t *tfl = json_array();
      for (size_t k = 0; k < f->nnotes; k++) {
        const note_t *n = &f->notes[k];
        json_t *l = phys(n->file, n->line, n->col, r->root);
        json_object_set_new(l, "message", json_pack("{s:s}", "text", n->message));
        json_array_append_new(tfl, json_pack("{s:o,s:i}", "location", l, "nestingLevel",
                                             n->depth));
      }
      json_t *last = phys(f->file, f->line, f->col, r->root);
      json_object_set_new(last, "message", json_pack("{s:s}", "text", f->message));
      json_array_append_new(tfl, json_pack("{s:o,s:i}", "location", last, "nestingLevel", 0));
      json_object_set_new(res, "codeFlows",
                          json_pack("[{s:[{s:o}]}]", "threadFlows", "locations", tfl));
    }
    if (r->baseline_used)
      json_object_set_new(res, "baselineState", json_string("new"));
    json_t *tus = json_array();
    for (size_t k = 0; k < f->tus.n; k++)
      json_array_append_new(tus, json_string(display_path(f->tus.v[k], r->root)));
    json_object_set_new(res, "properties", json_pack("{s:o}", "translationUnits", tus));
    json_array_append_new(results, res);
  }

  json_t *notes = json_array();
  for (size_t i = 0; i < r->nfailures; i++) {
    const failure_t *x = &r->failures[i];
    char *msg = xasprintf("analysis of %s failed (%s): %s", display_path(x->file, r->root),
                          job_status_name(x->status), x->stderr_tail);
    json_array_append_new(notes, json_pack("{s:s,s:{s:s},s:[o]}", "level", "error", "message",
                                           "text", msg, "locations",
                                           phys(x->file, 0, 0, r->root)));
    free(msg);
  }
  json_t *inv = json_pack("{s:b,s:o}", "executionSuccessful", r->nfailures == 0,
                          "toolExecutionNotifications", notes);

  json_t *run = json_pack(
      "{s:{s:{s:s,s:s,s:s,s:s,s:o}},s:s,s:[o],s:o}", "tool", "driver", "name", "krefcheck",
      "version", KREFCHECK_VERSION, "informationUri", "https://github.com/krefcheck/krefcheck",
      "semanticVersion", KREFCHECK_VERSION, "rules", rules, "columnKind", "unicodeCodePoints",
      "invocations", inv, "results", results);
  if (r->root) {
    char *u = uri_encode(r->root);
    char *base = xasprintf("file://%s%s", u, str_ends(u, "/") ? "" : "/");
    json_object_set_new(run, "originalUriBaseIds",
                        json_pack("{s:{s:s}}", "SRCROOT", "uri", base));
    free(u);
    free(base);
  }
  json_t *root = json_pack("{s:s,s:s,s:[o]}", "$schema",
                           "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
                           "runs", run);
  json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', out);
  json_decref(root);
  sv_free(&ids);
}
