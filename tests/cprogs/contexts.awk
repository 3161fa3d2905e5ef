# tests/cprogs/contexts.awk -- calls per full call stack ("main;f;g N", from
# speedscope.awk or EXPECTED's stack facts) in the form callgrind.awk gives valgrind's
# contexts (--separate-callers, --separate-recs): "STACK K N", STACK with consecutive
# repeats written once (callgrind folds direct recursion), K the number of frames of its
# top function (callgrind's 'K), N the calls, summed over the stacks that fold alike.
{
    n = split($1, fr, ";")
    k = 0; for (i = 1; i <= n; i++) k += fr[i] == fr[n]
    top = fr[1]; last = fr[1]
    for (i = 2; i <= n; i++) if (fr[i] != last) { top = top ";" fr[i]; last = fr[i] }
    calls[top " " k] += $2
}
END { for (c in calls) print c, calls[c] }
