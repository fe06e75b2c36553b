/* fuzz_mutate.h — mutated inputs for the fuzz suite (test_fuzz.c), and C escaping.
 *
 * A mutation turns a valid input into a likely-invalid one the way fuzzers
 * do: bit flips, likely bytes replaced or inserted, deletions, truncation,
 * a splice with another valid input, huge and edge numbers over a digit run,
 * a token repeated many times, control characters and odd spacing, the text
 * twice, swapped bytes, a letter's case. Drawn from a seeded rng_t: the same
 * stream gives the same input. */
#ifndef HOYLE_TESTS_FUZZ_MUTATE_H
#define HOYLE_TESTS_FUZZ_MUTATE_H

#include <stddef.h>

#include "core/rng.h"

#define FUZZ_TEXT_MAX 6000 /* longest mutated input (past GAME_TEXT_MAX on purpose) */

/* A mutated copy of `base` (0 to 4 mutations; none in one case of eight) in
 * a new buffer of exactly its size, so ASan sees a read past its end; the
 * caller frees it. `other` is another valid input to splice in. *changed
 * says whether the result differs from `base`. */
char *fuzz_mutated(rng_t *rng, const char *base, const char *other, int *changed);

/* `s` as the body of a C string literal (\n, \t, \ooo for other control
 * and non-ASCII bytes), in a static buffer valid until the next call. */
const char *fuzz_escaped(const char *s);

/* Uniform in [0, n); 0 when n is 0. */
size_t fuzz_pick(rng_t *rng, size_t n);

#endif
