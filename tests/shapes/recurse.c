/* tests/shapes/recurse.c -- deep recursion for issue 33: fib(N) by its definition, ROUNDS
** times (-DROUNDS=N, -DDEPTH=N; tests/cprogs/build.sh with FST_CDEFS). fib(n) makes
** 2 fib(n+1) - 1 calls of fib: the counts tests/e2e/shapes.sh checks; the stack is N deep. */
#ifndef ROUNDS
#define ROUNDS 40
#endif
#ifndef DEPTH
#define DEPTH 25
#endif
unsigned fib(unsigned n);
__attribute__((noinline)) unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
int main(void);
int main(void)
{
    unsigned acc = 0;
    for (int r = 0; r < ROUNDS; r++)
        acc += fib(DEPTH);
    return (int)(acc & 0x7F);
}
