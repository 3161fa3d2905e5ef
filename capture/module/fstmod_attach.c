/*
** capture/module/fstmod_attach.c — a part of fst's module for Hercules (fstmod.c): attach and detach: a reader that comes and goes (a running system), each CPU's first
** record of a session a SYNC.
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* ---- attach and detach: a reader that comes and goes (a running system) ----
**
** Hercules runs for hours with the module loaded; fst-capture --via=module --attach=FIFO
** reads it now and then (capture/modread/modattach.h). The FIFO ($FST_MODULE_OUT) is
** opened O_WRONLY|O_NONBLOCK: with no reader that fails (ENXIO), and a thread of the
** module's (att_loop) tries again when inotify says the FIFO was opened or made (at once),
** and every FSTMOD_ATTACH_MS; a missing FIFO is waited for the same way. A reader found starts a session (fst_gen, 1 and up): HELLO again, then each
** CPU's first record of the session is SYNC (fstmod_wire.h), written by that CPU itself
** (sync_cpu: its state is its own, no lock), with its state the reader does not have
** cleared: the REP history, `last`, the registers sent, the space said, the fast path's
** memo, a page left to send, its code slots (each CPU has its own). SYNC's PSW is the
** instruction the op that made the CPU write it is about (the branch, SVC, LCTL, LM/STM,
** SIGP, the instruction a program interruption checked; an I/O or external interruption's
** old PSW), and the op follows it: the trace's first instruction is that one (a window
** that begins at a BALR counts its call). An op that changed the PSW (LPSW, SSM, STNSM,
** STOSM, SPKA) is not written: SYNC has the PSW it left (cur_psw()), so that the state of
** every instruction shown is right. A failed write (EPIPE: the reader went away) or a
** reader that takes nothing for FSTMOD_STALL_MS ends the session (detach_locked): fst_gen
** 0, every record path's first test (skip_op) says skip, and within FSTMOD_ATTACH_MS the
** thread takes the wrappers out of the opcode tables and the interposer's hook away
** (live(0)): a module nobody reads runs Hercules' own routines, nothing of the module's
** per instruction. They go back in when the next reader comes (live(1)). Records a CPU
** made for an ended session are never written (chunk compares the session); a loop's copy
** (REP) that goes on across a session's end is dropped with them, and the fast path of the
** branch wrapper is as it was (the session is looked at on the slow paths, and every
** REP_MAXN copies). SIGPIPE is ignored by Hercules itself (3.13 impl.c, 4.x the same); the
** module makes sure (attach_start).
*/
#define FSTMOD_ATTACH_MS 200

static uint64_t psw_addr(const uint8_t *psw, unsigned len);

static void irq_record(REGS *regs, int cls);
static void (**irq_ptr)(REGS *, int);  /* fstirq.c's hook (preloaded), or NULL */
static int att_live;            /* the wrappers are in the opcode tables now */

/* The wrappers in the opcode tables while a session records (fst_gen), else Hercules' own
** routines (no reader, or one waiting for its job: a module nobody reads costs nothing per
** instruction), and the interposer's hook the same. Decided under livelock from the session
** as it is then: the attach thread and the thread that logs a job's first line both call
** it, and the later call always sees the later session. */
static pthread_mutex_t livelock = PTHREAD_MUTEX_INITIALIZER;
static void live_sync(void)
{
    pthread_mutex_lock(&livelock);
    int on = fst_gen != 0;
    if (patched && att_live != on) {
        fst_patch_live(on);
        if (irq_ptr)
            *irq_ptr = on ? irq_record : NULL;
        att_live = on;
    }
    pthread_mutex_unlock(&livelock);
}

static char *att_path;          /* $FST_MODULE_OUT */
static char att_text[300];      /* what HELLO (or REFUSE) says to each reader */
static int att_refuse;
static pthread_t att_tid;
static int att_thread;
static volatile int att_stop;

/* The PSW now in force with address `at` (the instruction an op is about), without
** touching the CPU (copy_psw works on a copy of its REGS: cur_psw's update of the PSW's
** address must not happen before an SVC runs or inside a program interruption). */
static unsigned psw_at(REGS *regs, uint64_t at, uint8_t *psw)
{
    copy_psw(regs, psw);
    if (regs->arch_mode == FST_A900) {
        for (unsigned i = 0; i < 8; i++)
            psw[8 + i] = (uint8_t)(at >> (56 - 8 * i));
        return 16;
    }
    if (psw[1] & 0x08) /* EC mode (and ESA/390): 31 bits, the addressing-mode bit kept */
        psw[4] = (uint8_t)((psw[4] & 0x80) | ((at >> 24) & 0x7F));
    psw[5] = (uint8_t)(at >> 16);
    psw[6] = (uint8_t)(at >> 8);
    psw[7] = (uint8_t)at;
    return 8;
}

/* This CPU's first record of session g: its state starts again, and SYNC says where. The
** op it is about follows, at `at`, with this PSW's state (psw: the interrupted PSW of an
** interruption; NULL: the CPU's PSW, its address `at`); or, `left` (an op that changed the
** PSW: LPSW, SSM, ...), the op is not written and SYNC has the PSW it left. */
static void __attribute__((noinline)) sync_cpu(REGS *regs, unsigned g, uint64_t at, const uint8_t *given,
                                               unsigned glen, int left)
{
    uint8_t psw[16];
    unsigned len = given ? glen : left ? cur_psw(regs, psw) : psw_at(regs, at, psw);
    if (given)
        memcpy(psw, given, glen);
    cpubuf *c = room_of(regs);  /* a buffer of an earlier session is dropped below */
    c->gen = g;
    c->n = 0;
    c->rep_p = c->rep_n = c->rep_lazy = 0;
    c->nbr = 0;
    c->ph = PH_LOOKT;
    c->ph_n0 = c->ph_long = 0;
    c->ph_left = ph_look;
    c->ph_t0 = 0;   /* the first trial's time: from its first branch */
    memset(c->bat, 0xFF, sizeof c->bat);
    memset(c->bto, 0xFF, sizeof c->bto);
    memset(c->rix, 0, sizeof c->rix);
    memset(c->ck, 0, sizeof c->ck);
    c->late = NULL;
    c->since = now_ns();
    for (unsigned i = 0; c->slots && i < FSTMOD_CODE_SLOTS; i++) /* the reader has none of its pages */
        c->slots[i].used = 0;
    /* the space the instructions from that PSW on run in: its DAT bit (EC mode) and CR1 */
    uint64_t sp = space_of(regs, len && (psw[1] & 0x08) && (psw[0] & PSW_DATMODE));
    c->said_space = sp;
    c->b[c->n++] = FSTMOD_OP_SYNC;
    put_psw(c, psw, len);
    put_v(c, sp);
    for (int r = 0; r < 16; r++) {
        c->gr[r] = regs->GR_L(r);
        put_v(c, c->gr[r]);
    }
    c->gr_sent = 1;
    c->last = psw_addr(psw, len);
    if ((int)(c->cons_seen - cons_from) < 0) /* the session's lines only */
        c->cons_seen = cons_from;
    if (left && wait_psw(psw, len))
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* Every record path's first test, with the address of the instruction its op is about: 1
** when nothing is to be recorded (no reader; or `left`, an op that changed the PSW, which
** this CPU's SYNC stands for); 0: record the op (after this CPU's SYNC, when the session
** is new to it). */
static inline int skip_op(REGS *regs, uint64_t at, const uint8_t *psw, unsigned len, int left)
{
    unsigned g = fst_gen;
    if (unlikely(!g))
        return 1;
    const cpubuf *c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (likely(c != NULL ? c->gen == g : g == load_gen)) {
        if (unlikely(c != NULL && c->cons_seen != cons_seq))
            cons_out(regs, at);
        return 0;
    }
    sync_cpu(regs, g, at, psw, len, left);
    c = bufs[regs->cpuad % FSTMOD_NCPU];
    if (c->cons_seen != cons_seq)
        cons_out(regs, left ? c->last : at);
    return left;
}

/* outlock held: the session ends (the reader went away, or stalled). */
static void detach_locked(const char *why)
{
    if (outfd >= 0)
        close(outfd);
    outfd = -1;
    fst_gen = 0;
    pthread_mutex_lock(&conslock);
    job_state = JOB_NONE;
    pthread_mutex_unlock(&conslock);
    logmsg("HHCFS006I fst module: the reader of %s %s: recording stops until the next one\n",
           att_path ? att_path : "the FIFO", why ? why : "went away");
}

/* Whether a CPU has run an instruction since its last reset (IPL clears the counts): a
** reader that comes before it sees the run from its start (HELLO's " ran=0"). */
static int cpus_ran(void)
{
    int ran = 0;
    for (int i = 0; i < FST_MAXCPU; i++)
        ran |= sysblk.regs[i] != NULL && (sysblk.regs[i]->instcount || sysblk.regs[i]->prevcount);
    return ran;
}

/* A reader on the FIFO? Then a session begins: HELLO (or REFUSE) first, saying whether the
** CPUs ran before it (" ran=1": the window begins in the middle of a run; " ran=0": a
** window attached before the IPL, the run from its start). 0: none yet (or a session
** began); -1: the path is not a FIFO (nothing will be recorded). */
static int try_attach(void)
{
    static int told; /* refusing: this reader was told why (it has the FIFO open still) */
    int fd = open(att_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        told = 0;
        return 0; /* ENXIO: no reader yet; ENOENT: no FIFO yet (fst-capture --attach makes it) */
    }
    if (att_refuse && told) {
        close(fd);
        return 0;
    }
    struct stat sb;
    if (fstat(fd, &sb) || !S_ISFIFO(sb.st_mode)) {
        close(fd);
        logmsg("HHCFS002E fst module: %s is not a FIFO: nothing recorded (mkfifo it, or let fst-capture "
               "--via=module --attach=%s make it)\n", att_path, att_path);
        return -1;
    }
#ifdef F_SETPIPE_SZ
    fcntl(fd, F_SETPIPE_SZ, 1 << 20); /* room for 16 buffers: fewer waits of a CPU on the reader (best effort) */
#endif
    /* a reader that asks for one job: HELLO says so, and the session waits for the job */
    int armed = !att_refuse && read_request(att_path);
    char text[sizeof att_text + 32];
    snprintf(text, sizeof text, "%s%s%s%s", att_text, armed ? " job=" : "", armed ? job_name : "",
             att_refuse ? "" : cpus_ran() ? " ran=1" : " ran=0");  /* REFUSE's text: the reason alone */
    size_t n = strlen(text);
    uint8_t b[FSTMOD_CHUNK_HDR + sizeof text] = { FSTMOD_CHUNK, FSTMOD_CPU_MODULE, 0, 0, (uint8_t)(n + 1) };
    b[FSTMOD_CHUNK_HDR] = att_refuse ? FSTMOD_OP_REFUSE : FSTMOD_OP_HELLO;
    memcpy(b + FSTMOD_CHUNK_HDR + 1, text, n);
    pthread_mutex_lock(&outlock);
    outfd = fd;
    unsigned g = ++att_sessions ? att_sessions : ++att_sessions;
    fst_gen = g; /* (write_all's detach needs a session) */
    write_all(b, FSTMOD_CHUNK_HDR + 1 + n);
    if (att_refuse) { /* said why; nothing follows (the reader sees the end) */
        close(outfd);
        outfd = -1;
        fst_gen = 0;
        told = 1;
    }
    if (armed && outfd >= 0) { /* nothing recorded until the job starts (cons_text) */
        pthread_mutex_lock(&conslock);
        job_start_seq = job_end_seq = 0;
        job_state = JOB_ARMED;
        pthread_mutex_unlock(&conslock);
        fst_gen = 0;
    } else if (fst_gen) {
        cons_from = cons_seq; /* the lines from now on */
    }
    int on = fst_gen != 0;
    pthread_mutex_unlock(&outlock);
    live_sync();
    if (on)
        logmsg("HHCFS005I fst module: a reader opened %s: recording (session %u)\n", att_path, g);
    else if (armed && job_state == JOB_ARMED)
        logmsg("HHCFS005I fst module: a reader opened %s: waiting for job %s to start\n", att_path, job_name);
    return 0;
}

/* A pipe attach_stop writes to: the thread, waiting in att_wait, ends at once (Hercules'
** shutdown waited up to FSTMOD_ATTACH_MS for it: 0.2 s, a third of a half-second run). */
static int att_wake[2] = { -1, -1 };

/* Wait until something may have changed for the FIFO (a reader opening it, the FIFO or
** the request made), at most FSTMOD_ATTACH_MS: inotify on the FIFO's folder and on the FIFO,
** so that a reader is found microseconds after it opens the FIFO (a job that starts right
** after fst-capture attaches is not missed); without inotify, the sleep alone. */
static void att_wait(int *ino, int *wfifo)
{
    if (*ino < 0) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", att_path);
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            dir[1] = 0;
        else if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        if ((*ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) >= 0 &&
            inotify_add_watch(*ino, dir, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0) {
            close(*ino);
            *ino = -2; /* not again */
        }
    }
    if (*ino >= 0 && *wfifo < 0)
        *wfifo = inotify_add_watch(*ino, att_path, IN_OPEN | IN_DELETE_SELF);
    struct pollfd pf[2] = { { att_wake[0], POLLIN, 0 }, { *ino, POLLIN, 0 } };
    if (att_wake[0] < 0 && *ino < 0) {
        struct timespec ts = { 0, FSTMOD_ATTACH_MS * 1000000L };
        nanosleep(&ts, NULL);
        return;
    }
    if (poll(pf, *ino >= 0 ? 2 : 1, FSTMOD_ATTACH_MS) > 0 && (pf[1].revents & POLLIN)) {
        char ev[4096] __attribute__((aligned(8)));
        ssize_t n;
        while ((n = read(*ino, ev, sizeof ev)) > 0)
            for (char *q = ev; q < ev + n; q += sizeof(struct inotify_event) + ((struct inotify_event *)q)->len)
                if (((struct inotify_event *)q)->mask & (IN_DELETE_SELF | IN_IGNORED))
                    *wfifo = -1; /* the FIFO went: watch the next one */
    }
}

static void *att_loop(void *arg)
{
    (void)arg;
    int ino = -1, wfifo = -1;
    while (!att_stop) {
        live_sync(); /* the reader went away: out of the tables until the next one */
        if (job_watch() && try_attach() < 0)
            break;
        att_wait(&ino, &wfifo);
    }
    if (ino >= 0)
        close(ino);
    return NULL;
}

/* At load: SIGPIPE ignored, a reader there now gets the session that sees the CPUs start
** (load_gen: no SYNC), else the thread waits for one. text: HELLO's (refuse: REFUSE's). */
static void attach_start(const char *path, const char *text, int refuse)
{
    struct sigaction sa;
    if (!sigaction(SIGPIPE, NULL, &sa) && sa.sa_handler == SIG_DFL && !(sa.sa_flags & SA_SIGINFO))
        signal(SIGPIPE, SIG_IGN); /* a reader gone must end a write with EPIPE, not Hercules */
    att_path = strdup(path);
    snprintf(att_text, sizeof att_text, "%s", text);
    att_refuse = refuse;
    if (!att_path || try_attach() < 0)
        return;
    /* a late load (ldmod at the console): the CPUs ran before it (4.x has them configured
    ** when LDMOD is read, 3.13 not yet) */
    if (fst_gen && !cpus_ran() && getenv(FSTMOD_ENV_FROM_IPL))
        load_gen = fst_gen; /* fst-capture running a program: the stream from IPL, no SYNC */
    live_sync();
    if (!fst_gen && !job_state)
        logmsg("HHCFS005I fst module: no reader on %s yet: it records while one is attached "
               "(fst-capture --via=module --attach=%s)\n", path, path);
    if (att_wake[0] < 0 && pipe2(att_wake, O_NONBLOCK | O_CLOEXEC) < 0)
        att_wake[0] = att_wake[1] = -1; /* then the thread ends at its next look */
    att_thread = !pthread_create(&att_tid, NULL, att_loop, NULL);
}

static void attach_stop(void)
{
    att_stop = 1;
    if (att_wake[1] >= 0 && write(att_wake[1], "", 1) < 0) {
        /* full or gone: the thread still sees att_stop within FSTMOD_ATTACH_MS */
    }
    if (att_thread)
        pthread_join(att_tid, NULL);
    att_thread = 0;
    for (int i = 0; i < 2; i++)
        if (att_wake[i] >= 0) {
            close(att_wake[i]);
            att_wake[i] = -1;
        }
}
