/* loop_resume.c — what a training run is, and resuming it (loop_internal.h): the effective
 * config, every key of the loop's schema with the value the run uses, as "key=value" lines
 * printed from the rows; and the resume check, which compares the lines of the stored
 * config.yaml with this run's and lets through only the keys whose rows say `may_change`.
 * Invariant: a refused resume writes nothing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "data/config.h"
#include "train/loop_internal.h"

/* The lines both loops write the same way: game (the canonical spec), eval.anchors and
 * eval.sprt (loop_eval_effective). 1 = written, 0 = not one of them, negative = error. */
static int common_line(const loop_effective_t *e, const char *key, loop_log_t *out)
{
    if (strcmp(key, "game") == 0) {
        int status = loop_log_add(out, "game=%s\n", e->game);
        return status ? status : 1;
    }
    if (e->eval == NULL || strncmp(key, "eval.", 5) != 0) return 0;
    bool anchors = strcmp(key, "eval.anchors") == 0;
    if (!anchors && strcmp(key, "eval.sprt") != 0) return 0;
    char list[LOOP_EVAL_MAX_ANCHORS * GAME_SPEC_MAX], sprt[128];
    loop_eval_effective(e->eval, list, sizeof list, sprt, sizeof sprt);
    int status = loop_log_add(out, "%s=", key);
    if (!status) status = loop_log_add(out, "%s", anchors ? list : sprt);
    if (!status) status = loop_log_add(out, "\n");
    return status ? status : 1;
}

/* The lines of `rows` (keys under `prefix`, landings at run + base), depth first. */
static int rows_lines(const loop_effective_t *e, const param_def_t *rows, const char *prefix,
                      size_t base, loop_log_t *out)
{
    for (const param_def_t *d = rows; d && d->key; d++) {
        char key[128], text[2048];
        snprintf(key, sizeof key, "%s%s", prefix, d->key);
        int done = e->special ? e->special(e->run, key, out) : 0;
        if (done == 0) done = common_line(e, key, out);
        if (done < 0) return done;
        if (done) continue;
        if (d->type == PARAM_SECTION) {
            char sub[sizeof key + 1];
            snprintf(sub, sizeof sub, "%s.", key);
            int status = rows_lines(e, d->fields, sub, base + d->at, out);
            if (status) return status;
            continue;
        }
        /* a list or a map has no one value: its loop writes it (e->special) */
        CHECK(d->type <= PARAM_STRING);
        if (d->size > 0) {
            int n = param_text(d, (const char *)e->run + base, text, sizeof text);
            if (n < 0) return n;
        } else { /* read by name */
            snprintf(text, sizeof text, "%s", config_string(e->cfg, key, d->def ? d->def : ""));
        }
        /* a key added after runs were made is left out at its default: their lines stay */
        if (d->quiet && param_is_default(d, text)) continue;
        int status = loop_log_add(out, "%s=%s\n", key, text);
        if (status) return status;
    }
    return HOYLE_OK;
}

int loop_effective_lines(const loop_effective_t *e, char **out)
{
    loop_log_t lines;
    memset(&lines, 0, sizeof lines);
    int status = rows_lines(e, e->schema, "", 0, &lines);
    if (!status && lines.text == NULL) status = loop_log_add(&lines, "%s", "");
    if (status) {
        loop_log_done(&lines);
        return hoyle_error_prefix(status, "train: the effective config");
    }
    *out = lines.text; /* the caller frees */
    return HOYLE_OK;
}

/* ---- resuming with a changed config ---- */

/* The next "key=value" line of *p: key and value as (pointer, length); *p moves past it. */
static int next_line(const char **p, const char **key, int *klen, const char **val, int *vlen)
{
    if (**p == '\0') return 0;
    const char *nl = strchr(*p, '\n'), *end = nl ? nl : *p + strlen(*p);
    const char *eq = memchr(*p, '=', (size_t)(end - *p));
    if (eq == NULL) eq = end;
    *key = *p;
    *klen = (int)(eq - *p);
    *val = eq < end ? eq + 1 : end;
    *vlen = (int)(end - *val);
    *p = nl ? nl + 1 : end;
    return 1;
}

/* Whether a resumed run may change key (klen bytes): its row says so. */
static bool may_change(const loop_effective_t *e, const char *key, int klen)
{
    char k[128];
    snprintf(k, sizeof k, "%.*s", klen, key);
    const param_def_t *d = config_row(e->schema, k);
    for (const param_def_t *x = e->extra; d == NULL && x && x->key; x++)
        if (strcmp(x->key, k) == 0) d = x;
    return d && d->may_change;
}

/* A CSV field: quoted (quotes doubled) when it holds a comma, a quote or a newline. */
static int csv_field(loop_log_t *log, const char *v, int n)
{
    if (strcspn(v, ",\"\n") >= (size_t)n) return loop_log_add(log, "%.*s", n, v);
    int status = loop_log_add(log, "\"");
    for (int i = 0; i < n && !status; i++)
        status = loop_log_add(log, v[i] == '"' ? "\"\"" : "%c", v[i]);
    return status ? status : loop_log_add(log, "\"");
}

/* loop_resume_check over the lines: `was` and `now` have the same keys in the same order. */
static int compare_lines(const loop_effective_t *e, const char *dir, int64_t generation,
                         const char *was, const char *now, const char *config_text)
{
    char refused[HOYLE_ERROR_MAX] = "", path[1300];
    size_t used = 0;
    int changed = 0;
    const char *a = was, *b = now, *ka, *kb, *va, *vb;
    int kla, klb, vla, vlb;
    /* 1. compare key by key; collect what may not change */
    for (;;) {
        int more = next_line(&a, &ka, &kla, &va, &vla);
        if (more != next_line(&b, &kb, &klb, &vb, &vlb))
            return hoyle_error(HOYLE_EINVAL, "'%s': the stored config has other keys", dir);
        if (!more) break;
        if (kla != klb || strncmp(ka, kb, (size_t)kla) != 0)
            return hoyle_error(HOYLE_EINVAL, "'%s': the stored config has other keys", dir);
        if (vla == vlb && strncmp(va, vb, (size_t)vla) == 0) continue;
        changed++;
        if (!may_change(e, ka, kla) && used < sizeof refused)
            used += (size_t)snprintf(refused + used, sizeof refused - used,
                                     "%skey '%.*s' was '%.*s' (config.yaml), now '%.*s'",
                                     used ? "; " : "", kla, ka, vla, va, vlb, vb);
    }
    if (used)
        return hoyle_error(HOYLE_EINVAL,
                           "'%s': cannot resume with a changed config: %s (a resumed run may "
                           "change only name, output, train.generations, train.minutes, "
                           "train.threads, eval.every, eval.games, the optimiser's "
                           "hyper-parameters, retention, train.init_from)",
                           dir, refused);
    if (changed == 0) return HOYLE_OK;
    /* 2. record the changes, then the new config (a kill in between logs a change twice,
     * never loses one) */
    loop_log_t log;
    snprintf(path, sizeof path, "%s/resume.csv", dir);
    int status = loop_log_open(&log, path, "generation,key,old,new\n", INT64_MAX);
    a = was;
    b = now;
    while (!status && next_line(&a, &ka, &kla, &va, &vla) && next_line(&b, &kb, &klb, &vb, &vlb)) {
        if (vla == vlb && strncmp(va, vb, (size_t)vla) == 0) continue;
        status = loop_log_add(&log, "%" PRId64 ",%.*s,", generation, kla, ka);
        if (!status) status = csv_field(&log, va, vla);
        if (!status) status = loop_log_add(&log, ",");
        if (!status) status = csv_field(&log, vb, vlb);
        if (!status) status = loop_log_add(&log, "\n");
    }
    if (!status) status = loop_log_save(&log);
    loop_log_done(&log);
    snprintf(path, sizeof path, "%s/config.yaml", dir);
    if (!status) status = loop_write_atomic(path, config_text, strlen(config_text));
    return status;
}

int loop_resume_check(const loop_effective_t *was, const loop_effective_t *now, const char *dir,
                      int64_t generation, const char *config_text)
{
    char *a = NULL, *b = NULL;
    int status = loop_effective_lines(was, &a);
    if (!status) status = loop_effective_lines(now, &b);
    if (!status) status = compare_lines(now, dir, generation, a, b, config_text);
    free(a);
    free(b);
    return status;
}
