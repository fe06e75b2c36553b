/* h5attr.h — HDF5 string helpers shared by the game records (data/h5rec*)
 * and the training sample shards (train/samples.c). */
#ifndef HOYLE_DATA_H5ATTR_H
#define HOYLE_DATA_H5ATTR_H

#include <hdf5.h>

/* A variable-length UTF-8 string type (close with H5Tclose). */
hid_t h5_str_type(void);

/* Write `value` (NULL = "") as a scalar variable-length string attribute.
 * Returns 0 or -1. */
int h5_attr_put_str(hid_t loc, const char *name, const char *value);

/* Read a scalar string attribute (variable or fixed length) into a new
 * string the caller frees. Returns -1 when absent or not a string. */
int h5_attr_get_str(hid_t loc, const char *name, char **out);

#endif
