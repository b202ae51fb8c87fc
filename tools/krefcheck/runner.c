/* Child processes: the parallel analyzer runs (own process group each, a
 * per-job timeout that kills the group) and small captured commands. */
#define _GNU_SOURCE
#include "krefcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Process groups still running, for the SIGINT/SIGTERM handler. */
static volatile pid_t *live_pids;
static volatile size_t live_n;

static void on_signal(int sig) {
  for (size_t i = 0; i < live_n; i++)
    if (live_pids[i] > 0)
      kill(-live_pids[i], SIGKILL);
  outfiles_abandon(sig);
  signal(sig, SIG_DFL);
  raise(sig);
}

static pid_t spawn_job(job_t *j) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, j->stderr_path,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (j->cwd)
    posix_spawn_file_actions_addchdir_np(&fa, j->cwd);
  posix_spawnattr_setpgroup(&at, 0);
  sigset_t def;
  sigemptyset(&def);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  sigaddset(&def, SIGPIPE);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  pid_t pid;
  int rc = posix_spawn(&pid, j->argv.v[0], &fa, &at, j->argv.v, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  if (rc != 0) {
    FILE *f = fopen(j->stderr_path, "w");
    if (f) {
      fprintf(f, "cannot run %s: %s\n", j->argv.v[0], strerror(rc));
      fclose(f);
    }
    return -1;
  }
  return pid;
}

void (*run_jobs_tick)(void *ctx);

void run_jobs(job_t *jobs, size_t n, unsigned jobs_max, double timeout,
              job_done_fn done, void *ctx) {
  double last_tick = now_seconds();
  if (jobs_max == 0)
    jobs_max = 1;
  size_t *slot_job = xcalloc(jobs_max, sizeof *slot_job);
  pid_t *slot_pid = xcalloc(jobs_max, sizeof *slot_pid);
  bool *slot_killed = xcalloc(jobs_max, sizeof *slot_killed);
  live_pids = slot_pid;
  live_n = jobs_max;
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);

  size_t next = 0, running = 0;
  while (next < n || running) {
    /* Fill free slots. */
    for (unsigned s = 0; s < jobs_max && next < n; s++) {
      if (slot_pid[s] > 0)
        continue;
      job_t *j = &jobs[next];
      j->started = now_seconds();
      pid_t pid = spawn_job(j);
      if (pid < 0) {
        j->status = JOB_SPAWN;
        j->exit_code = -1;
        j->seconds = 0;
        done(j, next, ctx);
        next++;
        s--; /* reuse the slot */
        continue;
      }
      j->pid = pid;
      slot_pid[s] = pid;
      slot_job[s] = next;
      slot_killed[s] = false;
      next++;
      running++;
    }
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    if (pid > 0) {
      for (unsigned s = 0; s < jobs_max; s++) {
        if (slot_pid[s] != pid)
          continue;
        job_t *j = &jobs[slot_job[s]];
        /* Make sure nothing of the group outlives the job. */
        kill(-pid, SIGKILL);
        slot_pid[s] = 0;
        running--;
        j->seconds = now_seconds() - j->started;
        if (slot_killed[s]) {
          j->status = JOB_TIMEOUT;
          j->exit_code = -1;
        } else if (WIFSIGNALED(st)) {
          j->status = JOB_CRASHED;
          j->exit_code = WTERMSIG(st);
        } else {
          j->exit_code = WEXITSTATUS(st);
          j->status = j->exit_code == 0 ? JOB_OK : JOB_FAILED;
        }
        done(j, slot_job[s], ctx);
        break;
      }
      continue;
    }
    if (pid < 0 && errno == ECHILD && running) {
      /* Should not happen; avoid spinning forever. */
      break;
    }
    if (timeout > 0) {
      double t = now_seconds();
      for (unsigned s = 0; s < jobs_max; s++)
        if (slot_pid[s] > 0 && !slot_killed[s] &&
            t - jobs[slot_job[s]].started > timeout) {
          kill(-slot_pid[s], SIGKILL);
          slot_killed[s] = true;
        }
    }
    if (run_jobs_tick && now_seconds() - last_tick >= 1.0) {
      last_tick = now_seconds();
      run_jobs_tick(ctx);
    }
    struct timespec ts = {0, 5 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  live_n = 0;
  live_pids = NULL;
  free(slot_job);
  free(slot_pid);
  free(slot_killed);
}

int run_capture(char *const argv[], const char *cwd, char **out, bool merge_stderr) {
  int fds[2];
  if (pipe(fds) != 0)
    return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  if (merge_stderr)
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  else
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  if (cwd)
    posix_spawn_file_actions_addchdir_np(&fa, cwd);
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    if (out)
      *out = xstrdup("");
    return -1;
  }
  size_t cap = 4096, n = 0;
  char *buf = xmalloc(cap + 1);
  ssize_t r;
  while ((r = read(fds[0], buf + n, cap - n)) != 0) {
    if (r < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    n += (size_t)r;
    if (n == cap)
      buf = xrealloc(buf, (cap *= 2) + 1);
  }
  buf[n] = 0;
  close(fds[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (out)
    *out = buf;
  else
    free(buf);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *file_tail(const char *path, unsigned nlines) {
  size_t len;
  char *text = read_file(path, &len);
  if (!text)
    return xstrdup("");
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
    text[--len] = 0;
  size_t i = len;
  unsigned seen = 0;
  while (i > 0) {
    if (text[i - 1] == '\n' && ++seen == nlines)
      break;
    i--;
  }
  char *r = xstrdup(text + i);
  free(text);
  return r;
}
