/*
** capture/module/fstmod_cons.c — a part of fst's module for Hercules (fstmod.c): console lines and one job's window: the console's lines as CONS records in every
** CPU's stream; a reader's job, its session opened at the job's start line and ended at
** its end line.
** Not compiled alone: fstmod.c includes it, in its place, so that the module stays one
** translation unit (its wrappers' hot paths are inline across these parts, and the .so
** is the same code as from one file).
*/

/* ---- console lines (fstmod_wire.h CONS) and one job's window ----
**
** The system's console (a 3215 or 1052 printer-keyboard, as TK4- and MVS/CE have at 009)
** writes its lines through Hercules' log routine, on the thread that ran the console I/O:
** the preloaded interposer (fstirq.c) gives each piece to cons_text() here, and nothing
** else of Hercules' log. Pieces become lines (a write without carrier return goes on with
** the next), numbered (cons_seq), kept in a ring of CONS_RING; each CPU writes each line
** of its session once, as a CONS op, at the point its records have reached: its next
** record (skip_op, and the copy of a loop, whose fast path ends when a line comes). So a
** line is in every CPU's records in order with its instructions, at most up to that CPU's
** next op late: the record the CPU was about to make when the line came.
**
** One job (a reader's request, FSTMOD_REQ_SUFFIX): the session opens with HELLO and then
** records nothing, the wrappers out of Hercules' way, until a line says the job started
** ($HASP373 NAME STARTED, fstmod_job.h): that line's thread begins the session's records
** (fst_gen, each CPU's SYNC at its next op, then the line as CONS) and puts the wrappers in
** at once. The line that says the job ended is written like any other; the CPU that writes
** it flushes its records at once (the reader ends there), and the attach thread ends the
** session JOB_LINGER_NS later if the reader has not (job_watch). Lines a CPU missed (more
** than CONS_RING since its last op: a CPU in a long wait) are skipped; their numbers say so.
** Locks: conslock for the ring, the line being made and the job's state, outlock for the
** session; conslock may be taken with outlock held, never the other way round.
*/
#define CONS_RING 64u
#define JOB_LINGER_NS 2000000000ull
enum { JOB_NONE, JOB_ARMED, JOB_ON };

typedef struct consline {
    unsigned seq, n;
    char text[FSTMOD_CONS_MAX];
} consline;

static consline cring[CONS_RING];
static pthread_mutex_t conslock = PTHREAD_MUTEX_INITIALIZER;
static char cpart[FSTMOD_CONS_MAX];     /* the line being written (no newline yet) */
static unsigned ncpart;
static char job_name[9];                /* the session's job (JOB_ARMED, JOB_ON) */
static volatile int job_state;
static unsigned job_start_seq;          /* the line that said it started (JOB_ARMED: 0 until then) */
static volatile unsigned job_end_seq;   /* the line that said it ended, 0 until then */
static uint64_t job_end_ns;
static void live_sync(void);

/* conslock held: the line cpart ends; its number, and what it says of the job. */
static void cons_line_done(void)
{
    unsigned seq = cons_seq + 1;
    consline *l = &cring[seq % CONS_RING];
    l->seq = seq;
    l->n = ncpart;
    memcpy(l->text, cpart, ncpart);
    ncpart = 0;
    __atomic_store_n(&cons_seq, seq, __ATOMIC_RELEASE); /* the line is in the ring first */
    size_t jl = strlen(job_name);
    if (job_state == JOB_ARMED && !job_start_seq && fstmod_job_says(l->text, l->n, job_name, jl, FSTMOD_JOB_START))
        job_start_seq = seq;
    else if (job_state == JOB_ON && !job_end_seq && fstmod_job_says(l->text, l->n, job_name, jl, FSTMOD_JOB_END)) {
        job_end_ns = now_ns();
        job_end_seq = seq;
    }
}

/* The armed session's job started at line seq: its records begin (outlock taken here). */
static void job_begin(unsigned seq)
{
    pthread_mutex_lock(&outlock);
    int began = job_state == JOB_ARMED && outfd >= 0;
    unsigned g = 0;
    if (began) {
        g = ++att_sessions ? att_sessions : ++att_sessions;
        cons_from = seq - 1;    /* the start line is each CPU's first CONS */
        pthread_mutex_lock(&conslock);
        job_state = JOB_ON;
        pthread_mutex_unlock(&conslock);
        fst_gen = g;
    }
    pthread_mutex_unlock(&outlock);
    if (!began)
        return;
    live_sync();
    logmsg("HHCFS007I fst module: job %s started: recording it (session %u)\n", job_name, g);
}

/* A piece of what the console wrote (the interposer's hook: any thread). */
static void cons_text(const char *s, size_t n)
{
    unsigned start = 0;
    pthread_mutex_lock(&conslock);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            cons_line_done();
        else if (s[i] != '\r' && ncpart < FSTMOD_CONS_MAX)
            cpart[ncpart++] = s[i];
    }
    if (job_state == JOB_ARMED && job_start_seq) {
        start = job_start_seq;
        job_start_seq = 0;
    }
    pthread_mutex_unlock(&conslock);
    if (start)
        job_begin(start);
}

/* The console lines this CPU has not written, as CONS ops before the instruction at `at`
** (its instructions up to there have run: their code pages first). The CPU's own thread. */
static void cons_out(REGS *regs, uint64_t at)
{
    cpubuf *c = buf_of(regs);
    unsigned upto = __atomic_load_n(&cons_seq, __ATOMIC_ACQUIRE), end = job_end_seq;
    int flush = 0;
    code_check(c, regs, dat_on(regs), c->last, at);
    for (unsigned seq = c->cons_seen + 1; (int)(upto - seq) >= 0; seq++) {
        if ((int)(upto - seq) >= (int)CONS_RING)
            continue; /* out of the ring: skipped (the numbers say so) */
        char text[FSTMOD_CONS_MAX];
        pthread_mutex_lock(&conslock);
        const consline *l = &cring[seq % CONS_RING];
        unsigned n = l->seq == seq ? l->n : 0;
        memcpy(text, l->text, n);
        pthread_mutex_unlock(&conslock);
        room(c, regs, n + 32);
        c->b[c->n++] = FSTMOD_OP_CONS;
        put_sv(c, (int64_t)(at - c->last));
        put_v(c, seq);
        put_v(c, n);
        memcpy(c->b + c->n, text, n);
        c->n += n;
        c->last = at;
        flush |= seq == end;
    }
    c->cons_seen = upto;
    if (flush) /* the job's end: the reader ends its window there, now */
        flush_cpu(regs->cpuad % FSTMOD_NCPU);
}

/* A reader's request beside the FIFO (FSTMOD_REQ_SUFFIX): the job it asks for into
** job_name (upper case), 1; else 0 (none: record from now on). Only a regular file of the
** user Hercules runs as. */
static int read_request(const char *fifo)
{
    char path[4096 + 8], line[64] = "", name[16] = "";
    snprintf(path, sizeof path, "%s%s", fifo, FSTMOD_REQ_SUFFIX);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    struct stat sb;
    ssize_t k = -1;
    if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_uid == geteuid())
        k = read(fd, line, sizeof line - 1);
    close(fd);
    if (k <= 0)
        return 0;
    line[k] = 0;
    return sscanf(line, "job %15s", name) == 1 && fstmod_job_name(name, job_name);
}

/* The attach thread's look at a session, every FSTMOD_ATTACH_MS: a reader that went away
** while waiting for its job (nothing was written, so no EPIPE told), a job that ended
** JOB_LINGER_NS ago whose reader stays. 1 when there is no session (look for a reader). */
static int job_watch(void)
{
    pthread_mutex_lock(&outlock);
    if (outfd >= 0 && job_state == JOB_ARMED) {
        struct pollfd pf = { outfd, 0, 0 };
        if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLERR | POLLHUP)))
            detach_locked("went away before the job started");
    } else if (outfd >= 0 && job_state == JOB_ON && job_end_seq && now_ns() - job_end_ns > JOB_LINGER_NS) {
        detach_locked("stayed after the job ended");
    }
    int none = outfd < 0;
    pthread_mutex_unlock(&outlock);
    return none;
}
