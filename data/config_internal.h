/* config_internal.h — what config.c, config_bind.c and config_dump.c share. */
#ifndef HOYLE_DATA_CONFIG_INTERNAL_H
#define HOYLE_DATA_CONFIG_INTERNAL_H

#include "data/config.h"

/* The text of the scalar at a dotted path, or NULL (absent or not a scalar). */
const char *config_scalar_at_(const config_t *c, const char *path);

#endif
