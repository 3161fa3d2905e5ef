# tests/cprogs/speedscope.awk -- the calling contexts of fst-report's speedscope file (one
# evented profile: the routines opening "O" and closing "C" in execution order):
#   -v what=stacks (default)  "STACK N": N opens of the full stack main;...;f (calls in
#                             that context; the mainline's own open at the start is no
#                             call and is not listed)
#   -v what=depth             the deepest stack's number of frames
# Reads the file as fst writes it: the frame names one per line, then one event per line.
/"name": ".*", "file":/ { s = $0; sub(/.*"name": "/, "", s); sub(/".*/, "", s); fname[nf++] = s; next }
/"type": "[OC]"/ {
    f = $0; sub(/.*"frame": /, "", f); sub(/[^0-9].*/, "", f)
    if ($0 ~ /"type": "O"/) {
        st[++d] = fname[f]
        if (d > depth) depth = d
        if (d == 1) next
        s = st[1]; for (i = 2; i <= d; i++) s = s ";" st[i]
        opens[s]++
    } else d--
}
END {
    if (what == "depth") print depth + 0
    else for (s in opens) print s, opens[s]
}
