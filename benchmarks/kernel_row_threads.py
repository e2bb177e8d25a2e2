"""One SMO kernel row (rbf, a full row) computed serially and over fixed
blocks on each thread count given, best of 5: where the parallel rows start
to pay (the threshold ``PARALLEL_ROW_WORK`` of ``hyperplane.svm._kernel_rows``).
The blocked paths are forced here whatever the row's cost.

    PYTHONPATH=src python benchmarks/kernel_row_threads.py 1 2 4 8 16
"""
import sys, time, numpy as np, numba, scipy.sparse as sp
from hyperplane.svm import _kernel_rows as kr
threads = [int(t) for t in sys.argv[1:]]
rng = np.random.default_rng(0)
def bench(f, reps):
    f()
    best = 1e9
    for _ in range(5):
        w0 = time.perf_counter()
        for _ in range(reps): f()
        best = min(best, (time.perf_counter() - w0) / reps)
    return best
def case(label, s, n, full):
    out = np.empty(n, np.float32)
    cols = s.all_rows
    method, work = kr.row_method(s, 5, n, full)
    reps = max(5, int(3e7 // max(work, 1)))
    def serial():
        if method == kr.SPARSE_COLUMNS: kr.column_dots(s, 5, 0, n)
        elif method == kr.SPARSE_ROWS: kr.scatter_row(s, 5, 1.0)
        kr.row_block(s, 5, cols, 0, n, method, out)
        if method == kr.SPARSE_ROWS: kr.scatter_row(s, 5, 0.0)
    def par():
        if method == kr.SPARSE_COLUMNS: kr.column_dot_blocks(s, 5, n)
        elif method == kr.SPARSE_ROWS: kr.scatter_row(s, 5, 1.0)
        kr.row_blocks(s, 5, cols, n, method, out)
        if method == kr.SPARSE_ROWS: kr.scatter_row(s, 5, 0.0)
    numba.set_num_threads(1)
    line = f"{label} work={work:.1e} serial {bench(serial, reps)*1e6:.0f}us"
    for t in threads:
        numba.set_num_threads(t)
        line += f" | {t}t {bench(par, reps)*1e6:.0f}us"
    print(line, flush=True)
for n, d in [(4000, 16), (8000, 32), (16000, 32), (20000, 50), (20000, 100), (50000, 100)]:
    X = rng.normal(size=(n, d)).astype(np.float32)
    case(f"dense n={n} d={d}", kr.make_samples(X, kr.RBF_KERNEL, 0.01, 0.0, 3), n, True)
for n, d, dens in [(5000, 2000, 0.01), (20000, 2000, 0.01), (20000, 2000, 0.05), (50000, 5000, 0.01)]:
    X = sp.random(n, d, density=dens, format="csr", random_state=0)
    case(f"csr n={n} d={d} {dens}", kr.samples_of(X, kr.RBF_KERNEL, 0.01, 0.0, 3), n, True)
