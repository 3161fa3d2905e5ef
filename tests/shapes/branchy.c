/* tests/shapes/branchy.c -- gcc -O2's shape for issue 33: branches on data (a pseudo-random
** LCG, so that no pattern repeats), calls, an insertion sort and a hash. ROUNDS rounds
** (-DROUNDS=N; tests/cprogs/build.sh with FST_CDEFS): each calls isort once, hash once and
** classify 16 times (the call counts its construction gives: tests/e2e/shapes.sh). About
** 2 000 instructions a round. */
#ifndef ROUNDS
#define ROUNDS 200000
#endif
static unsigned seed = 12345;
unsigned rnd(void);
unsigned rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
static int a[64];
void isort(int *v, int n);
__attribute__((noinline)) void isort(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
}
unsigned hash(const int *v, int n);
__attribute__((noinline)) unsigned hash(const int *v, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) {
        h ^= (unsigned)v[i];
        h *= 16777619u;
        if (h & 1) h ^= h >> 7; else h += 3;
    }
    return h;
}
int classify(unsigned x);
__attribute__((noinline)) int classify(unsigned x)
{
    if (x % 3 == 0) return 1;
    if (x % 5 == 0) return 2;
    if ((x & 0xFF) > 200) return 3;
    return 0;
}
int main(void);
int main(void)
{
    unsigned acc = 0;
    for (int r = 0; r < ROUNDS; r++) {
        int n = 8 + (int)(rnd() % 24);
        for (int i = 0; i < n; i++) a[i] = (int)(rnd() % 1000);
        isort(a, n);
        acc += hash(a, n);
        for (int i = 0; i < 16; i++)
            switch (classify(rnd())) { case 1: acc += 3; break; case 2: acc ^= 5; break; case 3: acc -= 1; break; default: acc++; }
    }
    return (int)(acc & 0x7F);
}
