/* model/map_spaces.c — where a module-relative map's program ran, per address space
** (model/mapspaces.h). */
#include "model/mapspaces.h"
#include "trace/tracebin.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT64_MAX

typedef struct cpu_st {
    uint64_t cr1;
    int known;
    uint64_t after;         /* fall-through of the last BALR 14 etc., NONE when none pending */
    uint32_t state;         /* its state */
} cpu_st;

/* A branch and link with link register 14: BALR, BASR, BASSM, BAL, BAS, BRAS, BRASL. */
static int links_14(const uint8_t *b)
{
    switch (b[0]) {
    case 0x05: case 0x0D: case 0x0C: case 0x45: case 0x4D:
        return (b[1] >> 4) == 14;
    case 0xA7: case 0xC0:
        return (b[1] >> 4) == 14 && (b[1] & 15) == 5;
    default:
        return 0;
    }
}

/* B xx(,15) over an identifier: 47F0F0xx, xx even and at least 8 */
static int entry_insn(const fst_rec *r)
{
    return r->len == 4 && r->bytes[0] == 0x47 && r->bytes[1] == 0xF0 && r->bytes[2] == 0xF0 && r->bytes[3] >= 8 &&
           !(r->bytes[3] & 1);
}

static fst_space_ev *space_of(fst_space_ev **v, size_t *n, size_t *cap, uint64_t space, size_t *last)
{
    if (*last < *n && (*v)[*last].space == space)
        return &(*v)[*last];
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i].space == space)
            return &(*v)[*last = i];
    if (*n == *cap)
        *v = fst_xrealloc(*v, (*cap = *cap ? 2 * *cap : 8) * sizeof **v);
    (*v)[*n] = (fst_space_ev){ .space = space };
    return &(*v)[*last = (*n)++];
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort the addresses and drop repeats. */
static void squeeze(fst_space_ev *s)
{
    if (s->naddrs > 1)
        qsort(s->addrs, s->naddrs, sizeof *s->addrs, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < s->naddrs; i++)
        if (!k || s->addrs[i] != s->addrs[k - 1])
            s->addrs[k++] = s->addrs[i];
    s->naddrs = k;
}

/* A long trace repeats its calls: when full, squeeze first, and grow only when that
** leaves less than half free. */
static void add_addr(fst_space_ev *s, uint64_t a)
{
    if (s->naddrs && s->addrs[s->naddrs - 1] == a)
        return;
    if (s->naddrs == s->cap) {
        squeeze(s);
        if (s->naddrs >= s->cap / 2)
            s->addrs = fst_xrealloc(s->addrs, (s->cap = s->cap ? 2 * s->cap : 256) * sizeof *s->addrs);
    }
    s->addrs[s->naddrs++] = a;
}

static int by_insns(const void *a, const void *b)
{
    const fst_space_ev *x = a, *y = b;
    return x->insns > y->insns ? -1 : x->insns < y->insns;
}

int fst_space_evidence(const char *path, fst_space_ev **out, size_t *n, fst_err *err)
{
    *out = NULL;
    *n = 0;
    fst_tr *tr = fst_tr_open(path, err);
    if (!tr)
        return -1;
    cpu_st *cpu = NULL;
    size_t ncpu = 0, cap = 0, last = 0;
    fst_space_ev *v = NULL;
    fst_rec r;
    int rc;
    while ((rc = fst_tr_next(tr, &r, err)) > 0) {
        if (r.cpu >= ncpu) {
            size_t nn = (size_t)r.cpu + 1;
            cpu = fst_xrealloc(cpu, nn * sizeof *cpu);
            for (size_t i = ncpu; i < nn; i++)
                cpu[i] = (cpu_st){ 0, 0, NONE, 0 };
            ncpu = nn;
        }
        cpu_st *c = &cpu[r.cpu];
        if (r.kind == FST_REC_CR && r.cls == 1) {
            c->cr1 = r.value;
            c->known = 1;
            continue;
        }
        if (r.kind != FST_REC_INSN)
            continue;
        uint64_t space = !(r.state & FST_ST_DAT) ? FST_PLACE_REAL : c->known ? c->cr1 : FST_PLACE_UNKNOWN;
        fst_space_ev *s = space_of(&v, n, &cap, space, &last);
        s->insns++;
        if (c->after != NONE && r.state == c->state) {   /* a handler between: wait for the task */
            if (r.addr != c->after)
                add_addr(s, r.addr);
            c->after = NONE;
        }
        if (entry_insn(&r))
            add_addr(s, r.addr);
        if (links_14(r.bytes)) {
            c->after = r.addr + r.len;
            c->state = r.state;
        }
    }
    free(cpu);
    fst_tr_close(tr);
    if (rc < 0) {
        fst_space_evidence_free(v, *n);
        *n = 0;
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        squeeze(&v[i]);
    if (*n > 1)
        qsort(v, *n, sizeof *v, by_insns);
    *out = v;
    return 0;
}

void fst_space_evidence_free(fst_space_ev *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].addrs);
    free(v);
}

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
