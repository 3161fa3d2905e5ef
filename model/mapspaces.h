/*
** model/mapspaces.h — where a module-relative map's program ran, from the trace alone:
** its load point and the address spaces that ran it (issue 24).
**
** Under MVS nobody knows in advance where program fetch puts a module, and several address
** spaces may run other code at the same virtual addresses (every initiator's private area
** starts at the same place). So the evidence is kept per address space:
**   - the call targets: where a branch-and-link with link register 14 went (the next
**     instruction of that CPU in the same state: an interruption handled between the BALR
**     and the callee's entry is skipped);
**   - the entries: the executed instructions `47F0F0xx` (xx even, at least 08: `B xx(15)`
**     over an OS identifier, the first instruction of a FORTRAN or OS-linkage routine), so
**     that a mainline a dispatcher entered, never called, counts too;
**   - how many instructions the space executed.
** An instruction's space is the CR1 of its CPU when DAT is on (shown with the instruction,
** or loaded by a traced LCTL: capture/read/herclog.h), FST_PLACE_REAL when DAT is off, and
** FST_PLACE_UNKNOWN when DAT is on and no CR1 was ever shown (a range trace without
** registers): the same values as analyze/tasks/tasks.h's FST_SPACE_REAL and FST_SPACE_UNKNOWN.
**
** A space *fits* the module at load point L when, of its addresses, at least two are
** routine starts at L (hits), more than twice as many as the other addresses inside the
** module at L (misses: a BAL 14 to an internal label, or another program's routine), and
** no other load point scores (hits - misses) as well in that space (model/map_match.c
** ranks them). Every fitting space must agree on L; spaces that fit at different load
** points (the program loaded twice at different addresses) are an error listing them, and
** `space` (fst-report --space) chooses. No guess is made.
**
** Ownership: fst_space_evidence allocates *out (free with fst_space_evidence_free).
** Errors: -1 with err set: the trace is damaged (the error names its byte offset), or the
** evidence does not decide (the message lists each space's best candidates).
*/
#ifndef FST_MAPSPACES_H
#define FST_MAPSPACES_H

#include "model/progmodel.h"
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>

#define FST_PLACE_REAL    UINT64_MAX          /* DAT off */
#define FST_PLACE_UNKNOWN (UINT64_MAX - 1)    /* DAT on, CR1 never shown */
#define FST_PLACE_MAX_SPACES 16

typedef struct fst_space_ev {
    uint64_t space;         /* CR1, or FST_PLACE_REAL / FST_PLACE_UNKNOWN */
    uint64_t insns;         /* instructions executed in it */
    uint64_t *addrs;        /* call targets and entries, sorted, each once */
    size_t naddrs, cap;
    uint64_t *calls;        /* the call targets alone, sorted, each once (fst-map's fit when
                               no space decides: map_match.c, where an entry-like branch
                               inside a routine would count against the right load point) */
    size_t ncalls, ccap;
} fst_space_ev;

/* Read the trace at `path` (a trace.bin; not standard input) and gather the evidence of
** each address space, in order of first appearance. A sampled trace gives none (*n 0). */
int fst_space_evidence(const char *path, fst_space_ev **out, size_t *n, fst_err *err);
/* The same from a reader that has read no record yet (standard input too); it reads to the
** trace's end, and the caller closes it. */
int fst_space_evidence_tr(fst_tr *tr, fst_space_ev **out, size_t *n, fst_err *err);
void fst_space_evidence_free(fst_space_ev *v, size_t n);

typedef struct fst_placement {
    uint64_t load_point;
    uint64_t spaces[FST_PLACE_MAX_SPACES];  /* the spaces that fit there, most instructions first */
    size_t nspaces;
    unsigned hits, miss;    /* the best fitting space's */
    unsigned lp_hits;       /* fst_pm_spaces_at: the most routine starts a space hit at the
                               load point, fitting or not */
} fst_placement;

/* Find where `module` ran (see the top). space: NULL, or the one space to look at. */
int fst_pm_place_in_spaces(const fst_pm *pm, int module, const fst_space_ev *ev, size_t n, const uint64_t *space,
                           fst_placement *pl, fst_err *err);
/* With the load point known: the spaces that fit the module there (pl->nspaces may be 0). */
void fst_pm_spaces_at(const fst_pm *pm, int module, const fst_space_ev *ev, size_t n, uint64_t load_point,
                      fst_placement *pl);
/* "00022040", "real" or "unknown" (buf of 24 bytes). */
const char *fst_place_space_name(uint64_t space, char *buf);
/* "MAIN of job.csv: loaded at 50100, run in address space 00022000 (CR1)" into buf. */
void fst_placement_say(const fst_pm *pm, int module, const fst_placement *pl, char *buf, size_t cap);

/* The program model of a trace (model/pm_trace.c), as fst_pm_for_trace (progmodel.h)
** does it, with the trace's address spaces as evidence too: a module without a load
** point is placed where the storage image's routine names say when some space ran it
** there, else where the spaces' evidence says (above); a load point given is checked
** against the image only when no space ran the module there (the image is real storage,
** the trace virtual). */
typedef struct fst_pm_trace_opts {
    const char *path;           /* the trace's file, read again for the evidence; NULL: none */
    const uint64_t *load_point; /* --load-point, or NULL */
    const uint64_t *space;      /* --space, or NULL */
} fst_pm_trace_opts;

typedef struct fst_pm_placed {
    int placed;                 /* a module was placed here (the first one's figures below) */
    int module;
    int from_trace;             /* its load point came from the spaces' evidence alone (no
                                   --load-point, and no image that a space ran it at) */
    fst_placement at;           /* its load point and the spaces that ran it */
    char note[600];             /* what was found, for a note ("" when nothing to say) */
    char note2[1000];           /* a second remark ("" when none) */
} fst_pm_placed;

int fst_pm_for_trace_placed(fst_pm **out, const char *const *maps, size_t nmaps, const char *member, fst_tr *tr,
                            const fst_pm_trace_opts *o, fst_pm_placed *pl, fst_err *err);

#endif
