"""The dense pool of a large memory through an 8-bit copy of its matrix, re-scored exactly.

Scoring every float32 row costs one pass over ``4 * d`` bytes per row, and a
single query's matrix-vector product is bound by memory bandwidth. The copy
holds each row in ``d`` bytes (per-dimension scaled integers in -127..127, in
a FAISS ``IndexScalarQuantizer`` of type ``QT_8bit_direct_signed``), so a pass
over it reads a quarter of the bytes. It only proposes candidates: their
cosines are then computed from the float32 rows, and a per-query error bound
decides whether the candidates provably hold the exact top ``k``; if not, the
search is widened (and past a quarter of the rows, the caller scans exactly).

Why the pool is the exact one
-----------------------------
Row ``x`` (unit norm, float32) is stored as ``c = rint(x * s)`` with the
per-dimension scale ``s = 127 / max |x_d|`` over the rows quantised; its
reconstruction ``c / s`` is within ``rho`` (the largest residual norm
``||c / s - x||`` measured when the rows were quantised) of ``x``. The query
``q`` is quantised too, ``qc = rint(lam * q / s)`` with ``lam = 127 / max
|q / s|``, because FAISS's fast SIMD path for this code type multiplies
integer codes by an integer query; with integer inputs both of its paths
(SIMD or not) return the exact integer ``qc . c`` (up to float rounding of
large sums, bounded below). With ``delta = qc / lam - q / s`` the approximate
score ``a = (qc . c) / lam`` differs from the true cosine ``t = q . x`` by

    a - t = delta . c + q . (c / s - x),   so   |a - t| <= ||delta|| * R + ||q|| * rho

(Cauchy-Schwarz; ``R`` is the largest ``||c||``), plus the float rounding of
both dot products (``gamma_d = d * u / (1 - d * u)`` relative, ``u = 2^-24``),
added as a slack. Let ``tau`` be the ``k``-th best exact cosine among the
candidates (the top ``K`` rows by ``a``) and ``a_K`` the smallest ``a`` among
them. Every row left out has ``a <= a_K``, hence an exact cosine below
``a_K + bound``; when that is below ``tau`` no row left out can enter the top
``k`` (nor tie with it), so the ``k`` best candidates are the exact pool, ties
included. Otherwise ``K`` grows fourfold and the search runs again.

Rows written after the copy was made are quantised with its scales; a row they
do not represent within ``rho`` (a new maximum in some dimension) is kept as an
exception, re-scored exactly on every query. The copy is rebuilt when those
are many or the rows have doubled (:attr:`QuantizedMatrix.stale`).

"Exact" means the float32 cosines of the rows, as numpy's BLAS computes them;
a gathered product (``matrix[rows] @ q``) can differ from the full one
(``matrix @ q``) in the last bit, as the existing paths over a subset of rows
already do, so two rows whose cosines are equal to within about 1e-7 may be
ordered differently than a full scan orders them.
"""

from __future__ import annotations

import logging
import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..error_log import warn_briefly
from ..ranking.pipeline import dense_top
from ..ranking.ties import TieOrder

__all__ = ["QuantizedMatrix", "worth_searching"]

logger = logging.getLogger(__name__)

_CHUNK = 4096  # rows quantised at a time (bounds the temporary float32 arrays to a few MB)
_U = 2.0**-24  # unit round-off of float32
_WIDEN = 4  # the candidate count grows by this factor when the bound does not prove the pool
_MIN_CANDIDATES = 256  # first search: max(this, _PER_POOL_ROW * k) rows
_PER_POOL_ROW = 4
_SCAN_SHARE = 4  # past rows / _SCAN_SHARE candidates the exact scan is cheaper: give up


@lru_cache(maxsize=1)
def _faiss() -> Any | None:
    """The ``faiss`` module when it can hold the copy (FAISS >= 1.8, checked once on a tiny index), else ``None``."""
    try:
        import faiss
    except ImportError:  # pragma: no cover - faiss-cpu is a declared dependency
        return None
    needed = ("IndexScalarQuantizer", "SearchParameters", "IDSelectorBitmap", "rev_swig_ptr", "swig_ptr",
              "omp_get_max_threads", "omp_set_num_threads")
    if not all(hasattr(faiss, name) for name in needed) or not hasattr(faiss.ScalarQuantizer, "QT_8bit_direct_signed"):
        return None  # pragma: no cover - FAISS < 1.8
    try:
        # The integer products this module relies on, on both of FAISS's paths (SIMD for d % 16 == 0), with a selector.
        for d in (16, 3):
            index = faiss.IndexScalarQuantizer(d, faiss.ScalarQuantizer.QT_8bit_direct_signed, faiss.METRIC_INNER_PRODUCT)
            codes = np.array([[-127] * d, [127] * d, [5] * d], dtype=np.int8)
            index.add_sa_codes(codes.view(np.uint8) ^ np.uint8(0x80))
            query = np.full((1, d), -3.0, dtype=np.float32)
            bitmap = np.packbits(np.array([False, True, True]), bitorder="little")
            params = faiss.SearchParameters(sel=faiss.IDSelectorBitmap(3, faiss.swig_ptr(bitmap)))
            scores, found = index.search(query, 2, params=params)
            if found[0].tolist() != [2, 1] or scores[0].tolist() != [-15.0 * d, -381.0 * d]:
                raise ValueError(f"unexpected results {scores[0].tolist()} {found[0].tolist()}")
    except Exception as exc:  # noqa: BLE001 - any failure means: scan exactly
        warn_briefly(logger, exc, "FAISS %s cannot hold the 8-bit copy of large memories: recall scans them exactly",
                     getattr(faiss, "__version__", "?"))
        return None
    return faiss


def _gamma(terms: int) -> float:
    """Relative bound on the rounding error of a float32 sum of ``terms`` products."""
    nu = max(terms, 1) * _U
    return nu / (1.0 - nu) if nu < 0.5 else math.inf


class QuantizedMatrix:
    """An 8-bit copy of an L2-normalised float32 matrix (rows in the same order), for :meth:`top`.

    Build it with :meth:`build`; keep it in step with the matrix with
    :meth:`sync` (rows appended, rows deleted). The codes live in the FAISS
    index only (``d`` bytes per row); besides them it holds a byte per row
    (deleted or not) and the rows kept as exceptions.
    """

    def __init__(self, faiss: Any, dim: int, scale: np.ndarray) -> None:
        self._faiss = faiss
        self.dim = dim
        self._scale64 = scale.astype(np.float64)
        self._scale = scale.astype(np.float32)  # per dimension; codes = rint(x * scale)
        self._inv_scale32 = (1.0 / scale).astype(np.float32)
        self._inv_scale64 = 1.0 / scale.astype(np.float64)
        self._index = faiss.IndexScalarQuantizer(
            dim, faiss.ScalarQuantizer.QT_8bit_direct_signed, faiss.METRIC_INNER_PRODUCT
        )
        self.n = 0  # rows covered (dead ones included)
        self.n_built = 0  # rows when the scales were measured
        self.rho = 0.0  # the largest ||c / s - x|| of a row that is not an exception
        self.code_norm = 0.0  # R: the largest ||c|| of any row
        self._dead = np.zeros(0, dtype=bool)
        self.n_dead = 0
        self._exceptions: list[int] = []
        self._exception_rows = np.zeros(0, dtype=np.int64)

    # -- building and keeping in step ------------------------------------------

    @classmethod
    def build(cls, matrix: np.ndarray, alive: np.ndarray | None = None) -> QuantizedMatrix | None:
        """The copy of ``matrix`` (``alive``: per row, False for a deleted row); ``None`` without a usable FAISS."""
        faiss = _faiss()
        m = np.asarray(matrix)
        if faiss is None or m.ndim != 2 or m.dtype != np.float32 or m.shape[1] == 0:
            return None
        n, d = m.shape
        top = np.zeros(d, dtype=np.float32)
        for a in range(0, n, _CHUNK):
            np.maximum(top, np.abs(m[a : a + _CHUNK]).max(axis=0), out=top)
        # A dimension where every row is 0 gets the scale of the largest value a unit vector can hold.
        top[top == 0] = 1.0
        scale = 127.0 / top.astype(np.float64)
        out = cls(faiss, d, scale)
        out._append(m, alive, measuring=True)
        out.n_built = n
        return out

    @classmethod
    def from_parts(cls, codes: np.ndarray, scale: np.ndarray, rho: float, code_norm: float) -> QuantizedMatrix | None:
        """The copy :meth:`build` made of a matrix with every row live, from its :meth:`parts` (e.g. kept in a
        snapshot beside that matrix); ``None`` without a usable FAISS."""
        faiss = _faiss()
        shape = tuple(codes.shape)
        if faiss is None or len(shape) != 2 or codes.dtype != np.uint8 or scale.shape != (shape[1],):
            return None
        n, d = shape
        out = cls(faiss, d, np.asarray(scale, dtype=np.float64))
        if n:
            out._index.codes.resize(n * d)
            out.n = n
            out._codes()[:] = codes
            out._index.ntotal = n
        out.n_built = n
        out.rho, out.code_norm = float(rho), float(code_norm)
        out._dead = np.zeros(n, dtype=bool)
        return out

    def parts(self) -> tuple[np.ndarray, np.ndarray, float, float]:
        """Codes (a copy, ``(n, d)`` uint8 as FAISS stores them), per-dimension scale, ``rho`` and ``R``:
        what :meth:`from_parts` takes back."""
        return self._codes().copy(), self._scale64.copy(), self.rho, self.code_norm

    def sync(self, matrix: np.ndarray, alive: np.ndarray, n_dead: int) -> None:
        """Catch up with ``matrix`` (rows only ever appended; ``alive`` per row; ``n_dead`` dead rows in all)."""
        n = matrix.shape[0]
        if n > self.n:
            self._append(matrix[self.n : n], alive[self.n : n], measuring=False)
        if n_dead != self.n_dead:
            gone = np.flatnonzero(~self._dead[:n] & ~alive[:n])
            self._kill(gone)

    @property
    def stale(self) -> bool:
        """Whether a rebuild (new scales) would serve better: many exceptions, or twice the rows it was built on."""
        return len(self._exceptions) > max(64, self.n_built // 64) or self.n > 2 * max(self.n_built, 1)

    @property
    def nbytes(self) -> int:
        """Bytes held: the codes, the per-row flags and the exceptions."""
        return int(self.n * self.dim + self._dead.shape[0] + 8 * len(self._exceptions))

    def _codes(self) -> np.ndarray:
        """The FAISS index's codes as a writable ``(n, d)`` uint8 view (valid until the index grows)."""
        raw = self._faiss.rev_swig_ptr(self._index.codes.data(), self.n * self.dim)
        return raw.reshape(self.n, self.dim)

    def _encode(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Codes (uint8, offset by 128), ``||c||`` and ``||c / s - x||`` of each row of ``block``."""
        c = block * self._scale
        np.rint(c, out=c)
        np.clip(c, -127.0, 127.0, out=c)
        norms = np.sqrt(np.einsum("ij,ij->i", c, c))
        res = c * self._inv_scale32
        res -= block
        resid = np.sqrt(np.einsum("ij,ij->i", res, res))
        codes = c.astype(np.int8).view(np.uint8) ^ np.uint8(0x80)  # c + 128, as FAISS stores it
        return codes, norms, resid

    def _append(self, block: np.ndarray, alive: np.ndarray | None, *, measuring: bool) -> None:
        m = block.shape[0]
        if m == 0:
            return
        start = self.n
        self._index.codes.resize((start + m) * self.dim)
        self.n = start + m
        view = self._codes()
        resid_all = np.empty(m, dtype=np.float64)
        for a in range(0, m, _CHUNK):
            codes, norms, resid = self._encode(np.asarray(block[a : a + _CHUNK], dtype=np.float32))
            view[start + a : start + a + codes.shape[0]] = codes
            resid_all[a : a + codes.shape[0]] = resid
            # (float32 sums: a relative margin far above their rounding keeps R an upper bound)
            self.code_norm = max(self.code_norm, float(norms.max()) * (1 + 1e-4))
        self._index.ntotal = self.n
        dead = np.zeros(m, dtype=bool) if alive is None else ~np.asarray(alive[:m], dtype=bool)
        if measuring:
            # Float32 residuals are within ~1e-7 of the real ones: a margin far above that keeps the bound sound.
            self.rho = float(resid_all.max(initial=0.0)) * (1 + 1e-4) + 1e-6
        else:
            extra = np.flatnonzero((resid_all > self.rho) & ~dead) + start
            if extra.size:
                self._exceptions.extend(extra.tolist())
                self._exception_rows = np.asarray(self._exceptions, dtype=np.int64)
        self._dead = np.concatenate([self._dead, np.zeros(m, dtype=bool)])
        self._kill(np.flatnonzero(dead) + start)

    def _kill(self, rows: np.ndarray) -> None:
        if rows.size == 0:
            return
        self._codes()[rows] = 128  # the code of 0: a deleted row scores 0 and is masked after re-scoring
        self._dead[rows] = True
        self.n_dead = int(self._dead.sum())

    # -- the pool ------------------------------------------------------------

    def top(self, matrix: np.ndarray, query: np.ndarray, k: int, rows: np.ndarray | None = None,
            tie: TieOrder | None = None) -> np.ndarray | None:
        """What ``dense_top(matrix[rows] @ query, k, rows, tie)`` returns (``rows`` None: every live row), or ``None``.

        ``matrix`` is the float32 matrix this copy was synced with, ``query``
        the normalised float32 query. ``None`` when the candidates needed
        grow past a quarter of the rows: the caller then scans exactly.
        Deleted rows are never returned; ``rows`` must hold live rows only.
        """
        scope = self.n - self.n_dead if rows is None else int(rows.shape[0])
        if k <= 0 or scope == 0:
            return np.empty(0, dtype=np.int64)
        if matrix.shape[0] != self.n or not worth_searching(k, scope):
            return None
        q64 = query.astype(np.float64)
        w = q64 * self._inv_scale64
        wmax = float(np.abs(w).max())
        if not wmax > 0 or not math.isfinite(wmax):
            return None
        lam = 127.0 / wmax
        qc = np.rint(w * lam)
        delta = qc / lam - w
        d = self.dim
        gamma = _gamma(d)
        bound = (
            float(np.linalg.norm(delta)) * self.code_norm
            + float(np.linalg.norm(q64)) * self.rho
            # rounding: FAISS's sum of qc * c (exact integers below 2^24) and numpy's float32 cosine
            + gamma * float(np.linalg.norm(qc)) * self.code_norm / lam
            + 2 * gamma * float(np.linalg.norm(q64)) * 1.001
            + 1e-6
        )
        if not math.isfinite(bound):
            return None
        faiss = self._faiss
        params = None
        exceptions = self._exception_rows
        position: np.ndarray | None = None  # subset position of each row, when the subset is not ascending
        if rows is not None:
            mask = np.zeros(self.n, dtype=bool)
            mask[rows] = True
            bitmap = np.packbits(mask, bitorder="little")
            params = faiss.SearchParameters(sel=faiss.IDSelectorBitmap(self.n, faiss.swig_ptr(bitmap)))
            if exceptions.size:
                exceptions = exceptions[mask[exceptions]]
            if rows.shape[0] > 1 and not bool((rows[1:] > rows[:-1]).all()):
                position = np.empty(self.n, dtype=np.int64)
                position[rows] = np.arange(rows.shape[0])
        qvec = np.ascontiguousarray(qc[None, :], dtype=np.float32)
        want = _first_search(k)
        while want * _SCAN_SHARE <= scope:
            scores, found = self._search(qvec, want, params)
            got = int(np.count_nonzero(found >= 0))
            cand = found[:got]
            if exceptions.size:
                cand = np.union1d(cand, exceptions)
            cand = np.sort(cand) if position is None else cand[np.argsort(position[cand])]
            cosine = matrix[cand] @ query
            if self.n_dead:
                cosine[self._dead[cand]] = -np.inf
            if got < want:  # every searchable row is a candidate
                return dense_top(cosine, k, cand, tie)
            live = cosine[np.isfinite(cosine)]
            if live.shape[0] >= k:
                tau = float(np.partition(live, live.shape[0] - k)[live.shape[0] - k])
                if float(scores[got - 1]) / lam + bound < tau:
                    return dense_top(cosine, k, cand, tie)
            want *= _WIDEN
        return None

    def _search(self, qvec: np.ndarray, want: int, params: Any) -> tuple[np.ndarray, np.ndarray]:
        """FAISS's top ``want`` rows, on this thread only (OpenMP's thread count is per thread: others keep theirs)."""
        faiss = self._faiss
        threads = faiss.omp_get_max_threads()
        if threads != 1:
            faiss.omp_set_num_threads(1)
        try:
            if params is None:
                scores, found = self._index.search(qvec, want)
            else:
                scores, found = self._index.search(qvec, want, params=params)
        finally:
            if threads != 1:
                faiss.omp_set_num_threads(threads)
        return scores[0], found[0]


def _first_search(k: int) -> int:
    return max(_MIN_CANDIDATES, _PER_POOL_ROW * k)


def worth_searching(k: int, rows: int) -> bool:
    """Whether a pool of ``k`` out of ``rows`` rows is worth a search of the copy (else scan exactly)."""
    return _first_search(k) * _SCAN_SHARE <= rows
