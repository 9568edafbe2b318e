/* posenc._halves: the half-layout RoPE kernel in one pass (optional; see posenc/_half_kernel.py).
 *
 * Row r of x, shape (rows, d), is turned at table row m = (first + r) mod seq of cos and sin, shape (seq, d/2):
 * pair j is (x_a, x_b) = (x[r, j], x[r, j + d/2]), and
 *
 *     out[r, j]       = x_a cos(m theta_j) - x_b sin(m theta_j)
 *     out[r, j + d/2] = x_b cos(m theta_j) + x_a sin(m theta_j)
 *
 * each product rounded, then the sum (built with -ffp-contract=off: no fused multiply-add), so the result is
 * bit for bit the one numpy gets from the same formula. Each element is read once and written once, as in a
 * copy; torch's operations need three passes for the same thing.
 * out may be x itself (both halves of a pair are read before either is written), but must not otherwise
 * overlap it. The GIL is released while it runs, so threads may turn disjoint spans of rows at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define TURN_HALVES(NAME, T)                                                                          \
    static void NAME(const T *x, const T *cos, const T *sin, T *out, Py_ssize_t rows, Py_ssize_t half,  \
                     Py_ssize_t seq, Py_ssize_t first)                                                \
    {                                                                                                 \
        for (Py_ssize_t r = 0; r < rows; r++) {                                                       \
            const Py_ssize_t m = (first + r) % seq;                                                   \
            const T *xa = x + r * 2 * half, *xb = xa + half, *c = cos + m * half, *s = sin + m * half; \
            T *oa = out + r * 2 * half, *ob = oa + half;                                              \
            _Pragma("GCC ivdep")                                                                      \
            for (Py_ssize_t j = 0; j < half; j++) {                                                   \
                const T a = xa[j], b = xb[j];                                                         \
                oa[j] = a * c[j] - b * s[j];                                                          \
                ob[j] = b * c[j] + a * s[j];                                                          \
            }                                                                                         \
        }                                                                                             \
    }

TURN_HALVES(turn_float, float)
TURN_HALVES(turn_double, double)

/* A C-contiguous 2-D buffer of float32 ('f') or float64 ('d'), or NULL with ValueError naming the argument. */
static int matrix(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->ndim != 2 || view->format == NULL || (strcmp(view->format, "f") && strcmp(view->format, "d"))) {
        PyErr_Format(PyExc_ValueError, "turn_halves: %s must be a 2-D array of float32 or float64", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The sizes must agree: x and out (rows, d), cos and sin (seq, d/2) (so d is even) with seq >= 1, one dtype. */
static int consistent(Py_buffer *x, Py_buffer *cos, Py_buffer *sin, Py_buffer *out)
{
    Py_buffer *all[] = {x, cos, sin, out};
    for (int i = 1; i < 4; i++)
        if (all[i]->itemsize != x->itemsize) return 0;
    return cos->shape[0] >= 1 && cos->shape[1] * 2 == x->shape[1]
           && sin->shape[0] == cos->shape[0] && sin->shape[1] == cos->shape[1]
           && out->shape[0] == x->shape[0] && out->shape[1] == x->shape[1];
}

static PyObject *turn_halves(PyObject *self, PyObject *args)
{
    PyObject *objects[4];
    Py_ssize_t first;
    if (!PyArg_ParseTuple(args, "OOOOn:turn_halves", &objects[0], &objects[1], &objects[2], &objects[3], &first))
        return NULL;
    static const char *names[] = {"x", "cos", "sin", "out"};
    Py_buffer views[4];
    int got = 0;
    while (got < 4 && matrix(objects[got], &views[got], got == 3, names[got]) == 0) got++;
    PyObject *result = NULL;
    if (got == 4) {
        if (!consistent(&views[0], &views[1], &views[2], &views[3]) || first < 0)
            PyErr_SetString(PyExc_ValueError, "turn_halves: x and out must be (rows, d) with d even, cos and sin "
                                              "(seq, d/2) with seq >= 1, all of one dtype, and first >= 0");
        else {
            Py_ssize_t rows = views[0].shape[0], half = views[1].shape[1], seq = views[1].shape[0];
            Py_BEGIN_ALLOW_THREADS
            if (views[0].itemsize == 4)
                turn_float(views[0].buf, views[1].buf, views[2].buf, views[3].buf, rows, half, seq, first % seq);
            else
                turn_double(views[0].buf, views[1].buf, views[2].buf, views[3].buf, rows, half, seq, first % seq);
            Py_END_ALLOW_THREADS
            result = Py_NewRef(Py_None);
        }
    }
    while (got > 0) PyBuffer_Release(&views[--got]);
    return result;
}

static PyMethodDef methods[] = {
    {"turn_halves", turn_halves, METH_VARARGS,
     "turn_halves(x, cos, sin, out, first): out[r] = x[r] turned in the half layout at table row "
     "(first + r) % seq."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_halves", "The half-layout RoPE kernel in one pass.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__halves(void) { return PyModule_Create(&module); }
