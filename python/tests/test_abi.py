"""test_abi.py — hoyle/_lib.py's hand-written declarations against the
installed headers: each function it declares has the same C type as its
declaration in api/api.h or the module headers (cffi parses both), and each
struct it declares has the library's size (api_sizeof)."""
import os
import re

import cffi

import hoyle
from hoyle import _lib
from conftest import ROOT

HEADERS = [l for l in open(os.path.join(ROOT, "api", "CMakeLists.txt")).read().split("set(HOYLE_PUBLIC_HEADERS", 1)[1].split(")", 1)[0].split()]
# enums and types the hand-written copy spells as int or leaves opaque
STUBS = "typedef int record_end_t; typedef int agent_game_end_t; typedef struct params params_t;"


def header_text():
    text = ""
    for h in HEADERS:
        t = open(os.path.join(ROOT, h)).read()
        t = re.sub(r"/\*.*?\*/", "", t, flags=re.S)
        t = re.sub(r"^\s*#.*$", "", t, flags=re.M)
        text += t + "\n"
    return text


def declarations(text):
    """name -> its prototype, for the top-level function declarations."""
    out = {}
    for m in re.finditer(r"^([A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\))\s*(?:__attribute__\(\(.*?\)\))?\s*;", text, flags=re.M | re.S):
        out[m.group(2)] = " ".join(m.group(1).split())
    return out


def test_functions_match_headers():
    decl = declarations(header_text())
    types = _lib.CDEF.split("const char *hoyle_last_error(void);", 1)[0]
    ours = cffi.FFI()
    ours.cdef(_lib.CDEF)
    lib_ours = ours.dlopen(_lib.path)
    funcs = [n for n in re.findall(r"\b(\w+)\s*\(", _lib.CDEF.split("const char *hoyle_last_error", 1)[1]) if n != "void"]
    funcs.append("hoyle_last_error")
    checked = 0
    for name in set(funcs):
        if not hasattr(lib_ours, name) or not callable(getattr(lib_ours, name)):
            continue
        assert name in decl, f"{name} is declared in hoyle/_lib.py but in no public header"
        theirs = cffi.FFI()
        theirs.cdef(STUBS + types + decl[name] + ";")
        lib_theirs = theirs.dlopen(_lib.path)
        a, b = ours.typeof(getattr(lib_ours, name)), theirs.typeof(getattr(lib_theirs, name))
        norm = lambda t: str(t.cname).replace("record_end_t", "int")
        assert norm(a) == norm(b), f"{name}: hoyle/_lib.py has {a.cname}, the header {b.cname}"
        checked += 1
    assert checked >= 40


def test_struct_sizes():
    for name in _lib.CHECKED_STRUCTS:
        assert hoyle._clib.api_sizeof(name.encode()) == hoyle._ffi.sizeof(name)
    assert hoyle._clib.api_sizeof(b"nosuch_t") == 0
