# tests/cprogs/objdump.awk -- what gcc made of a C test program, from
# `s390x-linux-gnu-objdump -d --no-show-raw-insn ELF`:
#   -v what=hazards   one line per function with a relative branch (j, jne, jg..., brc,
#                     brct, brxh, crj, cij, ...) whose target is the return address of a
#                     call (brasl/bras %r14) in the same function, or that + 4k, k <= 4:
#                     "FUNCTION BRANCH->TARGET=RET+OFFSET ..." (hex)
#   -v what=sibcalls  "N": branches without link (jg, j, brcl 15) to a function's entry
function hex(s,   i, v) { v = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v }
function flush(   i, j, d, out) {
    out = ""
    for (i = 1; i <= nb; i++) for (j = 1; j <= nr; j++) {
        d = bt[i] - ret[j]
        if (d >= 0 && d <= 16 && d % 4 == 0) out = out sprintf(" %x->%x=%x+%d", ba[i], bt[i], ret[j], d)
    }
    if (out != "" && what == "hazards") print fn out
    nb = nr = 0; want_ret = 0
}
BEGIN { FS = "\t" }
/^[0-9a-f]+ <[^>]+>:$/ { flush(); fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); next }
/^ *[0-9a-f]+:\t/ {
    a = $1; gsub(/[ :]/, "", a); a = hex(a)
    if (want_ret) { ret[++nr] = a; want_ret = 0 }
    mn = $2; op = $3
    if ((mn == "brasl" || mn == "bras" || mn == "jasl" || mn == "jas") && op ~ /^%r14,/) { want_ret = 1; next }
    if (!match(op, /[0-9a-f]+ <[^>]+>$/)) next
    t = substr(op, RSTART, RLENGTH); tn = t; sub(/ .*/, "", t); sub(/^[^<]*</, "", tn); sub(/>$/, "", tn)
    if (mn ~ /^(j|brc|brct|brx|c(l)?(g)?(r|i)j)/) {
        ba[++nb] = a; bt[nb] = hex(t)
        if ((mn == "jg" || mn == "j" || mn == "brcl") && tn !~ /\+/) sib++
    }
}
END { flush(); if (what == "sibcalls") print sib + 0 }
