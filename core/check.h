/* check.h — always-on invariant checks (tier two of STYLE.md point 6).
 *
 * `assert` guards hot-path programmer errors and vanishes in Release builds;
 * CHECK_* stay on, print both expressions and their values, and abort. Use
 * them for invariants whose failure means a bug in hoyle, never for user
 * input (user input gets a status + message, see error.h). */
#ifndef HOYLE_CORE_CHECK_H
#define HOYLE_CORE_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#define CHECK_OP_(a, op, b)                                                                        \
    do {                                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                            \
        if (!(check_a_ op check_b_)) {                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s %s %s (%lld vs %lld)\n", __FILE__, __LINE__,  \
                    #a, #op, #b, check_a_, check_b_);                                              \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b) CHECK_OP_(a, ==, b)
#define CHECK_NE(a, b) CHECK_OP_(a, !=, b)
#define CHECK_LT(a, b) CHECK_OP_(a, <, b)
#define CHECK_LE(a, b) CHECK_OP_(a, <=, b)
#define CHECK_GE(a, b) CHECK_OP_(a, >=, b)

#endif
