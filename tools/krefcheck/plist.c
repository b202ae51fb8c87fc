/* A small parser for the XML property lists the analyzer writes
 * (-analyzer-output=plist / plist-multi-file): plist, dict, key, array,
 * string, integer, real, true, false; entities and CDATA in text; the XML
 * declaration, DOCTYPE and comments are skipped. Anything else is an error,
 * never a crash. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *s, *end;
  const char *p;
  char *err;
  int depth;
} parser;

static unsigned line_of(parser *ps) {
  unsigned l = 1;
  for (const char *q = ps->s; q < ps->p && q < ps->end; q++)
    l += *q == '\n';
  return l;
}

static void fail(parser *ps, const char *msg) {
  if (!ps->err)
    ps->err = xasprintf("line %u: %s", line_of(ps), msg);
}

static void skip_ws(parser *ps) {
  while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
                             *ps->p == '\r'))
    ps->p++;
}

static bool looking_at(parser *ps, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(ps->end - ps->p) >= n && memcmp(ps->p, lit, n) == 0;
}

/* Skips whitespace, comments, processing instructions and DOCTYPE. */
static void skip_misc(parser *ps) {
  for (;;) {
    skip_ws(ps);
    const char *close = NULL;
    if (looking_at(ps, "<!--"))
      close = "-->";
    else if (looking_at(ps, "<?"))
      close = "?>";
    else if (looking_at(ps, "<!DOCTYPE"))
      close = ">";
    else
      return;
    const char *e = memmem(ps->p, (size_t)(ps->end - ps->p), close, strlen(close));
    if (!e) {
      fail(ps, "unterminated comment or declaration");
      ps->p = ps->end;
      return;
    }
    ps->p = e + strlen(close);
  }
}

/* Reads a tag at p: "<name>", "</name>" or "<name/>", attributes ignored.
 * Returns the name (static buffer) and sets *closing / *empty. */
static const char *read_tag(parser *ps, bool *closing, bool *empty) {
  static char name[32];
  skip_misc(ps);
  if (ps->err)
    return NULL;
  if (ps->p >= ps->end || *ps->p != '<') {
    fail(ps, ps->p >= ps->end ? "unexpected end of input" : "expected a tag");
    return NULL;
  }
  ps->p++;
  *closing = false;
  *empty = false;
  if (ps->p < ps->end && *ps->p == '/') {
    *closing = true;
    ps->p++;
  }
  size_t n = 0;
  while (ps->p < ps->end && (((*ps->p | 32) >= 'a' && (*ps->p | 32) <= 'z'))) {
    if (n + 1 < sizeof name)
      name[n++] = *ps->p;
    ps->p++;
  }
  name[n] = 0;
  if (!n) {
    fail(ps, "expected a tag name");
    return NULL;
  }
  const char *gt = memchr(ps->p, '>', (size_t)(ps->end - ps->p));
  if (!gt) {
    fail(ps, "unterminated tag");
    return NULL;
  }
  if (gt > ps->p && gt[-1] == '/')
    *empty = true;
  ps->p = gt + 1;
  return name;
}

static void put_utf8(char **o, unsigned long cp) {
  char *q = *o;
  if (cp < 0x80)
    *q++ = (char)cp;
  else if (cp < 0x800) {
    *q++ = (char)(0xC0 | (cp >> 6));
    *q++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *q++ = (char)(0xE0 | (cp >> 12));
    *q++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *q++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *q++ = (char)(0xF0 | (cp >> 18));
    *q++ = (char)(0x80 | ((cp >> 12) & 0x3F));
    *q++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *q++ = (char)(0x80 | (cp & 0x3F));
  }
  *o = q;
}

/* Text content up to the closing tag </name>, entities decoded. */
static char *read_text(parser *ps, const char *name) {
  /* Decoded text is never longer than the raw text. */
  char *out = xmalloc((size_t)(ps->end - ps->p) + 1), *o = out;
  for (;;) {
    if (ps->p >= ps->end) {
      fail(ps, "unterminated text");
      break;
    }
    char c = *ps->p;
    if (c == '<') {
      if (looking_at(ps, "<![CDATA[")) {
        const char *s = ps->p + 9;
        const char *e = memmem(s, (size_t)(ps->end - s), "]]>", 3);
        if (!e) {
          fail(ps, "unterminated CDATA");
          break;
        }
        memcpy(o, s, (size_t)(e - s));
        o += e - s;
        ps->p = e + 3;
        continue;
      }
      if (looking_at(ps, "<!--")) {
        const char *e = memmem(ps->p, (size_t)(ps->end - ps->p), "-->", 3);
        if (!e) {
          fail(ps, "unterminated comment");
          break;
        }
        ps->p = e + 3;
        continue;
      }
      bool closing, empty;
      const char *t = read_tag(ps, &closing, &empty);
      if (!t)
        break;
      if (!closing || strcmp(t, name) != 0) {
        fail(ps, "unexpected tag inside text");
        break;
      }
      *o = 0;
      return out;
    }
    if (c == '&') {
      const char *semi = memchr(ps->p, ';', (size_t)(ps->end - ps->p) < 12 ? (size_t)(ps->end - ps->p) : 12);
      if (!semi) {
        fail(ps, "bad entity");
        break;
      }
      const char *e = ps->p + 1;
      size_t n = (size_t)(semi - e);
      if (n == 2 && !memcmp(e, "lt", 2))
        *o++ = '<';
      else if (n == 2 && !memcmp(e, "gt", 2))
        *o++ = '>';
      else if (n == 3 && !memcmp(e, "amp", 3))
        *o++ = '&';
      else if (n == 4 && !memcmp(e, "quot", 4))
        *o++ = '"';
      else if (n == 4 && !memcmp(e, "apos", 4))
        *o++ = '\'';
      else if (n >= 2 && e[0] == '#') {
        char *endp;
        unsigned long cp = (e[1] == 'x' || e[1] == 'X') ? strtoul(e + 2, &endp, 16)
                                                        : strtoul(e + 1, &endp, 10);
        if (endp != semi || cp == 0 || cp > 0x10FFFF) {
          fail(ps, "bad character reference");
          break;
        }
        put_utf8(&o, cp); /* "&#N;" is >= 4 bytes: never longer */
      } else {
        fail(ps, "unknown entity");
        break;
      }
      ps->p = semi + 1;
      continue;
    }
    *o++ = c;
    ps->p++;
  }
  free(out);
  return NULL;
}

static plist_t *new_node(pl_type t) {
  plist_t *n = xcalloc(1, sizeof *n);
  n->type = t;
  return n;
}

static void add_kid(plist_t *p, char *key, plist_t *kid) {
  p->kids = xrealloc(p->kids, (p->n + 1) * sizeof *p->kids);
  if (p->type == PL_DICT)
    p->keys = xrealloc(p->keys, (p->n + 1) * sizeof *p->keys);
  p->kids[p->n] = kid;
  if (p->type == PL_DICT)
    p->keys[p->n] = key;
  p->n++;
}

/* Parses a value whose opening tag NAME was just read. */
static plist_t *parse_value(parser *ps, const char *tag, bool empty);

static plist_t *parse_next(parser *ps, const char *container, bool *ended) {
  bool closing, empty;
  const char *t = read_tag(ps, &closing, &empty);
  *ended = false;
  if (!t)
    return NULL;
  if (closing) {
    if (strcmp(t, container) != 0)
      fail(ps, "mismatched closing tag");
    else
      *ended = true;
    return NULL;
  }
  char name[32];
  snprintf(name, sizeof name, "%s", t);
  return parse_value(ps, name, empty);
}

static plist_t *parse_value(parser *ps, const char *tag, bool empty) {
  if (++ps->depth > 200) {
    fail(ps, "nesting too deep");
    return NULL;
  }
  plist_t *n = NULL;
  if (!strcmp(tag, "dict") || !strcmp(tag, "array")) {
    bool dict = tag[0] == 'd';
    n = new_node(dict ? PL_DICT : PL_ARRAY);
    while (!empty) {
      bool ended;
      char *key = NULL;
      if (dict) {
        bool closing, e2;
        const char *t = read_tag(ps, &closing, &e2);
        if (!t)
          goto bad;
        if (closing) {
          if (strcmp(t, "dict")) {
            fail(ps, "mismatched closing tag");
            goto bad;
          }
          break;
        }
        if (strcmp(t, "key")) {
          fail(ps, "expected <key> in <dict>");
          goto bad;
        }
        key = e2 ? xstrdup("") : read_text(ps, "key");
        if (!key)
          goto bad;
      }
      plist_t *kid = parse_next(ps, tag, &ended);
      if (ended && dict) {
        free(key);
        fail(ps, "<key> without a value");
        goto bad;
      }
      if (ended)
        break;
      if (!kid) {
        free(key);
        goto bad;
      }
      add_kid(n, key, kid);
    }
  } else if (!strcmp(tag, "string") || !strcmp(tag, "real") || !strcmp(tag, "integer")) {
    char *text = empty ? xstrdup("") : read_text(ps, tag);
    if (!text)
      goto bad;
    if (tag[0] == 'i') {
      n = new_node(PL_INTEGER);
      char *endp;
      const char *s = text;
      while (*s == ' ' || *s == '\n' || *s == '\t')
        s++;
      n->integer = strtoll(s, &endp, 10);
      while (*endp == ' ' || *endp == '\n' || *endp == '\t')
        endp++;
      if (endp == s || *endp) {
        free(text);
        fail(ps, "bad <integer>");
        goto bad;
      }
      free(text);
    } else {
      n = new_node(tag[0] == 's' ? PL_STRING : PL_REAL);
      n->str = text;
    }
  } else if (!strcmp(tag, "true") || !strcmp(tag, "false")) {
    n = new_node(tag[0] == 't' ? PL_TRUE : PL_FALSE);
    if (!empty) {
      bool closing, e2;
      const char *t = read_tag(ps, &closing, &e2);
      if (!t || !closing || strcmp(t, tag)) {
        fail(ps, "bad boolean");
        goto bad;
      }
    }
  } else {
    fail(ps, "unsupported element");
    return NULL;
  }
  ps->depth--;
  return n;
bad:
  plist_free(n);
  return NULL;
}

plist_t *plist_parse(const char *text, size_t len, char **err) {
  parser ps = {text, text + len, text, NULL, 0};
  *err = NULL;
  if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
      (unsigned char)text[2] == 0xBF)
    ps.p += 3;
  bool closing, empty;
  const char *t = read_tag(&ps, &closing, &empty);
  plist_t *root = NULL;
  if (t && !closing && !strcmp(t, "plist") && !empty) {
    bool ended;
    root = parse_next(&ps, "plist", &ended);
    if (root) {
      const char *t2 = read_tag(&ps, &closing, &empty);
      if (!t2 || !closing || strcmp(t2, "plist")) {
        fail(&ps, "expected </plist>");
        plist_free(root);
        root = NULL;
      } else {
        skip_misc(&ps);
        if (ps.p != ps.end) {
          fail(&ps, "trailing content after </plist>");
          plist_free(root);
          root = NULL;
        }
      }
    } else if (ended) {
      fail(&ps, "empty <plist>");
    }
  } else if (t) {
    fail(&ps, "expected <plist>");
  }
  if (!root)
    *err = ps.err ? ps.err : xstrdup("parse error");
  else
    free(ps.err);
  return root;
}

void plist_free(plist_t *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->n; i++) {
    plist_free(p->kids[i]);
    if (p->keys)
      free(p->keys[i]);
  }
  free(p->kids);
  free(p->keys);
  free(p->str);
  free(p);
}

const plist_t *pl_get(const plist_t *d, const char *key) {
  if (!d || d->type != PL_DICT)
    return NULL;
  for (size_t i = 0; i < d->n; i++)
    if (!strcmp(d->keys[i], key))
      return d->kids[i];
  return NULL;
}
const char *pl_str(const plist_t *d, const char *key) {
  const plist_t *v = pl_get(d, key);
  return v && v->type == PL_STRING ? v->str : NULL;
}
long long pl_int(const plist_t *d, const char *key, long long dflt) {
  const plist_t *v = pl_get(d, key);
  return v && v->type == PL_INTEGER ? v->integer : dflt;
}
