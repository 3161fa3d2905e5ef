/*
** capture/read/sniff.h — what kind of file a path holds, told from its first bytes, so that a
** command given the wrong kind can say what the file is and what to run instead
** ("hercules.log looks like a Hercules log: fst-capture --from-log=...").
**
** Contract: fst_sniff reads at most FST_SNIFF_BYTES from the start of a regular file and
** never fails: a file it cannot open or read, or a pipe (whose bytes it must not take),
** is FST_SNIFF_UNKNOWN. It prints nothing and allocates nothing. fst_sniff_hint writes one
** sentence about a Hercules log or tf file to hint[cap] (empty for any other kind).
*/
#ifndef FST_SNIFF_H
#define FST_SNIFF_H

#include <stddef.h>

#define FST_SNIFF_BYTES 8192

typedef enum fst_sniff_kind {
    FST_SNIFF_UNKNOWN = 0,
    FST_SNIFF_TRACE,    /* an fst trace (FSTTRACE magic) */
    FST_SNIFF_HLOG,     /* a Hercules 3.13 or 4.x log: its messages (HHCnnnnnX) or trace lines */
    FST_SNIFF_TF,       /* an SDL Hercules 4.x binary trace file (%TF) */
} fst_sniff_kind;

fst_sniff_kind fst_sniff(const char *path);
/* "PATH looks like a Hercules log: to make a trace of it, fst-capture --from-log=PATH -o
** TRACE" (and the same for a tf file with --from-tf, and "PATH is an fst trace already:
** fst-report PATH" for a trace); "" for other kinds. */
void fst_sniff_hint(fst_sniff_kind k, const char *path, char *hint, size_t cap);

#endif
