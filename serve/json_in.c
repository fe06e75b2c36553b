/* json_in.c — request bodies read with cJSON (Debian's libcjson): an object, its typed fields,
 * each checked and named in the message of a bad one. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "serve/serve_internal.h"

int jin_parse(const char *body, size_t len, int empty_ok, cJSON **out)
{
    *out = NULL;
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", body[i])) i++;
    if (i == len) {
        if (!empty_ok) return hoyle_error(HOYLE_EINVAL, "the request needs a JSON body");
        *out = cJSON_CreateObject();
        return *out ? 0 : hoyle_error(HOYLE_ENOMEM, "out of memory");
    }
    if (memchr(body, '\0', len)) return hoyle_error(HOYLE_EINVAL, "malformed JSON: a NUL byte");
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(body, len, &end, 0);
    if (o == NULL) {
        long at = end ? (long)(end - body) : 0;
        return hoyle_error(HOYLE_EINVAL, "malformed JSON near byte %ld", at);
    }
    for (const char *p = end; p && p < body + len; p++)
        if (!strchr(" \t\r\n", *p)) {
            cJSON_Delete(o);
            return hoyle_error(HOYLE_EINVAL, "malformed JSON: text after the object");
        }
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return hoyle_error(HOYLE_EINVAL, "the body must be a JSON object");
    }
    *out = o;
    return 0;
}

int jin_string(const cJSON *o, const char *key, int required, size_t max_len, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL || cJSON_IsNull(v))
        return required ? hoyle_error(HOYLE_EINVAL, "missing field '%s'", key) : 1;
    if (!cJSON_IsString(v) || v->valuestring == NULL)
        return hoyle_error(HOYLE_EINVAL, "field '%s' must be a string", key);
    if (strlen(v->valuestring) > max_len)
        return hoyle_error(HOYLE_EINVAL, "field '%s' is longer than %zu bytes", key, max_len);
    *out = v->valuestring;
    return 0;
}

int jin_int(const cJSON *o, const char *key, int required, long long min, long long max,
            long long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL || cJSON_IsNull(v))
        return required ? hoyle_error(HOYLE_EINVAL, "missing field '%s'", key) : 1;
    double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!isfinite(d) || d != floor(d))
        return hoyle_error(HOYLE_EINVAL, "field '%s' must be an integer", key);
    if (d < (double)min || d > (double)max)
        return hoyle_error(HOYLE_EINVAL, "field '%s': %.0f is out of range [%lld, %lld]", key, d,
                           min, max);
    *out = (long long)d;
    return 0;
}

int jin_strings(const cJSON *o, const char *key, int min_n, int max_n, size_t max_len,
                const char **out, int *n)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL) return hoyle_error(HOYLE_EINVAL, "missing field '%s'", key);
    if (!cJSON_IsArray(v)) return hoyle_error(HOYLE_EINVAL, "field '%s' must be an array", key);
    int count = cJSON_GetArraySize(v);
    if (count < min_n || count > max_n) {
        if (min_n == max_n)
            return hoyle_error(HOYLE_EINVAL, "field '%s' needs %d entries, not %d", key, min_n,
                               count);
        return hoyle_error(HOYLE_EINVAL, "field '%s' needs %d to %d entries, not %d", key, min_n,
                           max_n, count);
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsString(e) || e->valuestring == NULL)
            return hoyle_error(HOYLE_EINVAL, "field '%s'[%d] must be a string", key, i);
        if (strlen(e->valuestring) > max_len)
            return hoyle_error(HOYLE_EINVAL, "field '%s'[%d] is longer than %zu bytes", key, i,
                               max_len);
        out[i++] = e->valuestring;
    }
    *n = i;
    return 0;
}

int jin_known(const cJSON *o, const char *const *known)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, o)
    {
        int found = 0;
        for (int i = 0; known[i] && !found; i++)
            found = e->string && strcmp(e->string, known[i]) == 0;
        if (!found)
            return hoyle_error(HOYLE_EINVAL, "unknown field '%s'", e->string ? e->string : "");
    }
    return 0;
}
