r"""What counts as an answer, and when it is right: the one rule shared by self-checks and hidden tests.

**Kinds.** An answer is accepted when it is a Python number, a numpy scalar, a numpy array (any
subclass, ``np.matrix`` included, of a real or complex dtype) or a torch tensor; anything else is
refused with a message that names what came back ("rotation returned a Foo, expected a numpy array of
shape (2, 2)"). An accepted answer is turned into plain Python values (nested lists of ``int``,
``float``, ``complex``) *before* anything is compared, so that no method of the student's object runs
while an expected value exists. Kinds are recognised by the exact type and by the first type of its
method resolution order that is written in C (numpy's and torch's are; a class defined in Python never
is), and converted with that C type's own ``tolist``, never with a method the answer could define.

**Tolerance.** A number ``got`` matches ``want`` when

.. math:: |\mathrm{got} - \mathrm{want}| \le \mathrm{TOL}\,(\mathrm{scale} + |\mathrm{want}|),
   \qquad \mathrm{TOL} = 10^{-4},

relative to the size of ``want``, with ``scale`` (1 unless a question says otherwise: the size of the
terms an answer is a sum of) guarding values near zero. ``TOL`` fits float32, whose rounding is
:math:`6\cdot 10^{-8}`, with room for the few hundred operations of an answer computed in float32,
and is far below every mistake the exercises look for. A complex answer matches when its real part
does and its imaginary part is within the same tolerance of zero.

The code between the two ``shared`` markers below is copied verbatim into every hidden test (a test
checks this), so hidden tests and self-checks apply the same rule. It is written the way hidden tests
must be: no import, no builtin, no numpy function, only literals, operators and the methods of
C types, so that a student's cell that patches builtins, numpy or this module does not change it.
"""

# ---- shared with the hidden tests: begin
TOL = 1e-4  # the one tolerance of the course: relative, fit for float32
TYPE = (0.0).__class__.__class__  # type, from a literal: a student can rebind the builtin, not this
INT, FLOAT, COMPLEX = (0).__class__, (0.0).__class__, (0j).__class__
BOOL, LIST = (0 == 0).__class__, [].__class__
HEAP = 512  # Py_TPFLAGS_HEAPTYPE: set on every class defined in Python, never on a type written in C


def type_name(kind):
    """The name of a type, read from the type itself (a class cannot disguise it)."""
    return TYPE.__dict__["__name__"].__get__(kind)


def a_type(kind):
    """'a Foo', 'an ndarray': the name of a type with its article."""
    return ("an " if type_name(kind)[:1] in "aeiouAEIOU" else "a ") + type_name(kind)


def c_base(kind):
    """The first type in ``kind``'s method resolution order written in C, as ``(type, 'module.name')``."""
    for base in TYPE.__dict__["__mro__"].__get__(kind):
        if not TYPE.__dict__["__flags__"].__get__(base) & HEAP:
            return base, TYPE.__dict__["__module__"].__get__(base) + "." + type_name(base)


def plain(name, value, shape):
    """``value`` as plain Python values of ``shape`` (``()``: a number, ``None``: True or False), or a failure."""
    kind = TYPE(value)  # the exact type: an object's __class__ can lie, TYPE(object) cannot
    wanted = "True or False" if shape is None else "a number" if shape == () else f"an array of shape {shape}"
    base, home = c_base(kind)
    number = kind is INT or kind is FLOAT or kind is COMPLEX or kind is BOOL
    array = home == "numpy.ndarray" or home == "torch._C.TensorBase"  # and their subclasses (np.matrix, ...)
    scalar = base is kind and home[:6] == "numpy."  # a numpy scalar: np.float64, np.float32, np.bool_, ...
    assert number or array or scalar, f"{name} returned {a_type(kind)}, expected {wanted}"
    converted = value if number else TYPE.__dict__["__dict__"].__get__(base)["tolist"](value) if array \
        else value.item()
    if shape is None:
        assert TYPE(converted) is BOOL, f"{name} returned {a_type(kind)}, expected {wanted}"
        return converted
    return fit(name, converted, shape, kind, wanted)


def fit(name, converted, shape, kind, wanted):
    """Check that nested lists ``converted`` have ``shape`` and hold numbers (bool is not a number here)."""
    leaf = TYPE(converted)
    assert (leaf is LIST) == (shape != ()) and (shape == () or converted.__len__() == shape[0]), \
        f"{name} returned {a_type(kind)} of another shape, expected {wanted}"
    if shape == ():
        assert leaf is INT or leaf is FLOAT or leaf is COMPLEX, f"{name} returned {type_name(leaf)} values, " \
            f"expected {wanted}"
        return converted
    return [fit(name, entry, shape[1:], kind, wanted) for entry in converted]


def near(got, want, scale=1.0):
    """Whether the plain number ``got`` matches the expected ``want`` (False for nan)."""
    if TYPE(got) is COMPLEX:
        return near(got.real, want, scale) and near(got.imag, 0.0, scale)
    size = want if want >= 0 else -want
    return -TOL * (scale + size) <= got - want <= TOL * (scale + size)
# ---- shared with the hidden tests: end
