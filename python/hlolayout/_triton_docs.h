// python/hlolayout/_triton_docs.h: the docstrings of hlolayout.triton's
// LinearLayout (python/hlolayout/_triton.cc), each saying what a method
// takes and returns, with an example that python/tests/test_triton.py runs
// (doctest). pybind11 puts the method's signature before each.
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_TRITON_DOCS_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_TRITON_DOCS_H_

namespace hlolayout::pyext::triton_docs {

inline constexpr const char* kDocClass =
    R"doc(Triton's LinearLayout: a map over F2 from named input bits (register, lane,
warp, block; or offset, block) to named output coordinates (dim0, dim1,
...), each input bit moving the output by its basis and the moves XORed.
Triton's methods and results, and the operations Triton does not bind;
where Triton aborts, ValueError with Triton's reason. Immutable values,
safe to share between threads.

    >>> l = LinearLayout.from_bases([('register', [[0, 1], [1, 0]]),
    ...                              ('lane', [[2, 0]])], ['dim0', 'dim1'])
    >>> l.apply({'register': 3, 'lane': 1})
    {'dim0': 3, 'dim1': 1}
    >>> print(l)
    <BLANKLINE>
     - register=1 -> (0, 1)
       register=2 -> (1, 0)
     - lane=1 -> (2, 0)
    where out dims are: [dim0 (size 4), dim1 (size 2)]
)doc";

inline constexpr const char* kDocInit =
    R"doc(The empty layout: no in-dims, no out-dims (Triton's LinearLayout()).

    >>> LinearLayout().num_in_dims, LinearLayout().num_out_dims
    (0, 0)
)doc";

inline constexpr const char* kDocIdentity1d =
    R"doc(The identity x -> x from in-dim `inDim` to out-dim `outDim`, both of `size`
(a power of two). Returns a LinearLayout.

    >>> l = LinearLayout.identity_1d(4, 'register', 'dim0')
    >>> l.apply({'register': 3})
    {'dim0': 3}
)doc";

inline constexpr const char* kDocStrided1d =
    R"doc(The layout x -> x * stride for x below `size` (both powers of two). Returns a
LinearLayout.

    >>> LinearLayout.strided_1d(4, 2, 'lane', 'dim0').apply({'lane': 3})
    {'dim0': 6}
)doc";

inline constexpr const char* kDocZeros1d =
    R"doc(Every value of in-dim `inDim` (of `size`) maps to 0 of out-dim `outDim` (a
broadcast). Returns a LinearLayout.

    >>> l = LinearLayout.zeros_1d(4, 'warp', 'dim0', 8)
    >>> l.apply({'warp': 3}), l.out_dims
    ({'dim0': 0}, [('dim0', 8)])
)doc";

inline constexpr const char* kDocFromBases =
    R"doc(The layout in which bit j of in-dim i moves the output by bases[i][1][j]
(one value per out-dim), the bits' moves XORed together. `bases`: (name,
[[...], ...]) pairs or a dict; the out-dim sizes are inferred when left out.
Returns a LinearLayout; ValueError with Triton's reason where Triton aborts.

    >>> l = LinearLayout.from_bases([('register', [[0, 1], [1, 0]]),
    ...                              ('lane', [[2, 0]])], ['dim0', 'dim1'])
    >>> l.out_dims
    [('dim0', 4), ('dim1', 2)]
    >>> LinearLayout.from_bases([('register', [[1], [1]])], ['dim0'], [4])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Layout is expected to be surjective, ...
)doc";

inline constexpr const char* kDocCompose =
    R"doc(The layout x -> outer(self(x)); self's out-dims must be outer's in-dims, no
larger. Returns a LinearLayout.

    >>> a = LinearLayout.identity_1d(4, 'register', 'x')
    >>> b = LinearLayout.strided_1d(4, 2, 'x', 'dim0')
    >>> a.compose(b).apply({'register': 3})
    {'dim0': 6}
)doc";

inline constexpr const char* kDocInvertAndCompose =
    R"doc(The layout C with outer(C(x)) == self(x): from self's hardware to outer's
(Triton's invertAndCompose, what a convert_layout moves). Returns a
LinearLayout.

    >>> a = LinearLayout.from_bases([('register', [[1], [2]])], ['dim0'])
    >>> b = LinearLayout.from_bases([('lane', [[2], [1]])], ['dim0'])
    >>> a.invert_and_compose(b).apply({'register': 1})
    {'lane': 2}
)doc";

inline constexpr const char* kDocInvert =
    R"doc(The inverse of an invertible layout (square, surjective and injective), in-
dims and out-dims swapped. Returns a LinearLayout; ValueError otherwise.

    >>> LinearLayout.from_bases([('register', [[2], [1]])], ['dim0']).invert().bases
    [('dim0', [[2], [1]])]
)doc";

inline constexpr const char* kDocPseudoinvert =
    R"doc(A right inverse P of a surjective layout (self(P(y)) == y), also when it is
not square. Returns a LinearLayout.

    >>> l = LinearLayout.from_bases([('register', [[1], [0], [2]])], ['dim0'])
    >>> l.pseudoinvert().bases
    [('dim0', [[1], [4]])]
)doc";

inline constexpr const char* kDocIsSurjective =
    R"doc(Whether every output value is reached (a bool).

    >>> LinearLayout.zeros_1d(4, 'register', 'dim0', 2).is_surjective()
    False
)doc";

inline constexpr const char* kDocIsInjective =
    R"doc(Whether no two inputs reach one output, no broadcast (a bool).

    >>> LinearLayout.zeros_1d(4, 'register', 'dim0').is_injective()
    False
)doc";

inline constexpr const char* kDocIsInvertible =
    R"doc(Whether the layout is surjective and injective (a bool).

    >>> LinearLayout.identity_1d(8, 'lane', 'dim0').is_invertible()
    True
)doc";

inline constexpr const char* kDocGetInDimNames =
    R"doc(The in-dims' names, in order (a list of str).

    >>> LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]])],
    ...                         ['dim0']).get_in_dim_names()
    ['register', 'lane']
)doc";

inline constexpr const char* kDocGetOutDimNames =
    R"doc(The out-dims' names, in order (a list of str).

    >>> LinearLayout.from_bases([('register', [[1, 0]])], ['dim0', 'dim1']).get_out_dim_names()
    ['dim0', 'dim1']
)doc";

inline constexpr const char* kDocBases =
    R"doc(The bases: a list of (in-dim name, [basis, ...]) pairs, one basis (a list of
one value per out-dim) per bit of the in-dim.

    >>> LinearLayout.identity_1d(4, 'lane', 'dim0').bases
    [('lane', [[1], [2]])]
)doc";

inline constexpr const char* kDocOutDims =
    R"doc(The out-dims: a list of (name, size) pairs.

    >>> LinearLayout.from_bases([('register', [[0, 1], [1, 0]])], ['dim0', 'dim1']).out_dims
    [('dim0', 2), ('dim1', 2)]
)doc";

inline constexpr const char* kDocNumInDims =
    R"doc(The number of in-dims (an int).

    >>> LinearLayout.identity_1d(4, 'lane', 'dim0').num_in_dims
    1
)doc";

inline constexpr const char* kDocNumOutDims =
    R"doc(The number of out-dims (an int).

    >>> LinearLayout.identity_1d(4, 'lane', 'dim0').num_out_dims
    1
)doc";

inline constexpr const char* kDocMul =
    R"doc(`self * other`: the product, with the in-dims and out-dims of both (a dim of
both keeps self's bits low). Returns a LinearLayout; `a *= b` rebinds `a`.

    >>> a = LinearLayout.identity_1d(2, 'register', 'dim0')
    >>> b = LinearLayout.identity_1d(4, 'lane', 'dim1')
    >>> (a * b).out_dims
    [('dim0', 2), ('dim1', 4)]
)doc";

inline constexpr const char* kDocGetSharedView =
    R"doc(Triton's text of a shared layout (in-dims offset and block): the tensor's
elements in rows, each with the (block:offset) that holds it; with True,
each offset with the element it holds. A str.

    >>> l = LinearLayout.from_bases([('offset', [[0, 1], [1, 0]]), ('block', [])],
    ...                         ['dim0', 'dim1'])
    >>> print(l.get_shared_view(False), end='')
    [[(0:0),(0:1)]
    [ (1:0),(1:1)]]
)doc";

inline constexpr const char* kDocGetDistributedView =
    R"doc(Triton's text of a register layout (in-dims register, lane, warp, block):
each element, laid out like the tensor, with the thread:register that holds
it; with True, per warp, each register's row of elements by lane. A str.

    >>> l = LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]]), ('warp', []),
    ...                              ('block', [])], ['dim0'])
    >>> print(l.get_distributed_view(False), end='')
    [T0:0, T0:1, T1:0, T1:1]
)doc";

inline constexpr const char* kDocApply =
    R"doc(The layout at `inputs`, a dict (or a list of (name, value) pairs) naming
each in-dim once. Python ints give ints (Triton's form: a dict, or pairs for
pairs); NumPy arrays or lists of integers, of shapes that broadcast, give
one int32 array per out-dim; one 2-D array of shape (n, in-dims) gives an
(n, out-dims) array. Bits above an in-dim's size are ignored; ValueError for
a missing or unknown in-dim.

    >>> l = LinearLayout.from_bases([('register', [[0, 1], [1, 0]]),
    ...                              ('lane', [[2, 0]])], ['dim0', 'dim1'])
    >>> l.apply({'register': 3, 'lane': 1})
    {'dim0': 3, 'dim1': 1}
    >>> l.apply([('lane', 1), ('register', 0)])
    [('dim0', 2), ('dim1', 0)]
    >>> import numpy as np
    >>> l.apply({'register': np.arange(4), 'lane': 0})['dim0']
    array([0, 0, 1, 1], dtype=int32)
    >>> l.apply(np.array([[3, 1], [1, 0]]))
    array([[3, 1],
           [0, 1]], dtype=int32)
)doc";

inline constexpr const char* kDocGetMatrixView =
    R"doc(Triton's getMatrix: one row per output bit (out-dims in order, low bit
first), one column per input bit (in-dims in order); a list of lists of 0
and 1.

    >>> LinearLayout.from_bases([('register', [[2], [1]])], ['dim0']).get_matrix_view()
    [[0, 1], [1, 0]]
)doc";

inline constexpr const char* kDocGetInDimSize =
    R"doc(The size of in-dim `dim`, 2 to the number of its bases (an int). ValueError
for a dim it has not.

    >>> LinearLayout.identity_1d(8, 'lane', 'dim0').get_in_dim_size('lane')
    8
)doc";

inline constexpr const char* kDocGetOutDimSize =
    R"doc(The size of out-dim `dim` (an int). ValueError for a dim it has not.

    >>> LinearLayout.zeros_1d(4, 'lane', 'dim0', 16).get_out_dim_size('dim0')
    16
)doc";

inline constexpr const char* kDocReshapeIns =
    R"doc(The same map with the in-dims flattened (in order, the first fastest) and
split into `dims`, (name, size) pairs of the same total size. Returns a
LinearLayout.

    >>> l = LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]])], ['dim0'])
    >>> l.reshape_ins([('thread', 4)]).bases
    [('thread', [[1], [2]])]
)doc";

inline constexpr const char* kDocReshapeOuts =
    R"doc(The same map with the out-dims flattened and split into `dims`, (name, size)
pairs of the same total size. Returns a LinearLayout.

    >>> l = LinearLayout.identity_1d(8, 'lane', 'dim0')
    >>> l.reshape_outs([('dim0', 2), ('dim1', 4)]).bases
    [('lane', [[1, 0], [0, 1], [0, 2]])]
)doc";

inline constexpr const char* kDocFlattenIns =
    R"doc(The in-dims as one, named after the first. Returns a LinearLayout.

    >>> LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]])],
    ...                         ['dim0']).flatten_ins().bases
    [('register', [[1], [2]])]
)doc";

inline constexpr const char* kDocFlattenOuts =
    R"doc(The out-dims as one, named after the first (the first fastest). Returns a
LinearLayout.

    >>> LinearLayout.from_bases([('register', [[0, 1], [1, 0]])],
    ...                         ['dim0', 'dim1']).flatten_outs().bases
    [('register', [[2], [1]])]
)doc";

inline constexpr const char* kDocTransposeIns =
    R"doc(The in-dims in `order`, a permutation of their names. Returns a
LinearLayout.

    >>> l = LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]])], ['dim0'])
    >>> l.transpose_ins(['lane', 'register']).get_in_dim_names()
    ['lane', 'register']
)doc";

inline constexpr const char* kDocTransposeOuts =
    R"doc(The out-dims in `order`, a permutation of their names. Returns a
LinearLayout.

    >>> l = LinearLayout.from_bases([('register', [[0, 1]])], ['dim0', 'dim1'])
    >>> l.transpose_outs(['dim1', 'dim0']).bases
    [('register', [[1, 0]])]
)doc";

inline constexpr const char* kDocSublayout =
    R"doc(The layout restricted to in-dims `ins` and out-dims `outs` (lists of names).
Returns a LinearLayout.

    >>> l = LinearLayout.from_bases([('register', [[0, 1]]), ('lane', [[1, 0]])],
    ...                              ['dim0', 'dim1'])
    >>> l.sublayout(['lane'], ['dim0']).bases
    [('lane', [[1]])]
)doc";

inline constexpr const char* kDocSublayoutIsZero =
    R"doc(Whether in-dims `ins` move none of out-dims `outs` (a bool).

    >>> l = LinearLayout.from_bases([('register', [[0, 1]]), ('lane', [[1, 0]])],
    ...                              ['dim0', 'dim1'])
    >>> l.sublayout_is_zero(['register'], ['dim0'])
    True
)doc";

inline constexpr const char* kDocConcatIns =
    R"doc(The layout of self and `other` (the same out-dims, other in-dims)
side by side: the in-dims of both. Returns a LinearLayout.

    >>> a = LinearLayout.identity_1d(2, 'register', 'dim0')
    >>> b = LinearLayout.zeros_1d(4, 'lane', 'dim0', 2)
    >>> a.concat_ins(b).get_in_dim_names()
    ['register', 'lane']
)doc";

inline constexpr const char* kDocConcatOuts =
    R"doc(The layout of self and `other` (the same in-dims, other out-dims)
together: the out-dims of both. Returns a LinearLayout.

    >>> a = LinearLayout.identity_1d(4, 'register', 'dim0')
    >>> b = LinearLayout.identity_1d(4, 'register', 'dim1')
    >>> a.concat_outs(b).out_dims
    [('dim0', 4), ('dim1', 4)]
)doc";

inline constexpr const char* kDocDivideLeft =
    R"doc(The layout C with self == other * C, or None when there is none (Triton's
divideLeft).

    >>> a = LinearLayout.identity_1d(8, 'register', 'dim0')
    >>> a.divide_left(LinearLayout.identity_1d(2, 'register', 'dim0')).bases
    [('register', [[1], [2]])]
)doc";

inline constexpr const char* kDocDivideRight =
    R"doc(The layout C with self == C * other, or None when there is none (Triton's
divideRight).

    >>> a = LinearLayout.identity_1d(8, 'register', 'dim0')
    >>> a.divide_right(LinearLayout.identity_1d(4, 'lane', 'dim1')) is None
    True
)doc";

inline constexpr const char* kDocIsTrivialOver =
    R"doc(Whether the layout is the identity on `dims` (names that are in-dims and
out-dims both) and they move nothing else (a bool).

    >>> l = LinearLayout.from_bases([('register', [[1, 0]]), ('block', [[0, 1]])],
    ...                              ['dim0', 'block'])
    >>> l.is_trivial_over(['block'])
    True
)doc";

inline constexpr const char* kDocQuotient =
    R"doc(The layout without `dims` when it is trivial over them (is_trivial_over),
else None.

    >>> l = LinearLayout.from_bases([('register', [[1, 0]]), ('block', [[0, 1]])],
    ...                              ['dim0', 'block'])
    >>> l.quotient(['block']).bases
    [('register', [[1]])]
)doc";

inline constexpr const char* kDocGetFreeVariableMasks =
    R"doc(Per in-dim, the mask of the bits whose value does not change the output
(broadcast bits); a dict of ints.

    >>> LinearLayout.from_bases([('register', [[1], [0]]), ('lane', [[0]])],
    ...                         ['dim0']).get_free_variable_masks()
    {'register': 2, 'lane': 1}
)doc";

inline constexpr const char* kDocGetNumConsecutiveInOut =
    R"doc(How many consecutive values of the first in-dim map to consecutive values of
the first out-dim (a thread's vector width); an int.

    >>> LinearLayout.from_bases([('register', [[1], [2], [8]])], ['dim0'], [16],
    ...                         False).get_num_consecutive_in_out()
    4
)doc";

inline constexpr const char* kDocToJson =
    R"doc(The layout as JSON text, the arguments of from_bases (what `hlolayout
triton` reads).

    >>> LinearLayout.identity_1d(2, 'lane', 'dim0').to_json()
    '{"bases": [["lane", [[1]]]], "out_dims": ["dim0"], "out_sizes": [2], "require_surjective": false}'
)doc";

inline constexpr const char* kDocToTtgir =
    R"doc(The layout as TTGIR text: #ttg.linear for a register layout,
#ttg.shared_linear with `alignment` for a shared one (in-dim offset).

    >>> l = LinearLayout.from_bases([('register', [[1]]), ('lane', [[2]]), ('warp', []),
    ...                              ('block', [])], ['dim0'])
    >>> l.to_ttgir()
    '#ttg.linear<{register = [[1]], lane = [[2]], warp = [], block = []}>'
)doc";

}  // namespace hlolayout::pyext::triton_docs

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_TRITON_DOCS_H_
