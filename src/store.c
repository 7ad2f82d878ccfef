#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "csv.h"
#include "csvread.h"
#include "machine.h"

int store_dir(char *buf, size_t n, char *why, size_t wn)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int k;
    /* The XDG spec: a relative XDG_DATA_HOME is invalid and ignored. */
    if (xdg && xdg[0] == '/')
        k = snprintf(buf, n, "%s/accelscope/results", xdg);
    else if (home && home[0])
        k = snprintf(buf, n, "%s/.local/share/accelscope/results", home);
    else {
        snprintf(why, wn, "no folder for saved runs: set XDG_DATA_HOME or HOME");
        return -1;
    }
    if (k < 0 || (size_t)k >= n) {
        snprintf(why, wn, "the folder for saved runs has too long a name");
        return -1;
    }
    return 0;
}

/* mkdir -p, each level private to the user where it is new. */
static int make_dirs(char *path, char *why, size_t wn)
{
    for (char *p = path + 1;; p++) {
        if (*p && *p != '/')
            continue;
        char c = *p;
        *p = 0;
        struct stat st;
        int bad = mkdir(path, 0700) && errno != EEXIST;
        if (!bad && (stat(path, &st) || !S_ISDIR(st.st_mode)))
            bad = 1, errno = ENOTDIR;
        if (bad) {
            snprintf(why, wn, "cannot create %s: %s", path, strerror(errno));
            *p = c;
            return -1;
        }
        *p = c;
        if (!c)
            return 0;
    }
}

void store_name(const char *host, time_t t, unsigned k, char *buf, size_t n)
{
    char h[64], ts[32], suffix[16] = "";
    size_t j = 0;
    for (const char *s = host; *s && j + 1 < sizeof h; s++)
        h[j++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                 (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_' ? *s : '_';
    h[j] = 0;
    struct tm tm;
    strftime(ts, sizeof ts, "%Y%m%dT%H%M%SZ", gmtime_r(&t, &tm));
    if (k > 1)
        snprintf(suffix, sizeof suffix, "-%u", k);
    snprintf(buf, n, "%s-%s%s.csv", j ? h : "host", ts, suffix);
}

int store_save(const struct cell *cells, size_t n, char *path_out, size_t pn, char *why,
               size_t wn)
{
    char dir[4096], name[256];
    if (store_dir(dir, sizeof dir, why, wn) || make_dirs(dir, why, wn))
        return -1;
    time_t now = time(NULL);
    for (unsigned k = 1; k < 1000; k++) {
        store_name(machine_get()->host, now, k, name, sizeof name);
        int len = snprintf(path_out, pn, "%s/%s", dir, name);
        if (len < 0 || (size_t)len >= pn) {
            snprintf(why, wn, "the name of a saved run is too long for its buffer");
            return -1;
        }
        struct stat st;
        if (!lstat(path_out, &st))
            continue;
        if (!csv_write_file(path_out, 0, cells, n, why, wn))
            return 0;
        if (lstat(path_out, &st)) /* not a name taken meanwhile: a real failure */
            return -1;
    }
    snprintf(why, wn, "%s: a thousand runs saved this second already", dir);
    return -1;
}

static void entry(const char *path, time_t mtime, struct store_entry *e)
{
    struct csvread_set s;
    memset(e, 0, sizeof *e);
    snprintf(e->path, sizeof e->path, "%s", path);
    e->mtime = mtime;
    if (csvread_head(path, 1, &s, e->why, sizeof e->why))
        return;
    if (!s.n)
        snprintf(e->why, sizeof e->why, "%.200s: no measurement in it", path);
    else {
        e->ok = 1;
        snprintf(e->host, sizeof e->host, "%s", s.rows[0].host);
        snprintf(e->cpu, sizeof e->cpu, "%s", s.rows[0].cpu);
        snprintf(e->timestamp, sizeof e->timestamp, "%s", s.rows[0].timestamp);
    }
    csvread_free(&s);
}

static void list_dir(const char *dir, struct store_entry **out, size_t *n, size_t *cap)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    while (d && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        char path[4096];
        struct stat st;
        if (len < 5 || strcasecmp(de->d_name + len - 4, ".csv") || de->d_name[0] == '.')
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path ||
            stat(path, &st) || !S_ISREG(st.st_mode))
            continue;
        for (size_t i = 0; i < *n; i++) /* the results folder given as extra too */
            if (!strcmp((*out)[i].path, path))
                goto next;
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 32;
            *out = realloc(*out, *cap * sizeof **out);
            if (!*out)
                abort();
        }
        entry(path, st.st_mtime, &(*out)[(*n)++]);
    next:;
    }
    if (d)
        closedir(d);
}

static int newest_first(const void *a, const void *b)
{
    const struct store_entry *x = a, *y = b;
    return x->mtime != y->mtime ? (x->mtime < y->mtime ? 1 : -1) : strcmp(x->path, y->path);
}

size_t store_list(const char *extra, struct store_entry **out)
{
    char dir[4096], why[256];
    size_t cap = 0, n = 0;
    *out = NULL;
    if (!store_dir(dir, sizeof dir, why, sizeof why))
        list_dir(dir, out, &n, &cap);
    if (extra)
        list_dir(extra, out, &n, &cap);
    if (n)
        qsort(*out, n, sizeof **out, newest_first);
    return n;
}
