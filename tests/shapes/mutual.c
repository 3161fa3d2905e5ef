/* tests/shapes/mutual.c -- calls whose whole subtrees repeat in different contexts, for the
** replay's memoized calls (analyze/replay/replay_memo.c): walk(n) calls walk(n-1) and
** odd(n-1), odd(n) calls walk(n-1) (mutual recursion: which routines are open below a call
** differs from call to call); main calls walk(DEPTH) itself and through via(), ROUNDS times
** (a second caller: the arcs open below differ). -DROUNDS=N -DDEPTH=N (tests/cprogs/build.sh
** with FST_CDEFS). Calls, by construction: walk(n) makes w(n) calls of walk and v(n) of odd,
** odd(n) makes u(n) of walk and q(n) of odd, all counting themselves:
**   w(0) = 1, w(n) = 1 + w(n-1) + u(n-1);  u(0) = 0, u(n) = w(n-1)
**   v(0) = 0, v(n) = v(n-1) + q(n-1);      q(0) = 1, q(n) = 1 + v(n-1)
** a round: 2 w(DEPTH) of walk, 2 v(DEPTH) of odd, 1 of via (tests/e2e/memo.sh). */
#ifndef ROUNDS
#define ROUNDS 6
#endif
#ifndef DEPTH
#define DEPTH 12
#endif
unsigned walk(unsigned n);
unsigned odd(unsigned n);
unsigned via(unsigned n);
__attribute__((noinline)) unsigned walk(unsigned n)
{
    return n == 0 ? 1 : walk(n - 1) + odd(n - 1);
}
__attribute__((noinline)) unsigned odd(unsigned n)
{
    return n == 0 ? 2 : walk(n - 1) * 3;
}
__attribute__((noinline)) unsigned via(unsigned n)
{
    return walk(n) + 1;
}
int main(void);
int main(void)
{
    unsigned acc = 0;
    for (int r = 0; r < ROUNDS; r++)
        acc += walk(DEPTH) + via(DEPTH);
    return (int)(acc & 0x7F);
}
