/* Small helpers: allocation, strings, paths, files, hashing. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *progname = "krefcheck";

static void oom(void) {
  fputs("krefcheck: error: out of memory\n", stderr);
  exit(2);
}
void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    oom();
  return p;
}
void *xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p)
    oom();
  return p;
}
void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    oom();
  return p;
}
char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }
char *xstrndup(const char *s, size_t n) {
  char *p = xmalloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}
char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0)
    oom();
  va_end(ap);
  return s;
}
bool str_starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }
bool str_ends(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

void die_config(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", progname);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

char *read_file(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 65536, n = 0;
  char *buf = xmalloc(cap + 1);
  size_t r;
  while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap)
      buf = xrealloc(buf, (cap *= 2) + 1);
  }
  int bad = ferror(f);
  if (f != stdin)
    fclose(f);
  if (bad) {
    free(buf);
    errno = EIO;
    return NULL;
  }
  buf[n] = 0;
  if (len)
    *len = n;
  return buf;
}

char *path_join_norm(const char *base, const char *path) {
  char *joined;
  if (path[0] == '/')
    joined = xstrdup(path);
  else if (base && base[0])
    joined = xasprintf("%s/%s", base, path);
  else {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
      strcpy(cwd, "/");
    joined = xasprintf("%s/%s", cwd, path);
  }
  if (joined[0] != '/') { /* relative base */
    char *abs = path_join_norm(NULL, joined);
    free(joined);
    return abs;
  }
  /* Split into components and rebuild. */
  size_t n = strlen(joined);
  char *out = xmalloc(n + 2);
  size_t o = 0;
  const char *p = joined;
  while (*p) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    const char *e = strchr(p, '/');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 1 && p[0] == '.') {
    } else if (len == 2 && p[0] == '.' && p[1] == '.') {
      while (o > 0 && out[o - 1] != '/')
        o--;
      if (o > 0)
        o--; /* drop the slash */
    } else {
      out[o++] = '/';
      memcpy(out + o, p, len);
      o += len;
    }
    p += len;
  }
  if (o == 0)
    out[o++] = '/';
  out[o] = 0;
  free(joined);
  return out;
}

const char *path_under(const char *p, const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (n == 1 && dir[0] == '/')
    return p[0] == '/' ? p + 1 : NULL;
  if (strncmp(p, dir, n) != 0)
    return NULL;
  if (p[n] == 0)
    return p + n;
  if (p[n] == '/')
    return p + n + 1;
  return NULL;
}

/* A tiny cache of split source files for fingerprints and text output. */
#define SRC_CACHE 16
static struct {
  char *path;
  char *text;
  char **lines;
  unsigned nlines;
} src_cache[SRC_CACHE];
static unsigned src_next;

const char *source_line(const char *file, unsigned line) {
  int slot = -1;
  for (int i = 0; i < SRC_CACHE; i++)
    if (src_cache[i].path && strcmp(src_cache[i].path, file) == 0)
      slot = i;
  if (slot < 0) {
    slot = (int)(src_next++ % SRC_CACHE);
    free(src_cache[slot].path);
    free(src_cache[slot].text);
    free(src_cache[slot].lines);
    src_cache[slot].path = xstrdup(file);
    src_cache[slot].text = read_file(file, NULL);
    src_cache[slot].lines = NULL;
    src_cache[slot].nlines = 0;
    if (src_cache[slot].text) {
      unsigned cap = 256, n = 0;
      char **lines = xmalloc(cap * sizeof *lines);
      char *s = src_cache[slot].text;
      while (*s) {
        if (n == cap)
          lines = xrealloc(lines, (cap *= 2) * sizeof *lines);
        lines[n++] = s;
        char *nl = strchr(s, '\n');
        if (!nl)
          break;
        *nl = 0;
        if (nl > s && nl[-1] == '\r')
          nl[-1] = 0;
        s = nl + 1;
      }
      src_cache[slot].lines = lines;
      src_cache[slot].nlines = n;
    }
  }
  if (line == 0 || line > src_cache[slot].nlines)
    return NULL;
  return src_cache[slot].lines[line - 1];
}

unsigned long long fnv1a64(const void *data, size_t n, unsigned long long h) {
  const unsigned char *p = data;
  if (!h)
    h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sv_push_own(strvec *sv, char *s) {
  if (sv->n + 1 >= sv->cap) {
    sv->cap = sv->cap ? sv->cap * 2 : 16;
    sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
  }
  sv->v[sv->n++] = s;
  sv->v[sv->n] = NULL; /* always NULL-terminated: usable as argv */
}
void sv_push(strvec *sv, const char *s) { sv_push_own(sv, xstrdup(s)); }
void sv_free(strvec *sv) {
  for (size_t i = 0; i < sv->n; i++)
    free(sv->v[i]);
  free(sv->v);
  sv->v = NULL;
  sv->n = sv->cap = 0;
}
bool sv_contains(const strvec *sv, const char *s) {
  for (size_t i = 0; i < sv->n; i++)
    if (strcmp(sv->v[i], s) == 0)
      return true;
  return false;
}
static int cmpstr(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
void sv_sort_unique(strvec *sv) {
  if (!sv->n)
    return;
  qsort(sv->v, sv->n, sizeof *sv->v, cmpstr);
  size_t o = 1;
  for (size_t i = 1; i < sv->n; i++) {
    if (strcmp(sv->v[i], sv->v[o - 1]) == 0)
      free(sv->v[i]);
    else
      sv->v[o++] = sv->v[i];
  }
  sv->n = o;
  sv->v[o] = NULL;
}
bool sv_bsearch(const strvec *sv, const char *s) {
  return sv->n && bsearch(&s, sv->v, sv->n, sizeof *sv->v, cmpstr) != NULL;
}
