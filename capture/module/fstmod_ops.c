/*
** capture/module/fstmod_ops.c — a part of fst's module for Hercules (fstmod.c): the other ops' wrappers: SVC, the PSW's instructions, LCTL, LM and STM of all registers,
** SIGP, program, external and I/O interruptions.
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* The address a PSW says (8 bytes: BC mode 24 bits, EC mode and ESA/390 31; 16 bytes: 64). */
static uint64_t psw_addr(const uint8_t *psw, unsigned len)
{
    if (len == 16) {
        uint64_t a = 0;
        for (unsigned i = 8; i < 16; i++)
            a = a << 8 | psw[i];
        return a;
    }
    if (len != 8)
        return 0;
    uint64_t a = (uint64_t)(psw[4] & 0x7F) << 24 | (uint64_t)psw[5] << 16 | (uint64_t)psw[6] << 8 | psw[7];
    return psw[1] & 0x08 ? a : a & 0xFFFFFF;
}

/* A record's end where the CPU goes on at a new PSW (SVC, program check, interruption): the
** PSW, the stream's base moved to its address, the registers, and the buffer out at a
** wait state. */
static void new_psw_out(cpubuf *c, REGS *regs, const uint8_t *psw, unsigned len)
{
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    put_regs(c, regs);
    if (wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* An SVC's record: it ran at `at`, and the CPU went on with psw. */
static void svc_record(REGS *regs, uint64_t at, uint64_t fall, int dat, unsigned code, const uint8_t *psw,
                       unsigned len)
{
    cpubuf *c = buf_of(regs);
    code_check(c, regs, dat, c->last, fall);
    c->b[c->n++] = FSTMOD_OP_SVC;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, code);
    new_psw_out(c, regs, psw, len);
}

/* SVC: recorded before its routine (which ends with a longjmp): the SVC new PSW is in
** the PSA. But in problem state with CR6's assist bit on (S/370 under VM/370's CP),
** Hercules' ECPS:VM may reflect the SVC into the virtual machine without an interruption
** (ecpsvm_dosvc: the machine's own SVC new PSW, and the routine returns): then it runs
** first, under the module's setjmp, and the record says the PSW it left either way. */
static void ATTR_REGPARM(2) w_svc(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    if (skip_op(regs, at, NULL, 0, 0)) {
        FST_ORIG1(inst, regs)(inst, regs);
        return;
    }
    uint8_t psw[16];
    unsigned len;
    int dat = dat_on(regs);
    if (!PROBSTATE(&regs->psw) || !(regs->CR_L(6) & 0x80000000u)) {
        len = psa_psw(regs, PSA_SVC_NEW, psw);
        svc_record(regs, at, fall, dat, inst[1], psw, len);
        FST_ORIG1(inst, regs)(inst, regs);
        return;
    }
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0)
        FST_ORIG1(inst, regs)(inst, regs);
    memcpy(regs->progjmp, saved, sizeof saved);
    len = cur_psw(regs, psw);   /* the SVC new PSW loaded, or the machine's own (assisted) */
    svc_record(regs, at, fall, dat, inst[1], psw, len);
    if (rc != 0)
        longjmp(regs->progjmp, rc);
}

static __thread int pgm_seen; /* a program interruption came while a wrapped routine ran */

/* After an instruction that loads or changes the PSW: the record, from the PSW now in
** force. `lpsw`: its operand address is recorded too (and the PSW bytes as loaded). */
static void psw_record(REGS *regs, uint8_t op, uint64_t at, int lpsw, uint64_t operand, int dat, uint64_t fall)
{
    if (skip_op(regs, at, NULL, 0, 1))
        return;
    uint8_t psw[16];
    unsigned len = cur_psw(regs, psw);
    if (lpsw && len == 8 && !(psw[1] & 0x08)) {
        /* BC mode: copy_psw stores the ILC and CC Hercules keeps, not what was loaded */
        uint64_t a = operand & 0xFFFFFF, px = regs->PX_G;
        if (a < 4096)
            a += px;
        else if (a >= px && a < px + 4096)
            a -= px;
        if (!REAL_MODE(&regs->psw) || a + 8 > sysblk.mainsize)
            ;
        else
            memcpy(psw, regs->mainstor + a, 8);
    }
    cpubuf *c = buf_of(regs);
    code_check(c, regs, dat, c->last, fall);
    c->b[c->n++] = lpsw ? FSTMOD_OP_LPSW : FSTMOD_OP_PSW;
    put_sv(c, (int64_t)(at - c->last));
    if (lpsw)
        put_v(c, operand);
    put_psw(c, psw, len);
    c->last = psw_addr(psw, len);
    if (lpsw) /* the registers the dispatched task runs with */
        put_regs(c, regs);
    (void)op;
    if (wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* The first operand address D2(B2) of an RS or S instruction, computed before it runs
** (an LM may load its own base register). */
static uint64_t operand_of(const BYTE inst[], REGS *regs)
{
    unsigned b2 = inst[2] >> 4, d2 = ((unsigned)inst[2] & 0xF) << 8 | inst[3];
    return ((b2 ? regs->GR_G(b2) : 0) + d2) & amask(regs);
}

/* An instruction run under the module's own setjmp (below): what its record needs. */
typedef struct done {
    uint8_t op, r1r3;
    int lpsw;           /* LPSW or LPSWE: the operand goes into the record */
    int dat;            /* DAT was on for the run up to it (code pages: its space) */
    unsigned cpad;      /* SIGP: the CPU it addresses (R3, read before it ran) */
    uint64_t at, fall, operand;
} done;

static void sigp_record(REGS *regs, const done *d);

/* LCTL: the control registers it loaded (r1 to r3, wrapping), from the CPU: CR1 is the
** address space a task runs in. */
static void cr_record(REGS *regs, const done *d)
{
    if (skip_op(regs, d->at, NULL, 0, 0))
        return;
    unsigned r1 = d->r1r3 >> 4, n = ((unsigned)(d->r1r3 & 15) - r1) & 15;
    cpubuf *c = buf_of(regs);
    code_check(c, regs, d->dat, c->last, d->fall);
    c->b[c->n++] = FSTMOD_OP_CR;
    put_sv(c, (int64_t)(d->at - c->last));
    put_v(c, d->operand);
    c->b[c->n++] = d->r1r3;
    for (unsigned k = 0; k <= n; k++)
        put_v(c, regs->CR_L((r1 + k) & 15));
    c->last = d->fall;
}

static void record_done(REGS *regs, const done *d)
{
    if (d->op == 0xB7)
        cr_record(regs, d);
    else if (d->op == 0xAE)
        sigp_record(regs, d);
    else
        psw_record(regs, d->op, d->at, d->lpsw, d->operand, d->dat, d->fall);
}

/* An instruction that may end with a longjmp to the CPU's instruction loop
** (RETURN_INTCHECK: LPSW, SSM, LCTL, a SIGP that stops its own CPU, ...): run under our own setjmp, record, then go on as
** Hercules would have. A program interruption inside it (recorded by the hook) means it
** loaded nothing: no record then. */
static void run_recorded(BYTE inst[], REGS *regs, const done *d)
{
    if (unlikely(!fst_gen)) { /* no reader: Hercules' routine alone */
        FST_ORIGX(inst, regs)(inst, regs);
        return;
    }
    jmp_buf saved;
    memcpy(saved, regs->progjmp, sizeof saved);
    pgm_seen = 0;
    volatile int rc = setjmp(regs->progjmp);
    if (rc == 0) {
        FST_ORIGX(inst, regs)(inst, regs);
        memcpy(regs->progjmp, saved, sizeof saved);
        if (!pgm_seen)
            record_done(regs, d);
        return;
    }
    memcpy(regs->progjmp, saved, sizeof saved);
    if (!pgm_seen)
        record_done(regs, d);
    longjmp(regs->progjmp, rc);
}

/* An instruction that loads or changes the PSW (LPSW, LPSWE: its operand recorded too). */
static void ATTR_REGPARM(2) w_pswop(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .dat = dat_on(regs), .lpsw = inst[0] == 0x82 || (inst[0] == 0xB2 && inst[1] == 0xB2) };
    d.at = at_of(regs, inst[0], &d.fall);
    if (d.lpsw)
        d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* LCTL: supervisor state only (a program check in problem state, recorded by the hook). */
static void ATTR_REGPARM(2) w_lctl(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .r1r3 = inst[1], .dat = dat_on(regs) };
    d.at = at_of(regs, inst[0], &d.fall);
    d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* LM and STM of all 16 registers in supervisor state, not under EX: Hercules' routine,
** then the record of its operand. Apart from w_lmstm so that the test there needs no
** stack frame. */
static void __attribute__((noinline)) lmstm_record(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall), operand = operand_of(inst, regs);
    int dat = dat_on(regs);
    FST_ORIG1(inst, regs)(inst, regs);   /* a program interruption in it: no record (longjmp) */
    if (skip_op(regs, at, NULL, 0, 0))
        return;
    cpubuf *c = buf_of(regs);
    code_check(c, regs, dat, c->last, fall);
    c->b[c->n++] = FSTMOD_OP_OPND;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, operand);
    c->last = fall;
}

/* LM and STM: a record only for all 16 registers in supervisor state (a dispatcher
** restoring a task's registers, a handler saving them: the block names the task). A
** program's own LM and STM (problem state, or 14,12) go straight on to Hercules' routine:
** one test, no other work. */
static void ATTR_REGPARM(2) w_lmstm(BYTE inst[], REGS *regs)
{
    if (PROBSTATE(&regs->psw) || ((unsigned)((inst[1] & 0xF) - (inst[1] >> 4)) & 15) != 15 || regs->execflag)
        FST_ORIG1(inst, regs)(inst, regs);
    else
        lmstm_record(inst, regs);
}

/* B2xx: only SPKA (B20A) changes the PSW of the B2 instructions S/370 programs use; the
** others go to Hercules' own routine as they are. */
static void ATTR_REGPARM(2) w_spka(BYTE inst[], REGS *regs)
{
    uint64_t fall, at = at_of(regs, inst[0], &fall);
    int dat = dat_on(regs);
    FST_ORIGX(inst, regs)(inst, regs);
    psw_record(regs, inst[0], at, 0, 0, dat, fall);
}

/* PTLB, IPTE: a translation may change now (a page stolen, mapped elsewhere): what the
** fast path of code_check remembers ends. */
static void ATTR_REGPARM(2) w_ptlb(BYTE inst[], REGS *regs)
{
    FST_ORIGX(inst, regs)(inst, regs);
    epoch_bump();
}

/* SIGP: the order (its operand address's low byte), the CPU it addresses and the condition
** code it set, and for an accepted restart the target's restart new PSW (where it will
** start: the reader has no other way to know); then this CPU's records go out at once, so
** that the FIFO has them before the target's (the reader holds a CPU's records that come
** before its start). Run by run_recorded: a CPU that stops itself ends the SIGP with a
** longjmp. */
static void sigp_record(REGS *regs, const done *d)
{
    if (skip_op(regs, d->at, NULL, 0, 0))
        return;
    uint8_t psw[16];
    unsigned len = 0, cc = regs->psw.cc, order = (unsigned)(d->operand & 0xFF);
    if (order == 6 && cc == 0 && d->cpad < FST_MAXCPU && sysblk.regs[d->cpad])
        len = psa_psw(sysblk.regs[d->cpad], PSA_RESTART, psw);
    else if (order == 0x12 && cc == 0) /* set architecture: this CPU's PSW now, in its new form */
        len = cur_psw(regs, psw);
    cpubuf *c = buf_of(regs);
    code_check(c, regs, d->dat, c->last, d->fall);
    c->b[c->n++] = FSTMOD_OP_SIGP;
    put_sv(c, (int64_t)(d->at - c->last));
    put_v(c, order);
    put_v(c, d->cpad);
    c->b[c->n++] = (uint8_t)cc;
    c->b[c->n++] = (uint8_t)len;
    memcpy(c->b + c->n, psw, len);
    c->n += len;
    c->last = d->fall;
    flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

static void ATTR_REGPARM(2) w_sigp(BYTE inst[], REGS *regs)
{
    done d = { .op = inst[0], .dat = dat_on(regs), .cpad = regs->GR_LHL(inst[1] & 0x0F) };
    d.at = at_of(regs, inst[0], &d.fall);
    d.operand = operand_of(inst, regs);
    run_recorded(inst, regs, &d);
}

/* Hercules' program interruption hook: called with the PSW's address and ILC set, before
** the old PSW is stored and the new one loaded. */
static void *pgm_hook(REGS *regs, int pcode)
{
    REGS *r = sysblk.regs[regs->cpuad];
    if (!r)
        return NULL;
    pgm_seen = 1;
    unsigned ilc = r->psw.zeroilc ? 0 : r->psw.ilc;
    uint64_t at;
    uint8_t flags = 1;
    if (r->instinvalid) { /* the fetch at the PSW failed: nothing executed */
        at = r->psw.IA_G & amask(r);
        flags = 0;
    } else /* ip is where the instruction left it (past it), whether or not IA was backed up */
        at = (ip_ia(r) - ilc) & amask(r);
    if (skip_op(r, at, NULL, 0, 0))
        return NULL;
    uint8_t psw[16];
    unsigned len = psa_psw(r, PSA_PGM_NEW, psw);
    cpubuf *c = buf_of(r);
    code_check(c, r, dat_on(r), c->last, flags ? at + ilc : at);
    c->b[c->n++] = FSTMOD_OP_PGM;
    c->b[c->n++] = flags;
    put_sv(c, (int64_t)(at - c->last));
    put_v(c, (uint64_t)(pcode & 0xFFFF));
    c->b[c->n++] = (uint8_t)ilc;
    new_psw_out(c, r, psw, len);
    return NULL;
}

/* External and I/O interruptions, told by the preloaded interposer (fstirq.c) after
** Hercules took one: the old PSW (where the CPU was: nothing at its address executed) and
** the new one are in the PSA; the code is what Hercules stored (psw.intcode). */
static void irq_record(REGS *regs, int cls)
{
    if (!fst_gen)
        return;
    uint8_t oldp[16], newp[16];
    unsigned ol = psa_psw(regs, cls == 2 ? PSA_EXT_OLD : PSA_IO_OLD, oldp);
    unsigned nl = psa_psw(regs, cls == 2 ? PSA_EXT_NEW : PSA_IO_NEW, newp);
    if (!ol || !nl)
        return;
    uint64_t at = psw_addr(oldp, ol);
    if (skip_op(regs, at, oldp, ol, 0))
        return;
    cpubuf *c = buf_of(regs);
    int dat = (ol == 16 || (oldp[1] & 0x08)) && (oldp[0] & PSW_DATMODE);
    code_check(c, regs, dat, c->last, at); /* at did not execute */
    c->b[c->n++] = FSTMOD_OP_INTR;
    c->b[c->n++] = (uint8_t)cls;
    put_sv(c, (int64_t)(at - c->last));
    /* the code: BC mode in the old PSW's bytes 2-3; EC mode at PSA 86 (external) or BA (I/O);
    ** ESA/390 and z/Architecture: external at 86, I/O the subsystem-identification word at B8 */
    uint64_t code = (uint64_t)oldp[2] << 8 | oldp[3];
    if (regs->arch_mode != FST_A370) {
        uint64_t a = regs->PX_G + (cls == 2 ? 0x86 : 0xB8);
        unsigned n = cls == 2 ? 2 : 4;
        code = 0;
        for (unsigned i = 0; i < n && a + n <= sysblk.mainsize; i++)
            code = code << 8 | regs->mainstor[a + i];
    } else if (oldp[1] & 0x08) {
        uint64_t a = regs->PX_G + (cls == 2 ? 0x86 : 0xBA);
        code = a + 2 <= sysblk.mainsize ? (uint64_t)regs->mainstor[a] << 8 | regs->mainstor[a + 1] : 0;
    }
    put_v(c, code);
    new_psw_out(c, regs, newp, nl);
}
