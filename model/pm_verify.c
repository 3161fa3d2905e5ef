/* model/pm_verify.c — does a placed map describe the program a trace ran? (the storage
** image's FORTRAN identifiers against the map's routine starts; see progmodel.h) */
#include "model/progmodel.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A linkage editor's map (IEWL, loader, CESD) names a FORTRAN routine's section as the
** compiler named it in its identifier: any of the symbols starting at that address has the
** identifier's name. A CSV or nm map may name routines its own way (gfortran's sub_, lower
** case), but not with the name another identifier of the image has (the map of another
** program whose SUB1 starts where this one's SUB2 does). */
static int named_otherwise(const fst_pm *pm, const fst_pm_sym *e, const fst_id_hit *h, const fst_id_hit *hits,
                           size_t nhits)
{
    fst_map_kind k = fst_pm_module_at(pm, (size_t)e->module)->kind;
    int linkage = k == FST_MAP_IEWL || k == FST_MAP_LOADER || k == FST_MAP_CESD, other = 0;
    for (size_t i = e->index; i < fst_pm_nsyms(pm); i++) {
        const fst_pm_sym *s = fst_pm_sym_at(pm, i);
        if (s->module != e->module || fst_pm_module_at(pm, (size_t)s->module)->load_point + s->origin != h->addr)
            break;
        if (!strcmp(s->name, h->name))
            return 0;
        for (size_t j = 0; !linkage && j < nhits; j++)
            other |= hits[j].addr != h->addr && !strcasecmp(s->name, hits[j].name);
    }
    return linkage || other;
}

/* The map puts the identifier's name at another address of the same module: the image
** says routine NAME starts here, the map that it starts there. One is enough: a program has
** one routine of a name, and its identifier is at its start. */
static const fst_pm_sym *elsewhere(const fst_pm *pm, const fst_pm_sym *section, const fst_id_hit *h)
{
    const fst_pm_sym *n = fst_pm_find_name(pm, h->name);
    if (!n || n->module != section->module)
        return NULL;
    return fst_pm_module_at(pm, (size_t)n->module)->load_point + n->origin != h->addr ? n : NULL;
}

int fst_pm_verify_image(const fst_pm *pm, const fst_image_seg *seg, size_t nseg, fst_err *err)
{
    fst_id_hit *hits = NULL;
    size_t nhits = 0, inside = 0, off = 0;
    if (!nseg || fst_scan_ids(seg, nseg, 0, &hits, &nhits, NULL) < 0)
        return 0;   /* no image, or none readable: no evidence */
    const fst_id_hit *first = NULL;
    const fst_pm_sym *holder = NULL;
    int first_named = 0;
    for (size_t i = 0; i < nhits; i++) {
        const fst_pm_sym *s = fst_pm_find_section(pm, hits[i].addr);
        if (!s)
            continue;   /* outside every placed module: another module's, or low core */
        inside++;
        const fst_pm_sym *n = elsewhere(pm, s, &hits[i]);
        if (n) {
            const fst_pm_module *m = fst_pm_module_at(pm, (size_t)n->module);
            fst_errf(err, "%s does not describe the program this trace ran: the storage image holds routine %s "
                          "at %" PRIX64 " (its identifier), where the map puts %s at %" PRIX64 " (give the map "
                          "of the program that ran, of this version, at this load point)",
                     m->file ? m->file : "the map", hits[i].name, hits[i].addr, n->name, m->load_point + n->origin);
            free(hits);
            return -1;
        }
        const fst_pm_sym *e = fst_pm_find_entry(pm, hits[i].addr);
        if (e && !named_otherwise(pm, e, &hits[i], hits, nhits))
            continue;
        if (!off++) {
            first = &hits[i];
            first_named = e != NULL;
            holder = fst_pm_find_addr(pm, hits[i].addr);
        }
    }
    int rc = 0;
    if (off && off * 2 >= inside) {
        const fst_pm_module *m = fst_pm_module_at(pm, (size_t)holder->module);
        uint64_t at = m->load_point + holder->origin;
        rc = fst_errf(err, "%s does not describe the program this trace ran: the storage image holds routine %s at "
                           "%" PRIX64 ", inside the map's %s (+%" PRIX64 "), where the map has %s; %zu of the %zu "
                           "routines the image identifies inside the module start nowhere the map says, or by "
                           "another name "
                           "(give the map of the program that ran, or no --map: the image names FORTRAN routines "
                           "itself)", m->file ? m->file : "the map", first->name, first->addr, holder->name,
                      first->addr - at, first_named ? "another name" : "no routine", off, inside);
    }
    free(hits);
    return rc;
}
