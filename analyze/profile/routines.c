/* analyze/profile/routines.c — the routines of a program and which are timed (DESIGN §3.1, §3.4). */
#include "analyze/profile/profile.h"
#include "common/lines.h"
#include "common/opt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No map: the FORTRAN identifiers in the storage image name the routines (an image with
** none gives a model with no routine: everything is outside). */
static fst_pm *model_from_image(fst_tr *tr, fst_err *err)
{
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    fst_pm *pm = fst_pm_new();
    fst_id_hit *hits = NULL;
    size_t nhits = 0;
    int rc = fst_scan_ids(seg, nseg, 0, &hits, &nhits, err);
    free(hits);
    if (rc < 0 || (nhits && fst_pm_from_image(pm, fst_tr_path(tr), seg, nseg, 0, err) < 0)) {
        fst_pm_free(pm);
        return NULL;
    }
    return pm;
}

/* FORTRAN-compatible: the first word is 47F0F00C and the identifier names the routine. */
static int fortran_style(const fst_image_seg *seg, size_t nseg, const fst_routine *r)
{
    uint8_t id[16];
    char nm[9];
    if (fst_image_read(seg, nseg, r->entry, id, sizeof id))
        return -1;  /* no image there: cannot tell */
    int style = fst_ident_at(id, sizeof id, 0, nm);
    return (style == FST_ID_FORTG || style == FST_ID_FORTH) && !strcmp(nm, r->name) ? style : 0;
}

static void add_routines(fst_profile *p, const fst_pm *pm, const fst_image_seg *seg, size_t nseg)
{
    int64_t mainline = -1; /* the entry point of the first module a map gives one for */
    for (size_t m = 0; m < fst_pm_nmodules(pm) && mainline < 0; m++) {
        const fst_pm_module *mod = fst_pm_module_at(pm, m);
        if (mod->has_entry && mod->has_load_point && mod->kind != FST_MAP_IMAGE && mod->kind != FST_MAP_NM)
            mainline = (int64_t)(mod->load_point + mod->entry);
    }
    p->r = fst_xcalloc(fst_pm_nsyms(pm) + 2, sizeof *p->r);
    for (size_t i = 0; i < fst_pm_nsyms(pm); i++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, i);
        if (s->type == FST_PM_PR || !fst_pm_module_at(pm, (size_t)s->module)->has_load_point)
            continue;
        fst_routine *r = &p->r[p->nr];
        snprintf(r->name, sizeof r->name, "%s", s->name);
        r->entry = s->addr;
        r->order = p->nr++;
        r->fortran = fortran_style(seg, nseg, r);
        r->mainline = (int64_t)r->entry == mainline;
        const fst_pm_module *mod = fst_pm_module_at(pm, (size_t)s->module);
        const fst_pm_sym *sec = fst_pm_sym_at(pm, s->section);
        r->end = sec->open_end ? UINT64_MAX : sec->length ? sec->addr + sec->length : 0;
        uint64_t end = s->open_end ? UINT64_MAX : s->addr + (s->length ? s->length : 4);
        if (mod->has_total && mod->load_point + mod->total > end)
            end = mod->load_point + mod->total;
        if (p->nr == 1 || s->addr < p->lo)
            p->lo = s->addr;
        if (end > p->hi)
            p->hi = end;
    }
}

/* --supervisor=row: supervisor-state time as a routine of its own, listed last. */
static void add_supervisor(fst_profile *p)
{
    fst_routine *r = &p->r[p->nr];
    snprintf(r->name, sizeof r->name, "%s", FST_SUPERVISOR_NAME);
    r->entry = UINT64_MAX;
    r->order = p->nr++;
    r->timed = 1;
}

/* Time the routines the cards name. A card naming none is warned about with its line and
** the nearest name; a deck none of whose cards names a routine is an error. */
static int statin_match(fst_profile *p, const fst_replay_opts *o, char (*names)[9], const size_t *lines, size_t nn,
                        fst_err *err)
{
    const char **rn = fst_xcalloc(p->nr + 1, sizeof *rn);
    for (size_t i = 0; i < p->nr; i++)
        rn[i] = p->r[i].name;
    size_t matched = 0, firstbad = nn;
    for (size_t k = 0; k < nn; k++) {
        int found = 0;
        for (size_t i = 0; i < p->nr; i++)
            if (!strcmp(names[k], p->r[i].name))
                found = p->r[i].timed = 1;
        matched += found;
        if (found)
            continue;
        if (firstbad == nn)
            firstbad = k;
        const char *near = fst_opt_suggest(names[k], rn);
        char msg[300];
        snprintf(msg, sizeof msg, "%s:%zu: '%s' names no routine of the program%s%s%s", o->statin, lines[k], names[k],
                 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        if (o->warn && nn > 1)
            o->warn(msg);
    }
    free(rn);
    if (nn && !matched) {
        const char *why = !strncmp(names[firstbad], "STATIN", 6) ? " (a card holds the name alone, no keyword)" : "";
        return fst_errf(err, "%s:%zu: '%s' names no routine of the program%s, and no card of the deck names one: "
                        "only the mainline would be timed (fst-map --trace=TRACE or fst-report --timed=all "
                        "--format=csv lists the routines)", o->statin, lines[firstbad], names[firstbad], why);
    }
    return 0;
}

static int choose_timed(fst_profile *p, const fst_replay_opts *o, fst_err *err)
{
    char (*names)[9] = NULL;
    size_t nn = 0, *lines = NULL;
    if (o->statin && fst_statin_cards(o->statin, &names, &lines, &nn, o->warn, err) < 0)
        return -1;
    size_t unseen = 0, fortran = 0;
    for (size_t i = 0; i < p->nr; i++) {
        fst_routine *r = &p->r[i];
        /* no storage image to tell a FORTRAN routine by (a log converted without --image):
        ** timing none of them would fold every routine into the mainline, silently */
        unseen += r->fortran < 0;
        r->timed = o->timed_all || r->mainline || (!o->statin && r->fortran);
        if (r->fortran < 0)
            r->fortran = 0;
        fortran += r->fortran > 0;
    }
    if (unseen && !o->timed_all && !o->statin && o->warn) {
        char msg[240];
        snprintf(msg, sizeof msg, "the trace holds no storage image of %zu routine%s of the map, so FORTRAN "
                 "routines cannot be told from others: all of them are timed (--statin chooses)", unseen,
                 unseen == 1 ? "" : "s");
        o->warn(msg);
    } else if (!fortran && p->nr >= 2 && !o->timed_all && !o->statin && o->warn) {
        /* a C, COBOL, PL/I or assembler program's map: FORTSTAT's rule would fold every
        ** routine into the mainline, its report one row, and nothing would say why */
        char msg[400];
        snprintf(msg, sizeof msg, "none of the %zu routines of the program model is FORTRAN-compatible (a 47F0F00C "
                 "entry over its identifier), so by FORTSTAT's rule only the mainline is timed and the others' "
                 "calls and time are its own: --timed=all times every routine, --statin=FILE the ones named",
                 p->nr);
        o->warn(msg);
    }
    if (statin_match(p, o, names, lines, nn, err)) {
        free(names);
        free(lines);
        return -1;
    }
    free(names);
    free(lines);
    for (const char *const *e = o->exclude; e && *e; e++) {
        /* every routine of that name: two modules (or a map and the image) may both hold one */
        size_t hits = 0;
        char where[160] = "";
        for (size_t i = 0; i < p->nr; i++)
            if (!strcmp(p->r[i].name, *e)) {
                p->r[i].excluded = 1;
                size_t k = strlen(where);
                if (k < sizeof where - 24)
                    snprintf(where + k, sizeof where - k, "%s%llX", hits ? ", " : "", (unsigned long long)p->r[i].entry);
                hits++;
            }
        if (!hits)
            return fst_errf(err, "--exclude=%s: no routine of that name", *e);
        if (hits > 1 && o->warn) {
            char msg[300];
            snprintf(msg, sizeof msg, "--exclude=%s: %zu routines have that name (at %s): all of them are excluded",
                     *e, hits, where);
            o->warn(msg);
        }
    }
    return 0;
}

int fst_routines_build(fst_profile *p, fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_err *err)
{
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    fst_pm *own = NULL;
    if (!pm && !(pm = own = model_from_image(tr, err)))
        return -1;
    add_routines(p, pm, seg, nseg);
    fst_pm_free(own);
    if (choose_timed(p, o, err))
        return -1;
    if (o->supervisor == FST_SUP_ROW)
        add_supervisor(p);
    return 0;
}

int fst_statin_read(const char *path, char (**names)[9], size_t *n, void (*warn)(const char *msg), fst_err *err)
{
    size_t *lines = NULL;
    int rc = fst_statin_cards(path, names, &lines, n, warn, err);
    free(lines);
    return rc;
}

int fst_statin_cards(const char *path, char (**names)[9], size_t **lines, size_t *n, void (*warn)(const char *msg),
                     fst_err *err)
{
    fst_lines *l = fst_lines_open(path, "STATIN deck", FST_STATIN_MAX_LINE, FST_STATIN_MAX_BYTES, err);
    if (!l)
        return -1;
    size_t cap = 16, len;
    char *line;
    int rc;
    *n = 0;
    *names = fst_xmalloc(cap * sizeof **names);
    *lines = fst_xmalloc(cap * sizeof **lines);
    while ((rc = fst_lines_next(l, &line, &len, err)) > 0) {
        size_t lineno = fst_lines_lineno(l);
        len = strcspn(line, "\r\n");
        if (len > 80) {
            rc = fst_errf(err, "%s:%zu: a STATIN card has 80 columns, this line has %zu", path, lineno, len);
            break;
        }
        if (len > 72) /* columns 73-80: sequence numbers */
            len = 72;
        char nm[9], whole[73];
        size_t k = 0, w = 0;
        for (size_t i = 0; i < len; i++) /* embedded blanks removed */
            if (line[i] != ' ' && line[i] != '\t') {
                char c = (char)toupper((unsigned char)line[i]);
                if (k < 8)
                    nm[k++] = c;
                whole[w++] = c;
            }
        if (!k)
            continue;
        nm[k] = 0;
        whole[w] = 0;
        if (w > 8 && warn) { /* seed 000 takes the first 8: say so, a longer name is a typo or a cut */
            char msg[300];
            snprintf(msg, sizeof msg, "%s:%zu: '%s' has more than 8 characters: read as '%s'", path, lineno, whole, nm);
            warn(msg);
        }
        if (*n == cap) {
            *names = fst_xrealloc(*names, (cap *= 2) * sizeof **names);
            *lines = fst_xrealloc(*lines, cap * sizeof **lines);
        }
        (*lines)[*n] = lineno;
        memcpy((*names)[(*n)++], nm, 9);
    }
    fst_lines_close(l);
    if (rc < 0) {
        free(*names);
        free(*lines);
        *names = NULL;
        *lines = NULL;
        *n = 0;
        return -1;
    }
    return (int)*n;
}
