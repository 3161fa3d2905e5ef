/*
** trace/imgcheck.h — does a storage image hold the code a trace executed? For
** `fst-capture --from-log=LOG --image=PROGRAM.ins` (and --from-tf): an image of another
** program is accepted byte for byte into the trace, and every report made from it is then
** plausible and wrong (routines found in the image that never ran, a traced range that
** "cuts through" one). The evidence is in the trace itself: each instruction record holds
** the bytes Hercules executed, and the image holds the bytes at that address.
**
** fst_image_check reads the trace at `path` from its start and compares the bytes of
** each instruction address inside the image, at its first execution, with the image's, up
** to `max` addresses (a loop is one piece of evidence; a long trace is not read through).
** A program may change a few of its own instructions (a branch switched on, an operand
** set), so a couple of differing addresses prove nothing; another build of another program
** differs in its constants and offsets throughout: the image is judged another program's
** when at least 3 and more than a tenth of at least 16 addresses compared differ
** (fst_image_foreign; fortg's trace against forth's image, the same code shape with other
** constants: 12 of 50 differ). Errors: -1 with err set when the trace cannot be read.
** Ownership: nothing is kept; the result is plain values.
*/
#ifndef FST_IMGCHECK_H
#define FST_IMGCHECK_H

#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct fst_imgcheck {
    uint64_t compared;      /* instruction addresses inside the image whose bytes were compared */
    uint64_t differ;        /* of them, how many the image holds other bytes at */
    uint64_t first_addr;    /* the first that differed */
    uint8_t traced[6], image[6];
    unsigned len;
} fst_imgcheck;

int fst_image_check(const char *path, uint64_t max, fst_imgcheck *res, fst_err *err);
/* 1 when the comparison says the image is another program's. */
int fst_image_foreign(const fst_imgcheck *res);
/* One sentence for a foreign image: what differs where and what to do (msg[cap]). */
void fst_image_say(const fst_imgcheck *res, const char *image, const char *trace, char *msg, size_t cap);

#endif
