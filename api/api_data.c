/* api_data.c — the flat file entry points of api.h: what a foreign reader
 * needs beyond data/h5rec.h and train/samples.h. */
#include "api/api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/h5attr.h"
#include "train/samples.h"

int api_samples_game_spec(const char *path, char *buf, size_t cap)
{
    /* HDF5 cannot say "no such file"; errno can */
    if (access(path, R_OK) != 0)
        return hoyle_error(HOYLE_EIO, "shard '%s': %s", path, strerror(errno));
    char *spec = NULL;
    int rc = 0;
    H5E_BEGIN_TRY
    {
        hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        rc = fid < 0 || h5_attr_get_str(fid, "game", &spec) ? -1 : 0;
        if (fid >= 0) H5Fclose(fid);
    }
    H5E_END_TRY;
    if (rc) return hoyle_error(HOYLE_EIO, "shard '%s': not a %s file", path, SAMPLES_SCHEMA_NAME);
    size_t len = strlen(spec);
    if (len + 1 > cap)
        rc = hoyle_error(HOYLE_EFULL, "shard '%s': game spec too long", path);
    else
        memcpy(buf, spec, len + 1);
    free(spec);
    return rc ? rc : (int)len;
}
