/*
** capture/module/fstmod_job.h — when a console line says a job started or ended: JES2's
** `$HASP373 NAME STARTED` and `$HASP395 NAME ENDED` (MVS 3.8J under TK4- and MVS/CE).
** One rule for both sides that cut a job's window: fst's module inside Hercules, which
** starts and ends recording at those lines (fstmod.c, "console lines"), and fst's reader of
** a text log (capture/read/jobwin.c). Plain C, no Hercules header, no fst header.
**
** The rule: the message id (`$HASP373`), then blanks, then the job's name as JES2 prints it
** (upper case) followed by a blank, and the word (`STARTED`) somewhere after it in the
** line. A name is 1 to 8 letters, digits, $, # or @.
*/
#ifndef FSTMOD_JOB_H
#define FSTMOD_JOB_H

#include <stddef.h>
#include <string.h>

#define FSTMOD_JOB_START "$HASP373", "STARTED"
#define FSTMOD_JOB_END "$HASP395", "ENDED"

/* The first w[0..wl) in s[0..n), or NULL (memmem is a GNU extension). */
static inline const char *fstmod_find(const char *s, size_t n, const char *w, size_t wl)
{
    for (const char *p = s, *end = s + n; wl && (size_t)(end - p) >= wl; p++) {
        p = (const char *)memchr(p, w[0], (size_t)(end - p) - wl + 1);
        if (!p)
            return NULL;
        if (!memcmp(p, w, wl))
            return p;
    }
    return NULL;
}

/* 1 when the line s[0..n) is message `msg` about job `name` (namelen characters, upper
** case) and says `what` after the name. */
static inline int fstmod_job_says(const char *s, size_t n, const char *name, size_t namelen, const char *msg,
                                  const char *what)
{
    size_t ml = strlen(msg), wl = strlen(what);
    for (const char *p = s, *end = s + n; (p = fstmod_find(p, (size_t)(end - p), msg, ml)); p += ml) {
        const char *q = p + ml;
        while (q < end && *q == ' ')
            q++;
        if ((size_t)(end - q) < namelen + 1 || memcmp(q, name, namelen) || q[namelen] != ' ')
            continue;
        q += namelen;
        return fstmod_find(q, (size_t)(end - q), what, wl) != NULL;
    }
    return 0;
}

/* 1 when name is a job name; its upper-case form into up (9 bytes). */
static inline int fstmod_job_name(const char *name, char up[9])
{
    size_t n = strlen(name);
    if (!n || n > 8)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$' || c == '#' || c == '@'))
            return 0;
        up[i] = c;
    }
    up[n] = 0;
    return 1;
}

#endif
