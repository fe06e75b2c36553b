/* test_fifteen.c — placeholder */
#include "tests/harness.h"
int main(void)
{
    static const harness_test_t tests[] = {{NULL, NULL}};
    return harness_run("fifteen", tests);
}
