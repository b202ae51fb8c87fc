/* Reports written whole or not at all: each output file (or the HTML
 * report's directory) is written under a temporary name in the same
 * directory and renamed into place once complete. SIGINT/SIGTERM before
 * that removes the temporary file, says so on stderr and leaves the previous
 * report as it was; SIGINT/SIGTERM while the reports are being renamed into
 * place is held back until they are. Two runs writing one path each rename
 * a whole report, the last one wins. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OUTFILES 8

/* Pending outputs, read by the signal handler: the temporary path to remove
 * (files only; a directory is only created while signals are blocked) and
 * the line to print. */
static struct {
  volatile sig_atomic_t live;
  char *tmp;
  char *msg;
} pending[MAX_OUTFILES];

static bool handlers_installed;

static void write_str(const char *s) {
  size_t n = strlen(s);
  while (n) {
    ssize_t w = write(2, s, n);
    if (w <= 0)
      return;
    s += w;
    n -= (size_t)w;
  }
}

void outfiles_abandon(int sig) {
  static volatile sig_atomic_t once;
  if (once)
    return;
  once = 1;
  for (int i = 0; i < MAX_OUTFILES; i++)
    if (pending[i].live) {
      if (pending[i].tmp)
        unlink(pending[i].tmp);
      write_str(sig == SIGINT ? "krefcheck: interrupted (SIGINT): "
                              : "krefcheck: interrupted (SIGTERM): ");
      write_str(pending[i].msg);
    }
}

static void on_fatal_signal(int sig) {
  outfiles_abandon(sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_handlers(void) {
  if (handlers_installed)
    return;
  handlers_installed = true;
  struct sigaction sa = {0};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* The path to replace: a symbolic link's target (the link stays). */
static char *resolve_target(const char *path) {
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
    char *r = realpath(path, NULL);
    if (r)
      return r;
  }
  return xstrdup(path);
}

static char *tmp_template(const char *target) {
  const char *slash = strrchr(target, '/');
  const char *base = slash ? slash + 1 : target;
  return xasprintf("%.*s.%s.krefcheck-tmp-XXXXXX", slash ? (int)(slash - target + 1) : 0, target,
                   base);
}

static int register_pending(char *tmp, const char *path, bool existed) {
  install_handlers();
  for (int i = 0; i < MAX_OUTFILES; i++)
    if (!pending[i].live) {
      pending[i].tmp = tmp;
      pending[i].msg = existed ? xasprintf("%s not written, the previous one is left as it "
                                           "was\n",
                                           path)
                               : xasprintf("%s not written\n", path);
      pending[i].live = 1;
      return i;
    }
  die_config("too many output files");
}

void outfile_open(outfile_t *o, const char *path, bool directory) {
  memset(o, 0, sizeof *o);
  o->path = xstrdup(path);
  o->target = resolve_target(path);
  struct stat st;
  bool existed = stat(o->target, &st) == 0;
  o->mode = 0666;
  if (directory) {
    if (existed && !S_ISDIR(st.st_mode))
      die_config("cannot write the HTML report to %s: it exists and is not a directory", path);
    if (existed) {
      /* Replace only a report of ours or an empty directory: -o src/ must
       * not delete a source tree. */
      char *marker = xasprintf("%s/" HTML_MARKER, o->target);
      bool ours = access(marker, F_OK) == 0;
      free(marker);
      if (!ours) {
        DIR *d = opendir(o->target);
        struct dirent *e;
        while (d && (e = readdir(d)))
          if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            break;
        bool empty = d && !e;
        if (d)
          closedir(d);
        if (!empty)
          die_config("cannot write the HTML report to %s: the directory exists and is not "
                     "a krefcheck HTML report (no " HTML_MARKER ")",
                     path);
      }
    }
    /* Checks that the parent is writable now, before any analysis. */
    char *t = tmp_template(o->target);
    if (!mkdtemp(t))
      die_config("cannot write %s: %s", path, strerror(errno));
    rmdir(t);
    free(t);
    o->directory = true;
    o->slot = register_pending(NULL, path, existed);
    return;
  }
  if (existed && !S_ISREG(st.st_mode)) {
    /* /dev/stdout, a FIFO, /dev/null: written in place, never replaced. */
    if (!(o->f = fopen(o->target, "w")))
      die_config("cannot write %s: %s", path, strerror(errno));
    o->slot = -1;
    return;
  }
  if (existed)
    o->mode = st.st_mode & 07777;
  else {
    mode_t um = umask(0);
    umask(um);
    o->mode = 0666 & ~um;
  }
  o->tmp = tmp_template(o->target);
  int fd = mkstemp(o->tmp);
  if (fd < 0)
    die_config("cannot write %s: %s", path, strerror(errno));
  o->slot = register_pending(o->tmp, path, existed);
  if (!(o->f = fdopen(fd, "w")))
    die_config("cannot write %s: %s", path, strerror(errno));
}

static sigset_t held;
static int holding;

void outfiles_hold_signals(void) {
  if (holding++)
    return;
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigprocmask(SIG_BLOCK, &s, &held);
}

void outfiles_release_signals(void) {
  if (--holding)
    return;
  sigprocmask(SIG_SETMASK, &held, NULL);
}

static int rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(p);
}

static void remove_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

char *outfile_begin_dir(outfile_t *o) {
  o->tmp = tmp_template(o->target);
  if (!mkdtemp(o->tmp))
    die_config("cannot write %s: %s", o->path, strerror(errno));
  mode_t um = umask(0);
  umask(um);
  chmod(o->tmp, 0777 & ~um);
  return o->tmp;
}

static void fail_commit(outfile_t *o, const char *what) {
  int e = errno;
  if (o->directory)
    remove_tree(o->tmp);
  else if (o->tmp)
    unlink(o->tmp);
  die_config("cannot write %s: %s: %s", o->path, what, strerror(e));
}

void outfile_commit(outfile_t *o) {
  if (o->directory) {
    struct stat st;
    if (stat(o->target, &st) == 0) {
      /* Swap the new directory with the old one in one step, then remove
       * the old one; where the file system cannot exchange, move the old
       * one aside first. */
      if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target, RENAME_EXCHANGE) == 0) {
        remove_tree(o->tmp);
      } else {
        char *aside = tmp_template(o->target);
        if (!mkdtemp(aside))
          fail_commit(o, "cannot create a temporary directory");
        rmdir(aside);
        if (rename(o->target, aside) != 0 || rename(o->tmp, o->target) != 0)
          fail_commit(o, "cannot rename the report into place");
        remove_tree(aside);
        free(aside);
      }
    } else if (rename(o->tmp, o->target) != 0) {
      fail_commit(o, "cannot rename the report into place");
    }
  } else {
    if (fflush(o->f) != 0 || ferror(o->f)) {
      fclose(o->f);
      fail_commit(o, "write error");
    }
    if (o->tmp) {
      fchmod(fileno(o->f), o->mode);
      fsync(fileno(o->f));
    }
    if (fclose(o->f) != 0)
      fail_commit(o, "write error");
    o->f = NULL;
    if (o->tmp && rename(o->tmp, o->target) != 0)
      fail_commit(o, "cannot rename the report into place");
  }
  if (o->slot >= 0)
    pending[o->slot].live = 0;
}
