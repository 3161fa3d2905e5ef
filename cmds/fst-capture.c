/*
** fst-capture — run a standalone program under Hercules and trace it, convert a Hercules
** log or tf file, or sample a program's PSW; writes trace.bin (trace/tracebin.h). Wiring
** only: the options here, the ways to capture in capture/modes/ (mode.h).
*/
#include "capture/hercules/hercules.h"
#include "capture/modes/mode.h"
#include "capture/read/jobwin.h"
#include "capture/sample/sample.h"
#include "common/err.h"
#include "common/opt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_OUT = 'o', O_QUIET = 'q', O_FROMLOG = 1000, O_IMAGE, O_ARCH, O_RANGE, O_TRACEOPT, O_HERC, O_TIMEOUT, O_MAX,
       O_KEEPLOG, O_MAINSIZE, O_NUMCPU, O_FOLLOW, O_FROMTF, O_SAMPLE, O_ATTACH, O_SECONDS, O_REMOTE, O_VIA, O_MODULE,
       O_JOB, O_HAO, O_AUTH, O_CARDS, O_CONSOLE, O_RUN };

static const fst_option options[] = {
    { 'o', "output", "TRACE", "write the trace to TRACE (default: PROGRAM.trace, or LOG.trace)", O_OUT },
    { 0, "from-log", "FILE", "convert a Hercules 3.13/4.x log instead of running Hercules ('-' = stdin)", O_FROMLOG },
    { 0, "from-tf", "FILE", "convert an SDL Hercules 4.x trace file (tf ON \"FILE=...\"; --from-log knows one too)", O_FROMTF },
    { 0, "image", "PROGRAM.ins", "with --from-log or --via=module --attach: the storage image to put into the trace "
                                 "(routines found by their FORTRAN entries; the module's code pages are the code)",
      O_IMAGE },
    { 0, "arch", "MODE", "S/370 (the default for a capture; a log says its own), ESA/390 or z/Arch", O_ARCH },
    { 0, "range", "A-B", "trace only addresses A to B (hex), as Hercules' 't+ A-B'", O_RANGE },
    { 0, "traceopt", "MODE", "Hercules' trace display: noregs (default, fastest), traditional, regsfirst", O_TRACEOPT },
    { 0, "hercules", "PATH", "the Hercules program (default: hercules on PATH): 3.13, or SDL 4.x (tf into a FIFO), told by its banner", O_HERC },
    { 0, "timeout", "SEC", "stop Hercules after SEC seconds (default 300; 0 = never); --follow: SEC s without a new line; "
                           "--via=module --attach: wait SEC s for the module's word (default 10)", O_TIMEOUT },
    { 0, "max-instructions", "N", "stop after N traced instructions", O_MAX },
    { 0, "keep-log", "FILE", "also keep Hercules' text log in FILE", O_KEEPLOG },
    { 0, "mainsize", "MB", "main storage size, 2 to 4194303 (default: what the image needs, at least 2)", O_MAINSIZE },
    { 0, "numcpu", "N", "number of CPUs (default 1)", O_NUMCPU },
    { 0, "follow", NULL, "with --from-log=FILE: keep reading as Hercules writes the file, until the program "
                         "has ended (every CPU that ran in a disabled wait or stopped), Ctrl-C, or --timeout seconds "
                         "without a new line", O_FOLLOW },
    { 0, "sample", "[HZ]", "run the program untraced and sample its PSW HZ times a second (default 300) through "
                           "Hercules' HTTP server: LOGTIME at full speed, no calls (capture/sample/sample.h)", O_SAMPLE },
    { 0, "attach", "HOST:PORT|FIFO", "with --sample: sample a Hercules already running with an HTTP port (loopback; "
                                "another host with --remote), until Ctrl-C, --seconds or a disabled wait; Ctrl-C "
                                "keeps the trace whole and exits 0 (it is how an attach without --seconds ends). "
                                "Without --sample: record a running system through the FIFO its fst module writes "
                                "to (FST_MODULE_OUT; made when missing), every instruction from now on, until "
                                "--seconds, --max-instructions, Ctrl-C or Hercules' end, or one job's run (--job) "
                                "(docs/module.md, docs/mvs.md)",
      O_ATTACH },
    { 0, "seconds", "N", "with --attach: sample or record for N seconds (a Ctrl-C before then keeps the trace, exit 130)",
      O_SECONDS },
    { 0, "remote", NULL, "with --attach: the host may be another machine", O_REMOTE },
    { 0, "via", "WAY", "how a run is traced: module (the default: fst's module inside Hercules 3.13 or SDL 4.x, "
                       "every instruction at about the program's own speed; where it cannot record, fst says why "
                       "in one line and takes the text trace) or trace (Hercules' text trace, 1 000 times slower; "
                       "--range, --traceopt and --keep-log need it; docs/module.md)", O_VIA },
    { 0, "module", "PATH", "with --via=module: the module to load, for either Hercules (default: $FST_MODULE "
                           "for 3.13, $FST_MODULE4 for 4.x, else lib/fst-hercules313.so or lib/fst-hercules4.so "
                           "beside fst-capture's folder)", O_MODULE },
    { 0, "http-auth", "FILE", "with --attach: the HTTP server's USER:PASSWORD, from the first line of FILE (mode 600); "
                              "without it, from $FST_HTTP_AUTH when set", O_AUTH },
    { 0, "job", "NAME", "keep only the job NAME: from JES2's '$HASP373 NAME STARTED' on the console to its "
                        "'$HASP395 NAME ENDED', where the capture ends: with --attach=FIFO, fst's module in a running "
                        "system waits for the job at full speed and records it alone; or a text log (--from-log, "
                        "--follow, a pipe), or a program run here", O_JOB },
    { 0, "run", "N", "with --job and a log: the job's Nth run in it (a log file: the last by default, with --follow "
                      "the first not ended yet when fst-capture starts; the runs a file holds are listed)", O_RUN },
    { 0, "console", "FILE", "with --attach=FIFO --job: the job's console lines from FILE, a file that grows (the "
                            "hardcopy of a console Hercules does not log, a 3270's), followed from its end: the "
                            "window's edges are then late by the file's delay (docs/mvs.md)", O_CONSOLE },
    { 0, "hao", NULL, "with --job: print the Hercules automatic-operator rules that switch tracing on and off "
                      "at the job's start and end, and exit", O_HAO },
    { 0, "cards", "FILE", "put FILE in the card reader at 00C (a 3505) as 80-byte EBCDIC cards, the last one "
                          "padded: for a program that reads its data or code from cards", O_CARDS },
    { 'q', "quiet", NULL, "no progress line and no summary", O_QUIET },
    { 0 }
};

static const fst_cmd cmd = {
    "fst-capture",
    "[options] [-o TRACE] PROGRAM.ins\n--sample[=HZ] [-o TRACE] PROGRAM.ins\n"
    "--sample[=HZ] --attach=HOST:PORT [--seconds=N] [--range=A-B] -o TRACE\n"
    "--attach=FIFO [--job=NAME] [--seconds=N] [--image=PROGRAM.ins] -o TRACE\n"
    "--from-log=FILE|- [--image=PROGRAM.ins] [-o TRACE]\n"
    "--from-tf=FILE|- [--image=PROGRAM.ins] [-o TRACE]",
    "Run a standalone S/370, ESA/390 or z/Architecture program under Hercules with\n"
    "fst's module inside it (or Hercules' text trace: --via=trace), from IPL to\n"
    "its disabled wait (several CPUs: until every CPU that ran is in a disabled wait or\n"
    "stopped), and write the executed instructions to a compact trace file that\n"
    "fst-report turns into profiles. With --from-log, read a Hercules log instead (a file,\n"
    "or '-' for a pipe: hercules ... | fst-capture --from-log=- -o job.trace); with\n"
    "--from-tf, an SDL Hercules 4.x binary trace file (tf ON \"FILE=job.tf\", t+, t-, tf OFF).",
    options,
    "  0    done (also --attach without --seconds ended by Ctrl-C: its trace is whole)\n"
    "  2    error (a message says what; a trace begun is kept, marked incomplete)\n"
    "  130  interrupted (SIGINT, SIGTERM, SIGHUP): the trace so far is kept, marked incomplete\n",
};

/* "A-B": hex digits only (no blank, sign or 0x: the text goes into Hercules' script as
** it is), A <= B. */
static int range_ok(const char *s)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    const char *dash = s + strspn(s, hex);
    char lo[20];
    uint64_t a, b;
    if (*dash != '-' || dash == s || (size_t)(dash - s) >= sizeof lo || dash[1 + strspn(dash + 1, hex)])
        return 0;
    memcpy(lo, s, (size_t)(dash - s));
    lo[dash - s] = 0;
    return !fst_parse_u64(lo, 16, &a) && !fst_parse_u64(dash + 1, 16, &b) && a <= b;
}

/* --via not given: fst's module wherever it can record (a program run here, a running
** system's FIFO); Hercules' text trace for a log, and for the options only it has (said in
** one line). Where the module then cannot record, capture/modes/module.c says why and the
** text trace runs (-1). */
static void pick_way(fst_capopts *c)
{
    if (c->via_given || c->sample || c->fromlog || c->hao)
        return;
    const char *needs = c->range ? "--range" : c->traceopt ? "--traceopt" : c->keeplog ? "--keep-log" : NULL;
    if (needs && !c->attach) {
        if (!c->quiet)
            fst_note("%s: taking Hercules' text trace (--via=trace), which it is an option of", needs);
        return;
    }
    c->via_module = 1;
}

static void parse_args(fst_capopts *c, int argc, char **argv, const char **program)
{
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    c->timeout = 300;
    c->numcpu = 1;
    c->arch = -1; /* not given: S/370 for a capture, learnt from the log for --from-log */
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_OUT: c->out = p.arg; break;
        case O_FROMLOG: c->fromlog = p.arg; break;
        case O_FROMTF: c->fromlog = p.arg; c->tf = 1; break; /* the log reader knows trace files */
        case O_IMAGE: c->image = p.arg; break;
        case O_ARCH:
            if ((c->arch = fst_arch_parse(p.arg)) < 0 || c->arch == FST_ARCH_UNKNOWN)
                fst_opt_fail(&p, "--arch wants S/370, ESA/390 or z/Arch, not '%s'", p.arg);
            break;
        case O_RANGE:
            if (!range_ok(p.arg))
                fst_opt_fail(&p, "--range wants A-B in hex with A <= B, not '%s'", p.arg);
            c->range = p.arg;
            sscanf(p.arg, "%" SCNx64 "-%" SCNx64, &c->lo, &c->hi); /* range_ok checked it */
            break;
        case O_SAMPLE:
            c->sample = 1;
            c->hz = p.arg ? (unsigned)fst_opt_u64(&p, 1, 10000) : FST_SAMPLE_DEFAULT_HZ;
            break;
        case O_ATTACH: c->attach = p.arg; break;
        case O_SECONDS: c->seconds = fst_opt_u64(&p, 1, 86400 * 365); break;
        case O_REMOTE: c->remote = 1; break;
        case O_AUTH: c->auth_file = p.arg; break;
        case O_JOB: {
            fst_jobwin *j = fst_jobwin_new(p.arg);
            if (!j)
                fst_opt_fail(&p, "--job wants a job name (1 to 8 letters, digits, $, # or @), not '%s'", p.arg);
            fst_jobwin_free(j);
            c->job = p.arg;
            break;
        }
        case O_HAO: c->hao = 1; break;
        case O_TRACEOPT: {
            static const char *const modes[] = { "noregs", "traditional", "regsfirst", NULL };
            c->traceopt = fst_opt_choice(&p, "trace display", modes);
            break;
        }
        case O_HERC: c->hercules = p.arg; break;
        case O_TIMEOUT: c->timeout = fst_opt_u64(&p, 0, 86400 * 365); c->timeout_given = 1; break;
        case O_MAX: c->max = fst_opt_u64(&p, 1, UINT64_MAX); break;
        case O_KEEPLOG: c->keeplog = p.arg; break;
        case O_MAINSIZE: c->mainsize_mb = fst_opt_u64(&p, FST_HERC_MAINSIZE_MIN, FST_HERC_MAINSIZE_MAX); break;
        case O_NUMCPU: c->numcpu = fst_opt_u64(&p, 1, 64); break;
        case O_FOLLOW: c->follow = 1; break;
        case O_QUIET: c->quiet = 1; break;
        case O_VIA: {
            static const char *const ways[] = { "trace", "module", NULL };
            c->via_module = !strcmp(fst_opt_choice(&p, "way of tracing", ways), "module");
            c->via_given = 1;
            break;
        }
        case O_MODULE: c->module = p.arg; break;
        case O_CARDS: c->cards = p.arg; break;
        case O_CONSOLE: c->console = p.arg; break;
        case O_RUN: c->run = fst_opt_u64(&p, 1, 1000000); break;
        }
    }
    int npos = argc - p.optind;
    pick_way(c);
    if (c->hao && !c->job)
        fst_opt_fail(&p, "--hao goes with --job=NAME");
    if (c->hao)
        return;
    if (c->job && (c->sample || c->tf))
        fst_opt_fail(&p, "--job reads the console lines of a text log: not with --sample or --from-tf (a tf file "
                         "holds no console; --job --hao prints the rules that switch tracing at the job)");
    if (c->auth_file && !c->attach)
        fst_opt_fail(&p, "--http-auth goes with --attach (fst-capture's own Hercules gets a password of its own)");
    if (c->out && !strcmp(c->out, "-"))   /* not a file named '-' (issue 16) */
        fst_opt_fail(&p, "-o -: a trace is written to a file (its end is rewritten when the run ends); "
                         "give a file name, then fst-report FILE");
    if (c->via_module && c->attach && (c->remote || c->auth_file || c->numcpu > 1 || c->mainsize_mb || c->cards ||
                                       c->module || c->hercules))
        fst_opt_fail(&p, "--via=module --attach reads a Hercules you run: --remote, --http-auth, --numcpu, "
                         "--mainsize, --cards, --module and --hercules do not go with it (they are that Hercules' own)");
    if ((c->attach || c->seconds || c->remote) && !c->sample && !(c->via_module && c->attach && !c->remote))
        fst_opt_fail(&p, "--attach, --seconds and --remote go with --sample (--attach=FIFO and --seconds also with "
                         "--via=module)");
    if ((c->seconds || c->remote) && !c->attach)
        fst_opt_fail(&p, "--seconds and --remote go with --attach (a program of your own runs to its disabled wait)");
    if (c->sample && (c->fromlog || c->traceopt || c->max || c->keeplog || c->numcpu > 1))
        fst_opt_fail(&p, "--sample does not trace: --from-log, --from-tf, --traceopt, --max-instructions, "
                         "--keep-log and --numcpu do not go with it");
    if (c->image && !c->fromlog && !(c->via_module && c->attach))
        fst_opt_fail(&p, "--image goes with --from-log, --from-tf or --via=module --attach");
    if (c->via_module && (c->fromlog || c->sample || c->range || c->traceopt || c->keeplog))
        fst_opt_fail(&p, "--via=module runs one program with no Hercules trace: --from-log, --from-tf, "
                         "--sample, --range, --traceopt and --keep-log do not go with it (--via=trace)");
    if (c->attach && !c->sample && !c->via_module)
        fst_opt_fail(&p, "--via=trace --attach: a running system is read through fst's module (--attach=FIFO) or "
                         "sampled (--sample --attach=HOST:PORT); a text trace of it is a log (--from-log --follow)");
    if (c->run && (!c->job || c->via_module))
        fst_opt_fail(&p, "--run goes with --job and a log (--from-log): the module's window is the job's first run "
                         "after the attach");
    if (c->console && (!c->job || !c->attach || c->sample))
        fst_opt_fail(&p, "--console goes with --attach=FIFO --job=NAME (a console whose lines the module cannot see)");
    if (c->module && !c->via_module)
        fst_opt_fail(&p, "--module goes with the module's route (the default, --via=module), not --via=trace, "
                         "--from-log or --sample");
    if (c->cards && (c->fromlog || c->attach))
        fst_opt_fail(&p, "--cards goes with a program run here (not --from-log, --from-tf or --attach)");
    if (c->sample && c->range && !c->attach)
        fst_opt_fail(&p, "--range goes with --attach when sampling (your own program's samples are all kept)");
    if (c->attach) {
        if (npos)
            fst_opt_fail(&p, "with --attach there is no program to run ('%s')", argv[p.optind]);
        if (!c->out)
            fst_opt_fail(&p, "with --attach, say where the trace goes with -o TRACE");
        npos = -1;
    }
    if (c->follow && (!c->fromlog || !strcmp(c->fromlog, "-")))
        fst_opt_fail(&p, "--follow goes with --from-log=FILE (a pipe is followed anyway)");
    if (npos < 0) {
        /* --attach: nothing to run */
    } else if (c->fromlog) {
        if (npos)
            fst_opt_fail(&p, "with --from-log, give the image as --image=PROGRAM.ins, not '%s'", argv[p.optind]);
        if (!c->out && !strcmp(c->fromlog, "-"))
            fst_opt_fail(&p, "reading a log from stdin: say where the trace goes with -o TRACE");
    } else {
        if (npos != 1)
            fst_opt_fail(&p, npos ? "one PROGRAM.ins at a time" : "which program? (PROGRAM.ins, or --from-log=FILE)");
        *program = argv[p.optind];
        if (c->image)
            fst_opt_fail(&p, "--image goes with --from-log");
    }
    size_t k = 0;
    for (int i = 0; i < argc && k < sizeof c->command - 1; i++)
        k += (size_t)snprintf(c->command + k, sizeof c->command - k, "%s%s", i ? " " : "", argv[i]);
    c->progress = !c->quiet && isatty(2);
}

/* PROGRAM.ins -> PROGRAM.trace in the current folder */
static char *default_out(const char *in)
{
    const char *b = strrchr(in, '/');
    b = b ? b + 1 : in;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *s = fst_xmalloc(n + 7);
    memcpy(s, b, n);
    memcpy(s + n, ".trace", 7);
    return s;
}


int main(int argc, char **argv)
{
    fst_capopts c = { 0 };
    const char *program = NULL;
    parse_args(&c, argc, argv, &program);
    if (c.hao) {
        fst_jobwin_hao(c.job, stdout);
        return fflush(stdout) ? FST_EXIT_FAIL : FST_EXIT_OK;
    }
    if (c.arch < 0)
        c.arch = c.fromlog ? FST_ARCH_UNKNOWN : FST_ARCH_S370;
    char *defout = NULL;
    if (!c.out)
        c.out = defout = default_out(c.fromlog ? c.fromlog : program);
    fst_ins ins = { 0 };
    fst_capture_inputs(&c, c.fromlog || c.attach ? c.image : program, &ins);
    int code = c.via_module && c.attach ? fst_capture_modattach(&c, &ins)
             : c.via_module                ? fst_capture_module(&c, program, &ins) /* -1: the text trace */
                                           : -1;
    if (code < 0)
        code = c.sample ? fst_capture_sample(&c, program, &ins)
             : c.fromlog ? fst_capture_log(&c, &ins)
                         : fst_capture_live(&c, program, &ins);
    fst_ins_free(&ins);
    free(defout);
    return code;
}
