#!/usr/bin/env python3
"""check_samples_h5.py SHARD.h5 [GAMES] — read a training-sample shard with h5py alone and
check the schema of docs/formats.md ("Training samples"). Exit 0 when it matches."""
import sys

import h5py
import numpy as np


def main():
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else None
    with h5py.File(path, "r") as f:
        a = f.attrs
        assert a["hoyle_schema"] == "hoyle.samples", a["hoyle_schema"]
        assert int(a["hoyle_schema_version"]) == 1
        for key in ("game", "params", "network_id", "config", "program_version"):
            assert isinstance(a[key], str), key
        assert a["game"].startswith("gobang("), a["game"]
        C, H, W = (int(x) for x in a["obs_shape"])
        A = int(a["num_actions"])
        n = f["value"].shape[0]
        assert n > 0
        shapes = {"obs": (n, C, H, W), "policy": (n, A), "legal": (n, A), "value": (n,),
                  "game_id": (n,), "move": (n,), "flags": (n,)}
        types = {"obs": np.float32, "policy": np.float32, "legal": np.uint8,
                 "value": np.float32, "game_id": np.int64, "move": np.int32, "flags": np.uint8}
        for name, shape in shapes.items():
            d = f[name]
            assert d.shape == shape, (name, d.shape, shape)
            assert d.dtype == types[name], (name, d.dtype)
            assert d.chunks is not None and d.compression == "gzip", name
            assert d.maxshape[0] is None, name  # appendable along the sample axis
        pi, legal, z = f["policy"][:], f["legal"][:], f["value"][:]
        assert np.allclose(pi.sum(axis=1), 1.0, atol=1e-4)
        assert (pi[legal == 0] == 0).all()
        assert legal.sum(axis=1).min() >= 1
        assert set(np.unique(z)).issubset({-1.0, 0.0, 1.0})
        ids = f["game_id"][:]
        if games is not None:
            assert int(a["games"]) == games and len(np.unique(ids)) == games
        assert (f["move"][:] >= 0).all()
        assert (f["flags"][:] & ~1 == 0).all()  # SAMPLE_TRUNCATED is the one bit
    print(f"check_samples_h5.py: {path}: {n} samples OK")


if __name__ == "__main__":
    main()
