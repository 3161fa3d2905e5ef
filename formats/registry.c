/* formats/registry.c — the list of report formats fst-report offers (format.h). A new
** format: one file in formats/ and one line here. */
#include "formats/format.h"

#include <string.h>

extern const fst_format fst_format_fortstat, fst_format_csv;
extern const fst_format fst_format_maptime;
extern const fst_format fst_format_prof, fst_format_monout, fst_format_gmon;
extern const fst_format fst_format_annotate, fst_format_svg;
extern const fst_format fst_format_callgrind, fst_format_folded, fst_format_json, fst_format_speedscope;
extern const fst_format fst_format_tree, fst_format_callers;

const fst_format *const fst_formats[] = {
    &fst_format_fortstat,
    &fst_format_csv,
    &fst_format_maptime,
    &fst_format_prof, &fst_format_monout, &fst_format_gmon,
    &fst_format_annotate,
    &fst_format_callgrind, &fst_format_folded, &fst_format_svg, &fst_format_json, &fst_format_speedscope,
    &fst_format_tree, &fst_format_callers,
    NULL
};

const fst_format *fst_format_find(const char *name)
{
    for (const fst_format *const *f = fst_formats; *f; f++)
        if (!strcmp((*f)->name, name))
            return *f;
    return NULL;
}

const char *fst_fopt(const fst_fctx *fc, const char *name)
{
    const char *v = NULL;
    for (size_t i = 0; i < fc->nopts; i++)
        if (!strcmp(fc->opts[i].name, name))
            v = fc->opts[i].value;
    return v;
}

size_t fst_fopt_all(const fst_fctx *fc, const char *name, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < fc->nopts; i++)
        if (!strcmp(fc->opts[i].name, name) && n < max)
            out[n++] = fc->opts[i].value;
    return n;
}
