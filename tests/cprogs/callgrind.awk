# tests/cprogs/callgrind.awk -- what two callgrind profiles must agree on, from either
# valgrind's (x86-64) or fst-report's (s390x): with or without name compression ("(id)
# name", then "(id)"), with or without valgrind's contexts (--separate-callers: "f'g'main",
# --separate-recs: "f'3'g'main"; a name is everything before the first ').
#   awk -v what=arcs -v fns="main f g" -f callgrind.awk FILE
#       "CALLER CALLEE N": calls per caller/callee pair, contexts summed
#   awk -v what=calls -v fns="main f g" -f callgrind.awk FILE
#       "F N": calls of each function (main's call from outside the program not counted)
#   awk -v what=contexts -v fns="main f g" -f callgrind.awk FILE
#       "STACK K N" for each calling context of a function under main (valgrind
#       --separate-callers): STACK is main;...;f with consecutive repeats written once
#       (callgrind folds direct recursion into f's count), K how many activations of f
#       the stack holds (its 'K, 1 when not written), N the calls into that context;
#       contexts.awk gives fst's stacks the same form
# Only functions named in `fns` (the program's own) are kept; contexts through others
# (libc's start-up below main) are cut at main.
function name(s,   id) {
    if (match(s, /^\([0-9]+\)/)) {
        id = substr(s, 2, RLENGTH - 2); s = substr(s, RLENGTH + 1); sub(/^ /, "", s)
        if (s != "") nm[id] = s; else s = nm[id]
    }
    return s
}
function base(s) { sub(/'.*/, "", s); return s }
# "f'K'c1'c2'...'main'..." -> "main;...;c2;c1;f K", or "" when not under main
function context(s,   p, n, i, k, st, top, last, fr) {
    n = split(s, p, "'")
    if (!(p[1] in keep)) return ""
    i = 2; k = 1
    if (n >= 2 && p[2] ~ /^[0-9]+$/) { k = p[2]; i = 3 }
    if (p[1] == "main") return "main " k
    st = ""
    for (; i <= n; i++) {
        if (!(p[i] in keep)) return ""
        st = p[i] (st == "" ? "" : ";") st
        if (p[i] == "main") break
    }
    if (i > n) return ""
    st = st ";" p[1]
    # consecutive repeats once
    n = split(st, fr, ";"); top = fr[1]; last = fr[1]
    for (i = 2; i <= n; i++) if (fr[i] != last) { top = top ";" fr[i]; last = fr[i] }
    return top " " k
}
BEGIN { n = split(fns, f, " "); for (i = 1; i <= n; i++) keep[f[i]] = 1 }
/^fn=/  { fn = name(substr($0, 4)); next }
/^cfn=/ { cfn = name(substr($0, 5)); next }
/^calls=/ {
    split(substr($0, 7), a, " ")
    if ((base(fn) in keep) && (base(cfn) in keep)) {
        arc[base(fn) " " base(cfn)] += a[1]; called[base(cfn)] += a[1]
        c = context(cfn); if (c != "") ctx[c] += a[1]
    }
    next
}
END {
    if (what == "arcs") for (k in arc) print k, arc[k]
    if (what == "calls") for (i = 1; i <= n; i++) if (f[i] != "main" || (f[i] in called)) print f[i], called[f[i]] + 0
    if (what == "contexts") for (k in ctx) print k, ctx[k]
}
