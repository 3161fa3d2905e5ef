/* model/map_text.c — what the text map readers share: printed lines as a Hercules printer
** writes them, regular expressions compiled once, hex numbers. See progmodel.h. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "model/progmodel.h"

#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

/* Lay `part` over `line` the way an overprint lands on paper: a non-blank character of the
** later pass wins, blanks leave what is there, and an underscore never hides a character
** (underlining adds no text). */
static void overprint(char **line, size_t *len, size_t *cap, const char *part, size_t n)
{
    if (n > *cap) {
        *cap = n;
        *line = fst_xrealloc(*line, *cap + 1);
    }
    if (n > *len) {
        memset(*line + *len, ' ', n - *len);
        *len = n;
    }
    for (size_t i = 0; i < n; i++)
        fst_overprint_char(&(*line)[i], part[i]);
}

void fst_overprint_char(char *dst, char c)
{
    if (c != ' ' && (c != '_' || *dst == ' '))
        *dst = c;
}

/* One printed line from raw bytes that hold no `\n` or `\f`: the `\r`-separated passes
** merged (a trailing `\r\r`, as Hercules writes it, merges empty passes: no change). */
static char *merge_passes(const char *s, size_t n, size_t *outlen)
{
    const char *cr = memchr(s, '\r', n);
    size_t first = cr ? (size_t)(cr - s) : n;
    size_t len = first, cap = first;
    char *line = fst_xmalloc(cap + 1);
    memcpy(line, s, first);
    for (size_t i = first; i < n;) {
        i++; /* skip the \r */
        const char *next = memchr(s + i, '\r', n - i);
        size_t end = next ? (size_t)(next - s) : n;
        overprint(&line, &len, &cap, s + i, end - i);
        i = end;
    }
    line[len] = 0;
    *outlen = len;
    return line;
}

size_t fst_map_lines(const char *buf, size_t len, fst_map_line **lines)
{
    size_t n = 0, cap = 64;
    fst_map_line *v = fst_xmalloc(cap * sizeof *v);
    unsigned long lineno = 1;
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && buf[j] != '\n' && buf[j] != '\f')
            j++;
        if (n == cap) {
            cap *= 2;
            v = fst_xrealloc(v, cap * sizeof *v);
        }
        v[n].text = merge_passes(buf + i, j - i, &v[n].len);
        v[n].lineno = lineno;
        n++;
        if (j < len && buf[j] == '\n')
            lineno++;
        i = j + 1;
    }
    *lines = v;
    return n;
}

void fst_map_lines_free(fst_map_line *lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i].text);
    free(lines);
}

int fst_rx_match(fst_rx *rx, const char *s, size_t len, long *ov, int nov)
{
    if (!rx->code) {
        int ec;
        PCRE2_SIZE eo;
        rx->code = pcre2_compile((PCRE2_SPTR)rx->pattern, PCRE2_ZERO_TERMINATED, rx->options,
                                 &ec, &eo, NULL);
        if (!rx->code)
            abort(); /* a built-in pattern that does not compile: a bug the tests catch */
        rx->md = pcre2_match_data_create_from_pattern(rx->code, NULL);
    }
    int rc = pcre2_match(rx->code, (PCRE2_SPTR)s, len, 0, 0, rx->md, NULL);
    if (rc < 0)
        return 0;
    PCRE2_SIZE *o = pcre2_get_ovector_pointer(rx->md);
    uint32_t have = pcre2_get_ovector_count(rx->md);
    for (int k = 0; k < 2 * nov; k++)
        ov[k] = ((uint32_t)k / 2 < have && o[k] != PCRE2_UNSET) ? (long)o[k] : -1;
    return 1;
}

int fst_parse_hex(const char *s, size_t len, uint64_t *v)
{
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        len -= 2;
    }
    if (len == 0 || len > 16)
        return -1;
    uint64_t r = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
              : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        r = r << 4 | (uint64_t)d;
    }
    *v = r;
    return 0;
}
