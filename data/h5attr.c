/* h5attr.c — the HDF5 string helpers the record files and the sample shards
 * share (see h5attr.h). */
#include "data/h5attr.h"

#include <stdlib.h>
#include <string.h>

/* Variable-length UTF-8: what h5py writes for str and reads back as str, so
 * the files stay readable from Python without a fixed width per field. */
hid_t h5_str_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    return t;
}

/* A scalar attribute: `value` NULL is written as "" so that readers never
 * meet a missing string where the schema promises one. */
int h5_attr_put_str(hid_t loc, const char *name, const char *value)
{
    hid_t t = h5_str_type(), sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(loc, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
    const char *v = value ? value : "";
    herr_t rc = a < 0 ? -1 : H5Awrite(a, t, &v);
    if (a >= 0) H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    return rc < 0 ? -1 : 0;
}

/* Reads both layouts, since files written by other tools (or older h5py
 * versions, numpy bytes) may use fixed-size strings. -1 when the attribute is
 * absent, not a scalar string, or out of memory; *out is the caller's. */
int h5_attr_get_str(hid_t loc, const char *name, char **out)
{
    if (H5Aexists(loc, name) <= 0) return -1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ft = H5Aget_type(a), sp = H5Aget_space(a);
    int rc = -1;
    if (H5Tget_class(ft) == H5T_STRING && H5Sget_simple_extent_npoints(sp) == 1) {
        if (H5Tis_variable_str(ft) > 0) {
            hid_t t = h5_str_type();
            char *v = NULL;
            /* HDF5 allocates a variable-length read: copy it out and free it
             * with HDF5's own allocator, not free() */
            if (H5Aread(a, t, &v) >= 0 && v) {
                *out = strdup(v);
                rc = *out ? 0 : -1;
            }
            if (v) H5free_memory(v);
            H5Tclose(t);
        } else {
            size_t n = H5Tget_size(ft);
            /* fixed-size strings need not be NUL-terminated in the file: read
             * into one byte more, zeroed */
            char *v = calloc(n + 1, 1);
            hid_t t = H5Tcopy(H5T_C_S1);
            H5Tset_size(t, n + 1);
            if (v && H5Aread(a, t, v) >= 0) {
                *out = v;
                rc = 0;
            } else {
                free(v);
            }
            H5Tclose(t);
        }
    }
    H5Sclose(sp);
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}
