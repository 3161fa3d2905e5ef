/*
** capture/progend.h — when a program under Hercules has ended: the one rule that the
** text-log path, the trace-file (tf) path, --follow and the live capture all apply
** (through capture/emit.h, which feeds it every CPU's instructions, waits and SIGPs).
**
** The rule (what fst decides; Hercules itself stops only the CPU that loads a disabled
** wait and keeps the others running):
**   A CPU is *running* from its first traced instruction, or from an accepted SIGP start
**   or restart addressed to it (Hercules 3.13 prints every SIGP; 4.x and its tf file only
**   some orders). It stops running when it loads a disabled wait, or when it is shown
**   stopped: an accepted (CC 0) SIGP stop, stop-and-store-status, initial CPU reset or CPU
**   reset addressed to it. A CPU that runs again after that (restarted) is running again.
**   The program has ended when a CPU has loaded a disabled wait or been stopped, and no
**   CPU is running.
** So a one-CPU program ends at its disabled wait, as always; a program whose CPU 1 loads
** its disabled wait first (fixtures' mp2) ends at CPU 0's; one whose CPU 1 stops itself by
** SIGP (tests/programs/twocpu.s) ends at CPU 0's disabled wait; and a system where one CPU
** loads a disabled wait while the others run on (MVS: a failed processor, not the end of
** the system) is not over: its capture goes on until the others end, or --timeout.
** Limits: a CPU whose instructions are all outside a traced --range is never seen
** running; a CPU stopped by an order the trace does not show (4.x) is taken as running
** until the capture's --timeout (or the input's end). The state is current, not sticky:
** the text and tf readers read their whole input, and "ended" is what the last record
** left.
**
** Ownership: a plain value, no allocation. Errors: none (a CPU number is taken modulo
** FST_PE_MAXCPU, which is the emitter's limit).
*/
#ifndef FST_PROGEND_H
#define FST_PROGEND_H

#include <stdint.h>

#define FST_PE_MAXCPU 256u

typedef struct fst_pe {
    uint8_t cpu[FST_PE_MAXCPU]; /* PE_* (progend.c) */
    unsigned running;           /* CPUs now running */
    unsigned halts;             /* disabled waits and stops seen */
    unsigned dwaits;            /* disabled waits seen */
} fst_pe;

void fst_pe_init(fst_pe *p);
/* CPU `cpu` executed an instruction; 1 when that is news (it was not running). */
int fst_pe_insn(fst_pe *p, unsigned cpu);
/* CPU `cpu` loaded a disabled wait. */
void fst_pe_dwait(fst_pe *p, unsigned cpu);
/* CPU `from` signalled CPU `to` with SIGP order `order`, condition code `cc`. */
void fst_pe_sigp(fst_pe *p, unsigned from, unsigned to, unsigned order, unsigned cc);
/* 1 when the program has ended (the rule above). */
int fst_pe_ended(const fst_pe *p);
/* CPUs running now (for a message saying why a capture did not end). */
unsigned fst_pe_running(const fst_pe *p);

#endif
