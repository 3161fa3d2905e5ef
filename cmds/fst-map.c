/*
** fst-map — print the program model that one or more maps give, as CSV (DESIGN §8).
** Wiring only: the readers are model/map_*.c, the model model/progmodel.c.
*/
#include "isa/decode.h"
#include "capture/hercules/ins.h"
#include "model/mapspaces.h"
#include "model/progmodel.h"
#include "trace/tracebin.h"
#include "common/err.h"
#include "common/opt.h"
#include "common/outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_OUT = 'o', O_MEMBER = 1000, O_KIND, O_LOADPOINT, O_ABSOLUTE, O_IMAGE, O_TRACE, O_OSIDS, O_SPACE };

static const fst_option options[] = {
    { 0, "member", "NAME", "the link step of this member or alias in a listing of several (or its "
      "number, 1 = the first map)", O_MEMBER },
    { 0, "kind", "KIND", "read every FILE as iewl, loader, cesd, csv or nm (default: tell from "
      "the content)", O_KIND },
    { 0, "load-point", "HEX", "the module is loaded at HEX (MODULE=HEX: that module, when "
      "there are several); origins print absolute; repeatable", O_LOADPOINT },
    { 0, "absolute", NULL, "print absolute addresses, using the load points the maps carry",
      O_ABSOLUTE },
    { 0, "image", "PROGRAM.ins", "storage image: find (or check) each module's load point from "
      "its routine identifiers; without FILE, list the routines it names", O_IMAGE },
    { 0, "trace", "TRACE", "a trace: its storage image and call targets find (or check) the "
      "load points", O_TRACE },
    { 0, "space", "HEX", "with --trace: look only at the address space whose CR1 is HEX (default: every space; "
      "the spaces that ran the module are named on stderr)", O_SPACE },
    { 0, "os-ids", NULL, "listing an image: take every 47F0F0xx identifier, not only FORTRAN's",
      O_OSIDS },
    { 'o', "output", "FILE", "write the CSV to FILE (default: standard output)", O_OUT },
    { 0 }
};

static const fst_cmd cmd = {
    "fst-map",
    "[--member=NAME] [--kind=KIND] [--load-point=[MODULE=]HEX]... [--absolute] FILE...\n"
    "--image=PROGRAM.ins|--trace=TRACE [--os-ids]",
    "Read linkage-editor (IEWL) MAP/XREF listings, OS loader maps, load modules (CESD\n"
    "records), CSV maps or nm -P output, and print the program model as CSV:\n"
    "name,type,origin,length, hex, length empty for labels; types SD (control section),\n"
    "PC ($PRIVATE), CM (common), LR (label/entry name), PR (pseudo-register: origin is its\n"
    "offset in the PR vector). Each module starts with MEMBER,MODULE,LOADPOINT,TOTAL and\n"
    "NAME,EP,ENTRY, (its entry point). Origins are module-relative (LOADPOINT 0), as the maps\n"
    "print them, unless --load-point, --absolute, --image or --trace is given: then they are\n"
    "absolute (origin + load point). A FILE named PATH(MEMBER) reads that member's map.\n"
    "Without FILE, list the routines whose identifiers (47F0F00C and a FORTRAN name) the\n"
    "storage image holds.",
    options,
};

typedef struct args {
    fst_pm_opts opts;
    const char *out, *image, *trace;
    const char *lp[64];
    int nlp, absolute, osids, space_set;
    uint64_t space;
} args;

static void parse_args(args *a, int argc, char **argv, int *first)
{
    fst_optparser p;
    fst_opt_init(&p, &cmd, argc, argv);
    for (int id; (id = fst_opt_next(&p)) != -1;) {
        switch (id) {
        case O_MEMBER: a->opts.member = p.arg; break;
        case O_KIND: {
            int k = fst_map_kind_parse(p.arg);
            if (k <= FST_MAP_AUTO || k == FST_MAP_IMAGE)
                fst_opt_fail(&p, "--kind wants iewl, loader, cesd, csv or nm, not '%s'", p.arg);
            a->opts.kind = (fst_map_kind)k;
            break;
        }
        case O_LOADPOINT:
            if (a->nlp == 64)
                fst_opt_fail(&p, "too many --load-point options");
            a->lp[a->nlp++] = p.arg;
            break;
        case O_ABSOLUTE: a->absolute = 1; break;
        case O_IMAGE: a->image = p.arg; break;
        case O_TRACE: a->trace = p.arg; break;
        case O_OSIDS: a->osids = 1; break;
        case O_SPACE:
            if (fst_parse_u64(p.arg, 16, &a->space))
                fst_opt_fail(&p, "--space wants the hex CR1 value of an address space, not '%s'", p.arg);
            a->space_set = 1;
            break;
        case O_OUT: a->out = p.arg; break;
        }
    }
    *first = p.optind;
    if (p.optind >= argc && !a->image && !a->trace)
        fst_opt_fail(&p, "no map FILE given");
    if (a->space_set && !a->trace)
        fst_opt_fail(&p, "--space goes with --trace");
}

/* --load-point=[MODULE=]HEX */
static void apply_load_point(fst_pm *pm, const char *spec)
{
    fst_err err;
    const char *eq = strrchr(spec, '=');
    const char *hex = eq ? eq + 1 : spec;
    uint64_t lp;
    if (fst_parse_hex(hex, strlen(hex), &lp) < 0)
        fst_die("--load-point wants [MODULE=]HEX, not '%s'", spec);
    int k = -1;
    if (eq) {
        char *name = fst_xstrdup(spec);
        name[eq - spec] = 0;
        k = fst_pm_module_find(pm, name);
        if (k < 0)
            fst_die("--load-point: no module %s in the maps", name);
        free(name);
    }
    if (fst_pm_set_load_point(pm, k, lp, &err) < 0)
        fst_die("--load-point=%s: %s", spec, err.msg);
}

/* What a trace says of where routines start (model/mapspaces.h, one pass over it, a run
** at a time): each address space's call targets (where a branch-and-link through 14 went,
** DESIGN §3.2) and entries (47F0F0xx), and the call targets of all of them together, the
** addresses that fit a load point when the spaces do not decide (*n). Until 2026-12-05
** fst-map read the call targets record by record besides, into an array that grew with
** every call made: a long job's trace ran it out of memory. */
static uint64_t *trace_addrs(fst_tr *tr, fst_space_ev **sev, size_t *nsev, size_t *n)
{
    fst_err err;
    const char *why;
    if (fst_space_evidence_tr(tr, sev, nsev, &err) < 0)
        fst_die_err(&err);
    if (!fst_tr_complete(tr, &why))    /* read up to the cut: what it holds still places */
        fst_warn("%s is incomplete (%s): the load points rest on what it holds", fst_tr_path(tr), why);
    size_t all = 0;
    for (size_t i = 0; i < *nsev; i++)
        all += (*sev)[i].ncalls;
    uint64_t *v = fst_xmalloc((all + 1) * sizeof *v);
    *n = 0;
    for (size_t i = 0; i < *nsev; i++)
        for (size_t k = 0; k < (*sev)[i].ncalls; k++)
            v[(*n)++] = (*sev)[i].calls[k];
    return v;
}

/* With a trace and no image given: where each address space ran the module
** (capture/mapspaces.h); 1 and *lp when that decides, 0 (err set) when not. */
static int by_spaces(fst_pm *pm, int k, const args *a, const fst_space_ev *sev, size_t nsev, uint64_t *lp,
                     fst_err *err)
{
    fst_placement pl;
    char note[700];
    if (a->image || !sev || fst_pm_place_in_spaces(pm, k, sev, nsev, a->space_set ? &a->space : NULL, &pl, err) < 0)
        return 0;
    fst_placement_say(pm, k, &pl, note, sizeof note);
    fst_note("%s", note);
    *lp = pl.load_point;
    return 1;
}

/* Find the load point of every module that has none; check the others. */
static void use_evidence(fst_pm *pm, const fst_pm_evidence *ev, const args *a, const fst_space_ev *sev, size_t nsev)
{
    fst_err err, serr = { 0 };
    for (size_t k = 0; k < fst_pm_nmodules(pm); k++) {
        const fst_pm_module *m = fst_pm_module_at(pm, k);
        uint64_t lp;
        if (m->has_load_point) {
            if (fst_pm_check_load_point(pm, (int)k, m->load_point, ev, &err) < 0)
                fst_die_err(&err);
            continue;
        }
        if (by_spaces(pm, (int)k, a, sev, nsev, &lp, &serr)) {
            if (fst_pm_set_load_point(pm, (int)k, lp, &err) < 0)
                fst_die_err(&err);
            continue;
        }
        if (a->space_set && serr.msg[0])
            fst_die_err(&serr);
        if (fst_pm_find_load_point(pm, (int)k, ev, &lp, &err) < 0)
            fst_die_err(serr.msg[0] ? &serr : &err);   /* the spaces' candidates say more */
        if (fst_pm_set_load_point(pm, (int)k, lp, &err) < 0)
            fst_die_err(&err);
    }
}

/* -o must not be a file fst-map reads: a map (PATH or the PATH of PATH(MEMBER)), the IPL
** list, the trace (and, checked once it is read, a piece of the image the list names). */
static void check_output(const args *a, int nfiles, char **files)
{
    if (!a->out)
        return;
    fst_err err;
    size_t n = 0, cap = 2 * (size_t)nfiles + 2;
    const char **in = fst_xcalloc(cap, sizeof *in);
    char **own = fst_xcalloc(cap, sizeof *own);
    for (int i = 0; i < nfiles; i++) {
        in[n++] = files[i];
        const char *lp = strrchr(files[i], '(');
        if (lp && lp != files[i]) {
            own[i] = fst_xstrdup(files[i]);
            own[i][lp - files[i]] = 0;
            in[n++] = own[i];
        }
    }
    in[n++] = a->image;
    in[n++] = a->trace;
    int rc = fst_out_check("-o", a->out, in, n, &err);
    for (int i = 0; i < nfiles; i++)
        free(own[i]);
    free(own);
    free(in);
    if (rc < 0)
        fst_die_err(&err);
}

int main(int argc, char **argv)
{
    args a = { 0 };
    int first;
    fst_err err;
    parse_args(&a, argc, argv, &first);
    check_output(&a, argc - first, argv + first);
    fst_pm *pm = fst_pm_new();
    for (int i = first; i < argc; i++)
        if (fst_pm_load(pm, argv[i], &a.opts, &err) < 0)
            fst_die_err(&err);
    for (int i = 0; i < a.nlp; i++)
        apply_load_point(pm, a.lp[i]);

    fst_ins ins = { 0 };
    fst_tr *tr = NULL;
    fst_pm_evidence ev = { 0 };
    uint64_t *targets = NULL;
    fst_space_ev *sev = NULL;
    size_t nsev = 0;
    if (a.image) {
        if (fst_ins_load(&ins, a.image, 0, &err) < 0 ||
            fst_out_check("-o", a.out, (const char *const *)ins.file, ins.n, &err) < 0)
            fst_die_err(&err);
        ev.image = ins.seg, ev.nimage = ins.n;
    }
    if (a.trace) {
        if (!(tr = fst_tr_open(fst_opt_infile(a.trace), &err)))
            fst_die_err(&err);
        if (!a.image)
            ev.image = fst_tr_image(tr, &ev.nimage);
        if (first < argc)   /* maps to place: the evidence (none needed to make one from the image) */
            ev.addrs = targets = trace_addrs(tr, &sev, &nsev, &ev.naddrs);
    }
    if (first >= argc && fst_pm_from_image(pm, a.image ? a.image : a.trace, ev.image, ev.nimage,
                                           a.osids ? FST_SCAN_OS : 0, &err) < 0)
        fst_die_err(&err);
    else if (first < argc && (a.image || a.trace))
        use_evidence(pm, &ev, &a, a.image ? NULL : sev, a.image ? 0 : nsev);  /* an image given: real storage */
    fst_space_evidence_free(sev, nsev);
    if (ev.nimage)
        fst_pm_bound_by_image(pm, ev.image, ev.nimage);

    fst_out out; /* all or nothing (common/outfile.h) */
    if (fst_out_open(&out, a.out, &err) < 0)
        fst_die_err(&err);
    int absolute = a.absolute || a.nlp || a.image || a.trace;
    if (fst_pm_write_csv(pm, out.f, absolute, &err) < 0) {
        fst_out_abort(&out);
        fst_die_err(&err);
    }
    if (fst_out_close(&out, &err) < 0)
        fst_die_err(&err);
    free(targets);
    fst_tr_close(tr);
    fst_ins_free(&ins);
    fst_pm_free(pm);
    return 0;
}
