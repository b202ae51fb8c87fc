/* The environment a scan needs: a clang that runs, a plugin built for that
 * clang (its clang_analyzerAPIVersionString, read from the ELF file), and
 * the checker registry (clang -cc1 -load P -analyzer-checker-help...). */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KREFCHECK_DOC_BASE
#define KREFCHECK_DOC_BASE "https://github.com/krefcheck/krefcheck/blob/main/docs/checkers/"
#endif

char *plugin_api_version(const char *path, char **err) {
  size_t len;
  char *buf = read_file(path, &len);
  *err = NULL;
  if (!buf) {
    *err = xasprintf("cannot read %s: %s", path, strerror(errno));
    return NULL;
  }
  char *res = NULL;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
  if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
      eh->e_shoff + (unsigned long long)eh->e_shnum * sizeof(Elf64_Shdr) > len) {
    *err = xasprintf("%s is not a 64-bit ELF shared object", path);
    goto out;
  }
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
  for (unsigned i = 0; i < eh->e_shnum && !res; i++) {
    if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum)
      continue;
    const Elf64_Shdr *strs = &sh[sh[i].sh_link];
    if (sh[i].sh_offset + sh[i].sh_size > len || strs->sh_offset + strs->sh_size > len)
      break;
    const Elf64_Sym *sym = (const Elf64_Sym *)(buf + sh[i].sh_offset);
    size_t nsym = sh[i].sh_size / sizeof *sym;
    for (size_t k = 0; k < nsym; k++) {
      if (sym[k].st_name >= strs->sh_size ||
          strcmp(buf + strs->sh_offset + sym[k].st_name, "clang_analyzerAPIVersionString"))
        continue;
      if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx >= eh->e_shnum)
        break;
      const Elf64_Shdr *sec = &sh[sym[k].st_shndx];
      if (sec->sh_type == SHT_NOBITS || sym[k].st_value < sec->sh_addr)
        break;
      unsigned long long off = sec->sh_offset + (sym[k].st_value - sec->sh_addr);
      size_t max = sym[k].st_size ? sym[k].st_size : 64;
      if (off >= len)
        break;
      if (off + max > len)
        max = len - off;
      res = xstrndup(buf + off, strnlen(buf + off, max));
      break;
    }
  }
  if (!res)
    *err = xasprintf("%s is not an analyzer plugin (no clang_analyzerAPIVersionString)", path);
out:
  free(buf);
  return res;
}

/* "clang version X.Y.Z" -> "X.Y.Z" */
static char *version_number(const char *text) {
  const char *p = strstr(text, "clang version ");
  if (!p)
    return NULL;
  p += strlen("clang version ");
  return xstrndup(p, strcspn(p, " \n\t("));
}

void registry_load(registry_t *r, const char *clang, const char *plugin) {
  memset(r, 0, sizeof *r);
  char *out = NULL;
  char *vargv[] = {(char *)clang, "--version", NULL};
  if (access(clang, X_OK) != 0 || run_capture(vargv, NULL, &out, true) != 0)
    die_config("cannot run clang '%s' (use --clang PATH)", clang);
  char *cv = version_number(out);
  if (!cv)
    die_config("'%s --version' does not print a clang version", clang);
  r->clang_version = xasprintf("clang version %s", cv);
  free(out);

  if (access(plugin, R_OK) != 0)
    die_config("plugin %s not found: %s (build it, or use --plugin PATH)", plugin,
               strerror(errno));
  char *err;
  char *pv = plugin_api_version(plugin, &err);
  if (!pv)
    die_config("%s", err);
  if (strcmp(pv, cv) != 0)
    die_config("plugin %s was built for clang %s, but %s is clang %s: rebuild the "
               "plugin against this clang, or pass the matching --clang",
               plugin, pv, clang, cv);
  free(pv);
  free(cv);

  char *hargv[] = {(char *)clang, "-cc1", "-load", (char *)plugin, "-analyzer-checker-help",
                   "-analyzer-checker-help-alpha", "-analyzer-checker-help-developer", NULL};
  int rc = run_capture(hargv, NULL, &out, true);
  char *list = strstr(out, "CHECKERS:");
  if (rc != 0 || !list) {
    char *nl = strchr(out, '\n');
    if (nl)
      *nl = 0;
    die_config("clang could not load plugin %s: %s", plugin, out[0] ? out : "(no output)");
  }
  size_t cap = 512;
  r->v = xcalloc(cap, sizeof *r->v);
  for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] != ' ')
      continue;
    size_t ind = strspn(line, " ");
    if (ind == 2) {
      char *name = line + 2;
      size_t nl = strcspn(name, " ");
      char *desc = name + nl;
      desc += strspn(desc, " ");
      if (r->n == cap)
        r->v = xrealloc(r->v, (cap *= 2) * sizeof *r->v);
      r->v[r->n].name = xstrndup(name, nl);
      r->v[r->n].description = xstrdup(desc);
      r->n++;
    } else if (r->n) { /* description continued on the next line */
      checker_info *c = &r->v[r->n - 1];
      char *d = xasprintf("%s%s%s", c->description, c->description[0] ? " " : "", line + ind);
      free(c->description);
      c->description = d;
    }
  }
  free(out);
  /* The same without -developer: what is not listed is hidden (modeling). */
  char *vis_argv[] = {(char *)clang, "-cc1", "-load", (char *)plugin, "-analyzer-checker-help",
                      "-analyzer-checker-help-alpha", NULL};
  if (run_capture(vis_argv, NULL, &out, true) == 0) {
    for (size_t i = 0; i < r->n; i++) {
      /* "\n  NAME " or "\n  NAME\n" */
      char *pat = xasprintf("\n  %s", r->v[i].name);
      const char *hit = strstr(out, pat);
      size_t n = strlen(pat);
      r->v[i].hidden = !(hit && (hit[n] == ' ' || hit[n] == '\n'));
      free(pat);
    }
  }
  free(out);
  bool have_plugin = false;
  for (size_t i = 0; i < r->n; i++)
    have_plugin |= str_starts(r->v[i].name, "refcount.");
  if (!have_plugin)
    die_config("clang did not register the refcount checkers of plugin %s", plugin);
}

void registry_check_list(const registry_t *r, const char *list) {
  if (!list[0])
    die_config("--checkers is empty");
  char *copy = xstrdup(list);
  for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    bool ok = false;
    size_t n = strlen(tok);
    for (size_t i = 0; i < r->n && !ok; i++)
      ok = !strcmp(r->v[i].name, tok) ||
           (!strncmp(r->v[i].name, tok, n) && r->v[i].name[n] == '.');
    if (!ok)
      die_config("unknown checker or package '%s' in --checkers (see "
                 "'clang -cc1 -load PLUGIN -analyzer-checker-help')", tok);
  }
  free(copy);
}

const char *registry_description(const registry_t *r, const char *checker) {
  for (size_t i = 0; i < r->n; i++)
    if (!strcmp(r->v[i].name, checker))
      return r->v[i].description;
  return NULL;
}

const char *checker_help_uri(const char *checker, char *buf, size_t n) {
  if (str_starts(checker, "refcount."))
    snprintf(buf, n, "%s%s.md", KREFCHECK_DOC_BASE, checker + strlen("refcount."));
  else
    snprintf(buf, n, "https://clang.llvm.org/docs/analyzer/checkers.html");
  return buf;
}

void model_check(const char *clang, const char *plugin, const char *checkers,
                 const char *model) {
  /* One analysis of an empty TU: the plugin reads the model when its
   * checkers are registered, and reports a bad one as it would for every
   * TU of the scan. */
  char *abs = path_join_norm(NULL, model);
  char *list = xasprintf("-analyzer-checker=%s", checkers);
  char *cfg = xasprintf("refcount:ModelFile=%s", abs);
  char *argv[] = {(char *)clang, "--analyze", "--analyzer-no-default-checks", "-x", "c",
                  "/dev/null", "-o", "/dev/null", "-Xclang", "-load", "-Xclang",
                  (char *)plugin, "-Xclang", "-analyzer-checker=core.builtin", "-Xclang",
                  list, "-Xclang", "-analyzer-config", "-Xclang", cfg, NULL};
  char *out = NULL;
  int rc = run_capture(argv, NULL, &out, true);
  const char *m = strstr(out, "error: krefcheck: ");
  if (m) {
    m += strlen("error: krefcheck: ");
    die_config("bad model file: %.*s", (int)strcspn(m, "\n"), m);
  }
  if (rc != 0) {
    const char *e = strstr(out, "error: ");
    e = e ? e : out;
    die_config("checking model file %s: clang failed: %.*s", model, (int)strcspn(e, "\n"),
               e);
  }
  free(out);
  free(cfg);
  free(list);
  free(abs);
}
