/*
** capture/hercules/hercver.h — which Hercules a program is, from its version banner.
**
** fst drives two families of Hercules differently (capture/hercules/hercules.h): Debian's 3.13
** (`hercules -d -f CNF`, the script in HERCULES_RC, the log on stdout) and SDL Hercules
** "Hyperion" 4.x (`hercules -n -f CNF -r RC -o LOG` with stdin held open; from 4.6 on it
** traces to a binary file, `tf`, capture/read/tf.h). Which one a binary is, its banner says:
**   3.x   "Hercules Version 3.13"                      (first line on stdout)
**   4.x   "HHC01413I Hercules version 4.9.0.11581-SDL-g2d2c4054"   (log, time stamp
**         before it; also the version text in a tf file's header)
** fst_herc_banner reads one line; fst_herc_probe runs `PROGRAM --help=version` (3.13
** refuses the option after printing its banner; 4.x prints its version for it and ends)
** and reads its output for at most a few seconds.
**
** Ownership: plain values. Errors: fst_herc_probe returns -1 with err set when the program
** cannot be run; a program that prints no banner is 0 with v->major 0 (the caller says
** what it assumes).
*/
#ifndef FST_HERCVER_H
#define FST_HERCVER_H

#include "common/err.h"

#include <stddef.h>

typedef struct fst_herc_ver {
    int major, minor;   /* 3, 13 / 4, 9; 0, 0 when unknown */
    char text[64];      /* the version as printed: "3.13", "4.9.0.11581-SDL-g2d2c4054" */
} fst_herc_ver;

/* Tracing to a binary file (`tf`) came with 4.6. */
#define FST_HERC_TF_MAJOR 4
#define FST_HERC_TF_MINOR 6

/* 1 when the n bytes at s (one line, no newline needed) are a version banner, v filled;
** else 0, v untouched. */
int fst_herc_banner(const char *s, size_t n, fst_herc_ver *v);
/* 1 for SDL Hercules 4.x or later (the 4.x commands and messages). */
int fst_herc_is4(const fst_herc_ver *v);
/* 1 when its HTTP server answers /cgi-bin/api/v1/cpus (4.7 or later: capture/sample/sample.h). */
int fst_herc_has_api(const fst_herc_ver *v);
/* 1 when it has `tf` (4.6 or later). */
int fst_herc_has_tf(const fst_herc_ver *v);
/* Run `prog --help=version` (NULL: "hercules" on PATH) in folder `dir` and read its banner. */
int fst_herc_probe(const char *prog, const char *dir, fst_herc_ver *v, fst_err *err);

#endif
