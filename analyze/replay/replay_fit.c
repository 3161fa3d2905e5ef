/* analyze/replay/replay_fit.c — does the program model fit what ran? Calls into the middle of
** another routine (fst_profile's misfit_*), counted while replaying; see replay_int.h.
**
** With the right map every call a program makes (a branch linking through register 14:
** BALR 14,15, BAS, BRASL) lands on an entry the map names, or stays inside the routine it
** is made from (an assembler program's internal subroutines: BAL 14,SUBR inside one CSECT).
** A map of another program, another version of it, or one placed at the wrong address puts
** its entries where nothing calls, so the program's calls land in the middle of the
** routines it names, from others, or on prologues inside routines the map says begin
** elsewhere and which no call enters. Those are counted here; fst-report refuses a report
** where they are many (cmds/fst-report.c check_fit) and warns where they are few.
**
** A call that lands on an entry's prologue (B 12(,15) over a FORTRAN identifier) counts even
** inside one routine: a routine starts there that the map does not name. Not counted: a call
** whose target is another unconditional branch (BC 15 / J / JLU: a transfer vector, as
** FORTRAN G's IBCOM#+n, whose words branch on), a target outside the program's extent (other
** code), and tasks of spaces the map's program does not run in. */
#include "analyze/profile/holder.h"
#include "analyze/replay/replay_int.h"

#include <stdlib.h>

/* What the instruction at a call's target says: 1 an entry's prologue (B n(,15) over its
** identifier, n at most 72: FORTRAN G and H, PL/I, COBOL, the SAVE macro's; gcc's STM or
** STMG of registers up to 15 on the stack, D(15)), -1 a transfer
** vector's branch (any other unconditional branch), 0 neither. */
static int target_kind(const fst_insn *d)
{
    const uint8_t *b = d->bytes;
    if ((b[0] == 0x90 || (b[0] == 0xEB && b[5] == 0x24)) && (b[1] & 0x0F) == 15 && b[2] >> 4 == 15)
        return 1;       /* STM/STMG Rx,15,D(15): the s390 ELF ABI's prologue (gcc) */
    if (b[0] == 0x47 && b[1] == 0xF0)                   /* BC 15,D(0,B) */
        return b[2] == 0xF0 && b[3] >= 8 && b[3] <= 72 ? 1 : -1;
    if (b[0] == 0x47)
        return b[1] >> 4 == 15 ? -1 : 0;                /* BC 15,D(X,B) */
    if ((b[0] == 0xA7 || b[0] == 0xC0) && (b[1] & 0x0F) == 4 && b[1] >> 4 == 15)
        return -1;                                      /* BRC 15 (J), BRCL 15 (JLU) */
    return 0;
}

void fst_rp_misfit(rp *x, size_t tid, uint64_t site, const fst_insn *d)
{
    fst_profile *p = x->p;
    uint64_t a = d->addr;
    int kind = target_kind(d);
    if (!p->nr || a < p->lo || a >= p->hi || (tid < x->nt && p->tasks[tid].unnamed) || kind < 0)
        return;
    if (!x->holder)
        x->holder = fst_holder_new(p);
    size_t to = fst_holder_of(x->holder, a);
    if (to == FST_NONE)
        return;
    size_t from = fst_holder_of(x->holder, site);
    if (from == to && !kind)
        return;     /* an internal subroutine (but a prologue is a routine's entry) */
    if (kind) {
        if (!x->fit_prologue)
            x->fit_prologue = fst_xcalloc(p->nr, sizeof *x->fit_prologue);
        x->fit_prologue[to]++;
    }
    p->misfit_unc += tid < x->nt && x->t[tid].taint;
    if (!p->misfit_calls++) {
        p->misfit_site = site;
        p->misfit_target = a;
        p->misfit_from = from;
        p->misfit_to = to;
    }
}

void fst_rp_fit_end(rp *x)
{
    fst_profile *p = x->p;
    for (size_t r = 0; x->fit_prologue && r < p->nr; r++)
        if (x->fit_prologue[r] && !p->r[r].calls && !p->r[r].mainline) {
            if (!p->misfit_stray)
                p->misfit_stray_in = r;
            p->misfit_stray += x->fit_prologue[r];
        }
    free(x->fit_prologue);
    x->fit_prologue = NULL;
}

static int by_start(const void *a, const void *b)
{
    uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
    return u < v ? -1 : u > v;
}

void fst_rp_cover_init(rp *x)
{
    const fst_profile *p = x->p;
    size_t n = 0;
    for (size_t r = 0; r < p->nr; r++) {
        if (p->r[r].entry == UINT64_MAX)
            continue;   /* a pseudo-routine: no address */
        if (!p->r[r].end)
            return;     /* a length the map does not give: nothing to tell code from no code */
        n++;
    }
    if (!n)
        return;
    uint64_t *iv = fst_xmalloc(2 * n * sizeof *iv);
    n = 0;
    for (size_t r = 0; r < p->nr; r++)
        if (p->r[r].entry != UINT64_MAX) {
            iv[2 * n] = p->r[r].entry;  /* a label's entry lies in its section: the section's end */
            iv[2 * n++ + 1] = p->r[r].end;
        }
    qsort(iv, n, 2 * sizeof *iv, by_start);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m && iv[2 * i] <= iv[2 * m - 1]) {
            if (iv[2 * i + 1] > iv[2 * m - 1])
                iv[2 * m - 1] = iv[2 * i + 1];
        } else {
            iv[2 * m] = iv[2 * i];
            iv[2 * m++ + 1] = iv[2 * i + 1];
        }
    x->cover = iv;
    x->ncover = m;
}

int fst_rp_gap_at(const rp *x, uint64_t addr)
{
    const fst_profile *p = x->p;
    if (!x->ncover || addr - p->lo >= p->hi - p->lo)
        return 0;
    size_t lo = 0, hi = x->ncover;  /* the last extent starting at or below addr */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x->cover[2 * mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return !(lo && addr < x->cover[2 * lo - 1]);
}

void fst_rp_gap_add(fst_profile *p, uint64_t addr, uint64_t n)
{
    if (!p->gap_insns)
        p->gap_first = addr;
    p->gap_insns += n;
}
