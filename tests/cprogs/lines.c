/* lines.c -- source lines with exact counts (issue 34, tests/e2e/lines.sh): loops, a
** function gcc inlines at every -O (always_inline: its line's code sits inside sumsq's),
** and a sibling call at -O2 (twice's `return sumsq(n)` becomes `jg sumsq`).
**
** main calls twice(N) ROUNDS = 10 times; twice calls sumsq(N); sumsq runs its loop body
** N = 100 times a call: the body line runs ROUNDS * N = 1000 times, sumsq's loop test
** ROUNDS * (N + 1) = 1010 times, and main's loop body ROUNDS = 10 times. At -O0 every
** statement's code is its own, so the EXEC line facts in tests/cprogs/LINES hold; at -O2
** gcc moves and merges code, and only the line table says which line owns what. */
#define NOIPA __attribute__((noinline, noipa))
#define N 100
#define ROUNDS 10

volatile int sink;

static inline __attribute__((always_inline)) int sq(int x)
{
    return x * x + 1;
}

NOIPA int sumsq(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += sq(i);
    return s;
}

NOIPA int twice(int n)
{
    sink = sink + n;
    return sumsq(n);
}

int main(void)
{
    for (int k = 0; k < ROUNDS; k++)
        sink = twice(N);
    return 0;
}
