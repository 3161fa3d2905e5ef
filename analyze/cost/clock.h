/*
** analyze/cost/clock.h — what an instruction costs (DESIGN §4).
**
** A trace records what executed; a clock says how long it took. Two clocks:
**
**   mips:R          every instruction costs 1/R microseconds (R decimal: 1, 4.66, 0.62)
**   model[:FILE]    a per-instruction cost table (CSV); without FILE the shipped
**                   data/cost-p390.csv (IBM P/390 measurements, see data/README.md)
**
** The unit: fst_fx, an unsigned 64-bit count of 1/512 picosecond.
**
**     1 TOD unit (1/4096 us: TOD bit 51 = 1 us) = 125000 fx
**     1 ns = 512000 fx        1 us = 512000000 fx = 4096 TOD units
**
** Why this unit: it is the coarsest one in which both a TOD unit (1/4096 us) and a
** picosecond are whole numbers, so every cost in the table (ns with up to 3 decimals)
** is exact, a TOD stamp converts exactly, and mips:R is exact whenever R's decimal
** numerator has no prime factor but 2 and 5 (mips:1 = 512000000 fx = 4096 TOD exactly,
** mips:4 = 1024 TOD, mips:5, mips:0.5, mips:12.5...). Otherwise (mips:3, mips:4.66) the
** cost per instruction is rounded to the nearest fx, ties up: an error below 1
** femtosecond per instruction, under 1 us in 10^9 instructions. Sums are plain integer
** additions: never floating point. A uint64 holds 2^64 fx = 36028 s (10 h) of CPU time.
**
** Keep totals in fx and convert once, for printing: fst_fx_to_tod rounds to the nearest
** TOD unit, so converting parts and adding them need not give the converted whole;
** conservation checks (DESIGN §4) compare fx.
**
** The model CSV (read with libcsv). Lines starting with '#' (between records) are
** comments; the first record is the header; columns are found by name, in any order;
** unknown columns are ignored:
**
**   mnemonic     required. As fst_decode names it ("BALR", "MVC"); case-insensitive;
**                or a class row's name ("@vector", see the rules below).
**   opcode       optional check: if not empty it must be the decoder's opcode for the
**                mnemonic in POO notation ("05", "B205", "A75", "E304").
**   variant      empty, "taken" or "not-taken" (branches only; also "not taken").
**   unit         "-" or empty: a flat cost; "byte": per operand byte (SS: L+1, or L1+1
**                for two-length SS like AP; MVCL CLCL MVCLE CLCLE: the length in the
**                registers, see below); "reg": per register of R1..R3 (LM, STM,
**                wrapping 15 -> 0: STM 14,12 = 15); "digit": per digit of the packed
**                operand (2*(L+1)-1: L1 for PACK, MVO, AP..., L2 for UNPK).
**   base_ns      required. Decimal nanoseconds; rounded to the picosecond; may be
**                negative (a fit's intercept) as long as the total is not.
**   per_unit_ns  decimal ns per unit; empty = 0; must be 0 when unit is "-".
**   source       free text: where the figure comes from.
**
**   cost = base_ns + per_unit_ns * units, computed in picoseconds, clamped at 0.
**
** A bad file is an error naming file:line (missing column, wrong field count, bad
** number, unknown unit, variant or mnemonic, opcode mismatch, duplicate row, a unit the
** instruction has no count for).
**
** Rules and assumptions of the model clock:
**   - Branches: `taken` is 1, 0, or FST_TAKEN_UNKNOWN. An instruction that cannot
**     branch (fst_insn flags: no CANBRANCH, e.g. BALR 14,0, BCR 0,0) prices as not
**     taken, one that always branches as taken, whatever the argument; for a
**     conditional branch of unknown outcome the taken row is used. Row choice: the row
**     of the outcome, else the variant-less row, else the other outcome's row.
**   - Register lengths: MVCL/CLCL/MVCLE/CLCLE/MVCLU/CLCLU/MVCK/MVCP/MVCS take their
**     lengths from registers, which a trace may not carry. fst_clock_cost_n takes the
**     count from the caller (e.g. from a traced R1+1); when it is unknown the
**     instruction is priced at its base cost (0 bytes) and counted in
**     fst_clock_stats.no_length. For the P/390 MVCL the base (937.5 ns) is close to a
**     measured 10-byte move (866.8 ns): short moves are right, long ones undercounted.
**   - CLC, CLCL and TRT are priced for the full length (as if no early end): an upper
**     bound, since the trace does not show where they stopped.
**   - EX/EXRL: Hercules traces the EX only, not the instruction it executes; the clock
**     prices the EX alone. A caller that can fetch the target may add its cost.
**   - An instruction with no row is priced by its class rule (analyze/cost/costrule.h, the
**     reasoning in data/README.md): as another instruction's row ("AGFR as AR": the
**     same operation in another form), as the sum of two flat rows ("CRJ as CR+BRC":
**     compare and branch), or as a class row of the table ("@vector"). A class row is
**     a line whose mnemonic is "@control", "@fp" or "@vector" (no opcode, no variant,
**     unit "-"). The borrowed row keeps its unit when the instruction has that count
**     (its own lengths, registers), else its base alone. A rule whose row the table
**     lacks falls back to the rule of that instruction, then to the default.
**   - The default, for an instruction with neither row nor usable rule (and for an
**     unknown opcode): the median base cost of the table's rows of its class: register
**     (RR RRE RRF RI RIL RIE E I IE VRR VRI), storage-to-storage (SS SSE SSF), or storage
**     (every other format), or of all rows when its class has none; an unknown
**     opcode's class comes from its length (2, 4, 6 bytes).
**   - Every instruction priced without a row, by rule or default, is counted
**     (fst_clock_stats.unmodeled, and per mnemonic); fst_clock_how says how each opcode
**     is priced, so a report can name them.
**
** Files: clock.c (specs, the default table's whereabouts, pricing), clock_load.c (reading a
** table), costrule.c and costrule.h (the class rules, the default), clock_int.h (shared).
**
** Ownership: fst_clock_open/fst_clock_load return a clock the caller frees with
** fst_clock_free. Pricing updates the clock's counters, so a clock is used by one thread
** at a time. Errors: NULL/-1 with err filled (common/err.h).
*/
#ifndef FST_CLOCK_H
#define FST_CLOCK_H

#include "isa/decode.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

typedef uint64_t fst_fx;

#define FST_FX_PER_PS  UINT64_C(512)
#define FST_FX_PER_NS  UINT64_C(512000)
#define FST_FX_PER_TOD UINT64_C(125000)
#define FST_FX_PER_US  UINT64_C(512000000)
#define FST_FX_PER_SEC UINT64_C(512000000000000)

/* The default table's file name, looked up by fst_clock_default_model. */
#define FST_CLOCK_DEFAULT_FILE "cost-p390.csv"

enum { FST_CLOCK_MIPS = 1, FST_CLOCK_MODEL = 2 };
enum { FST_TAKEN_UNKNOWN = -1 };

/* A parsed --clock value. `file` points into the parsed string (NULL: the default
** table), so the string must outlive the spec. */
typedef struct fst_clock_spec {
    int kind;            /* FST_CLOCK_MIPS or FST_CLOCK_MODEL */
    uint64_t mips_num;   /* mips: rate = mips_num / mips_den MIPS, exactly as written */
    uint64_t mips_den;
    const char *file;    /* model: the table, or NULL for the default */
} fst_clock_spec;

typedef struct fst_clock fst_clock;

typedef struct fst_clock_stats {
    uint64_t priced;     /* instructions priced */
    uint64_t unmodeled;  /* of those, with no model row: priced by a rule or the default */
    uint64_t no_length;  /* register-length instructions (MVCL...) priced without it */
} fst_clock_stats;

/* Parse "mips:R", "model" or "model:FILE"; NULL means "model". R: a decimal in
** [0.001, 1000000] with at most 9 decimals. Errors name the spec and the problem. */
int fst_clock_parse(const char *spec, fst_clock_spec *out, fst_err *err);
/* Parse and build: for model, load the table (the default one found with
** fst_clock_default_model). */
fst_clock *fst_clock_open(const char *spec, fst_err *err);
/* Build from a parsed spec. */
fst_clock *fst_clock_new(const fst_clock_spec *spec, fst_err *err);
/* Load a model table. */
fst_clock *fst_clock_load(const char *path, fst_err *err);
void fst_clock_free(fst_clock *c);

/*
** Where the default table is: the first readable one of $FST_DATA/cost-p390.csv,
** $FST_ROOT/data/..., <dir of the program>/../share/fst/... (installed),
** <dir of the program>/../../../data/... (build tree: build/MODE/bin, build/MODE/tests),
** ./data/... A new string (free it), or NULL with err saying where it looked.
*/
char *fst_clock_default_model(fst_err *err);

/* The cost of one executed instruction. `taken`: 1, 0 or FST_TAKEN_UNKNOWN. The
** architecture has already done its work in fst_decode (the meaning of the opcode); the
** tables are per mnemonic, the same in every architecture. */
fst_fx fst_clock_cost(fst_clock *c, const fst_insn *d, int taken);
/* Same, with the count for the row's unit given by the caller when it knows it better
** than the instruction text (MVCL's length from a traced register; an EX-modified
** length); units < 0 means "unknown": the same as fst_clock_cost. */
fst_fx fst_clock_cost_n(fst_clock *c, const fst_insn *d, int taken, int64_t units);

int fst_clock_kind(const fst_clock *c);
/* "mips:4.66", "model" (the shipped table) or "model:PATH", for report headers. */
const char *fst_clock_name(const fst_clock *c);
/* mips: the cost of every instruction; model: 0. */
fst_fx fst_clock_mips_cost(const fst_clock *c);
void fst_clock_stats_get(const fst_clock *c, fst_clock_stats *st);
/* The k-th mnemonic (k = 0, 1, ...) priced without a model row, and how many times;
** NULL after the last. In opcode-table order. */
const char *fst_clock_unmodeled_op(const fst_clock *c, size_t k, uint64_t *count);

/* How an opcode (a decoder op id; 0 = not decoded) is priced by this clock. For
** FST_PRICE_RULE, *rule (if given) is the rule: "AR", "CR+BRC", "@vector". */
enum { FST_PRICE_ROW, FST_PRICE_RULE, FST_PRICE_DEFAULT, FST_PRICE_RATE };
int fst_clock_how(const fst_clock *c, unsigned op, const char **rule);

/* Of an instruction mix (executed instructions per op id, fst_op_count() of them, [0] the
** ones not decoded), how many this clock prices without a row: by a class rule or at the
** default. The replay's count for fst_profile.unmodeled; 0 for a mips clock. */
uint64_t fst_clock_unmodeled(const fst_clock *c, const uint64_t *mix);

/* ---- inside analyze/: the shipped class rules (analyze/cost/costrule.c) ---- */
typedef struct fst_cost_rule {
    const char *mnem;   /* "AGFR" */
    const char *rule;   /* "AR", "CR+BRC", "@vector" */
} fst_cost_rule;
const fst_cost_rule *fst_cost_rules(size_t *n);
/* The class row names a table may define: "@control", ..., NULL. */
const char *const *fst_cost_classes(void);
/* The rule of an instruction with no entry of its own (vector ones: "@vector"), or NULL. */
const char *fst_cost_rule_default(const fst_opinfo *oi);

/* Conversions of (accumulated) costs. */
uint64_t fst_fx_to_tod(fst_fx x);     /* nearest TOD unit, ties up */
/* Nearest nanosecond, ties up: what csv, json and fst-diff print. */
static inline uint64_t fst_fx_to_ns(fst_fx x) { return (x + FST_FX_PER_NS / 2) / FST_FX_PER_NS; }
double fst_fx_to_sec(fst_fx x);       /* for printing only */
static inline fst_fx fst_fx_from_tod(uint64_t tod) { return tod * FST_FX_PER_TOD; }

#endif
