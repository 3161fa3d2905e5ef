/*
** formats/jsonw.h — small helpers shared by the JSON writers (formats/json.c,
** formats/speedscope.c) and by the integer time units of the text formats.
**
** fst_json_str writes a JSON string literal (quotes included) with every character that
** JSON forbids raw escaped (", \, control characters); bytes >= 0x80 are passed through
** (names are ASCII in practice; a map with Latin-1 names would give invalid UTF-8, so
** those are written as \u00XX). Returns the fprintf-style result: < 0 when writing failed.
**
** fst_fx_to_ns rounds fst_fx to the nearest nanosecond, ties up: the same rounding as the
** 9-decimal seconds of the csv format (formats/fmt.c), so ns printed here equal csv's.
** fst_rounder spreads a sum of fx over parts printed as integers so that the printed parts
** add up exactly to the rounded whole: each part is round(sum so far) - round(sum before).
*/
#ifndef FST_JSONW_H
#define FST_JSONW_H

#include "analyze/cost/clock.h"

#include <stdint.h>
#include <stdio.h>

int fst_json_str(FILE *out, const char *s);


/* time units of the text formats: instructions, ns, TOD units (1/4096 us) */
typedef enum fst_tunit { FST_TU_INSNS, FST_TU_NS, FST_TU_TOD } fst_tunit;
/* parse "instructions" | "ns" | "tod" (NULL -> dflt); -1 when unknown */
int fst_tunit_parse(const char *s, fst_tunit dflt);
uint64_t fst_tunit_of(fst_tunit u, fst_fx x);   /* ns or TOD, rounded; not for INSNS */

typedef struct fst_rounder {
    fst_tunit unit;
    fst_fx sum;
    uint64_t printed;
} fst_rounder;
/* the next part, in unit (for FST_TU_INSNS, `insns` is returned as it is) */
uint64_t fst_rounder_next(fst_rounder *r, fst_fx cost, uint64_t insns);

#endif
