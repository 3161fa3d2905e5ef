/* model/map_spaces.c — where a module-relative map's program ran, per address space
** (model/mapspaces.h). */
#include "model/mapspaces.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fst_place_space_name(uint64_t space, char *buf)
{
    if (space == FST_PLACE_REAL)
        return strcpy(buf, "real");
    if (space == FST_PLACE_UNKNOWN)
        return strcpy(buf, "unknown");
    snprintf(buf, 24, "%08" PRIX64, space);
    return buf;
}

#define RANK 4

static int fits(const fst_pm_cand *c, size_t n)
{
    long s0 = n ? (long)c[0].hits - (long)c[0].miss : 0;
    return n && c[0].hits >= 2 && c[0].hits > 2 * c[0].miss &&
           (n == 1 || s0 > (long)c[1].hits - (long)c[1].miss);
}

static int rank(const fst_pm *pm, int module, const fst_space_ev *s, fst_pm_cand *c, size_t *nc, fst_err *err)
{
    fst_pm_evidence ev = { NULL, 0, s->addrs, s->naddrs, 0, 0 };
    return fst_pm_rank_load_points(pm, module, &ev, c, RANK, nc, err);
}

static void name_of(const fst_pm *pm, int module, char *buf, size_t cap)
{
    const fst_pm_module *m = fst_pm_module_at(pm, module < 0 ? 0 : (size_t)module);
    snprintf(buf, cap, "%s%s%s", m->name ? m->name : "", m->name ? " of " : "", m->file);
}

int fst_pm_place_in_spaces(const fst_pm *pm, int module, const fst_space_ev *ev, size_t n, const uint64_t *space,
                           fst_placement *pl, fst_err *err)
{
    char what[300], list[900], nm[24];
    size_t len = 0, nfit = 0, looked = 0, ncand = 0;
    uint64_t lp0 = 0;
    int differ = 0;
    memset(pl, 0, sizeof *pl);
    list[0] = 0;
    name_of(pm, module, what, sizeof what);
    for (size_t i = 0; i < n; i++) {
        if (space && ev[i].space != *space)
            continue;
        looked++;
        fst_pm_cand c[RANK];
        size_t nc;
        if (rank(pm, module, &ev[i], c, &nc, err) < 0)
            return -1;
        int ok = fits(c, nc);
        ncand += nc;
        if (nc && len + 120 < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%sspace %s: ", len ? "; " : "",
                                    fst_place_space_name(ev[i].space, nm));
        for (size_t k = 0; k < nc && k < (ok ? 1u : 2u) && len + 100 < sizeof list; k++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s%" PRIX64 " (%u routine start%s, %u other "
                                    "address%s)", k ? ", " : "", ok ? "fits at " : "", c[k].load_point, c[k].hits,
                                    c[k].hits == 1 ? "" : "s", c[k].miss, c[k].miss == 1 ? "" : "es");
        if (!ok)
            continue;
        if (nfit++ == 0) {
            lp0 = c[0].load_point;
            pl->hits = c[0].hits;
            pl->miss = c[0].miss;
        } else if (c[0].load_point != lp0)
            differ = 1;
        if (pl->nspaces < FST_PLACE_MAX_SPACES)
            pl->spaces[pl->nspaces++] = ev[i].space;
    }
    if (space && !looked)
        return fst_errf(err, "%s: the trace shows no instruction in address space %s", what,
                        fst_place_space_name(*space, nm));
    if (!ncand)
        return fst_errf(err, "%s: no load point fits: no executed address is the start of a routine of the module%s%s",
                        what, space ? " in address space " : "", space ? nm : "");
    if (!nfit)
        return fst_errf(err, "%s: ambiguous load point: in no address space do the executed addresses decide: %s",
                        what, list);
    if (differ)
        return fst_errf(err, "%s: it ran at different load points in different address spaces: %s (choose one with "
                        "--space=CR1 or --load-point=HEX)", what, list);
    pl->load_point = lp0;
    return 0;
}

void fst_pm_spaces_at(const fst_pm *pm, int module, const fst_space_ev *ev, size_t n, uint64_t load_point,
                      fst_placement *pl)
{
    fst_err err;
    memset(pl, 0, sizeof *pl);
    pl->load_point = load_point;
    for (size_t i = 0; i < n && pl->nspaces < FST_PLACE_MAX_SPACES; i++) {
        fst_pm_cand c;
        fst_pm_evidence e = { NULL, 0, ev[i].addrs, ev[i].naddrs, 0, 0 };
        if (fst_pm_score_at(pm, module, &e, load_point, &c, &err) < 0)
            continue;
        if (c.hits > pl->lp_hits)
            pl->lp_hits = c.hits;
        if (!fits(&c, 1))
            continue;
        if (!pl->nspaces) {
            pl->hits = c.hits;
            pl->miss = c.miss;
        }
        pl->spaces[pl->nspaces++] = ev[i].space;
    }
}

void fst_placement_say(const fst_pm *pm, int module, const fst_placement *pl, char *buf, size_t cap)
{
    char what[300], nm[24];
    name_of(pm, module, what, sizeof what);
    size_t len = (size_t)snprintf(buf, cap, "%s: loaded at %" PRIX64 " (%u routine start%s entered, %u other "
                                  "address%s inside it)", what, pl->load_point, pl->hits, pl->hits == 1 ? "" : "s",
                                  pl->miss, pl->miss == 1 ? "" : "es");
    if (pl->nspaces == 1 && (pl->spaces[0] == FST_PLACE_REAL || pl->spaces[0] == FST_PLACE_UNKNOWN)) {
        snprintf(buf + len, cap - len, "%s", pl->spaces[0] == FST_PLACE_REAL
                                                 ? ", run with DAT off"
                                                 : ", run with DAT on in an address space the trace does not show");
        return;
    }
    for (size_t i = 0; i < pl->nspaces && len + 40 < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : pl->nspaces > 1 ? ", run in address spaces " :
                                ", run in address space ", fst_place_space_name(pl->spaces[i], nm));
    if (pl->nspaces && len + 8 < cap)
        snprintf(buf + len, cap - len, " (CR1)");
}
