/* record.c — end-reason names, validation and freeing of game records. */
#include "data/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The labels of the HDF5 enum in the record files' `end` column, in
 * record_end_t order: renaming one breaks files already written. */
static const char *const end_names[RECORD_END_COUNT] = {"rules", "move_limit", "resign", "error"};

const char *record_end_name(record_end_t end)
{
    if ((int)end < 0 || end >= RECORD_END_COUNT) return "?";
    return end_names[end];
}

int record_end_from_name(const char *name, record_end_t *out)
{
    for (int i = 0; i < RECORD_END_COUNT; i++) {
        if (name && strcmp(name, end_names[i]) == 0) {
            *out = (record_end_t)i;
            return HOYLE_OK;
        }
    }
    return hoyle_error(HOYLE_EINVAL,
                       "record: unknown end reason '%s' (known: rules, move_limit, "
                       "resign, error)",
                       name ? name : "(null)");
}

/* The checks a writer runs before a record reaches a file, so that a bad row
 * is an error at the source rather than a file that readers reject later. The
 * negated comparisons also refuse NaN. */
int record_validate(const game_record_t *r)
{
    if (r->game_spec == NULL || r->game_spec[0] == '\0')
        return hoyle_error(HOYLE_EINVAL, "record: game_spec is empty");
    if (r->num_actions < 0 || (r->num_actions > 0 && r->actions == NULL))
        return hoyle_error(HOYLE_EINVAL, "record: num_actions is %d but actions is %s",
                           (int)r->num_actions, r->actions ? "set" : "NULL");
    if (r->opening_len < 0 || (r->opening_len > 0 && r->opening_actions == NULL))
        return hoyle_error(HOYLE_EINVAL, "record: opening_len is %d but opening_actions is %s",
                           (int)r->opening_len, r->opening_actions ? "set" : "NULL");
    if (!(r->result >= 0.0 && r->result <= 1.0))
        return hoyle_error(HOYLE_EINVAL, "record: result %g is not in [0, 1]", r->result);
    for (int p = 0; p < RECORD_MAX_PLAYERS; p++)
        if (!(r->returns[p] >= -1.0 && r->returns[p] <= 1.0))
            return hoyle_error(HOYLE_EINVAL, "record: returns[%d] = %g is not in [-1, 1]", p,
                               r->returns[p]);
    if ((int)r->end < 0 || r->end >= RECORD_END_COUNT)
        return hoyle_error(HOYLE_EINVAL, "record: end reason %d is out of range", (int)r->end);
    if (r->action_ms)
        for (int32_t i = 0; i < r->num_actions; i++)
            if (!isfinite(r->action_ms[i]))
                return hoyle_error(HOYLE_EINVAL, "record: action_ms[%d] is not finite", (int)i);
    return HOYLE_OK;
}

/* Frees the owned strings and arrays and zeroes the record, so a second free
 * or a reuse of the struct starts from empty. */
void game_record_free(game_record_t *r)
{
    if (r == NULL) return;
    free(r->game_spec);
    for (int p = 0; p < RECORD_MAX_PLAYERS; p++) free(r->agent_spec[p]);
    free(r->opening_name);
    free(r->opening_actions);
    free(r->actions);
    free(r->action_ms);
    memset(r, 0, sizeof *r);
}
