#!/usr/bin/env python3
"""check_torchscript.py — load a hoyle TorchScript export with Python torch and compare its
outputs with the C side's (tests/tch_fixture.c wrote them).

usage: check_torchscript.py DIR...  (each DIR holds net.pt, meta.txt, input.bin, logits.bin,
values.bin)
Exit 0 when every output of every DIR matches within 1e-5, 1 otherwise."""
import sys

import torch


def floats(path, shape):
    with open(path, "rb") as f:
        data = bytearray(f.read())
    return torch.frombuffer(data, dtype=torch.float32).reshape(shape)


def check(d):
    print(f"{d}:")
    with open(f"{d}/meta.txt") as f:
        n, c, h, w, a, v = (int(x) for x in f.read().split())
    x = floats(f"{d}/input.bin", (n, c, h, w))
    want_logits = floats(f"{d}/logits.bin", (n, a))
    want_values = floats(f"{d}/values.bin", (n, v))

    model = torch.jit.load(f"{d}/net.pt", map_location="cpu")
    model.eval()
    with torch.no_grad():
        logits, values = model(x)
        # a second call, after the profiling executor has seen the graph, must agree too
        logits2, values2 = model(x)
    ok = True
    for name, got, want in (("logits", logits, want_logits), ("values", values, want_values),
                            ("logits (2nd call)", logits2, want_logits),
                            ("values (2nd call)", values2, want_values)):
        if got.shape != want.shape or got.dtype != torch.float32:
            print(f"FAIL: {name}: shape {tuple(got.shape)} {got.dtype}, want {tuple(want.shape)} float32")
            ok = False
            continue
        diff = (got - want).abs().max().item()
        print(f"{name}: max |python - C| = {diff:.3g}")
        if not diff <= 1e-5:
            print(f"FAIL: {name} differ by {diff}")
            ok = False
    # batch independence in eval mode: one position alone gives the same row
    with torch.no_grad():
        one_logits, _ = model(x[2:3])
    if (one_logits - want_logits[2:3]).abs().max().item() > 1e-5:
        print("FAIL: single-position forward differs")
        ok = False
    return ok


def main():
    results = [check(d) for d in sys.argv[1:]]
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
