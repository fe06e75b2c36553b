/* models.h — shipped models found by name: `td(model=backgammon)`,
 * `alphabeta(eval=checkers)`, `az(model=NAME)` name a file of the models/ folder
 * (models/README.md) by its stem. The one lookup every agent with a model file
 * uses, and the listing `hoyle serve` offers. */
#ifndef HOYLE_CORE_MODELS_H
#define HOYLE_CORE_MODELS_H

#include <stdbool.h>
#include <stddef.h>

enum { MODEL_NAME_MAX = 64 }; /* a shipped model's name, its terminating NUL included */

/* Whether `value` is a model name, not a path: letters, digits, '_' and '-' only
 * (no '/', no '.'), 1 to MODEL_NAME_MAX - 1 bytes. */
bool model_is_name(const char *value);

/* The file `value` names, into path (cap bytes): `value` itself when that file exists;
 * else, for a name (model_is_name), the first of $HOYLE_MODELS/NAME.EXT,
 * ./models/NAME.EXT, the models/ folder of the checkout holding the running program
 * (CHECKOUT/build/apps/hoyle) and that of the checkout it was built from. `ext` is the
 * model kind's file extension without the dot ("td", "eval", "pt"); `who` prefixes the
 * messages ("td"). HOYLE_EINVAL with a one-line message when there is none. */
int model_find(const char *value, const char *ext, const char *who, char *path, size_t cap);

/* The shipped models with extension `ext`: calls fn(name, path, ctx) once per name, in
 * model_find's order of folders (a name found in an earlier folder hides later ones) and
 * by name within a folder. Returns how many, or the first nonzero value fn returns. */
int models_each(const char *ext, int (*fn)(const char *name, const char *path, void *ctx),
                void *ctx);

#endif
