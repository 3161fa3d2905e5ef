/* mutual.c -- mutual recursion: ping calls pong calls ping ..., each twice.
**
** ping(n): at n > 0, two passes each calling pong(n - 1), then `goto out` (the third
**   pass); at n == 0 `goto out` at once. At -O2 gcc unrolls the passes and `out` is the
**   return address of the second call to pong: ping(0) branches there, to the return
**   address of the pong frame under it (an older frame: an UNWIND under the old rule).
** pong(n): two passes, each calling ping(n - 1) at n > 0 and `continue`-ing at n == 0.
**
** main calls ping(8): the activations at depth k = 1..9 below main are 2^(k-1), ping at
** odd k (n = 8, 6, 4, 2, 0), pong at even k (n = 7, 5, 3, 1):
**   ping  1 + 4 + 16 + 64 + 256 = 341 calls (main->ping 1, pong->ping 340)
**   pong  2 + 8 + 32 + 128      = 170 calls (ping->pong 170)
** Deepest stack: main and 9 frames, ping and pong alternating (10). */
#define NOIPA __attribute__((noinline, noipa))

volatile int sink;

NOIPA int pong(int n);

NOIPA int ping(int n)
{
    for (int i = 0; i < 4; i++) {
        if (n == 0)
            goto out;
        if (i == 2)
            goto out;
        sink = i;
        pong(n - 1);
    }
out:
    return n;
}

NOIPA int pong(int n)
{
    for (int i = 0; i < 2; i++) {
        sink = sink + 1;
        if (n == 0)
            continue;
        ping(n - 1);
    }
    return n;
}

int main(void)
{
    ping(8);
    return 0;
}
