/* json.h — the one JSON writer of hoyle: the subcommands' --json output and the replies of
 * `hoyle serve` (serve/). Every
 * string goes through the escaper (json_escape), commas are placed by the
 * writer, numbers take a printf format so outputs stay byte-identical.
 *
 *     json_t j;
 *     json_begin(&j, stdout);          // {
 *     json_str(&j, "game", g->spec);   // "game":"gobang"
 *     json_num(&j, "score", "%.4f", s);
 *     json_open(&j, "moves", '[');     // "moves":[
 *     json_str(&j, NULL, "a1");        // array elements have no key
 *     json_close(&j);                  // ]
 *     json_end(&j);                    // }\n
 * Nesting is at most JSON_MAX_DEPTH levels. */
#ifndef HOYLE_CORE_JSON_H
#define HOYLE_CORE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

typedef struct json {
    FILE *out;
    int depth;                  /* open containers */
    bool first[JSON_MAX_DEPTH]; /* no member written yet at this level */
    char close[JSON_MAX_DEPTH]; /* '}' or ']' */
} json_t;

/* Write `s` as a JSON string literal: quotes, backslashes and control
 * characters escaped (NULL writes ""). */
void json_escape(FILE *out, const char *s);

void json_begin(json_t *j, FILE *out); /* "{" */
void json_end(json_t *j);              /* close what is open, "}\n" */
/* A document whose top level is an array: "[" (json_end closes it, "]\n"). */
void json_begin_array(json_t *j, FILE *out);

/* Members: `key` NULL inside an array. */
void json_open(json_t *j, const char *key, char bracket); /* '{' or '[' */
void json_close(json_t *j);
void json_str(json_t *j, const char *key, const char *s);
void json_int(json_t *j, const char *key, long long v);
void json_u64(json_t *j, const char *key, uint64_t v);
void json_bool(json_t *j, const char *key, bool v);
/* `fmt` formats one double ("%.4f", "%g"); a non-finite value is null. */
void json_num(json_t *j, const char *key, const char *fmt, double v);

#endif
