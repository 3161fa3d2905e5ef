/* recur.c -- recursion whose loops branch to the return address of the recursive call
** (issue 11: a jump to a label that follows a recursive call is no return).
**
** tree(d): a loop of WIDTH passes; at d > 0 each pass calls tree(d - 1), at d == 0 each
**   pass `continue`s: a branch to the loop's increment, which gcc puts right after the
**   call (at -O2 the BRCT is the call's return address; at -O0 it is 4 bytes after).
**   A leaf thus branches, WIDTH times, to the return address of its own frame and of
**   every tree frame under it.
** walk(d): a loop that leaves early: `goto out` at d == 0 (a leaf) and after 2 passes;
**   each pass before calls walk(d - 1). At -O2 gcc unrolls the two passes and `out`
**   is the return address of the second call: the leaf's test branches there.
**
** Calls, from the construction (tree(TREE_DEPTH) and walk(WALK_DEPTH) called once from
** main): tree has WIDTH^(k-1) activations at depth k = 1..TREE_DEPTH+1 below main,
** walk 2^(k-1) at depth k = 1..WALK_DEPTH+1:
**   tree  1 + 3 + 9 + 27 + 81       = 121 calls (main->tree 1, tree->tree 120)
**   walk  1 + 2 + 4 + 8 + 16 + 32   =  63 calls (main->walk 1, walk->walk 62)
** Deepest stack: main and 6 walk frames (7). tests/cprogs/EXPECTED has every stack. */
#define NOIPA __attribute__((noinline, noipa))
#define WIDTH 3
#define TREE_DEPTH 4
#define WALK_DEPTH 5

volatile int sink;

NOIPA void tree(int d)
{
    for (int i = 0; i < WIDTH; i++) {
        sink = sink + 1;
        if (d == 0)
            continue;
        tree(d - 1);
    }
}

NOIPA int walk(int d)
{
    for (int i = 0; i < 4; i++) {
        if (d == 0)
            goto out;
        if (i == 2)
            goto out;
        sink = i;
        walk(d - 1);
    }
out:
    return d;
}

int main(void)
{
    tree(TREE_DEPTH);
    walk(WALK_DEPTH);
    return 0;
}
