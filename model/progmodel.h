/*
** model/progmodel.h — the program model: which routines a module holds and where.
**
** Users of MVS 3.8J have a linkage-editor listing or the load module itself, not an ELF, so
** names, CSECT boundaries and the mainline come from whatever map they have (DESIGN §5). Every
** reader below feeds one model: an ordered list of modules, each with its symbols in module
** order (overlay segment, then origin; a section before a label at the same origin; pseudo-
** registers last), its ENTRY ADDRESS, TOTAL LENGTH, member name and, once known, load point.
**
**   fst_pm *pm = fst_pm_new();
**   if (fst_pm_load(pm, "job.lst", &(fst_pm_opts){ .member = "PROG" }, &err) < 0) ...
**   fst_pm_set_load_point(pm, -1, 0x20000, &err);       or fst_pm_find_load_point()
**   const fst_pm_sym *s = fst_pm_find_addr(pm, 0x20A40);  routine holding an address
**   fst_pm_free(pm);
**
** Addresses. A symbol's `origin` is module-relative, as every map prints it; its absolute
** address is origin + the module's load point (`addr`, valid when the module has one). The
** OS loader map and `nm` print absolute addresses: their readers set the load point they
** imply. A pseudo-register's origin is an offset in the PR vector, never an address: PRs are
** listed but no address lookup returns them.
**
** Map kinds and what each reader takes (notes/loadmaps.md has the formats):
**   iewl    linkage-editor MODULE MAP / CROSS REFERENCE TABLE listing (model/map_iewl.c)
**   loader  OS/VS loader MAP, absolute addresses, five entries a line   (model/map_loader.c)
**   cesd    a load module as a stream of records (dasdcat, or with RDWs) (model/map_cesd.c)
**   csv     name,type,origin,length — what fst-map prints              (model/map_csv.c)
**   nm      `nm -P` (or BSD `nm`) output of an ELF                      (model/map_nm.c)
**   image   routines found by scanning a storage image for identifiers  (model/map_image.c)
**
** A file named "PATH(MEMBER)" that does not exist as such is PATH with opts->member = MEMBER,
** the way MVS names a PDS member, so one --map=job.lst(PROG) names both.
**
** Ownership: the model owns every string and symbol; pointers returned by the lookups stay
** valid until the next call that changes the model (load, merge, set_load_point, add) or
** fst_pm_free. Errors: -1 / NULL with err filled, one line naming the file and the line
** ("job.lst:41: ...") or byte offset ("mod.bin: byte 264: ..."); nothing is printed.
** Not thread-safe: the readers share compiled regular expressions.
*/
#ifndef FST_PROGMODEL_H
#define FST_PROGMODEL_H

#include "trace/tracebin.h"   /* fst_image_seg */
#include "common/err.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum fst_pm_type {
    FST_PM_SD = 0,  /* control section (CSECT; IEWL section line, CESD SD, sized nm symbol) */
    FST_PM_PC,      /* private code: unnamed section, printed $PRIVATE */
    FST_PM_CM,      /* common area ($BLANKCOM, CESD CM); named commons print as sections in IEWL */
    FST_PM_LR,      /* label: an entry name inside a section (IEWL entry, CESD LR/LD) */
    FST_PM_PR,      /* pseudo-register: origin is an offset in the PR vector */
} fst_pm_type;

typedef enum fst_map_kind {
    FST_MAP_AUTO = 0, FST_MAP_IEWL, FST_MAP_LOADER, FST_MAP_CESD, FST_MAP_CSV, FST_MAP_NM,
    FST_MAP_IMAGE,
} fst_map_kind;

typedef struct fst_pm_sym {
    const char *name;       /* up to 8 characters for MVS names; nm names may be longer */
    fst_pm_type type;
    uint32_t origin;        /* module-relative (PR: offset in the PR vector) */
    uint32_t length;        /* sections and PRs; 0 for labels */
    uint16_t segment;       /* overlay segment number; 0 when the module has no overlay */
    uint8_t autocall;       /* '*' after the name: brought in by automatic library call */
    uint8_t open_end;       /* a section whose length no map gave and nothing bounds (the
                               last routine of an nm map): length 0, and it holds every
                               address from its start up; fst_pm_bound_by_image ends it */
    int module;             /* index of its module */
    size_t index;           /* its own index in module order */
    size_t section;         /* labels: index of the owning section; sections: own index;
                               PRs: own index */
    const char *file;       /* the map it was read from */
    unsigned long line;     /* line of a text map, byte offset of a load module */
    uint64_t addr;          /* origin + load point, when the module has one; else origin */
} fst_pm_sym;

typedef struct fst_pm_module {
    const char *name;       /* member name (IEWL "****NAME ..." line, CSV MODULE row), or NULL */
    const char *file;
    fst_map_kind kind;
    int has_entry;
    uint32_t entry;         /* ENTRY ADDRESS, module-relative */
    int has_total;
    uint32_t total;         /* TOTAL LENGTH (CESD, nm: computed from the sections) */
    int has_load_point;
    uint64_t load_point;
    size_t first, count;    /* its symbols: indices first .. first+count-1 */
} fst_pm_module;

typedef struct fst_pm fst_pm;

typedef struct fst_pm_opts {
    fst_map_kind kind;      /* FST_MAP_AUTO: tell from the content */
    const char *member;     /* IEWL: the link step of this member or alias (NULL: the only
                               one); CESD: the module name (a record stream carries none) */
} fst_pm_opts;

/* ---- the model ---- */

fst_pm *fst_pm_new(void);
void fst_pm_free(fst_pm *pm);

/* Read one map file (any kind) and append its module to pm. opts may be NULL. A file of
** more than FST_PM_MAX_BYTES (far more than any listing or load module) is refused, so
** that /dev/zero or a stray disk image is an error naming it, not an exhausted memory. */
#define FST_PM_MAX_BYTES (64u << 20)
int fst_pm_load(fst_pm *pm, const char *path, const fst_pm_opts *opts, fst_err *err);
/* The same from memory; `name` stands for the file in messages. */
int fst_pm_load_mem(fst_pm *pm, const char *name, const void *buf, size_t len,
                    const fst_pm_opts *opts, fst_err *err);
/* What kind of map the bytes look like, FST_MAP_AUTO when none. */
fst_map_kind fst_map_detect(const void *buf, size_t len);
const char *fst_map_kind_name(fst_map_kind k);          /* "iewl", "loader", ... */
int fst_map_kind_parse(const char *s);                   /* -1 when unknown */
const char *fst_pm_type_name(fst_pm_type t);             /* "SD", "PC", "CM", "LR", "PR" */

/* Copy every module of src (with its load point) into dst. Fails, leaving dst as it was,
** when a load point of src overlaps a module of dst. */
int fst_pm_merge(fst_pm *dst, const fst_pm *src, fst_err *err);

size_t fst_pm_nmodules(const fst_pm *pm);
const fst_pm_module *fst_pm_module_at(const fst_pm *pm, size_t i);
int fst_pm_module_find(const fst_pm *pm, const char *name);   /* index, -1 when none */
size_t fst_pm_nsyms(const fst_pm *pm);
const fst_pm_sym *fst_pm_sym_at(const fst_pm *pm, size_t i);  /* module order */

/* ---- load point ---- */

/* `module` -1 means the only module (an error when there are several). Fails when the
** module would wrap around the address space or overlap another module that has one. */
int fst_pm_set_load_point(fst_pm *pm, int module, uint64_t load_point, fst_err *err);

/* What the load point is found from. Either part may be empty. */
typedef struct fst_pm_evidence {
    const fst_image_seg *image;  /* storage image: identifiers (47F0F0xx, length, name) that
                                    name routines of the module must line up */
    size_t nimage;
    const uint64_t *addrs;       /* addresses the trace branched to: best the call targets
                                    (where branch-and-link instructions went), any order */
    size_t naddrs;
    int confined;                /* every address in addrs lies inside this module (a
                                    standalone program, a trace range around the module) */
    uint32_t align;              /* load points are multiples of this; 0 means 8 */
} fst_pm_evidence;

/* Find the load point of `module` (-1: the only one) from the evidence and store it in
** *load_point (the model is not changed). The image decides when the routine names in it
** line up at one load point only, or at one at least twice (and twice as often as at any
** other). Otherwise the addresses decide: at one load point they must hit the starts of
** at least two routines, more routine starts than other addresses inside the module, and
** score (starts - others) better than at any other load point; a confined trace whose
** addresses leave room for one load point also decides. Ambiguous or inconsistent evidence
** is an error that says so and lists the candidates, never a guess (map_match.c). */
int fst_pm_find_load_point(const fst_pm *pm, int module, const fst_pm_evidence *ev,
                           uint64_t *load_point, fst_err *err);
/* The candidates the addresses of ev alone give (the image is not looked at), best first
** by score (routine starts hit minus other addresses inside the module), at most max of
** them in out, their count in *n. -1 (err) only when there are too many addresses. */
typedef struct fst_pm_cand {
    uint64_t load_point;
    unsigned hits, miss;    /* addresses at routine starts; other addresses inside the module */
} fst_pm_cand;
int fst_pm_rank_load_points(const fst_pm *pm, int module, const fst_pm_evidence *ev, fst_pm_cand *out,
                            size_t max, size_t *n, fst_err *err);
/* The hits and misses of ev's addresses at one load point. */
int fst_pm_score_at(const fst_pm *pm, int module, const fst_pm_evidence *ev, uint64_t load_point,
                    fst_pm_cand *c, fst_err *err);
/* Check a load point given by the user against the evidence: fails when an address of a
** confined trace lies outside the module, or when the routine names in the image line up
** somewhere else (the mismatch is reported, not guessed past). */
int fst_pm_check_load_point(const fst_pm *pm, int module, uint64_t load_point,
                            const fst_pm_evidence *ev, fst_err *err);

/* The model of a trace (model/pm_trace.c): load `maps` (nmaps may be 0: *out NULL),
** then place every module without a load point at `*load_point` (checked against the
** trace's storage image) or, when load_point is NULL, where the image says; end open
** sections at the image's end. What fst-report and fst-diff do with --map. */
int fst_pm_for_trace(fst_pm **out, const char *const *maps, size_t nmaps, const char *member, fst_tr *tr,
                     const uint64_t *load_point, fst_err *err);
/* A map of another program fits a trace's load point as well as its own (both put MAIN
** where the image has it) and then charges the program's routines to whatever the map has
** there. The storage image tells: every FORTRAN identifier (47F0F00C, name) inside a placed
** module is the start of a routine of the program, so the map must have a routine starting
** there: of the identifier's name in a linkage editor's map (IEWL, loader, CESD: the section
** is named as the compiler named it), of any name in a CSV or nm map (which may name
** routines their own way). -1 with err naming the map,
** the first identifier it has no routine for and what holds that address, when half or
** more of those inside the modules start nowhere the map says, or at once when the map puts
** an identifier's name at another address of its module; 0 otherwise, and when the
** image holds none (model/pm_verify.c). fst_pm_for_trace calls it. */
int fst_pm_verify_image(const fst_pm *pm, const fst_image_seg *seg, size_t nseg, fst_err *err);
/* End every open-ended section of a module with a load point where the piece of the
** storage image holding its start ends. */
void fst_pm_bound_by_image(fst_pm *pm, const fst_image_seg *segs, size_t nseg);

/* ---- lookups (absolute addresses; modules without a load point are not searched) ---- */

/* The section (SD/PC/CM) holding abs. In an overlay module the lowest segment wins. */
const fst_pm_sym *fst_pm_find_section(const fst_pm *pm, uint64_t abs);
/* The routine holding abs: the last label of its section at or below abs, else the
** section itself (a section and a label at one address: the section). */
const fst_pm_sym *fst_pm_find_addr(const fst_pm *pm, uint64_t abs);
/* The first symbol starting exactly at abs (a section before its labels); the others
** at that address follow it in module order. NULL when none. */
const fst_pm_sym *fst_pm_find_entry(const fst_pm *pm, uint64_t abs);
/* The first symbol of that name in module order, any module; NULL when none. */
const fst_pm_sym *fst_pm_find_name(const fst_pm *pm, const char *name);
/* The mainline: the symbol at the entry address of `module` (a section before a label),
** NULL when the module has no entry address or nothing starts there. */
const fst_pm_sym *fst_pm_mainline(const fst_pm *pm, int module);

/* ---- output ---- */

/* CSV, DESIGN §8: the header `name,type,origin,length`, then per module one row
** `MEMBER,MODULE,ORIGIN,TOTAL` (ORIGIN 0, or the load point when absolute), one row
** `NAME,EP,ENTRY,` when the entry address is known (NAME: the mainline, else the member),
** then its symbols: origin and length in upper-case hex without 0x, length empty for
** labels (and for an open-ended section). `absolute` prints origin + load point and
** fails for a module without one. The CSV reader reads it back to the same model. */
int fst_pm_write_csv(const fst_pm *pm, FILE *f, int absolute, fst_err *err);

/* ---- building a model (readers, tests) ---- */

/* Start a module; returns its index. Symbols added until fst_pm_end_module belong to it. */
int fst_pm_begin_module(fst_pm *pm, fst_map_kind kind, const char *file, const char *name);
/* Add a symbol to the open module; `owner` is the index returned for its section (labels),
** or (size_t)-1 to let fst_pm_end_module find the section holding it. A section of length
** FST_PM_OPEN has no known length: fst_pm_end_module ends it at the next section of its
** segment, or the last one at TOTAL LENGTH; without one it stays open-ended. Returns its
** index (valid until fst_pm_end_module sorts the module). */
#define FST_PM_OPEN UINT32_MAX
size_t fst_pm_add(fst_pm *pm, const char *name, fst_pm_type type, uint32_t origin,
                  uint32_t length, uint16_t segment, int autocall, size_t owner,
                  unsigned long line);
void fst_pm_set_entry(fst_pm *pm, uint32_t entry);
void fst_pm_set_total(fst_pm *pm, uint32_t total);
void fst_pm_set_name(fst_pm *pm, const char *name);
/* Sort the module, tie labels to sections and check it: sections of one segment do not
** overlap and end within TOTAL LENGTH, every label lies in its section, the entry inside
** the module. `bytes` says whether sym->line counts bytes (load modules) or lines. On
** failure the module is dropped from the model. */
int fst_pm_end_module(fst_pm *pm, int bytes, fst_err *err);
/* Drop the open module (a reader that failed half way). */
void fst_pm_abort_module(fst_pm *pm);
/* Drop the modules from index `keep` on (a reader that made several and then failed). */
void fst_pm_drop_modules(fst_pm *pm, size_t keep);

/* ---- readers: one per kind, called by fst_pm_load; `name` is the file for messages ---- */

int fst_map_read_iewl(fst_pm *pm, const char *name, const char *buf, size_t len,
                      const fst_pm_opts *opts, fst_err *err);
int fst_map_read_loader(fst_pm *pm, const char *name, const char *buf, size_t len,
                        const fst_pm_opts *opts, fst_err *err);
int fst_map_read_cesd(fst_pm *pm, const char *name, const uint8_t *buf, size_t len,
                      const fst_pm_opts *opts, fst_err *err);
int fst_map_read_csv(fst_pm *pm, const char *name, const char *buf, size_t len,
                     const fst_pm_opts *opts, fst_err *err);
int fst_map_read_nm(fst_pm *pm, const char *name, const char *buf, size_t len,
                    const fst_pm_opts *opts, fst_err *err);

/* ---- storage images: OS identifiers, EBCDIC (model/map_image.c) ---- */

enum {
    FST_ID_OS = 1,       /* 47F0F0xx, length byte, name: the SAVE-macro convention */
    FST_ID_FORTG = 6,    /* 47F0F00C 06 name: left-justified, EBCDIC-blank padded */
    FST_ID_FORTH = 7,    /* 47F0F00C 07 name: right-justified, X'00' padded */
};
enum { FST_SCAN_OS = 1 };   /* flag: accept every OS identifier, not only FORTRAN's */

typedef struct fst_id_hit {
    uint64_t addr;          /* absolute address of the 47F0F0xx */
    char name[9];           /* ASCII, NUL-terminated */
    int style;              /* FST_ID_* */
} fst_id_hit;

/* The identifier at p (avail bytes readable): its style and name, 0 when there is none.
** FORTRAN G: 47F0F00C 06 + 6 name bytes left-justified, blank-padded; FORTRAN H: 47F0F00C
** 07 + 7 bytes right-justified, X'00'-padded; with FST_SCAN_OS also 47F0F0xx L name with
** 1 <= L, xx >= 5+L and even, the name the first (at most 8) non-padding characters.
** Names are 1-8 characters of A-Z 0-9 $ # @, not starting with a digit. */
int fst_ident_at(const uint8_t *p, size_t avail, unsigned flags, char name[9]);
/* Every identifier at an even address of the image (a later segment overlays an earlier
** one, as IPL loads them), in address order. *hits is malloc'd; free it. */
int fst_scan_ids(const fst_image_seg *segs, size_t nseg, unsigned flags, fst_id_hit **hits,
                 size_t *nhits, fst_err *err);
/* A model of the routines found in an image when there is no map (DESIGN §3.1): one
** module of kind image, load point 0, one SD per identifier reaching to the next one (or
** the end of its piece of the image). Fails when the image holds none. */
int fst_pm_from_image(fst_pm *pm, const char *name, const fst_image_seg *segs, size_t nseg,
                      unsigned flags, fst_err *err);

/* EBCDIC (code page 037) <-> ASCII for the printable characters; 0 for the others. */
char fst_ebcdic_to_ascii(uint8_t c);
uint8_t fst_ascii_to_ebcdic(char c);

/* ---- shared by the text readers (model/map_*.c); not for other callers ---- */

/* One printed line: `\r`-separated overprints merged (a later non-blank character wins),
** `\f` and `\n` both end a line; `lineno` counts `\n` from 1, as an editor does. */
typedef struct fst_map_line {
    char *text;
    size_t len;
    unsigned long lineno;
} fst_map_line;
/* Split buf into lines; *lines and their texts are malloc'd; free with fst_map_lines_free. */
size_t fst_map_lines(const char *buf, size_t len, fst_map_line **lines);
void fst_map_lines_free(fst_map_line *lines, size_t n);
/* Print c over *dst: a non-blank wins, except that '_' (underlining) hides nothing. */
void fst_overprint_char(char *dst, char c);

/* A regular expression compiled once, on first use, and kept for the process. */
typedef struct fst_rx {
    const char *pattern;
    uint32_t options;       /* PCRE2 compile options */
    void *code, *md;        /* pcre2_code, pcre2_match_data */
} fst_rx;
#define FST_RX(pat) { (pat), 0, NULL, NULL }
/* Match s[0..len); 1 on a match with the capture offsets in ov[0..2*nov) (unset groups
** -1), 0 on none. */
int fst_rx_match(fst_rx *rx, const char *s, size_t len, long *ov, int nov);
/* Hex (1-16 digits, upper or lower case, optional 0x): 0 and *v set, -1 when not. */
int fst_parse_hex(const char *s, size_t len, uint64_t *v);

#endif
