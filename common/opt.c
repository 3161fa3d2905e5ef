/* common/opt.c — see opt.h. */
#include "common/opt.h"
#include "common/err.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPT_VERSION_ID (-1001)

typedef struct priv {
    struct option *longopts;
    char shortopts[160];
} priv;

void fst_opt_usage(const fst_cmd *cmd, int to_stderr)
{
    FILE *f = to_stderr ? stderr : stdout;
    const char *u = cmd->usage;
    int first = 1;
    while (u && *u) {
        const char *nl = strchr(u, '\n');
        int n = nl ? (int)(nl - u) : (int)strlen(u);
        fprintf(f, "%s %s %.*s\n", first ? "usage:" : "      ", cmd->name, n, u);
        first = 0;
        u = nl ? nl + 1 : u + n;
    }
    if (cmd->summary)
        fprintf(f, "\n%s\n", cmd->summary);
    fprintf(f, "\noptions:\n");
    for (const fst_option *o = cmd->opts; o && o->name; o++) {
        char left[64];
        int n = 0;
        if (o->shortname)
            n = snprintf(left, sizeof left, "-%c, ", o->shortname);
        else
            n = snprintf(left, sizeof left, "    ");
        if (!o->arg)
            snprintf(left + n, sizeof left - (size_t)n, "--%s", o->name);
        else if (o->arg[0] == '[')
            snprintf(left + n, sizeof left - (size_t)n, "--%s%s", o->name, o->arg);
        else
            snprintf(left + n, sizeof left - (size_t)n, "--%s=%s", o->name, o->arg);
        fprintf(f, "  %-26s %s\n", left, o->help);
    }
    fprintf(f, "  %-26s %s\n", "-h, --help", "show this help");
    fprintf(f, "  %-26s %s\n", "    --version", "show the version");
    int has_o = 0;
    for (const fst_option *o = cmd->opts; o && o->name; o++)
        has_o |= o->shortname == 'o';
    fprintf(f, "\nA file argument '-' is standard input%s.\n", has_o ? "; -o - is standard output" : "");
    fprintf(f, "\nexit status:\n%s", cmd->exits ? cmd->exits
                                               : "  0    done\n  2    error (a message says what)\n"
                                                 "  130  interrupted (SIGINT); no partial output file is left\n");
}

/* Edit distance with adjacent transpositions (optimal string alignment), case-blind. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

const char *fst_opt_suggest(const char *word, const char *const *names)
{
    const char *best = NULL;
    size_t bd = (size_t)-1, len = word ? strlen(word) : 0;
    if (!len)
        return NULL;
    for (const char *const *n = names; *n; n++) {
        size_t dd = distance(word, *n);
        if (dd < bd) {
            bd = dd;
            best = *n;
        }
    }
    size_t limit = len < 3 ? 1 : len / 3 > 1 ? len / 3 : 1;
    return best && bd <= limit ? best : NULL;
}

const char *fst_opt_choice(const fst_optparser *p, const char *what, const char *const *names)
{
    const char *arg = p->arg ? p->arg : "";
    for (const char *const *n = names; *n; n++)
        if (!strcmp(arg, *n))
            return arg;
    const char *near = fst_opt_suggest(arg, names);
    if (near)
        fst_opt_fail(p, "%s: no %s '%s'; did you mean '%s'?", p->optname, what, arg, near);
    char list[512];
    size_t k = 0;
    list[0] = 0;
    for (const char *const *n = names; *n && k + strlen(*n) + 3 < sizeof list; n++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", k ? ", " : "", *n);
    fst_opt_fail(p, "%s: no %s '%s' (one of: %s)", p->optname, what, arg, list);
}

const char *fst_opt_infile(const char *path)
{
    return path && !strcmp(path, "-") ? "/dev/stdin" : path;
}

void fst_opt_init(fst_optparser *p, const fst_cmd *cmd, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    fst_setprog(cmd->name);
    int n = 0;
    for (const fst_option *o = cmd->opts; o && o->name; o++)
        n++;
    priv *pv = fst_xcalloc(1, sizeof *pv);
    pv->longopts = fst_xcalloc((size_t)n + 3, sizeof(struct option));
    size_t k = 0;
    pv->shortopts[k++] = ':'; /* report missing arguments distinctly */
    int i = 0;
    for (const fst_option *o = cmd->opts; o && o->name; o++, i++) {
        int has = !o->arg ? no_argument : (o->arg[0] == '[' ? optional_argument : required_argument);
        pv->longopts[i] = (struct option){ o->name, has, NULL, 1000 + i };
        if (o->shortname && k + 3 < sizeof pv->shortopts) {
            pv->shortopts[k++] = (char)o->shortname;
            if (has == required_argument)
                pv->shortopts[k++] = ':';
            else if (has == optional_argument) {
                pv->shortopts[k++] = ':';
                pv->shortopts[k++] = ':';
            }
        }
    }
    pv->longopts[i++] = (struct option){ "help", no_argument, NULL, 'h' };
    pv->longopts[i] = (struct option){ "version", no_argument, NULL, OPT_VERSION_ID };
    pv->shortopts[k++] = 'h';
    pv->shortopts[k] = 0;
    p->priv = pv;
    optind = 1;
    opterr = 0;
}

void fst_opt_fail(const fst_optparser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "%s: error: ", p->cmd->name);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see '%s --help')\n", p->cmd->name);
    fst_exit_now(FST_EXIT_FAIL);
}

/* The option nearest to an unknown `--name[=value]`, without its dashes, or NULL. */
static const char *unknown_near(const fst_optparser *p, const char *bad)
{
    if (!bad || strncmp(bad, "--", 2))
        return NULL;
    char word[65];
    size_t n = strcspn(bad + 2, "=");
    if (n >= sizeof word)
        return NULL;
    memcpy(word, bad + 2, n);
    word[n] = 0;
    size_t k = 0;
    for (const fst_option *o = p->cmd->opts; o && o->name; o++)
        k++;
    const char **names = fst_xcalloc(k + 3, sizeof *names);
    k = 0;
    for (const fst_option *o = p->cmd->opts; o && o->name; o++)
        names[k++] = o->name;
    names[k++] = "help";
    names[k++] = "version";
    static char found[65];
    const char *near = fst_opt_suggest(word, names);
    snprintf(found, sizeof found, "%s", near ? near : "");
    free(names);
    return near ? found : NULL;
}

int fst_opt_next(fst_optparser *p)
{
    priv *pv = p->priv;
    if (!pv)
        return -1;
    int idx = -1;
    int c = getopt_long(p->argc, p->argv, pv->shortopts, pv->longopts, &idx);
    p->arg = optarg;
    if (c == -1) {
        p->optind = optind;
        free(pv->longopts);
        free(pv);
        p->priv = NULL;
        return -1;
    }
    if (c == 'h') {
        fst_opt_usage(p->cmd, 0);
        exit(0);
    }
    if (c == OPT_VERSION_ID) {
        printf("%s (fst) %s\n", p->cmd->name, FST_VERSION);
        exit(0);
    }
    if (c == '?' || c == ':') {
        const char *bad = p->argv[optind - 1];
        if (c == ':')
            fst_opt_fail(p, "option '%s' needs an argument", bad);
        if (optopt && optopt != '?')
            fst_opt_fail(p, "unknown option '-%c'", optopt);
        const char *near = unknown_near(p, bad);
        if (near)
            fst_opt_fail(p, "unknown option '%s'; did you mean '--%s'?", bad, near);
        fst_opt_fail(p, "unknown option '%s'", bad);
    }
    const fst_option *o = NULL;
    if (c >= 1000)
        o = &p->cmd->opts[c - 1000];
    else
        for (const fst_option *q = p->cmd->opts; q && q->name; q++)
            if (q->shortname == c)
                o = q;
    if (!o)
        fst_opt_fail(p, "unknown option");
    static char namebuf[80];
    snprintf(namebuf, sizeof namebuf, "--%s", o->name);
    p->optname = namebuf;
    return o->id;
}

int fst_parse_u64(const char *s, int base, uint64_t *v)
{
    if (!s)
        return -1;
    int hex = base == 16;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        hex = 1;
        s += 2;
    }
    if (!*s)
        return -1;
    uint64_t x = 0;
    for (; *s; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0'
              : hex && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : hex && *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
        if (d < 0)
            return -1; /* a blank, a sign, a digit of another base */
        unsigned r = hex ? 16 : 10;
        if (x > (UINT64_MAX - (uint64_t)d) / r)
            return -1;
        x = x * r + (uint64_t)d;
    }
    *v = x;
    return 0;
}

uint64_t fst_opt_u64(const fst_optparser *p, uint64_t min, uint64_t max)
{
    const char *s = p->arg ? p->arg : "";
    uint64_t v;
    if (fst_parse_u64(s, 10, &v) || v < min || v > max)
        fst_opt_fail(p, "%s wants a whole number from %llu to %llu, not '%s'", p->optname,
                     (unsigned long long)min, (unsigned long long)max, s);
    return v;
}

double fst_opt_double(const fst_optparser *p, double min, double max)
{
    const char *s = p->arg ? p->arg : "";
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* strtod skips leading blanks: refuse them, as fst_parse_u64 does */
    if (!*s || isspace((unsigned char)*s) || *end || errno || !(v >= min && v <= max))
        fst_opt_fail(p, "%s wants a number from %g to %g, not '%s'", p->optname, min, max, s);
    return v;
}
