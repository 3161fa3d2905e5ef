/*
** common/quote.h — printing names that come from outside (map names, file names) in the
** formats fst writes, so that no name can break a report.
**
** A map may name a routine anything: a CSV map or nm output can hold ',', '"', ';', blanks
** and even newlines in a name. Each format says how it keeps such a name whole:
**   - CSV (RFC 4180): fst_csv_field quotes the field with libcsv (csv_fwrite: "a""b") when
**     it holds a comma, a quote, CR or LF, begins or ends with a blank (an unquoted blank
**     there is trimmed by CSV readers) or begins with '#' (a comment line for fst's own
**     readers); any other field is written as it is, so ordinary reports do not change.
**     fst-diff and fst-map read back what is written this way.
**   - every text format that is not CSV or JSON (fortstat, prof, callgrind, folded, maptime,
**     fst-diff's text): fst_printable replaces each control character (below 0x20, and
**     DEL) with '?', so that a name stays on its line and in its column. Formats with a
**     separator of their own replace that too (folded: ';' and blanks).
**   - JSON escapes with formats/jsonw.h; XML with its entities.
*/
#ifndef FST_QUOTE_H
#define FST_QUOTE_H

#include <stddef.h>
#include <stdio.h>

/* One CSV field (no separator): 0, or -1 when writing failed. */
int fst_csv_field(FILE *f, const char *s);
/* s with control characters replaced by '?', in buf (cap >= 1 bytes; cut at cap - 1);
** returns buf. */
const char *fst_printable(const char *s, char *buf, size_t cap);

#endif
