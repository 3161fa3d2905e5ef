/*
** fst-dump — print what a trace holds: header, storage image, every record, footer.
** For looking inside a trace and for tests (like `uftrace dump`); with the format version and
** how each kind of frame packs (stored and unpacked bytes). Wiring only.
*/
#include "trace/tracebin.h"
#include "common/err.h"
#include "common/opt.h"

#include <stdio.h>
#include <string.h>

enum { O_SUMMARY = 's' };
static const fst_option options[] = {
    { 's', "summary", NULL, "header, image and footer with counts only, not every record", O_SUMMARY },
    { 0 }
};
static const fst_cmd cmd = { "fst-dump", "[--summary] TRACE",
                             "Print the records of a trace, one per line, then its footer as key=value lines.\n"
                             "A trace of SDL Hercules 4.x comes from its binary trace file; in the Hercules\n"
                             "console: tf ON \"FILE=job.tf\" MAX=2G, t+ (or t+ 20000-20FFF for a range), run the\n"
                             "job, t-, tf OFF; then fst-capture --from-tf=job.tf -o job.trace. The file takes\n"
                             "448 bytes an instruction (632 with DAT on); job.tf may be a FIFO that fst-capture\n"
                             "reads as Hercules writes (start fst-capture first): then nothing reaches the disk.\n"
                             "The tf-* footer keys give the file's counts.",
                             options };

static const char *const hkeys[] = { FST_HK_SOURCE, FST_HK_PROGRAM, FST_HK_COMMAND, FST_HK_ARCH, FST_HK_RANGE,
                                     FST_HK_TRACEOPT, FST_HK_CLOCK, FST_HK_SAMPLE_HZ, FST_HK_WINDOW, FST_HK_WINDOW_START,
                                     FST_HK_JOB, FST_HK_JOB_CONSOLE, FST_HK_JOB_EDGES, FST_HK_RECENT, NULL };

/* PSW bytes as Hercules prints them: words of 4 bytes */
static void psw_words(const uint8_t *psw, unsigned len)
{
    for (unsigned i = 0; i < len; i++)
        printf("%s%02X", i && i % 4 == 0 ? " " : "", psw[i]);
}

/* hex digits of v, upper case, no leading zeros (as %llX) or at least `width` of them; returns
** the end */
static char *hex(char *p, uint64_t v, int width)
{
    char t[16];
    int n = 0;
    do
        t[n++] = "0123456789ABCDEF"[v & 15];
    while ((v >>= 4) || n < width);
    while (n)
        *p++ = t[--n];
    return p;
}

/* decimal digits of v; returns the end */
static char *dec(char *p, unsigned v)
{
    char t[10];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    while (n)
        *p++ = t[--n];
    return p;
}

/* an instruction's line, as printf("insn cpu=%u addr=%llX len=%u bytes=%02X...") wrote it:
** formatted by hand, since a trace holds millions of them and printf took 95 % of the dump's
** time (18 M instructions: 5.6 s of 5.8) */
static void insn_line(const fst_rec *r)
{
    char line[96], *p = line;
    memcpy(p, "insn cpu=", 9);
    p = dec(p + 9, r->cpu);
    memcpy(p, " addr=", 6);
    p = hex(p + 6, r->addr, 1);
    memcpy(p, " len=", 5);
    p = dec(p + 5, r->len);
    memcpy(p, " bytes=", 7);
    p += 7;
    for (int i = 0; i < r->len; i++)
        p = hex(p, r->bytes[i], 2);
    *p++ = '\n';
    fwrite(line, 1, (size_t)(p - line), stdout);
}

static void record(const fst_rec *r)
{
    switch (r->kind) {
    case FST_REC_INSN: insn_line(r); break;
    case FST_REC_STATE: printf("state %08X\n", r->state); break;
    case FST_REC_CPU: printf("cpu %u\n", r->cpu); break;
    case FST_REC_PGMCHK: printf("pgmchk code=%04X ilc=%u\n", r->code, r->ilc); break;
    case FST_REC_INTR:
        if (r->cls == FST_INTR_SVC)
            printf("intr svc %u\n", r->code);
        else
            printf("intr class=%u code=%X\n", r->cls, r->code);
        break;
    case FST_REC_WAIT:
        printf("wait kind=%s psw=", r->cls ? "disabled" : "loaded");
        for (int i = 0; i < r->pswlen; i++)
            printf("%02X", r->psw[i]);
        printf("\n");
        break;
    case FST_REC_GAP: printf("gap\n"); break;
    case FST_REC_TIME: printf("time %u\n", r->code); break;
    case FST_REC_LPSW:
        printf("lpsw operand=%08llX psw=", (unsigned long long)r->addr);
        psw_words(r->psw, r->pswlen);
        printf("\n");
        break;
    case FST_REC_CR: printf("cr%u = %08llX\n", r->cls, (unsigned long long)r->value); break;
    case FST_REC_SAMPLE:
        printf("sample ns=%llu addr=%llX psw=", (unsigned long long)r->value, (unsigned long long)r->addr);
        psw_words(r->psw, r->pswlen);
        printf("\n");
        break;
    case FST_REC_REGS:
    case FST_REC_BASES:
        printf(r->kind == FST_REC_REGS ? "regs" : "bases");
        for (int g = 0; g < 16; g++)
            if (r->code >> g & 1)
                printf(" r%d=%llX", g, (unsigned long long)r->gr[g]);
        printf("\n");
        break;
    case FST_REC_OPND: printf("opnd %llX\n", (unsigned long long)r->addr); break;
    case FST_REC_OLDPSW:
        printf("oldpsw slot=%llX psw=", (unsigned long long)r->addr);
        psw_words(r->psw, r->pswlen);
        printf("\n");
        break;
    case FST_REC_END: break;
    }
}

int main(int argc, char **argv)
{
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    int summary = 0;
    for (int id; (id = fst_opt_next(&p)) != -1;)
        if (id == O_SUMMARY)
            summary = 1;
    if (argc - p.optind != 1)
        fst_opt_fail(&p, "one TRACE, please");
    fst_err err;
    fst_tr *r = fst_tr_open(fst_opt_infile(argv[p.optind]), &err);
    if (!r)
        fst_die_err(&err);
    for (const char *const *k = hkeys; *k; k++) {
        const char *v = fst_tr_header(r, *k);
        if (v)
            printf("header.%s=%s\n", *k, v);
    }
    size_t n;
    const fst_image_seg *seg = fst_tr_image(r, &n);
    for (size_t i = 0; i < n; i++)
        printf("image %llX %zu\n", (unsigned long long)seg[i].addr, seg[i].len);
    fst_rec rec;
    int rc;
    uint64_t kinds[FST_REC_BASES + 1] = { 0 };
    while ((rc = fst_tr_next(r, &rec, &err)) > 0) {
        kinds[rec.kind]++;
        if (!summary)
            record(&rec);
    }
    if (rc < 0) {
        fflush(stdout);
        fst_tr_close(r);
        fst_die_err(&err);
    }
    static const char *names[] = { "end", "insn", "state", "cpu", "pgmchk", "intr", "wait", "gap", "time", "lpsw", "cr" };
    for (int k = 1; k <= FST_REC_CR; k++)
        printf("count.%s=%llu\n", names[k], (unsigned long long)kinds[k]);
    if (kinds[FST_REC_SAMPLE]) /* a sampled trace only: an exact trace's dump stays as it was */
        printf("count.sample=%llu\n", (unsigned long long)kinds[FST_REC_SAMPLE]);
    /* the evidence of which task runs (tracebin.h), when there is any: a dump of a trace
    ** without it stays as it was */
    static const char *ev[] = { "regs", "opnd", "oldpsw", "bases" };
    for (int k = FST_REC_REGS; k <= FST_REC_BASES; k++)
        if (kinds[k])
            printf("count.%s=%llu\n", ev[k - FST_REC_REGS], (unsigned long long)kinds[k]);
    static const char *fkeys[] = { FST_FK_COMPLETE, FST_FK_END, FST_FK_INSNS, FST_FK_PGMCHKS, FST_FK_INTRS,
                                   FST_FK_WAITS, FST_FK_LINES, FST_FK_UNKNOWN, FST_FK_MALFORMED, "redisplays",
                                   "traceopt-seen", FST_FK_RANGE, "hercules", "arch-at-end", "tf-format", "tf-bytes", "tf-records",
                                   "tf-instruction-records", "tf-device-records", "tf-unknown-records", "tf-closed",
                                   "tf-header-instructions", FST_FK_SAMPLES, "sample-wait-samples", "sample-ns",
                                   "sample-errors", "sample-out-of-range", "sample-requests", "sample-rtt-median-ns",
                                   "sample-rtt-p99-ns", "sample-late", "sample-cr1", NULL };
    for (const char **k = fkeys; *k; k++) {
        const char *v = fst_tr_footer(r, *k);
        if (v)
            printf("footer.%s=%s\n", *k, v);
    }
    /* how each kind of frame packs (version 2 packs IMAG and EVNT with zstd) */
    printf("version=%u\n", fst_tr_version(r));
    static const char *fnames[FST_FRAME_KINDS] = { "HEAD", "IMAG", "EVNT", "FOOT" };
    const fst_frame_stats *fs = fst_tr_frame_stats(r);
    for (int k = 0; k < FST_FRAME_KINDS; k++)
        if (fs[k].frames)
            printf("frames.%s=%llu stored=%llu unpacked=%llu ratio=%.1f\n", fnames[k],
                   (unsigned long long)fs[k].frames, (unsigned long long)fs[k].stored,
                   (unsigned long long)fs[k].unpacked, fs[k].stored ? (double)fs[k].unpacked / (double)fs[k].stored : 0.0);
    const char *why;
    int complete = fst_tr_complete(r, &why);
    printf("complete=%d\n", complete);
    if (!complete)
        printf("incomplete=%s\n", why);
    fst_tr_close(r);
    return 0;
}
