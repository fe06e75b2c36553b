/* rng.c — xoshiro256** with splitmix64 seeding (see rng.h). */
#include "core/rng.h"

#include <math.h>

/* splitmix64's output function (Steele, Lea, Flood 2014): a bijection with
 * full avalanche, so nearby inputs (seed, seed + 1, game indices) give
 * unrelated outputs. */
uint64_t rng_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Seeds the four words from a splitmix64 sequence, as the xoshiro authors
 * recommend: the state can never be all zero, which xoshiro must avoid. */
void rng_init(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed += 0x9e3779b97f4a7c15ULL;
        r->s[i] = rng_mix(seed);
    }
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** 1.0 (Blackman, Vigna 2018), word for word: the sequence for a
 * seed is part of every seeded golden output, so it must never change. */
uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Lemire's nearly divisionless method (2019): the high half of a 32x32
 * multiply is the result; draws whose low half falls below 2^32 mod n are
 * rejected, so every value in [0, n) is exactly equally likely. The modulo
 * runs only on the rare low < n path. n must be > 0. */
uint32_t rng_below(rng_t *r, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* The top 53 bits scaled by 2^-53: uniform in [0, 1), every value exactly
 * representable. */
double rng_double(rng_t *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

static double rng_normal(rng_t *r)
{
    /* Box-Muller; one of the pair is discarded to keep the state a plain struct. */
    double u1 = rng_double(r), u2 = rng_double(r);
    /* log(0) would be -inf: clamp the one 0.0 in 2^53 draws */
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double rng_gamma(rng_t *r, double alpha)
{
    if (alpha < 1.0) {
        /* Boost: Gamma(a) = Gamma(a+1) * U^(1/a). */
        double u = rng_double(r);
        return rng_gamma(r, alpha + 1.0) * pow(u < 1e-300 ? 1e-300 : u, 1.0 / alpha);
    }
    /* Marsaglia and Tsang (2000), "A simple method for generating gamma
     * variables": d = a - 1/3, c = 1/sqrt(9d), accept d*v for v = (1 + c*x)^3
     * with the squeeze test first and the exact log test second. */
    double d = alpha - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = rng_normal(r), v = 1.0 + c * x;
        if (v <= 0) continue;
        v = v * v * v;
        double u = rng_double(r);
        if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
        if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v))) return d * v;
    }
}
