# The stack and export formats over real captures of the test programs: callgrind (read
# by Debian's callgrind_annotate), folded, json and speedscope. Every format's figures
# agree with csv's from the same trace (calls, self and inclusive instructions, self time
# in ns, totals), under the mips and model clocks, default and --timed=all timing and
# --exclude; the --timed=all figures equal the programs' construction (EXPECTED);
# recursion (linkage) counts once; untimed chains (untimed) are transparent; golden
# files at --clock=mips:0.001; bad options and write errors.
# Time agrees exactly in integer units (issue 16 item 7; bigloop, 100 000 calls at the
# model clock, non-integer ns an instruction): fst accumulates fx (1/512 ps) and every
# format converts a routine's sum once, ns = (fx + 256000) / 512000 (ties up) — csv's
# 9-decimal seconds, json's *_ns, callgrind's ns lines (self: its lines; inclusive: the
# calls into it, each a running sum rounded apart), folded's and speedscope's self per
# routine. Only sums of routines rounded apart differ from one rounding (a mainline's
# inclusive in callgrind, speedscope's inclusive and endValue): by at most 1 ns a routine.
. "$(dirname "$0")/../lib.sh"
EXPECTED=$FST_ROOT/tests/programs/EXPECTED
GOLDEN=$FST_ROOT/golden
NM=${S390_NM:-s390x-linux-gnu-nm}
cd "$T" || exit 1   # relative trace paths: no temporary path in the golden files

facts() { awk -v p="$1" -v k="$2" '$1 == p && $2 == k { print $3, $4 }' "$EXPECTED" | sort; }

# agree.py DIR: compares the reports of one run (DIR/{csv,json,cg,cg.excl,cg.incl,
# fold.i,fold.ns,ss.i,ss.ns}); prints "PASS|check" or "FAIL|check|detail" lines
cat > agree.py <<'EOF'
import json, re, sys
d = sys.argv[1]
def rd(n): return open(f"{d}/{n}").read()
out = []
def check(name, want, got):
    out.append(f"PASS|{name}" if want == got else f"FAIL|{name}|expected {want!r}, got {got!r}")
def ns(x): return (x + 256000) // 512000          # fx -> ns, as csv rounds
csv = {}
for line in rd("csv").splitlines()[1:]:
    f = line.split(",")
    csv[f[0]] = dict(calls=int(f[2]), self=int(f[3]), incl=int(f[4]), self_ns=int(f[5].replace(".", "")),
                     incl_ns=int(f[6].replace(".", "")))
routines = [k for k in csv if not k.startswith("(")]
sum_self = sum(csv[r]["self"] for r in routines)
# json
j = json.loads(rd("json"))
jr = {r["name"]: r for r in j["routines"] if r["timed"]}
check("json: the timed routines are csv's", sorted(routines), sorted(jr))
for r in routines:
    got = jr.get(r, {})
    check(f"json: {r} calls/self/incl/self_ns/incl_ns",
          [csv[r][k] for k in ("calls", "self", "incl", "self_ns", "incl_ns")],
          [got.get(k) for k in ("calls", "self_instructions", "incl_instructions", "self_time_ns", "incl_time_ns")])
for row, key in (("(total)", "totals"), ("(outside)", "outside"), ("(excluded)", "excluded")):
    check(f"json: {key}", [csv[row]["self"], csv[row]["self_ns"]], [j[key]["instructions"], j[key]["time_ns"]])
check("json: conservation in fx", j["totals"]["time_fx"],
      sum(r["self_time_fx"] for r in j["routines"]) + j["outside"]["time_fx"] + j["excluded"]["time_fx"])
self_fx = sum(r["self_time_fx"] for r in j["routines"] if r["timed"])
arcs_in = {}
for a in j["arcs"]:
    arcs_in[a["callee_name"]] = arcs_in.get(a["callee_name"], 0) + a["count"]
check("json: arcs into each routine add up to its calls", {r: csv[r]["calls"] for r in routines if csv[r]["calls"]},
      arcs_in)
# callgrind_annotate, exclusive and inclusive
def annotate(text):
    res, on = {}, False
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            m = re.match(r"\s*([\d,]+) \(.*?\)\s+([\d,]+) ", line)
            res["(program totals)"] = (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")))
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+([\d,]+) \(.*?\)\s+\S*:([^:\s]*) \[", line)  # FILE:FN [OB]; FILE may hold ':' 
        if m:
            res[m.group(3)] = (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")))
    return res
ex, inc = annotate(rd("cg.excl")), annotate(rd("cg.incl"))
check("callgrind_annotate: PROGRAM TOTALS Ir = csv (total)", csv["(total)"]["self"], ex.get("(program totals)", (None,))[0])
for r in routines:
    check(f"callgrind_annotate: {r} self Ir, ns", [csv[r]["self"], csv[r]["self_ns"]], list(ex.get(r, (0, 0))))
    check(f"callgrind_annotate --inclusive=yes: {r} Ir", csv[r]["incl"], inc.get(r, (0, 0))[0])
    if csv[r]["calls"]:   # the calls into it, rounded as one sum: exact
        check(f"callgrind_annotate --inclusive=yes: {r} ns", csv[r]["incl_ns"], inc.get(r, (0, 0))[1])
    elif inc.get(r):      # nobody calls it: its lines and its calls out, each rounded apart
        check(f"callgrind_annotate --inclusive=yes: {r} ns within 1 per routine",
              True, abs(inc[r][1] - csv[r]["incl_ns"]) <= len(routines))
for row in ("(outside)", "(excluded)"):
    check(f"callgrind_annotate: {row} Ir", csv[row]["self"], ex.get(row, (0, 0))[0])
names, fn, calls = {}, None, {}
for line in rd("cg").splitlines():
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line)
    if m:
        if m.group(3): names[m.group(2)] = m.group(3)
        if m.group(1) == "fn": fn = names[m.group(2)]
        else: callee = names[m.group(2)]
    m = re.match(r"calls=(\d+) ", line)
    if m: calls[callee] = calls.get(callee, 0) + int(m.group(1))
check("callgrind: calls= into each routine add up to csv calls",
      {r: csv[r]["calls"] for r in routines if csv[r]["calls"]}, calls)
# folded
def folded(n):
    per, tot = {}, 0
    for line in rd(n).splitlines():
        stack, cnt = line.rsplit(" ", 1)
        per[stack.split(";")[-1]] = per.get(stack.split(";")[-1], 0) + int(cnt)
        tot += int(cnt)
    return per, tot
per, tot = folded("fold.i")
check("folded (instructions): counts add up to the timed routines' self", sum_self, tot)
check("folded (instructions): leaf counts per routine = csv self",
      {r: csv[r]["self"] for r in routines if csv[r]["self"]}, per)
per, tot = folded("fold.ns")
check("folded (ns): leaf counts per routine = csv self ns", {r: csv[r]["self_ns"] for r in routines if csv[r]["self"]},
      per)
check("folded (ns): counts add up to the timed routines' self ns", sum(csv[r]["self_ns"] for r in routines), tot)
# speedscope: balanced, ordered events; the self weight of each frame
for n, unit, key in (("ss.i", "none", "self"), ("ss.ns", "nanoseconds", "self_ns")):
    s = json.loads(rd(n))
    frames = [f["name"] for f in s["shared"]["frames"]]
    selfw, inclw, ok, total = {}, {}, True, 0
    for p in s["profiles"]:
        stack, last = [], p["startValue"]
        ok &= p["type"] == "evented" and p["unit"] == unit
        for e in p["events"]:
            ok &= e["at"] >= last
            if stack:
                if e["at"] > last:
                    selfw[frames[stack[-1][0]]] = selfw.get(frames[stack[-1][0]], 0) + e["at"] - last
            last = e["at"]
            if e["type"] == "O": stack.append((e["frame"], e["at"]))
            else:
                top = stack.pop() if stack else (None, 0)
                ok &= top[0] == e["frame"]
                if all(f != top[0] for f, _ in stack):   # outermost: a recursion counts once
                    inclw[frames[top[0]]] = inclw.get(frames[top[0]], 0) + e["at"] - top[1]
        ok &= not stack and last <= p["endValue"]
        total += p["endValue"]
    check(f"speedscope {unit}: evented, ordered, balanced", True, ok)
    check(f"speedscope {unit}: endValue = the timed routines' self", sum(csv[r][key] for r in routines), total)
    check(f"speedscope {unit}: each frame's self weight = csv {key}",
          {r: csv[r][key] for r in routines if csv[r]["self"]}, selfw)
    ikey = "incl" if unit == "none" else "incl_ns"
    slack = 0 if unit == "none" else len(routines)   # ns: 1 per routine below, each rounded apart
    for r in routines:   # --exclude'd time does not advance the axis (speedscope.c)
        if csv[r]["incl"] and not csv["(excluded)"]["self"]:
            check(f"speedscope {unit}: {r} inclusive = csv {ikey} (within {slack})", True,
                  abs(inclw.get(r, 0) - csv[r][ikey]) <= slack)
print("\n".join(out))
EOF

# run DIR TRACE OPTS...: every format of one run into DIR, then agree.py
run() {
    local dir=$1 tr=$2; shift 2
    mkdir -p "$dir"
    local e=$dir/report.err
    fst-report --format=csv "$@" -o "$dir/csv" "$tr" 2> "$e" \
        && fst-report --format=json "$@" -o "$dir/json" "$tr" 2>> "$e" \
        && fst-report --format=callgrind "$@" -o "$dir/cg" "$tr" 2>> "$e" \
        && fst-report --format=folded --unit=instructions "$@" -o "$dir/fold.i" "$tr" 2>> "$e" \
        && fst-report --format=folded "$@" -o "$dir/fold.ns" "$tr" 2>> "$e" \
        && fst-report --format=speedscope --unit=instructions "$@" -o "$dir/ss.i" "$tr" 2>> "$e" \
        && fst-report --format=speedscope "$@" -o "$dir/ss.ns" "$tr" 2>> "$e" \
        || { fail "$dir: reports ($*)" "$(tail -3 "$e")"; return; }
    callgrind_annotate --auto=no --threshold=100 "$dir/cg" > "$dir/cg.excl" 2> "$dir/cg.err" \
        && callgrind_annotate --auto=no --threshold=100 --inclusive=yes "$dir/cg" > "$dir/cg.incl" 2>> "$dir/cg.err" \
        || { fail "$dir: callgrind_annotate reads the callgrind file" "$(head -3 "$dir/cg.err")"; return; }
    if [ -s "$dir/cg.err" ]; then fail "$dir: callgrind_annotate warns" "$(head -3 "$dir/cg.err")"; fi
    local res bad n
    res=$(python3 agree.py "$dir" 2>&1)
    bad=$(grep -v '^PASS|' <<< "$res")
    n=$(grep -c '^PASS|' <<< "$res")
    if [ -z "$bad" ]; then ok "$dir ($*): all formats agree with csv ($n checks)"
    else fail "$dir ($*): all formats agree with csv" "$(echo "$bad" | head -8)"; fi
}

for p in fortg forth untimed linkage bigloop; do
    fst-capture -q -o "$p.trace" "$FST_PROGS/$p.ins" || { fail "$p: capture"; continue; }
    "$NM" -P "$FST_PROGS/$p.elf" > "$p.nm"
    clocks="mips:0.001 model"
    [ $p = bigloop ] && clocks=model
    for clk in $clocks; do
        run "$p-all-$clk" "$p.trace" --timed=all --map="$p.nm" --clock=$clk
        run "$p-default-$clk" "$p.trace" --clock=$clk
    done
    # the construction (EXPECTED), through the real readers
    d=$p-all-model
    expect_eq "$p: callgrind_annotate self Ir = EXPECTED self" "$(facts $p self)" \
        "$(for r in $(facts $p self | cut -d' ' -f1); do
              echo "$r $(awk -v r="$r" '$0 ~ ":" r " \\[" { gsub(",", "", $1); print $1 }' $d/cg.excl)"; done)"
    expect_eq "$p: callgrind_annotate --inclusive=yes Ir = EXPECTED incl" "$(facts $p incl)" \
        "$(for r in $(facts $p incl | cut -d' ' -f1); do
              echo "$r $(awk -v r="$r" '$0 ~ ":" r " \\[" { gsub(",", "", $1); print $1 }' $d/cg.incl)"; done)"
    expect_eq "$p: callgrind_annotate PROGRAM TOTALS = EXPECTED instructions" \
        "$(awk -v p=$p '$1==p && $2=="instructions" {print $3}' "$EXPECTED")" \
        "$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' $d/cg.excl)"
    expect_eq "$p: folded leaf counts = EXPECTED self" "$(facts $p self)" \
        "$(awk '{ n = split($1, f, ";"); s[f[n]] += $2 } END { for (r in s) print r, s[r] }' $d/fold.i | sort)"
done

# recursion (linkage): one folded stack per level, RECUR's time once everywhere
expect_eq "linkage: folded stacks of the recursion, 5 levels" \
    "MAIN;RECUR MAIN;RECUR;RECUR MAIN;RECUR;RECUR;RECUR MAIN;RECUR;RECUR;RECUR;RECUR MAIN;RECUR;RECUR;RECUR;RECUR;RECUR" \
    "$(grep RECUR linkage-all-model/fold.i | cut -d' ' -f1 | xargs)"
expect_eq "linkage: callgrind's recursive calls carry no inclusive cost (counted once)" "calls=4 0x200B0|0" \
    "$(awk '/^calls=4 0x200B0/ { c = $1 " " $2; getline; print c "|" $3 }' linkage-all-model/cg)"   # positions: instr line
# untimed (seed 000, Figure 1): B and C are transparent by default
expect_eq "untimed default: folded stacks are A and A;D (B and C transparent)" "A 133
A;D 65" "$(cat untimed-default-model/fold.i)"
expect_eq "untimed default: callgrind calls A -> D 5x (from two sites: A's and C's)" "A D 1
A D 4" "$(awk '/^fn=/ { sub(/^fn=\([0-9]+\) ?/, ""); if ($0 != "") f = $0 }
               /^cfn=/ { sub(/^cfn=\([0-9]+\) ?/, ""); if ($0 != "") c = $0 }
               /^calls=/ { split($1, a, "="); print f, c, a[2] }' untimed-default-model/cg | sort)"
expect_eq "untimed --timed=all: folded A;B;C;D carries D's calls through C" "A 25
A;B 52
A;B;C 56
A;B;C;D 52
A;D 13" "$(cat untimed-all-model/fold.i)"

# STATIN (seed 000): only SUBA and the mainline timed; SUBB's calls of SUBA count as MAIN's
printf '  S U B A\n' > statin
[ -f fortg.trace ] && run fortg-statin fortg.trace --statin=statin --clock=model
expect_eq "fortg STATIN: folded stacks MAIN and MAIN;SUBA (SUBB transparent)" "MAIN 93
MAIN;SUBA 208" "$(cat fortg-statin/fold.i)"

# --exclude: the excluded routine's own time leaves every format alike
[ -f fortg.trace ] && run fortg-exclude fortg.trace --timed=all --map=fortg.nm --clock=model --exclude=SUBB
expect_eq "fortg --exclude=SUBB: callgrind's (excluded) = EXPECTED SUBB self" "42" \
    "$(awk '/:\(excluded\) \[/ { gsub(",", "", $1); print $1 }' fortg-exclude/cg.excl)"

# golden files at 1 ms per instruction (times = instructions / 1000 s = instructions x 1e6 ns)
for p in fortg forth untimed linkage; do
    [ -f $p.trace ] || continue
    fst-report --format=folded --timed=all --map=$p.nm --clock=mips:0.001 -o $p.folded $p.trace 2>/dev/null
    expect_golden "$p: folded" "$GOLDEN/folded/$p.folded" $p.folded
    fst-report --format=callgrind --timed=all --map=$p.nm --clock=mips:0.001 -o $p.callgrind $p.trace 2>/dev/null
    expect_golden "$p: callgrind" "$GOLDEN/callgrind/$p.callgrind" $p.callgrind
    # the trace header names the capture's absolute paths: left out of the comparison
    fst-report --format=json --timed=all --map=$p.nm --clock=mips:0.001 $p.trace 2>/dev/null \
        | grep -v '^    "header": ' > $p.json
    expect_golden "$p: json (without the trace header line)" "$GOLDEN/json/$p.json" $p.json
done
fst-report --format=folded --clock=mips:0.001 -o untimed.default.folded untimed.trace 2>/dev/null
expect_golden "untimed default timing: folded" "$GOLDEN/folded/untimed.default.folded" untimed.default.folded

# an empty profile (minimal: everything outside) still gives valid files
fst-capture -q -o minimal.trace "$FST_PROGS/minimal.ins"
fst-report --format=folded -o min.folded minimal.trace 2>/dev/null
expect_eq "minimal: folded is empty (nothing timed ran)" "0" "$(wc -c < min.folded)"
for f in json speedscope; do
    fst-report --format=$f -o min.$f minimal.trace 2>/dev/null
    expect_ok "minimal: $f parses" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' min.$f
done
fst-report --format=callgrind -o min.cg minimal.trace 2>/dev/null
expect_eq "minimal: callgrind_annotate totals = 23 instructions, all (outside)" "23 23" \
    "$(callgrind_annotate --auto=no min.cg 2>&1 | awk '/PROGRAM TOTALS|:\(outside\)/ { gsub(",", "", $1); printf "%s%s", s, $1; s = " " }')"

# bad input
expect_fail "folded --unit=bogus" 2 "--unit: 'bogus' is not instructions, ns or tod" \
    fst-report --format=folded --unit=bogus fortg.trace
expect_fail "callgrind --unit=instructions (Ir is always there)" 2 "--unit: 'instructions' is not ns or tod" \
    fst-report --format=callgrind --unit=instructions fortg.trace
expect_fail "speedscope --unit=tod (no such speedscope unit)" 2 "--unit: 'tod' is not instructions or ns" \
    fst-report --format=speedscope --unit=tod fortg.trace
for f in callgrind folded json speedscope; do
    expect_fail "$f: a write error names the file" 2 "/dev/full: cannot write" fst-report --format=$f -o /dev/full fortg.trace
done
