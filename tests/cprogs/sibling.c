/* sibling.c -- sibling (tail) calls: at -O2 gcc makes `return f(x);` a branch without
** link to f's entry (`jg f` on s390x, `jmp f` on x86-64); at -O0 it is a call.
**
** step_a(n): at n > 0 tail-calls step_b(n - 1), at n <= 0 tail-calls finish(n).
** step_b(n): tail-calls step_a(n - 1).
** finish(n): calls tally(n) (a real call: its result is stored before finish returns).
** main calls step_a(6) ROUNDS = 5 times; each round: step_a(6) step_b(5) step_a(4) step_b(3)
** step_a(2) step_b(1) step_a(0) finish(0) tally(0).
**
** As calls (-O0; -O2 with fst-report --tail-calls; what callgrind reports for both):
**   step_a 4 x 5 = 20 (main->step_a 5, step_b->step_a 15), step_b 15 (step_a->step_b 15),
**   finish 5 (step_a->finish 5), tally 5 (finish->tally 5).
** Stacks: -O0 nests them (main;step_a;step_b;...;step_a;finish;tally: 10 frames); with
** --tail-calls a sibling call replaces the frame (main;step_a, main;step_b, main;finish,
** main;finish;tally: 3 frames). -O2 without --tail-calls (DESIGN 3.2: a branch without
** link is no call): step_a 5 calls (from main) and tally 5 (from step_a: finish's
** instructions are step_a's); step_b and finish 0. */
#define NOIPA __attribute__((noinline, noipa))
#define ROUNDS 5

volatile int sink;

NOIPA int tally(int n)
{
    sink = sink + n;
    return n * 3;
}

NOIPA int finish(int n)
{
    int t = tally(n);
    sink = t;
    return n + 1;
}

NOIPA int step_b(int n);

NOIPA int step_a(int n)
{
    sink = sink + 1;
    if (n <= 0)
        return finish(n);
    return step_b(n - 1);
}

NOIPA int step_b(int n)
{
    sink = sink - 1;
    return step_a(n - 1);
}

int main(void)
{
    for (int k = 0; k < ROUNDS; k++)
        step_a(6);
    return 0;
}
