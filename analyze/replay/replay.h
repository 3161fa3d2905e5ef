/*
** analyze/replay/replay.h — the replay's entry point: a trace and a program model into a
** profile and the event stream of its sinks.
**
** What the replay decides (call reconstruction, which routine is charged, tasks, windows)
** is written down in analyze/profile/profile.h, with the profile it fills and the options
** it takes (fst_replay_opts); the events its sinks hear, in analyze/profile/events.h; how
** its files divide the work, in replay_int.h (private to analyze/replay/). The profile's
** folder never calls the replay: this header is how everything above it does.
**
** Ownership: on success (0) *prof is the caller's, freed with fst_profile_free; on error
** (-1, err set, naming the trace's byte offset where it applies) *prof holds nothing to
** free. The trace reader and the model are only read.
*/
#ifndef FST_REPLAY_H
#define FST_REPLAY_H

#include "analyze/profile/profile.h"

/* Build the routine list from the model `pm` (which may be NULL: then the storage image
** of the trace is scanned for FORTRAN identifiers), replay the trace into *prof and into
** the `nsinks` extra sinks (may be 0). On error (-1) *prof holds nothing to free. */
int fst_replay(fst_tr *tr, fst_pm *pm, const fst_replay_opts *o, fst_profile *prof, const fst_sink *sinks,
               size_t nsinks, fst_err *err);

#endif
