/* libFuzzer target: the listing readers of the statement tables (model/stmttab.h: GNU as,
** IBM assembler, FORTRAN IV), each on the same bytes, then placed against an empty image
** (make fuzz). The DWARF reader is libdw's parsing, fuzzed by elfutils. */
#include "model/stmttab_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    int (*const readers[])(fst_stmt_tab *, const char *, const char *, size_t, fst_err *) = {
        fst_stmt_read_gas, fst_stmt_read_ibmasm, fst_stmt_read_fort,
    };
    for (size_t k = 0; k < sizeof readers / sizeof readers[0]; k++) {
        fst_err err;
        fst_stmt_tab *t = fst_stmt_new();
        if (readers[k](t, "fuzz", (const char *)data, n, &err) == 0) {
            uint8_t mem[64] = { 0 };
            fst_image_seg img = { 0x20000, sizeof mem, mem };
            fst_stmt_place(t, NULL, 0, &img, 1, &err);
        }
        fst_stmt_free(t);
    }
    return 0;
}
