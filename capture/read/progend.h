/*
** capture/read/progend.h — when a program under Hercules has ended: the one rule that the
** text-log path, the trace-file (tf) path, --follow and the live capture all apply
** (through capture/read/emit.h, which feeds it every CPU's instructions, waits and SIGPs).
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
** An order's outcome line may come late: Hercules prints it after the order has executed,
** so the target may show the order's effect first (the fixtures' mp2.h313 log: 7 of the
** restarted CPU's instructions before the line); under load a restarted CPU 1's whole
** run, disabled wait included, came before CPU 0's "SIGP Restart ... CC 0" (3 live runs
** of ~120; tests/logs/cpu1first-late-sigp.log.gz). So an order is dated by its SIGP
** instruction: the issuing CPU's last traced instruction when that is a SIGP (a CPU
** prints the outcome before it traces another instruction); otherwise (not traced, e.g.
** outside a --range) by the outcome line itself. For the target CPU k:
**   - an order issued before the start/stop order last applied to k is superseded: it
**     changes nothing;
**   - a start or restart runs k, unless k has loaded a disabled wait since the order was
**     issued: then k has shown the order's effect (it ran), and its wait, later, stands;
**   - a stop, stop-and-store or reset stops k from its outcome line on, even when k's
**     instructions came after the SIGP instruction (k stops at an instruction boundary
**     after the order executes, so it may run a few more); k's instructions after the
**     line run it again.
** So a stop and a restart of k both printed late, in either order, leave k as the
** later-issued one left it.
** Limits: a CPU whose instructions are all outside a traced --range is never seen
** running; a CPU stopped by an order the trace does not show (4.x) is taken as running
** until the capture's --timeout (or the input's end); an instruction of a stopped CPU
** printed after the stop's outcome line (its line late, not the SIGP's) runs it again.
** The state is current, not sticky: the text and tf readers read their whole input, and
** "ended" is what the last record left.
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
    /* Dating the orders (the rule above): a clock of the instructions and disabled waits
    ** seen, and per CPU when it last loaded a disabled wait, when the start/stop order
    ** last applied to it was issued, and whether its last instruction was a SIGP. */
    uint64_t now;
    uint64_t dwait_at[FST_PE_MAXCPU];
    uint64_t order_at[FST_PE_MAXCPU];
    uint64_t insn_at[FST_PE_MAXCPU];
    uint8_t last_sigp[FST_PE_MAXCPU];
} fst_pe;

void fst_pe_init(fst_pe *p);
/* CPU `cpu` executed an instruction (`sigp`: a SIGP, whose outcome line may follow);
** 1 when that is news (it was not running). */
int fst_pe_insn(fst_pe *p, unsigned cpu, int sigp);
/* CPU `cpu` loaded a disabled wait. */
void fst_pe_dwait(fst_pe *p, unsigned cpu);
/* CPU `from` signalled CPU `to` with SIGP order `order`, condition code `cc`: its
** outcome line, dated by `from`'s SIGP instruction as the rule says. */
void fst_pe_sigp(fst_pe *p, unsigned from, unsigned to, unsigned order, unsigned cc);
/* 1 when the program has ended (the rule above). */
int fst_pe_ended(const fst_pe *p);
/* CPUs running now (for a message saying why a capture did not end). */
unsigned fst_pe_running(const fst_pe *p);

#endif
