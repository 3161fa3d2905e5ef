/*
** analyze/cost/clock_int.h — the clock's private parts, shared by clock.c (specs, pricing),
** clock_load.c (the model table) and costrule.c (the class rules and the default).
** Not for use outside those three files.
*/
#ifndef FST_CLOCK_INT_H
#define FST_CLOCK_INT_H

#include "analyze/cost/clock.h"

enum { U_NONE, U_BYTE, U_REG, U_DIGIT };
enum { V_ANY, V_TAKEN, V_NOT, V_COUNT };
enum { CL_REG, CL_STOR, CL_SS, CL_COUNT };

typedef struct row {
    int64_t base_ps, per_ps;
    fst_fx flat;        /* U_NONE: the whole cost */
    uint8_t unit;
    uint8_t set;
    unsigned line;      /* where the row was (for duplicate messages) */
} row;

typedef struct entry {
    row v[V_COUNT];
    uint8_t pick[2];    /* the row for not taken [0] / taken [1] */
    uint8_t modeled;    /* 0: no row of its own: priced by a rule or the default, counted */
    uint8_t digit_l2;   /* "digit" counts the second operand (UNPK) */
    uint8_t how;        /* FST_PRICE_ROW, _RULE or _DEFAULT */
    const char *rule;   /* FST_PRICE_RULE: the rule (costrule.h) */
} entry;

enum { NCLASS = 8 };

struct fst_clock {
    int kind;
    char *name;
    fst_fx mips;              /* FST_CLOCK_MIPS: every instruction */
    entry *ents;              /* FST_CLOCK_MODEL: fst_op_count() entries */
    unsigned nops;            /* how many (fst_clock_how asks for every op) */
    fst_fx dflt[CL_COUNT];    /* class medians, for unknown opcodes */
    row cls[NCLASS];          /* the table's class rows, as fst_cost_classes() names them */
    uint64_t *unmod;          /* per op id: priced without a row */
    fst_clock_stats st;
};

/* Picoseconds to fx: 0 for negatives, saturated. */
static inline fst_fx ps_to_fx(int64_t ps)
{
    if (ps <= 0)
        return 0;
    if ((uint64_t)ps > UINT64_MAX / FST_FX_PER_PS)
        return UINT64_MAX;
    return (uint64_t)ps * FST_FX_PER_PS;
}

/* Op ids by mnemonic, case-insensitive, while a table loads (fst_op_find searches 1232
** names one by one: a table's rows and the rules would cost ~40 ms). clock_load.c. */
typedef struct fst_opnames {
    uint16_t slot[4096];    /* op id, 0 = empty; open addressing */
    uint32_t hash[4096];    /* its name's hash: most names are told apart without a compare */
} fst_opnames;
void fst_opnames_init(fst_opnames *ix);
int fst_opnames_find(const fst_opnames *ix, const char *mnem);  /* -1 when none */

/* After loading a table: the row each outcome picks, the class rules of the opcodes
** without rows, the class medians for the rest (costrule.c). */
void fst_clock_resolve(fst_clock *c, const fst_opnames *ix);

#endif
