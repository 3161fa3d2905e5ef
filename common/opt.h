/*
** common/opt.h — the option layer every fst command uses (after git's parse-options).
**
** A command declares its options once, in a table; the layer parses argv with
** getopt_long, prints `--help` from the same table, and rejects unknown options,
** missing arguments and bad numbers with one message and exit code 2. So every
** command spells options, errors and help alike.
**
**   static const fst_option opts[] = {
**       { 'o', "output", "FILE", "write the trace to FILE", 'o' },
**       { 0,   "timeout", "SEC", "stop Hercules after SEC seconds", OPT_TIMEOUT },
**       { 0 }
**   };
**   static const fst_cmd cmd = { "fst-capture", "[-o TRACE] PROGRAM.ins", "summary", opts };
**   fst_optparser p; fst_opt_init(&p, &cmd, argc, argv);
**   for (int id; (id = fst_opt_next(&p)) != -1; ) switch (id) { ... p.arg ... }
**   positional arguments: argv[p.optind .. argc-1]
**
** An option whose `arg` is NULL takes no argument; one whose arg starts with '[' takes
** an optional one (`--keep-log[=FILE]`).
**
** Every command also has --version (prints "NAME (fst) FST_VERSION", exits 0), and its
** --help ends with its exit statuses (common/err.h): `exits` when the command gives them
** (fst-diff's 1, fst-capture's 130), else 0 done, 2 error, 130 interrupted (SIGINT).
** A file argument "-" is standard input (fst_opt_infile) and, for a command with -o,
** `-o -` standard output (common/outfile.h).
**
** A word that names nothing (an unknown option, a --format that no format has) is answered
** as git does: with the nearest name, when one is near (fst_opt_suggest, fst_opt_choice).
*/
#ifndef FST_OPT_H
#define FST_OPT_H

#include <stdint.h>

#define FST_VERSION "0.16"

typedef struct fst_option {
    int shortname;        /* 'o', or 0 for long-only */
    const char *name;     /* long name without "--" */
    const char *arg;      /* argument name for help, NULL = no argument */
    const char *help;     /* one line */
    int id;               /* returned by fst_opt_next */
} fst_option;

typedef struct fst_cmd {
    const char *name;     /* "fst-capture" */
    const char *usage;    /* after the name: "[-o TRACE] PROGRAM.ins" (lines separated by \n) */
    const char *summary;  /* one paragraph */
    const fst_option *opts;
    const char *exits;    /* the "exit status:" lines, or NULL for 0 done, 2 error, 130 interrupted */
} fst_cmd;

typedef struct fst_optparser {
    const fst_cmd *cmd;
    int argc;
    char **argv;
    int optind;           /* after the last call that returned -1: first positional */
    const char *arg;      /* argument of the option just returned, or NULL */
    const char *optname;  /* "--output" / "-o": for messages about the argument */
    void *priv;
} fst_optparser;

void fst_opt_init(fst_optparser *p, const fst_cmd *cmd, int argc, char **argv);
/* The id of the next option, or -1 when options end. --help prints usage and exits 0;
** an unknown option or a missing argument prints a message and exits 2. */
int fst_opt_next(fst_optparser *p);
void fst_opt_usage(const fst_cmd *cmd, int to_stderr);
/* Exit 2 with "PROG: error: MSG" and a pointer to --help. */
void fst_opt_fail(const fst_optparser *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;

/* The name of `names` (NULL-terminated) nearest to `word` by edit distance (a swap of two
** neighbours counts one), or NULL when none is near enough to be what was meant (more than
** a third of the word's letters differ). Ties go to the first in the list. */
const char *fst_opt_suggest(const char *word, const char *const *names);
/* p.arg when it is one of `names`; else exit 2: "OPTION: no WHAT 'ARG'; did you mean 'X'?"
** (or the list of names when none is near). */
const char *fst_opt_choice(const fst_optparser *p, const char *what, const char *const *names);

/* The path to open for an input file argument: "/dev/stdin" for "-", else path. */
const char *fst_opt_infile(const char *path);

/* Numeric arguments of the option just returned; exit 2 naming the option when the
** text is not a number in [min, max]. A whole number is decimal, or hex after 0x: "010"
** is ten, never octal eight; blanks and signs are refused (strtoull would read " -5" as
** 2^64-5). */
uint64_t fst_opt_u64(const fst_optparser *p, uint64_t min, uint64_t max);
double fst_opt_double(const fst_optparser *p, double min, double max);
/* The same rule for any unsigned number text, so that every command and format reads
** numbers alike: digits only, no blank, no sign; base 10 reads decimal (hex after 0x),
** base 16 hex (an optional 0x). 0 and *v set, or -1 (bad text, or more than 64 bits). */
int fst_parse_u64(const char *s, int base, uint64_t *v);

#endif
