/* bench.c — every exact solver's items of `hoyle bench`, in one list (bench.h). */
#include "solve/bench.h"

int solve_bench(solve_bench_item_t out[SOLVE_BENCH_ITEMS])
{
    int status = fifteen_bench(out);
    return status ? status : solitaire_bench(out + FIFTEEN_BENCH_ITEMS);
}
