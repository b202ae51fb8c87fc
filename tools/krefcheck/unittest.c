/* Unit tests of the plist parser, the command rewrite and path helpers.
 * Prints one line per failed check; exit status 1 if any failed. */
#include "krefcheck.h"

#include <stdlib.h>
#include <string.h>

static int failures, checks;
#define CHECK(cond)                                                              \
  do {                                                                           \
    checks++;                                                                    \
    if (!(cond)) {                                                               \
      failures++;                                                                \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                            \
  } while (0)

static plist_t *parse(const char *s, char **err) { return plist_parse(s, strlen(s), err); }

static void test_plist(void) {
  char *err;
  const char *good =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" "
      "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
      "<plist version=\"1.0\">\n<dict>\n <key>clang_version</key>\n<string>c 19</string>\n"
      " <!-- a comment -->\n"
      " <key>diagnostics</key>\n <array>\n  <dict>\n"
      "   <key>description</key><string>&apos;o-&gt;ref&apos; &lt;&amp;&quot; &#65;&#x42;"
      "&#233;<![CDATA[<raw&>]]></string>\n"
      "   <key>n</key><integer> -42 </integer>\n"
      "   <key>r</key><real>1.5</real>\n"
      "   <key>t</key><true/>\n   <key>f</key><false/>\n"
      "   <key>e</key><string/>\n   <key>ea</key><array/>\n   <key>ed</key><dict></dict>\n"
      "  </dict>\n </array>\n <key>files</key>\n <array>\n  <string>a.c</string>\n </array>\n"
      "</dict>\n</plist>\n";
  plist_t *p = parse(good, &err);
  CHECK(p != NULL);
  if (!p) {
    printf("  error: %s\n", err);
    return;
  }
  CHECK(p->type == PL_DICT && p->n == 3);
  CHECK(!strcmp(pl_str(p, "clang_version"), "c 19"));
  const plist_t *d = pl_get(p, "diagnostics");
  CHECK(d && d->type == PL_ARRAY && d->n == 1);
  const plist_t *e = d->kids[0];
  CHECK(!strcmp(pl_str(e, "description"), "'o->ref' <&\" AB\xC3\xA9<raw&>"));
  CHECK(pl_int(e, "n", 0) == -42);
  CHECK(pl_get(e, "r")->type == PL_REAL && !strcmp(pl_get(e, "r")->str, "1.5"));
  CHECK(pl_get(e, "t")->type == PL_TRUE && pl_get(e, "f")->type == PL_FALSE);
  CHECK(!strcmp(pl_str(e, "e"), ""));
  CHECK(pl_get(e, "ea")->type == PL_ARRAY && pl_get(e, "ea")->n == 0);
  CHECK(pl_get(e, "ed")->type == PL_DICT && pl_get(e, "ed")->n == 0);
  CHECK(pl_get(e, "missing") == NULL && pl_str(e, "n") == NULL);
  CHECK(!strcmp(pl_str(pl_get(p, "files")->kids[0] ? p : p, "clang_version"), "c 19"));
  plist_free(p);

  /* Every malformed input is an error with a line number, not a crash. */
  const char *bad[] = {
      "",
      "<plist>",
      "<plist><dict><key>a</key></dict></plist>",
      "<plist><dict><string>x</string></dict></plist>",
      "<plist><array><string>x</array></plist>",
      "<plist><string>&bogus;</string></plist>",
      "<plist><string>&#0;</string></plist>",
      "<plist><integer>12x</integer></plist>",
      "<plist><integer></integer></plist>",
      "<plist><date>x</date></plist>",
      "<plist><dict><key>a</key><string>b</string></dict></plist><junk/>",
      "<plist><string>unterminated",
      "<plist><!-- unterminated",
      "<plist></plist>",
      "<dict></dict>",
      "<plist><array><array><array>",
      "<plist><string><![CDATA[x</string></plist>",
      NULL};
  for (int i = 0; bad[i]; i++) {
    plist_t *q = parse(bad[i], &err);
    CHECK(q == NULL);
    if (q) {
      printf("  accepted bad input %d: %s\n", i, bad[i]);
      plist_free(q);
    } else {
      CHECK(err && !strncmp(err, "line ", 5));
      free(err);
    }
  }
  /* Deep nesting is refused, not a stack overflow. */
  size_t depth = 100000;
  char *deep = xmalloc(depth * 7 + 16);
  strcpy(deep, "<plist>");
  for (size_t i = 0; i < depth; i++)
    memcpy(deep + 7 + i * 7, "<array>", 8);
  p = parse(deep, &err);
  CHECK(p == NULL);
  if (!p)
    free(err);
  free(deep);
}

static void test_rewrite(void) {
  tu_t tu = {0};
  const char *args[] = {"gcc", "-Wp,-MMD,fs/.dir.o.d", "-nostdinc", "-Iinclude", "-DX=1",
                        "-Werror", "-Werror=implicit", "-c", "-o", "fs/dir.o", "-MD", "-MF",
                        "x.d", "-MT", "t", "-MQ", "q", "-MMD", "-ofoo.o", "-objcmt-migrate-all",
                        "--target=x86_64-linux-gnu", "-m64", "-include", "k.h", "fs/dir.c",
                        NULL};
  for (int i = 0; args[i]; i++)
    sv_push(&tu.args, args[i]);
  strvec out = {0};
  cdb_rewrite(&tu, "/usr/bin/clang-19", &out);
  const char *want[] = {"/usr/bin/clang-19", "-nostdinc", "-Iinclude", "-DX=1",
                        "-objcmt-migrate-all", "--target=x86_64-linux-gnu", "-m64",
                        "-include", "k.h", "fs/dir.c", NULL};
  size_t n = 0;
  while (want[n])
    n++;
  CHECK(out.n == n);
  for (size_t i = 0; i < n && i < out.n; i++)
    if (strcmp(out.v[i], want[i])) {
      printf("  arg %zu: got %s want %s\n", i, out.v[i], want[i]);
      CHECK(0);
    }
  sv_free(&out);
  sv_free(&tu.args);
}

static void test_paths(void) {
  char *p = path_join_norm("/a/b", "../c/./d//e/..");
  CHECK(!strcmp(p, "/a/c/d"));
  free(p);
  p = path_join_norm("/x", "/abs/../y");
  CHECK(!strcmp(p, "/y"));
  free(p);
  CHECK(path_under("/a/b/c.c", "/a/b") && !strcmp(path_under("/a/b/c.c", "/a/b"), "c.c"));
  CHECK(path_under("/a/bc/c.c", "/a/b") == NULL);
  CHECK(path_under("/a/b", "/a/b/") != NULL);
}

static void test_fingerprint(void) {
  finding_t f = {0};
  f.checker = "refcount.GetOnZero";
  f.file = "/nonexistent/x.c";
  f.function = "f";
  f.message = "kref_get() on 'o->ref' after 2 puts";
  f.line = 10;
  char *a = finding_fingerprint(&f, "/nonexistent");
  f.line = 11; /* line text unavailable in both: the same */
  f.message = "kref_get() on 'o->ref'  after 3 puts";
  char *b = finding_fingerprint(&f, "/nonexistent");
  CHECK(!strcmp(a, b) && strlen(a) == 32);
  f.function = "g";
  char *c = finding_fingerprint(&f, "/nonexistent");
  CHECK(strcmp(a, c));
  free(a);
  free(b);
  free(c);
}

int main(void) {
  test_plist();
  test_rewrite();
  test_paths();
  test_fingerprint();
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
