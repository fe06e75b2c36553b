/* rng.h — the one PRNG every random choice in hoyle goes through.
 *
 * xoshiro256** (Blackman & Vigna 2018), seeded through splitmix64 so that any
 * 64-bit seed, including 0, gives a well-mixed state. The state is a plain
 * struct passed explicitly: no globals, no rand(). Same seed, same stream,
 * on every platform. */
#ifndef HOYLE_CORE_RNG_H
#define HOYLE_CORE_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* Seed the generator (caller storage; no rng_done needed). */
void rng_init(rng_t *r, uint64_t seed);

/* Next 64 random bits. */
uint64_t rng_next(rng_t *r);

/* Uniform integer in [0, n); n > 0. Unbiased (Lemire's multiply-and-reject). */
uint32_t rng_below(rng_t *r, uint32_t n);

/* Uniform double in [0, 1) with 53 random bits. */
double rng_double(rng_t *r);

/* Gamma(alpha, 1) variate (Marsaglia & Tsang 2000), for Dirichlet noise. */
double rng_gamma(rng_t *r, double alpha);

/* One splitmix64 step: a cheap 64-bit mixer, also used to derive child seeds
 * (e.g. one per game of a match) from a parent seed. */
uint64_t rng_mix(uint64_t x);

#endif
