/* callheavy.c -- a call-heavy loop nest: row(i) calls leaf(i, j) for every column j
** except j == i (a `continue`: a branch to the loop's increment, right after the call);
** main calls row(i) for every row and leaf(i, i) for the odd rows.
**   row   ROWS = 40 calls (main->row 40)
**   leaf  from row: COLS - 1 = 31 for the rows i < COLS (32 of them), COLS = 32 for the
**         8 others: 32 x 31 + 8 x 32 = 1248; from main: 20 (odd i); 1268 calls
** Deepest stack: main;row;leaf (3). */
#define NOIPA __attribute__((noinline, noipa))
#define ROWS 40
#define COLS 32

volatile int sink;

NOIPA int leaf(int i, int j)
{
    return (i * 7 + j) & 15;
}

NOIPA int row(int i)
{
    int s = 0;
    for (int j = 0; j < COLS; j++) {
        if (j == i)
            continue;
        s += leaf(i, j);
    }
    return s;
}

int main(void)
{
    int acc = 0;
    for (int i = 0; i < ROWS; i++) {
        acc += row(i);
        if (i & 1)
            acc += leaf(i, i);
    }
    sink = acc;
    return 0;
}
