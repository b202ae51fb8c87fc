/* Findings: read from the analyzer's plist, merged across TUs (a header's
 * bug is reported by every TU that includes it), fingerprinted. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <stdlib.h>
#include <string.h>

static bool read_loc(const plist_t *loc, char **files, size_t nfiles, char **file,
                     unsigned *line, unsigned *col) {
  if (!loc || loc->type != PL_DICT)
    return false;
  long long fi = pl_int(loc, "file", -1);
  if (fi < 0 || (size_t)fi >= nfiles)
    return false;
  *file = xstrdup(files[fi]);
  *line = (unsigned)pl_int(loc, "line", 0);
  *col = (unsigned)pl_int(loc, "col", 0);
  return true;
}

static void add_note(finding_t *f, const plist_t *piece, const char *kind, char **files,
                     size_t nfiles) {
  const char *msg = pl_str(piece, "message");
  note_t n = {0};
  if (!msg || !read_loc(pl_get(piece, "location"), files, nfiles, &n.file, &n.line, &n.col))
    return;
  n.message = xstrdup(msg);
  n.kind = xstrdup(kind);
  n.depth = (unsigned)pl_int(piece, "depth", 0);
  f->notes = xrealloc(f->notes, (f->nnotes + 1) * sizeof *f->notes);
  f->notes[f->nnotes++] = n;
}

int findings_add_plist(findings_t *fs, const plist_t *root, const char *tu_dir,
                       const char *tu_file, char **err) {
  const plist_t *files = pl_get(root, "files");
  const plist_t *diags = pl_get(root, "diagnostics");
  if (!files || files->type != PL_ARRAY || !diags || diags->type != PL_ARRAY) {
    *err = xstrdup("plist lacks 'files' or 'diagnostics'");
    return -1;
  }
  char **paths = xcalloc(files->n, sizeof *paths);
  for (size_t i = 0; i < files->n; i++)
    paths[i] = path_join_norm(tu_dir, files->kids[i]->type == PL_STRING ? files->kids[i]->str : "?");
  int count = 0;
  for (size_t i = 0; i < diags->n; i++) {
    const plist_t *d = diags->kids[i];
    finding_t f = {0};
    const char *checker = pl_str(d, "check_name"), *desc = pl_str(d, "description");
    if (!checker || !desc ||
        !read_loc(pl_get(d, "location"), paths, files->n, &f.file, &f.line, &f.col))
      continue;
    f.checker = xstrdup(checker);
    f.message = xstrdup(desc);
    const char *s;
    f.category = xstrdup((s = pl_str(d, "category")) ? s : "");
    f.type = xstrdup((s = pl_str(d, "type")) ? s : "");
    f.function = xstrdup((s = pl_str(d, "issue_context")) ? s : "");
    const plist_t *path = pl_get(d, "path");
    if (path && path->type == PL_ARRAY)
      for (size_t k = 0; k < path->n; k++) {
        const char *kind = pl_str(path->kids[k], "kind");
        if (kind && (!strcmp(kind, "event") || !strcmp(kind, "note")))
          add_note(&f, path->kids[k], kind, paths, files->n);
      }
    /* Notes attached to the report (e.g. where a style was inferred). */
    const plist_t *notes = pl_get(d, "notes");
    if (notes && notes->type == PL_ARRAY)
      for (size_t k = 0; k < notes->n; k++)
        add_note(&f, notes->kids[k], "note", paths, files->n);
    /* The path's last event usually repeats the warning itself. */
    if (f.nnotes) {
      note_t *l = &f.notes[f.nnotes - 1];
      if (l->line == f.line && l->col == f.col && !strcmp(l->file, f.file) &&
          !strcmp(l->message, f.message)) {
        free(l->file);
        free(l->message);
        free(l->kind);
        f.nnotes--;
      }
    }
    sv_push(&f.tus, tu_file);
    if (fs->n == fs->cap) {
      fs->cap = fs->cap ? fs->cap * 2 : 64;
      fs->v = xrealloc(fs->v, fs->cap * sizeof *fs->v);
    }
    fs->v[fs->n++] = f;
    count++;
  }
  for (size_t i = 0; i < files->n; i++)
    free(paths[i]);
  free(paths);
  return count;
}

static int cmp_finding(const void *a, const void *b) {
  const finding_t *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  if ((c = strcmp(x->checker, y->checker)))
    return c;
  if ((c = strcmp(x->message, y->message)))
    return c;
  /* Same finding from several TUs: keep a deterministic first one. */
  return strcmp(x->tus.v[0], y->tus.v[0]);
}

static bool same_finding(const finding_t *x, const finding_t *y) {
  return x->line == y->line && x->col == y->col && !strcmp(x->file, y->file) &&
         !strcmp(x->checker, y->checker) && !strcmp(x->message, y->message);
}

static void free_finding(finding_t *f) {
  free(f->checker);
  free(f->message);
  free(f->category);
  free(f->type);
  free(f->file);
  free(f->function);
  free(f->fingerprint);
  for (size_t i = 0; i < f->nnotes; i++) {
    free(f->notes[i].file);
    free(f->notes[i].message);
    free(f->notes[i].kind);
  }
  free(f->notes);
  sv_free(&f->tus);
}

const char *display_path(const char *abs, const char *root) {
  const char *rel = root ? path_under(abs, root) : NULL;
  return rel && *rel ? rel : abs;
}

/* Whitespace removed; digit runs folded, so that counts or line numbers
 * quoted in a message do not change the fingerprint. */
static void hash_norm(unsigned long long *h, const char *s, bool fold_digits) {
  bool in_digits = false;
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
      continue;
    if (fold_digits && c >= '0' && c <= '9') {
      if (!in_digits)
        *h = fnv1a64("#", 1, *h);
      in_digits = true;
      continue;
    }
    in_digits = false;
    *h = fnv1a64(&c, 1, *h);
  }
  *h = fnv1a64("", 1, *h); /* field separator */
}

char *finding_fingerprint(const finding_t *f, const char *root) {
  /* Two independent 64-bit FNV-1a streams (different seeds): 128 bits. */
  unsigned long long h[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
  const char *line = source_line(f->file, f->line);
  for (int i = 0; i < 2; i++) {
    hash_norm(&h[i], f->checker, false);
    hash_norm(&h[i], display_path(f->file, root), false);
    hash_norm(&h[i], f->function, false);
    hash_norm(&h[i], f->message, true);
    hash_norm(&h[i], line ? line : "", false);
  }
  return xasprintf("%016llx%016llx", h[0], h[1]);
}

void findings_finish(findings_t *fs, const char *root) {
  if (!fs->n)
    return;
  qsort(fs->v, fs->n, sizeof *fs->v, cmp_finding);
  size_t o = 0;
  for (size_t i = 0; i < fs->n; i++) {
    if (o && same_finding(&fs->v[o - 1], &fs->v[i])) {
      for (size_t k = 0; k < fs->v[i].tus.n; k++)
        if (!sv_contains(&fs->v[o - 1].tus, fs->v[i].tus.v[k]))
          sv_push(&fs->v[o - 1].tus, fs->v[i].tus.v[k]);
      free_finding(&fs->v[i]);
      continue;
    }
    fs->v[o++] = fs->v[i];
  }
  fs->n = o;
  for (size_t i = 0; i < fs->n; i++)
    fs->v[i].fingerprint = finding_fingerprint(&fs->v[i], root);
  /* Equal fingerprints (the same line text twice in a function): number the
   * later ones in source order, which line shifts do not change. */
  for (size_t i = 0; i < fs->n; i++) {
    unsigned ord = 1;
    for (size_t k = 0; k < i; k++)
      if (!strncmp(fs->v[k].fingerprint, fs->v[i].fingerprint, 32))
        ord++;
    if (ord > 1) {
      char *s = xasprintf("%.32s-%u", fs->v[i].fingerprint, ord);
      free(fs->v[i].fingerprint);
      fs->v[i].fingerprint = s;
    }
  }
}
