#!/bin/sh
# tests/programs/count-tasks.sh -- count what the three tasks of tasks.s did, from Hercules
# 3.13 logs, independently of fst, and compare it with the `tasks` lines of
# tests/programs/EXPECTED.
#
#   tests/programs/count-tasks.sh [--print] [LOG...]
#
# Run from the top of the tree after `make programs` (BUILD, default build, says where
# build/programs is). With no LOG: runs tasks.ins under Hercules once (as count.sh does:
# ARCHMODE S/370, traceopt noregs, t+, ipl) and counts its log. A LOG may be gzipped and
# may be traced in any 3.13 traceopt mode, with or without a range. Without --print, each
# log's facts are compared with EXPECTED (exit 1 when anything differs); with --print they
# are printed in EXPECTED's format instead. Either way the interruption counts of each log
# are printed as comments. KEEP=1 keeps the log of a run.
#
# How it counts (see the header of tasks.s for the rules):
#   * an instruction = a PSW line with INST= (a trace record). The copy Hercules prints
#     after HHCCP014I (a program check) is not one, nor is "Instruction fetch error": an
#     instruction nullified by a page fault is counted when traced before the fault and
#     again when it runs after the handler's LPSW; one whose fetch faulted, only once.
#   * problem state = PSW bit 15 (the low bit of the PSW's second byte).
#   * the task: the dispatcher's LPSW of a TCB's PSW slot (LPSW 400 = A, 480 = B, 500 =
#     C, base register 0) makes that task current; the LPSW of the program old PSW after
#     a page fault and the LPSW of the external/I/O old PSW resume the same task. When
#     register blocks show CR1, every problem-state instruction's CR1 is checked against
#     its task's (A 00021000, B 00021040, C 00021080). A range trace that leaves the
#     supervisor out shows no dispatcher: there task A is told by its addresses
#     (0x30000-0x3FFFF) and B and C, which run the same code at the same addresses, are
#     only counted together (task BC), by routine totals.
#   * routines: the text symbols of `nm -P tasks.elf`; each reaches to the next symbol or
#     to the end of its 64K segment. Problem-state instructions outside every routine are
#     the task's "outside" (the SVC 3 at the nucleus address R14 points to).
#   * calls, frames, self, incl: replayed per task (each task has its own stack): a
#     problem-state BALR/BAL with link register 14 followed, in the same task, by an
#     instruction at a routine entry is a call; a BCR 15,14 followed by the return address
#     of a frame pops it (and those above it); the task's first instruction, at its
#     mainline's entry (the dispatcher's LPSW), is no call; its mainline ends when its
#     BR 14 reaches an address outside every routine. self = the instruction is charged
#     to the routine on top of the task's stack; incl = to every routine on the stack,
#     once. -default: only FORTRAN-compatible routines (entry instruction 47F0F00C) are
#     timed; the others are transparent (DESIGN 3.5). Each self is also checked against
#     the routine holding the instruction's address.
set -u
top=$(pwd)
exp=$top/tests/programs/EXPECTED
case ${BUILD:-build} in /*) progs=$BUILD/programs ;; *) progs=$top/${BUILD:-build}/programs ;; esac
[ -f "$exp" ] || { echo "count-tasks.sh: run from the top of the tree" >&2; exit 2; }
[ -f "$progs/tasks.elf" ] || { echo "count-tasks.sh: no $progs/tasks.elf (make programs)" >&2; exit 2; }
print=0
if [ "${1:-}" = --print ]; then print=1; shift; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fst-count-tasks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
s390x-linux-gnu-nm -P -n "$progs/tasks.elf" | awk '$2 ~ /^[Tt]$/ { print $1, $3 }' > "$tmp/nm"
# the kind of each routine, from the storage image: 47F0F00C then X'06' (G) or X'07' (H)
while read -r name addr; do
    off=$(( 0x$addr - 0x20000 ))
    b=$(od -An -tx1 -j "$off" -N 5 "$progs/tasks.bin" | tr -d ' \n')
    case $b in 47f0f00c06) k=fortran-g ;; 47f0f00c07) k=fortran-h ;; *) k=assembler ;; esac
    echo "$name $addr $k"
done < "$tmp/nm" > "$tmp/routines"

if [ $# -eq 0 ]; then
    cp "$progs/tasks.ins" "$progs/tasks.lc" "$progs/tasks.bin" "$tmp/"
    printf 'ARCHMODE S/370\nMAINSIZE 2\nNUMCPU 1\nCPUSERIAL 000611\nCPUMODEL 3090\nPANRATE FAST\n000C 3505 /dev/null\n' > "$tmp/tasks.cnf"
    printf 'hao tgt HHCCP011I\nhao cmd quit\ntraceopt noregs\nt+\nipl tasks.ins\n' > "$tmp/tasks.rc"
    ( cd "$tmp" && ulimit -f 2000000 && HERCULES_RC=tasks.rc timeout -s KILL 120 \
        hercules -d -f tasks.cnf < /dev/null > tasks.log 2>&1 )
    if [ "${KEEP:-0}" = 1 ]; then cp "$tmp/tasks.log" "${TMPDIR:-/tmp}/tasks.$$.log"; echo "# log kept in ${TMPDIR:-/tmp}/tasks.$$.log"; fi
    set -- "$tmp/tasks.log"
fi

count() {
    case $1 in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac | tr -d '\r' | awk -v rfile="$tmp/routines" '
function hex(s,   i, n) { n = 0; s = toupper(s)
    for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789ABCDEF", substr(s, i, 1)) - 1
    return n }
function routine(a,   i) { for (i = nr; i >= 1; i--) if (a >= rs[i]) return a < re[i] ? rn[i] : ""
    return "" }
function timed(r) { return r != "" && !(r in untimed) }
# the routine the default timing charges: the nearest timed frame from the top
function toptimed(t,   d) { for (d = depth[t]; d >= 1; d--) if (timed(fr[t, d])) return fr[t, d]
    return "" }
function push(t, r, ret,   d) { d = ++depth[t]; fr[t, d] = r; fret[t, d] = ret; on[t, r]++ }
function pop(t) { on[t, fr[t, depth[t]]]--; depth[t]-- }
BEGIN {
    while ((getline l < rfile) > 0) { split(l, f, " "); nr++; rn[nr] = f[1]; rs[nr] = hex(f[2]); kind[f[1]] = f[3]
        if (f[3] == "assembler") untimed[f[1]] = 1 }
    for (i = 1; i <= nr; i++) { re[i] = rs[i] - rs[i] % 65536 + 65536; if (i < nr && rs[i + 1] < re[i]) re[i] = rs[i + 1]
        entry[rs[i]] = rn[i] }
    tcb[1024] = "A"; tcb[1152] = "B"; tcb[1280] = "C"
    cr1["A"] = "00021000"; cr1["B"] = "00021040"; cr1["C"] = "00021080"
    cur = ""; redisp = 0; lastprob = 0
}
/^HHCCP014I/ { redisp = 1; pgm++; if (lastprob) { nullified = 1; if (lastentry) entries[lastentry]-- } ; next }
/^HHCCP025I/ { cpt++; if (cur != "") { cptt[cur]++; n = 0; for (d = 1; d <= depth[cur]; d++) if (fr[cur, d] == "RECUR") n++
        if (n >= 2) cptrec++ } ; next }
/^HHCCP024I/ { ckc++; next }
/^HHCCP044I/ { io++; next }
/^HHCCP043I/ { if ($0 ~ /PSW=030A/) ewait++; next }
/^HHCCP011I/ { dwait = 1; next }
/^HHCCP0/ { next }
/^GR00=|^R0=/ { next }
/CR01=/ { if (lastprob && lasttask ~ /^[ABC]$/) { v = $0; sub(/.*CR01=/, "", v); v = substr(v, 1, 8)
        crseen++; if (v != cr1[lasttask]) crbad++ } ; next }
/^PSW=/ {
    if (redisp) { redisp = 0; next }              # the copy after HHCCP014I
    if ($0 ~ /Instruction fetch error/) next
    psw = substr($0, 5, 8); ia = substr($0, 14, 8)
    inst = $0; sub(/.*INST=/, "", inst); sub(/ .*/, "", inst)
    nullified = 0; lastentry = ""
    prob = hex(substr(psw, 4, 1)) % 2
    lastprob = prob
    if (!prob) {
        sup++
        if (substr(inst, 1, 2) == "82" && substr(inst, 5, 1) == "0") {   # LPSW D(0)
            d = hex(substr(inst, 6, 3)); if (d in tcb) { cur = tcb[d]; lpsws++ } }
        next
    }
    a = hex(ia)
    t = cur
    if (t == "") { rangemode = 1; t = (a >= 196608 && a < 262144) ? "A" : "BC" }
    lasttask = t
    tasks[t] = 1
    r = routine(a)
    if (a in entry) { entries[r]++; lastentry = r }
    # the replay: calls and returns of this task
    if (!started[t]) { started[t] = 1; if (a in entry) { push(t, r, -1); mainline[t] = r } }
    else if (pcall[t] && (a in entry)) {
        caller = fr[t, depth[t]]; dcaller = toptimed(t)
        calls[t, r]++; arc[t, caller " " r]++
        if (timed(r)) { callsd[t, r]++; arcd[t, dcaller " " r]++ }
        push(t, r, pret[t])
    } else if (pbr[t] && depth[t] > 0) {
        for (d = depth[t]; d >= 1; d--) if (fret[t, d] == a) break
        if (d >= 1) while (depth[t] >= d) pop(t)
        else if (depth[t] == 1 && r == "") pop(t)  # the mainline returns out of the program
    }
    pcall[t] = 0; pbr[t] = 0
    if (inst ~ /^05E[1-9A-F]$/) { pcall[t] = 1; pret[t] = a + 2 }
    if (inst ~ /^45E/) { pcall[t] = 1; pret[t] = a + 4 }
    if (inst == "07FE") pbr[t] = 1
    # charge it
    problem[t]++
    if (r != "") aself[r]++
    if (depth[t] == 0) { outside[t]++; if (r != "" && t != "BC") addrbad++ }
    else {
        top = fr[t, depth[t]]; self[t, top]++; if (top != r && t != "BC") addrbad++
        selfd[t, toptimed(t)]++
        for (i = 1; i <= nr; i++) if (on[t, rn[i]] > 0) { incl[t, rn[i]]++; if (timed(rn[i])) incld[t, rn[i]]++ }
    }
    next
}
END {
    P = "tasks"
    for (i = 1; i <= nr; i++) printf "%s routine %s %X %s\n", P, rn[i], rs[i], kind[rn[i]]
    nt = 0; split("A B C BC", order, " ")
    for (k = 1; k <= 4; k++) { t = order[k]; if (!(t in tasks)) continue
        if (t != "BC") printf "%s task %s mainline %s asid %s\n", P, t, mainline[t], cr1[t]
        for (i = 1; i <= nr; i++) { r = rn[i]
            if ((t, r) in self || (t, r) in calls) printf "%s task-calls %s %s %d\n", P, t, r, calls[t, r] }
        for (x in arc) { split(x, f, SUBSEP); if (f[1] == t) { split(f[2], g, " "); printf "%s task-arc %s %s %s %d\n", P, t, g[1], g[2], arc[x] } }
        for (i = 1; i <= nr; i++) if ((t, rn[i]) in self) printf "%s task-self %s %s %d\n", P, t, rn[i], self[t, rn[i]]
        for (i = 1; i <= nr; i++) if ((t, rn[i]) in incl) printf "%s task-incl %s %s %d\n", P, t, rn[i], incl[t, rn[i]]
        printf "%s task-outside %s %d\n", P, t, outside[t]
        printf "%s task-problem %s %d\n", P, t, problem[t]
        # -default lines, for a task where the default timing differs
        diff = 0; for (i = 1; i <= nr; i++) if ((t, rn[i]) in self && !timed(rn[i])) diff = 1
        if (diff) {
            for (i = 1; i <= nr; i++) { r = rn[i]; if (!timed(r) || !((t, r) in selfd)) continue
                printf "%s task-calls-default %s %s %d\n", P, t, r, callsd[t, r] }
            for (x in arcd) { split(x, f, SUBSEP); if (f[1] == t) { split(f[2], g, " "); printf "%s task-arc-default %s %s %s %d\n", P, t, g[1], g[2], arcd[x] } }
            for (i = 1; i <= nr; i++) if ((t, rn[i]) in selfd && timed(rn[i])) printf "%s task-self-default %s %s %d\n", P, t, rn[i], selfd[t, rn[i]]
            for (i = 1; i <= nr; i++) if ((t, rn[i]) in incld) printf "%s task-incl-default %s %s %d\n", P, t, rn[i], incld[t, rn[i]]
        }
    }
    # totals over the tasks
    for (x in self) { split(x, f, SUBSEP); S[f[2]] += self[x] }
    if (rangemode) for (i = 1; i <= nr; i++) S[rn[i]] = aself[rn[i]]
    for (x in calls) { split(x, f, SUBSEP); C[f[2]] += calls[x] }
    for (x in incl) { split(x, f, SUBSEP); I[f[2]] += incl[x] }
    for (x in arc) { split(x, f, SUBSEP); A[f[2]] += arc[x] }
    for (x in selfd) { split(x, f, SUBSEP); SD[f[2]] += selfd[x] }
    for (x in callsd) { split(x, f, SUBSEP); CD[f[2]] += callsd[x] }
    for (x in incld) { split(x, f, SUBSEP); ID[f[2]] += incld[x] }
    for (x in arcd) { split(x, f, SUBSEP); AD[f[2]] += arcd[x] }
    for (x in problem) { tp += problem[x]; to += outside[x] }
    for (i = 1; i <= nr; i++) printf "%s calls %s %d\n", P, rn[i], C[rn[i]]
    for (x in A) printf "%s arc %s %d\n", P, x, A[x]
    for (i = 1; i <= nr; i++) printf "%s self %s %d\n", P, rn[i], S[rn[i]]
    for (i = 1; i <= nr; i++) printf "%s incl %s %d\n", P, rn[i], I[rn[i]]
    for (i = 1; i <= nr; i++) if (timed(rn[i])) printf "%s calls-default %s %d\n", P, rn[i], CD[rn[i]]
    for (x in AD) printf "%s arc-default %s %d\n", P, x, AD[x]
    for (i = 1; i <= nr; i++) if (timed(rn[i])) printf "%s self-default %s %d\n", P, rn[i], SD[rn[i]]
    for (i = 1; i <= nr; i++) if (timed(rn[i])) printf "%s incl-default %s %d\n", P, rn[i], ID[rn[i]]
    printf "%s problem %d\n", P, tp
    # entries (executions of an entry instruction, a nullified attempt not counted):
    # calls + the mainlines first entries; a cross-check that needs no task
    for (i = 1; i <= nr; i++) printf "#entries %s %d\n", rn[i], entries[rn[i]]
    printf "#stats instructions %d supervisor %d problem %d\n", sup + tp, sup, tp
    printf "#stats cpu-timer %d (preemptions of A %d, B %d, C %d; with RECUR at depth >= 2 on the stack %d)\n", cpt, cptt["A"], cptt["B"], cptt["C"], cptrec
    printf "#stats clock-comparator %d io %d page-faults %d enabled-waits %d dispatches %d disabled-wait %d\n", ckc, io, pgm, ewait, lpsws, dwait
    printf "#stats cr1-checked %d cr1-wrong %d self-not-at-its-address %d range-mode %d\n", crseen, crbad, addrbad, rangemode
}'
}

rc=0
for log in "$@"; do
    echo "# $log"
    count "$log" > "$tmp/got"
    grep '^#' "$tmp/got"
    if [ $print = 1 ]; then grep -v '^#' "$tmp/got"; continue; fi
    awk '!/^#/ && $1 == "tasks"' "$exp" | sed 's/#.*//; s/  */ /g; s/ $//' | sort > "$tmp/want"
    grep -v '^#' "$tmp/got" | sort > "$tmp/have"
    if grep -q 'range-mode 1' "$tmp/got"; then
        # a range trace: only the routine totals, task A's figures and the entries
        grep -E '^tasks (routine|calls|self) ' "$tmp/want" > "$tmp/w2"
        grep -E '^tasks (task-calls|task-self|task-incl|task-problem|task-outside|task-arc) A ' "$tmp/want" >> "$tmp/w2"
        sort -o "$tmp/want" "$tmp/w2"
        grep -E '^tasks (routine|self) |^tasks (task-calls|task-self|task-incl|task-problem|task-outside|task-arc) A ' "$tmp/have" > "$tmp/h2"
        # calls in total: entries minus the mainlines' first entries (1 per task)
        grep '^#entries' "$tmp/got" | while read -r _ r n; do
            m=$(awk -v r="$r" '$1 == "tasks" && $2 == "task" && $5 == r' "$exp" | wc -l)
            echo "tasks calls $r $((n - m))"
        done >> "$tmp/h2"
        sort -o "$tmp/have" "$tmp/h2"
        grep -q 'cr1-wrong 0 self-not-at-its-address 0' "$tmp/got" || { echo "FAIL: CR1 or address check"; rc=1; }
    else
        grep -q 'cr1-wrong 0 self-not-at-its-address 0 range-mode 0' "$tmp/got" || { echo "FAIL: CR1 or address check"; rc=1; }
        grep -q 'disabled-wait 1' "$tmp/got" || { echo "FAIL: the run did not end in the disabled wait"; rc=1; }
    fi
    if diff "$tmp/want" "$tmp/have" > "$tmp/diff"; then
        echo "tasks: $(wc -l < "$tmp/want") facts of EXPECTED measured: ok"
    else
        echo "tasks: EXPECTED (<) and measured (>) differ:"; cat "$tmp/diff"; rc=1
    fi
done
exit $rc
