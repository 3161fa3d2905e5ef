/* model/pm_trace.c — the program model of a trace: maps loaded and placed where the
** trace's storage image says, or where the trace ran them (one place for fst-report and
** fst-diff). See progmodel.h and mapspaces.h. */
#include "model/mapspaces.h"
#include "model/progmodel.h"

#include <stdio.h>
#include <string.h>

/* The evidence of the trace's address spaces, read once, when first needed. */
typedef struct lazy_ev {
    const char *path;       /* NULL: none to read (standard input, fst-diff) */
    int read;
    fst_space_ev *v;
    size_t n;
} lazy_ev;

static int need_ev(lazy_ev *e, fst_err *err)
{
    if (!e->path || e->read)
        return 0;
    e->read = 1;
    return fst_space_evidence(e->path, &e->v, &e->n, err);
}

/* One module: its load point given, from the image, or from the trace's spaces. */
static int place(fst_pm *pm, int m, const fst_image_seg *seg, size_t nseg, const fst_pm_trace_opts *o, lazy_ev *e,
                 fst_pm_placed *pl, fst_err *err)
{
    fst_pm_evidence ev = { seg, nseg, NULL, 0, 0, 0 };
    fst_placement at;
    uint64_t lp = o->load_point ? *o->load_point : 0;
    int from_trace = 0;
    if (need_ev(e, err) < 0)
        return -1;
    if (o->load_point) {
        fst_pm_spaces_at(pm, m, e->v, e->n, lp, &at);
        /* where the trace ran it, the image (real storage) has no say */
        if (!at.nspaces && fst_pm_check_load_point(pm, m, lp, &ev, err) < 0)
            return -1;
    } else {
        fst_err ierr;
        int img = fst_pm_find_load_point(pm, m, &ev, &lp, &ierr);
        if (img == 0)
            fst_pm_spaces_at(pm, m, e->v, e->n, lp, &at);
        /* the image is real storage: a module that no space entered where it lies there ran
        ** somewhere else (MVS: at a virtual address), as the spaces' evidence may show */
        if (e->n && (img < 0 || !at.lp_hits)) {
            uint64_t ilp = lp;
            fst_err serr;
            if (fst_pm_place_in_spaces(pm, m, e->v, e->n, o->space, &at, img < 0 ? err : &serr) == 0) {
                if (img == 0)
                    snprintf(pl->note2, sizeof pl->note2, "the storage image holds the module's routine names at %llX, "
                             "but no address space ran it there", (unsigned long long)ilp);
                lp = at.load_point;
                from_trace = 1;
            } else if (img < 0) {
                return -1;
            } else {    /* the image's place stands; say why the trace could not do better */
                fst_pm_spaces_at(pm, m, e->v, e->n, lp, &at);
                snprintf(pl->note2, sizeof pl->note2, "no address space ran it where the storage image holds its "
                         "routine names (%llX), and %s", (unsigned long long)ilp, strchr(serr.msg, ':') ?
                         strchr(serr.msg, ':') + 2 : serr.msg);
            }
        } else if (img < 0) {
            *err = ierr;
            return -1;
        }
    }
    if (fst_pm_set_load_point(pm, m, lp, err) < 0)
        return -1;
    if (!pl->placed) {
        pl->placed = 1;
        pl->at = at;
        pl->module = m;
        pl->from_trace = from_trace;
        if (from_trace || at.nspaces)   /* (a load point from the image alone: as ever, nothing to say) */
            fst_placement_say(pm, m, &at, pl->note, sizeof pl->note);
    }
    return 0;
}

int fst_pm_for_trace_placed(fst_pm **out, const char *const *maps, size_t nmaps, const char *member, fst_tr *tr,
                            const fst_pm_trace_opts *o, fst_pm_placed *pl, fst_err *err)
{
    *out = NULL;
    memset(pl, 0, sizeof *pl);
    if (!nmaps)
        return 0;
    fst_pm *pm = fst_pm_new();
    fst_pm_opts po = { FST_MAP_AUTO, member };
    lazy_ev e = { o->path, 0, NULL, 0 };
    for (size_t i = 0; i < nmaps; i++)
        if (fst_pm_load(pm, maps[i], &po, err) < 0)
            goto fail;
    size_t nseg;
    const fst_image_seg *seg = fst_tr_image(tr, &nseg);
    for (size_t m = 0; m < fst_pm_nmodules(pm); m++)
        if (!fst_pm_module_at(pm, m)->has_load_point && place(pm, (int)m, seg, nseg, o, &e, pl, err) < 0)
            goto fail;
    fst_space_evidence_free(e.v, e.n);
    e.v = NULL;     /* (fail: below frees it) */
    e.n = 0;
    fst_pm_bound_by_image(pm, seg, nseg);
    if (fst_pm_verify_image(pm, seg, nseg, err) < 0)
        goto fail;
    *out = pm;
    return 0;
fail:
    fst_space_evidence_free(e.v, e.n);
    fst_pm_free(pm);
    return -1;
}

int fst_pm_for_trace(fst_pm **out, const char *const *maps, size_t nmaps, const char *member, fst_tr *tr,
                     const uint64_t *load_point, fst_err *err)
{
    fst_pm_trace_opts o = { NULL, load_point, NULL };
    fst_pm_placed pl;
    return fst_pm_for_trace_placed(out, maps, nmaps, member, tr, &o, &pl, err);
}
