"""Data on the wire between a student's kernel and the grader: numbers, text, and arrays as bytes.

The hidden tests run outside the student's kernel (:mod:`posenc_grader.hidden`) and call the student's functions
in it. What crosses the wall, both ways, is JSON made of numbers, text and arrays only (:func:`pack`), so that
no object of the student's ever reaches the process where the expected values are: floats as their hex, which
keeps every bit, ``nan`` and ``inf`` included (JSON numbers cannot); arrays (numpy, any subclass, torch) as
base64 bytes of a numeric dtype of :data:`DTYPES`, little-endian, with their shape. :func:`unpack` reads it
back, refusing anything else. Inside the kernel, :func:`answer` calls one function on unpacked arguments and
packs what it returns, or names what it raised. Both sides run this module: the kernel is sent its source with
every call (its sandbox does not hold the grader's package), so it needs nothing but the standard library and
numpy.
"""

from __future__ import annotations

import base64
import builtins

import numpy as np

#: The dtypes an array may have on the way back: booleans, integers, floats and complex numbers.
DTYPES = frozenset({"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8", "<c8",
                    "<c16"})
MAX_BYTES = 16 * 2**20   # the largest array, in bytes, and the longest text, in characters
MAX_DEPTH = 8            # tuples and lists inside each other
MAX_ITEMS = 100_000      # entries of one tuple or list


class NotWireData(ValueError):
    """A value that is not wire data: its message names the kind of object found."""


def _array(value) -> dict:
    """An array as dtype, shape and base64 bytes (little-endian); a dtype outside :data:`DTYPES` is refused."""
    array = np.asarray(value)
    if array.dtype.kind in "fc" and array.dtype.newbyteorder("<").str not in DTYPES:  # a long double
        array = array.astype(complex if array.dtype.kind == "c" else float)
    array = array.astype(array.dtype.newbyteorder("<"), copy=False)
    if array.dtype.str not in DTYPES:
        raise NotWireData(f"array of {array.dtype} values")
    if array.nbytes > MAX_BYTES:
        raise NotWireData(f"array of {array.nbytes:,} bytes (at most {MAX_BYTES:,})")
    data = base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")
    return {"array": data, "dtype": array.dtype.str, "shape": list(array.shape)}


def _tensor(value) -> dict:
    """A torch tensor as an array (bfloat16, which numpy lacks, as float32)."""
    import torch

    tensor = value.detach().cpu().resolve_conj().resolve_neg()
    return _array((tensor.float() if tensor.dtype == torch.bfloat16 else tensor).numpy())


def pack(value, depth: int = 0):
    """``value`` as wire JSON (see the module's documentation), or :class:`NotWireData` naming what it is."""
    kind = type(value)
    if value is None or kind in (bool, str):
        if kind is str and len(value) > MAX_BYTES:
            raise NotWireData(f"text of {len(value):,} characters")
        return value
    if kind is int:
        return value if -2**63 <= value < 2**63 else {"int": str(value)}
    if kind is float:
        return {"float": value.hex()}
    if kind is complex:
        return {"complex": [value.real.hex(), value.imag.hex()]}
    if isinstance(value, np.generic) and value.dtype.str.replace(">", "<") in DTYPES:
        return pack(value.item(), depth)
    if isinstance(value, (np.floating, np.complexfloating)):  # a long double: what a float or complex can hold
        return pack(complex(value) if np.iscomplexobj(value) else float(value), depth)
    if isinstance(value, np.ndarray):
        return _array(value)
    if kind.__module__.partition(".")[0] == "torch" and kind.__name__ in ("Tensor", "Parameter"):
        return _tensor(value)
    if kind in (tuple, list) and depth < MAX_DEPTH and len(value) <= MAX_ITEMS:
        items = [pack(item, depth + 1) for item in value]
        return {"tuple": items} if kind is tuple else items
    raise NotWireData(kind.__name__ if kind not in (tuple, list) else f"{kind.__name__} too long or too deep")


def unpack(data, depth: int = 0):
    """The value that :func:`pack` made ``data`` from; ``ValueError`` for anything else."""
    if data is None or type(data) in (bool, int):
        return data
    if type(data) is str and len(data) <= MAX_BYTES:
        return data
    if depth >= MAX_DEPTH:
        raise ValueError("wire data nested too deep")
    if type(data) is list and len(data) <= MAX_ITEMS:
        return [unpack(item, depth + 1) for item in data]
    if type(data) is not dict or len(data) not in (1, 3):
        raise ValueError(f"not wire data: {type(data).__name__}")
    if "float" in data:
        return float.fromhex(str(data["float"]))
    if "complex" in data:
        real, imag = data["complex"]
        return complex(float.fromhex(str(real)), float.fromhex(str(imag)))
    if "int" in data and len(str(data["int"])) < 5000:
        return int(str(data["int"]))
    if "tuple" in data and type(data["tuple"]) is list:
        return tuple(unpack(data["tuple"], depth + 1))
    if set(data) == {"array", "dtype", "shape"}:
        return _unpack_array(data)
    raise ValueError(f"not wire data: keys {sorted(map(str, data))}")


def _unpack_array(data: dict) -> np.ndarray:
    """A fresh, writable numpy array from dtype, shape and base64 bytes that must fill it exactly."""
    if data["dtype"] not in DTYPES:
        raise ValueError(f"an array of dtype {data['dtype']!r} is not wire data")
    shape = data["shape"]
    if type(shape) is not list or len(shape) > 32 or not all(type(n) is int and 0 <= n <= MAX_BYTES for n in shape):
        raise ValueError("an array's shape must be a list of counts")
    text = data["array"]
    if type(text) is not str or len(text) > MAX_BYTES * 4 // 3 + 4:
        raise ValueError("an array's bytes must be base64 text within the size limit")
    raw = base64.b64decode(text, validate=True)
    dtype = np.dtype(data["dtype"])
    if len(raw) != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
        raise ValueError("an array's bytes do not fill its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def answer(namespace: dict, name: str, request: dict) -> dict:
    """In the kernel: call ``namespace[name]`` on the unpacked ``request``; its result as wire data.

    Returns ``{"value": ...}``, or ``{"raised": exception type name, "message": ...}`` when the call
    raised (an interrupt passes through), or ``{"returned": kind}`` when the result is not wire data.
    """
    function = namespace.get(name)
    if function is None:
        return {"raised": "NameError", "message": f"name '{name}' is not defined"}
    try:
        value = function(*unpack(request["args"]), **dict(unpack(request["kwargs"])))
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # noqa: B036 -- the student's code may raise anything, SystemExit included
        answer = {"raised": type(error).__name__, "message": str(error)[:2000]}
        builtin = next(c for c in type(error).__mro__ if getattr(builtins, c.__name__, None) is c)
        return answer if builtin is type(error) else {**answer, "builtin": builtin.__name__}  # a subclass: its base
    try:
        return {"value": pack(value)}
    except NotWireData as refused:
        return {"returned": str(refused)}
    except Exception as error:  # an object whose conversion fails is not wire data either
        return {"returned": f"{type(value).__name__} ({type(error).__name__} when read)"}
