/* capture/read/progend.c — see progend.h. */
#include "capture/read/progend.h"

#include <string.h>

enum { PE_UNSEEN, PE_RUNNING, PE_DWAIT, PE_STOPPED };

/* SIGP orders (Principles of Operation, "Signal Processor") */
enum { SIGP_START = 0x04, SIGP_STOP = 0x05, SIGP_RESTART = 0x06, SIGP_STOPSTORE = 0x09, SIGP_INITRESET = 0x0B,
       SIGP_RESET = 0x0C };

void fst_pe_init(fst_pe *p) { memset(p, 0, sizeof *p); }

static void set(fst_pe *p, unsigned cpu, uint8_t to)
{
    uint8_t *c = &p->cpu[cpu];
    if (*c == PE_RUNNING)
        p->running--;
    if (to == PE_RUNNING)
        p->running++;
    else
        p->halts++;
    *c = to;
}

/* CPU `cpu` runs from now; 1 when that is news. */
static int run(fst_pe *p, unsigned cpu)
{
    if (p->cpu[cpu] == PE_RUNNING)
        return 0;
    set(p, cpu, PE_RUNNING);
    return 1;
}

int fst_pe_insn(fst_pe *p, unsigned cpu, int sigp)
{
    cpu %= FST_PE_MAXCPU;
    p->insn_at[cpu] = ++p->now;
    p->last_sigp[cpu] = sigp != 0;
    return run(p, cpu);
}

void fst_pe_dwait(fst_pe *p, unsigned cpu)
{
    cpu %= FST_PE_MAXCPU;
    p->dwait_at[cpu] = ++p->now;
    set(p, cpu, PE_DWAIT);
    p->dwaits++;
}

void fst_pe_sigp(fst_pe *p, unsigned from, unsigned to, unsigned order, unsigned cc)
{
    from %= FST_PE_MAXCPU;
    to %= FST_PE_MAXCPU;
    int start = order == SIGP_START || order == SIGP_RESTART;
    int stop = order == SIGP_STOP || order == SIGP_STOPSTORE || order == SIGP_INITRESET || order == SIGP_RESET;
    if (cc != 0 || !(start || stop)) /* refused, or an order that neither starts nor stops */
        return;
    /* when the order was issued: the SIGP instruction the outcome line is of, or (not
    ** traced) the line itself, which comes after the order executed */
    uint64_t issued = p->last_sigp[from] ? p->insn_at[from] : p->now;
    if (issued < p->order_at[to]) /* a later order to the same CPU was applied already */
        return;
    p->order_at[to] = issued;
    if (stop)
        set(p, to, PE_STOPPED);
    else if (p->dwait_at[to] <= issued) /* else it ran, then loaded its wait: printed late */
        (void)run(p, to); /* even before its first instruction shows */
}

int fst_pe_ended(const fst_pe *p) { return p->halts > 0 && p->running == 0; }

unsigned fst_pe_running(const fst_pe *p) { return p->running; }
