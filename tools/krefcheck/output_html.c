/* HTML report (--format html -o DIR), in the way of scan-build's: static
 * pages that work from file:// with no script at all.
 *   index.html           findings by file and line, counts per checker, the
 *                        summary line, the TUs that failed
 *   index-checker.html   the same table by checker
 *   index-function.html  the same table by function
 *   report-N.html        one finding: message, checker (linked to its doc
 *                        page), function, the source around the path with
 *                        each path note at its line, numbered in order
 *   style.css            shared style */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CONTEXT_LINES 3 /* source lines shown around each line of the path */
#define MAX_GAP 12      /* a gap longer than this between path lines is elided */

static const char style_css[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
    "h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}\n"
    "table.list{border-collapse:collapse}\n"
    "table.list th,table.list td{border:1px solid #ccc;padding:.25em .6em;text-align:left;"
    "vertical-align:top}\n"
    "table.list th{background:#eee}th.sorted{background:#cde}\n"
    "td.num{text-align:right}\n"
    "p.summary{font-family:monospace;background:#f4f4f4;padding:.5em}\n"
    "dl.facts dt{font-weight:bold;float:left;clear:left;width:7em}\n"
    "dl.facts dd{margin-left:8em}\n"
    "table.code{border-collapse:collapse;font-family:monospace;font-size:.9em;"
    "margin-bottom:1em}\n"
    "table.code td{padding:0 .5em;white-space:pre;tab-size:8}\n"
    "td.ln{color:#888;text-align:right;user-select:none}\n"
    "tr.path td.src{background:#fff3c4}tr.warn td.src{background:#ffd6d6}\n"
    "tr.gap td{color:#888}\n"
    "div.note{display:inline-block;white-space:normal;background:#fffbe0;"
    "border:1px solid #d9b300;border-radius:4px;padding:.15em .5em;margin:.15em 0}\n"
    "div.note.warning{background:#ffe8e8;border-color:#c00}\n"
    "span.n{display:inline-block;min-width:1.4em;text-align:center;background:#d9b300;"
    "color:#fff;border-radius:.7em;font-weight:bold;margin-right:.4em}\n"
    "div.warning span.n{background:#c00}\n"
    "span.file{font-weight:bold}\n";

static void esc(FILE *o, const char *s) {
  for (; s && *s; s++)
    switch (*s) {
    case '<': fputs("&lt;", o); break;
    case '>': fputs("&gt;", o); break;
    case '&': fputs("&amp;", o); break;
    case '"': fputs("&quot;", o); break;
    case '\'': fputs("&#39;", o); break;
    default: fputc(*s, o);
    }
}

static FILE *open_page(const char *dir, const char *name) {
  char *p = xasprintf("%s/%s", dir, name);
  FILE *o = fopen(p, "w");
  if (!o)
    die_config("cannot write %s: %s", p, strerror(errno));
  free(p);
  return o;
}

static void close_page(FILE *o, const char *dir, const char *name) {
  if (fflush(o) != 0 || ferror(o) || fclose(o) != 0)
    die_config("cannot write %s/%s: %s", dir, name, strerror(errno));
}

static void page_head(FILE *o, const char *title) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", o);
  esc(o, title);
  fputs("</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n", o);
}

static const char *short_checker(const char *c) {
  return str_starts(c, "refcount.") ? c + strlen("refcount.") : c;
}

/* ---- index pages ------------------------------------------------------- */
typedef enum { BY_FILE, BY_CHECKER, BY_FUNCTION } sort_key;
static const report_t *sort_r;
static sort_key sort_by;
static size_t *sort_num; /* report number of each finding index */

/* By report number (the findings' order: by location), or by checker or
 * function and then number. */
static int cmp_findings(const void *x, const void *y) {
  size_t i = *(const size_t *)x, j = *(const size_t *)y;
  const finding_t *a = &sort_r->fs->v[i], *b = &sort_r->fs->v[j];
  int c = 0;
  if (sort_by == BY_CHECKER)
    c = strcmp(a->checker, b->checker);
  else if (sort_by == BY_FUNCTION)
    c = strcmp(a->function, b->function);
  if (c)
    return c;
  return sort_num[i] < sort_num[j] ? -1 : sort_num[i] > sort_num[j];
}

static const char *index_name[] = {"index.html", "index-checker.html", "index-function.html"};

static void write_index(const char *dir, const report_t *r, sort_key by, size_t *num,
                        const char *summary) {
  FILE *o = open_page(dir, index_name[by]);
  page_head(o, "krefcheck report");
  fputs("<h1>krefcheck report</h1>\n<p class=\"summary\" id=\"summary\">", o);
  esc(o, summary);
  fputs("</p>\n", o);

  /* Counts per checker. */
  fputs("<h2>Findings per checker</h2>\n<table class=\"list\" id=\"checkers\">\n"
        "<tr><th>checker</th><th>findings</th></tr>\n",
        o);
  strvec seen = {0};
  for (size_t i = 0; i < r->fs->n; i++) {
    const finding_t *f = &r->fs->v[i];
    if (f->suppressed || sv_contains(&seen, f->checker))
      continue;
    sv_push(&seen, f->checker);
  }
  sv_sort_unique(&seen);
  for (size_t c = 0; c < seen.n; c++) {
    size_t n = 0;
    for (size_t i = 0; i < r->fs->n; i++)
      n += !r->fs->v[i].suppressed && !strcmp(r->fs->v[i].checker, seen.v[c]);
    char uri[512];
    fputs("<tr><td><a href=\"", o);
    esc(o, checker_help_uri(seen.v[c], uri, sizeof uri));
    fputs("\">", o);
    esc(o, seen.v[c]);
    fprintf(o, "</a></td><td class=\"num\">%zu</td></tr>\n", n);
  }
  sv_free(&seen);
  fputs("</table>\n", o);

  /* The findings, sorted as this page says. */
  fputs("<h2>Findings</h2>\n", o);
  size_t *idx = xcalloc(r->fs->n + 1, sizeof *idx);
  size_t n = 0;
  for (size_t i = 0; i < r->fs->n; i++)
    if (!r->fs->v[i].suppressed)
      idx[n++] = i;
  sort_r = r;
  sort_by = by;
  sort_num = num;
  qsort(idx, n, sizeof *idx, cmp_findings);
  if (!n)
    fputs("<p id=\"no-findings\">No findings.</p>\n", o);
  else {
    static const char *heads[] = {"file", "checker", "function"};
    fputs("<table class=\"list\" id=\"findings\">\n<tr><th>#</th>", o);
    /* Column headers link to the page sorted by that column. */
    for (int k = 0; k < 3; k++) {
      sort_key key = k == 0 ? BY_FILE : k == 1 ? BY_CHECKER : BY_FUNCTION;
      fprintf(o, "<th%s><a href=\"%s\">%s</a>%s</th>", key == by ? " class=\"sorted\"" : "",
              index_name[key], heads[k], key == by ? " &#9660;" : "");
      if (k == 0)
        fputs("<th>line</th>", o);
    }
    fputs("<th>message</th><th>path</th></tr>\n", o);
    for (size_t k = 0; k < n; k++) {
      const finding_t *f = &r->fs->v[idx[k]];
      fprintf(
          o, "<tr class=\"finding\"><td class=\"num\"><a href=\"report-%zu.html\">%zu</a></td><td>",
          num[idx[k]], num[idx[k]]);
      esc(o, display_path(f->file, r->root));
      fprintf(o, "</td><td class=\"num\">%u</td><td>", f->line);
      esc(o, short_checker(f->checker));
      fputs("</td><td><code>", o);
      esc(o, f->function);
      fputs("</code></td><td><a href=\"", o);
      fprintf(o, "report-%zu.html\">", num[idx[k]]);
      esc(o, f->message);
      fprintf(o, "</a></td><td class=\"num\">%zu</td></tr>\n", f->nnotes);
    }
    fputs("</table>\n", o);
  }
  free(idx);

  if (r->nfailures) {
    fputs("<h2>Translation units not analyzed</h2>\n<table class=\"list\" id=\"failures\">\n"
          "<tr><th>file</th><th>reason</th><th>end of clang's output</th></tr>\n",
          o);
    for (size_t i = 0; i < r->nfailures; i++) {
      const failure_t *x = &r->failures[i];
      fputs("<tr><td>", o);
      esc(o, display_path(x->file, r->root));
      fprintf(o, "</td><td>%s</td><td><pre>", job_status_name(x->status));
      esc(o, x->stderr_tail);
      fputs("</pre></td></tr>\n", o);
    }
    fputs("</table>\n", o);
  }
  fputs("<p>Checkers: <code>", o);
  esc(o, r->checkers);
  fputs("</code>; ", o);
  esc(o, r->reg && r->reg->clang_version ? r->reg->clang_version : "");
  fputs(".</p>\n</body>\n</html>\n", o);
  close_page(o, dir, index_name[by]);
}

/* ---- one page per finding --------------------------------------------- */
static int cmp_uint(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

/* The source of FILE around the lines of the path that are in it, each note
 * in a numbered box under its line, the warning in a red one. */
static void write_source(FILE *o, const finding_t *f, const char *file, const report_t *r) {
  size_t cap = f->nnotes + 1, nl = 0;
  unsigned *lines = xcalloc(cap, sizeof *lines);
  if (!strcmp(f->file, file))
    lines[nl++] = f->line;
  for (size_t k = 0; k < f->nnotes; k++)
    if (!strcmp(f->notes[k].file, file))
      lines[nl++] = f->notes[k].line;
  qsort(lines, nl, sizeof *lines, cmp_uint);

  fputs("<h2>", o);
  fputs("<span class=\"file\">", o);
  esc(o, display_path(file, r->root));
  fputs("</span></h2>\n<table class=\"code\">\n", o);
  unsigned shown_to = 0; /* last line printed */
  for (size_t i = 0; i < nl; i++) {
    unsigned from = lines[i] > CONTEXT_LINES ? lines[i] - CONTEXT_LINES : 1;
    /* The end of this window: extend over the following path lines that are
     * close enough. */
    size_t j = i;
    while (j + 1 < nl && lines[j + 1] <= lines[j] + MAX_GAP)
      j++;
    unsigned to = lines[j] + CONTEXT_LINES;
    if (from <= shown_to)
      from = shown_to + 1;
    if (shown_to && from > shown_to + 1)
      fputs("<tr class=\"gap\"><td class=\"ln\">&#8942;</td><td></td></tr>\n", o);
    for (unsigned l = from; l <= to; l++) {
      const char *text = source_line(file, l);
      if (!text)
        break;
      bool warn = !strcmp(f->file, file) && l == f->line;
      bool path = false;
      for (size_t k = 0; k < f->nnotes; k++)
        path |= !strcmp(f->notes[k].file, file) && f->notes[k].line == l;
      fprintf(o, "<tr id=\"L%u\" class=\"%s\"><td class=\"ln\">%u</td><td class=\"src\">", l,
              warn   ? "warn"
              : path ? "path"
                     : "ctx",
              l);
      esc(o, text);
      fputs("</td></tr>\n", o);
      bool warned = false; /* the path's last step usually is the warning */
      for (size_t k = 0; k < f->nnotes; k++) {
        const note_t *n = &f->notes[k];
        if (strcmp(n->file, file) || n->line != l)
          continue;
        bool is_warning = warn && !strcmp(n->message, f->message);
        warned |= is_warning;
        fprintf(o,
                "<tr class=\"pathnote\"><td></td><td><div class=\"note%s\" id=\"note-%zu\">"
                "<span class=\"n\">%zu</span>",
                is_warning ? " warning" : "", k + 1, k + 1);
        esc(o, n->message);
        fputs("</div></td></tr>\n", o);
      }
      if (warn && !warned) {
        fputs("<tr class=\"pathnote\"><td></td><td><div class=\"note warning\">"
              "<span class=\"n\">!</span>",
              o);
        esc(o, f->message);
        fputs("</div></td></tr>\n", o);
      }
      shown_to = l;
    }
    i = j;
  }
  fputs("</table>\n", o);
  free(lines);
}

static void write_finding(const char *dir, const report_t *r, const finding_t *f, size_t num,
                          size_t total) {
  char name[64], uri[512];
  snprintf(name, sizeof name, "report-%zu.html", num);
  FILE *o = open_page(dir, name);
  char *title = xasprintf("%s: %s", short_checker(f->checker), f->message);
  page_head(o, title);
  free(title);
  fputs("<p><a href=\"index.html\">&#8592; all findings</a>", o);
  if (num > 1)
    fprintf(o, " | <a href=\"report-%zu.html\">previous</a>", num - 1);
  if (num < total)
    fprintf(o, " | <a href=\"report-%zu.html\">next</a>", num + 1);
  fputs("</p>\n<h1 id=\"message\">", o);
  esc(o, f->message);
  fputs("</h1>\n<dl class=\"facts\">\n<dt>checker</dt><dd><a id=\"checker\" href=\"", o);
  esc(o, checker_help_uri(f->checker, uri, sizeof uri));
  fputs("\">", o);
  esc(o, f->checker);
  fputs("</a></dd>\n<dt>function</dt><dd><code id=\"function\">", o);
  esc(o, f->function[0] ? f->function : "(file scope)");
  fputs("</code></dd>\n<dt>location</dt><dd>", o);
  esc(o, display_path(f->file, r->root));
  fprintf(o, ":%u:%u</dd>\n", f->line, f->col);
  if (f->tus.n) {
    fputs("<dt>found in</dt><dd>", o);
    for (size_t k = 0; k < f->tus.n; k++) {
      if (k)
        fputs(", ", o);
      esc(o, display_path(f->tus.v[k], r->root));
    }
    fputs("</dd>\n", o);
  }
  fputs("</dl>\n", o);

  /* The path, in order; each step links to its box in the source. */
  if (f->nnotes) {
    fputs("<h2>Path</h2>\n<ol id=\"path\">\n", o);
    for (size_t k = 0; k < f->nnotes; k++) {
      const note_t *n = &f->notes[k];
      fprintf(o, "<li><a href=\"#note-%zu\">", k + 1);
      esc(o, display_path(n->file, r->root));
      fprintf(o, ":%u</a>: ", n->line);
      esc(o, n->message);
      fputs("</li>\n", o);
    }
    fputs("</ol>\n", o);
  }

  /* The source, file by file: the reported file first, then the others in
   * the order the path enters them. */
  strvec files = {0};
  sv_push(&files, f->file);
  for (size_t k = 0; k < f->nnotes; k++)
    if (!sv_contains(&files, f->notes[k].file))
      sv_push(&files, f->notes[k].file);
  for (size_t k = 0; k < files.n; k++)
    write_source(o, f, files.v[k], r);
  sv_free(&files);
  fputs("</body>\n</html>\n", o);
  close_page(o, dir, name);
}

void output_html(const char *dir, const report_t *r) {
  FILE *o = open_page(dir, "style.css");
  fputs(style_css, o);
  close_page(o, dir, "style.css");
  o = open_page(dir, HTML_MARKER);
  fputs("This directory is a krefcheck HTML report; krefcheck --format html -o replaces it.\n", o);
  close_page(o, dir, HTML_MARKER);

  /* Report numbers follow the findings' order (by location). */
  size_t *num = xcalloc(r->fs->n + 1, sizeof *num);
  size_t total = 0;
  for (size_t i = 0; i < r->fs->n; i++)
    if (!r->fs->v[i].suppressed)
      num[i] = ++total;
  for (size_t i = 0; i < r->fs->n; i++)
    if (!r->fs->v[i].suppressed)
      write_finding(dir, r, &r->fs->v[i], num[i], total);
  char *summary = report_summary(r);
  write_index(dir, r, BY_FILE, num, summary);
  write_index(dir, r, BY_CHECKER, num, summary);
  write_index(dir, r, BY_FUNCTION, num, summary);
  free(summary);
  free(num);
}
