/*
** capture/hercules/herc_int.h — what hercules.c and herc4.c (SDL Hercules 4.x) share;
** not for other callers. See hercules.h.
*/
#ifndef FST_HERC_INT_H
#define FST_HERC_INT_H

#include "capture/hercules/hercules.h"

/* 4.x: open the log and the FIFO in h->dir (files written), start Hercules. */
int fst_herc4_start(fst_herc *h, const fst_herc_opts *o, fst_err *err);
/* The FIFO the module's stream comes through (h->modfd). */
int fst_herc_modfifo(fst_herc *h, const fst_herc_opts *o, fst_err *err);
/* One whole log line while Hercules starts: 1 when it says the start-up failed. */
int fst_herc_watch_line(fst_herc *h, const char *s, fst_err *err);
/* Remove the folder's files and the folder (once Hercules has read or opened them). A card
** deck (cards.bin) is opened by the 3505 at its first read, long after the script: with
** keep_cards it stays, and the folder with it, until fst_herc_finish. */
void fst_herc_rm_dir(fst_herc *h, int keep_cards);

#endif
