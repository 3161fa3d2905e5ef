/* capture/progend.c — see progend.h. */
#include "capture/progend.h"

#include <string.h>

enum { PE_UNSEEN, PE_RUNNING, PE_DWAIT, PE_STOPPED };

/* SIGP orders (Principles of Operation, "Signal Processor") */
enum { SIGP_START = 0x04, SIGP_STOP = 0x05, SIGP_RESTART = 0x06, SIGP_STOPSTORE = 0x09, SIGP_INITRESET = 0x0B,
       SIGP_RESET = 0x0C };

void fst_pe_init(fst_pe *p) { memset(p, 0, sizeof *p); }

static void set(fst_pe *p, unsigned cpu, uint8_t to)
{
    uint8_t *c = &p->cpu[cpu % FST_PE_MAXCPU];
    if (*c == PE_RUNNING)
        p->running--;
    if (to == PE_RUNNING)
        p->running++;
    else
        p->halts++;
    *c = to;
}

int fst_pe_insn(fst_pe *p, unsigned cpu)
{
    if (p->cpu[cpu % FST_PE_MAXCPU] == PE_RUNNING)
        return 0;
    set(p, cpu, PE_RUNNING);
    return 1;
}

void fst_pe_dwait(fst_pe *p, unsigned cpu)
{
    set(p, cpu, PE_DWAIT);
    p->dwaits++;
}

void fst_pe_sigp(fst_pe *p, unsigned from, unsigned to, unsigned order, unsigned cc)
{
    (void)from;
    if (cc != 0) /* not accepted: nothing happens to the target */
        return;
    if (order == SIGP_START || order == SIGP_RESTART)
        (void)fst_pe_insn(p, to); /* it runs from now, even before its first instruction shows */
    else if (order == SIGP_STOP || order == SIGP_STOPSTORE || order == SIGP_INITRESET || order == SIGP_RESET)
        set(p, to, PE_STOPPED);
}

int fst_pe_ended(const fst_pe *p) { return p->halts > 0 && p->running == 0; }

unsigned fst_pe_running(const fst_pe *p) { return p->running; }
