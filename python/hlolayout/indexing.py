"""Element offsets of array shapes and their inverse (the library's
index_util/).

    >>> ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
    >>> ix.offset((2, 3)), ix.kind_at(9)
    (17, 'tile padding')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence, Tuple

from . import _hlolayout as _core
from ._common import _threads
from .shapes import Shape, _shape

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .shapes import ShapeLike

__all__ = ["ELEMENT", "TILE_PADDING", "TAIL_PADDING", "Indexer"]

#: Kinds returned by Indexer.element_at / elements_at.
ELEMENT, TILE_PADDING, TAIL_PADDING = 0, 1, 2
_KIND_NAMES = ("element", "tile padding", "tail padding")


class Indexer:
    """Element offsets of an array shape, and their inverse, fast.

        >>> ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
        >>> ix.offset((2, 3)), ix.element_at(17), ix.element_at(9)
        (17, (2, 3), None)
        >>> ix.offsets(np.array([[0, 0], [2, 3]]))
        array([ 0, 17])

    Offsets count elements from the start of the buffer (every tile level,
    `*` combined dims, L(n) tail padding); `Shape.sizes()` gives bytes. Safe
    to share between threads; batched calls release the GIL.
    """

    __slots__ = ("_ix", "shape")
    shape: Shape

    def __init__(self, shape: ShapeLike):
        self.shape = _shape(shape)
        self._ix = _core._Indexer(self.shape._s)

    def __repr__(self):
        return "hlolayout.Indexer(%r)" % str(self.shape)

    @property
    def padded_elements(self) -> int:
        """Elements in the buffer, padding included."""
        return self._ix.padded_elements

    @property
    def logical_elements(self) -> int:
        return self._ix.logical_elements

    def offset(self, index: Sequence[int]) -> int:
        """The offset of one multi-index; ValueError when out of range."""
        return self._ix.offset(_index_tuple(index))

    def offsets(self, indices: npt.ArrayLike,
                threads: Optional[int] = None) -> npt.NDArray[np.int64]:
        """Offsets of many indices: int array [n, rank] -> int64 array [n].

        ValueError if any index is out of range (the message names it).
        """
        import numpy as np
        a = np.asarray(indices)
        if a.dtype.kind not in "iu":
            if a.size == 0:
                a = a.astype(np.int64)
            else:
                raise TypeError("indices must be an integer array, got dtype %s"
                                % a.dtype)
        if a.dtype != np.int64 and a.dtype != np.int32:
            if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
                raise ValueError("index out of range: %d" % a.max())
            a = a.astype(np.int64)
        if a.ndim == 1 and self._ix.rank == 1:
            a = a.reshape(-1, 1)
        a = np.ascontiguousarray(a)
        return self._ix.offsets(a, _threads(threads))

    def element_at(self, offset: int) -> Optional[Tuple[int, ...]]:
        """The multi-index at `offset`, or None when it is padding."""
        kind, index = self._ix.element_at(int(offset))
        return index if kind == ELEMENT else None

    def kind_at(self, offset: int) -> str:
        """'element', 'tile padding' or 'tail padding'."""
        return _KIND_NAMES[self._ix.element_at(int(offset))[0]]

    def elements_at(self, offsets: npt.ArrayLike
                    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """Inverse of offsets: int array [n] -> (int64 [n, rank], uint8 [n]).

        Kinds are hl.ELEMENT, hl.TILE_PADDING, hl.TAIL_PADDING; indices of
        padding rows are -1.
        """
        import numpy as np
        a = np.asarray(offsets)
        if a.dtype.kind not in "iu" and a.size:
            raise TypeError("offsets must be an integer array, got dtype %s" %
                            a.dtype)
        a = np.ascontiguousarray(a.astype(np.int64).reshape(-1))
        return self._ix.elements_at(a)

    def all_offsets(self) -> npt.NDArray[np.int64]:
        """int64 array shaped like the array: each element's offset."""
        return self._ix.all_offsets()


def _index_tuple(index):
    try:
        return tuple(int(i) for i in index)
    except TypeError:
        raise TypeError("index must be a sequence of ints, got %r" % (index,))
