r"""
李航 习题7.4 / Li Hang, exercise 7.4: (x·z)^p is a positive definite kernel
===========================================================================

**题目**：证明内积的正整数幂函数 :math:`K(x,z)=(x\cdot z)^p` 是正定核函数，这里 :math:`p` 是正整数，
:math:`x,z\in\mathbf{R}^n`。

**Question**: prove that a positive integer power of the inner product,
:math:`K(x,z)=(x\cdot z)^p` with :math:`p` a positive integer and :math:`x,z\in\mathbf R^n`, is a
positive definite kernel.

**答案 / Answer**. By 定理7.5 it suffices that :math:`K` is symmetric (clear) and that every
Gram matrix :math:`[K(x_i,x_j)]_{m\times m}` is positive semidefinite. Two proofs:

*Feature map.* By the multinomial theorem

.. math::

   (x\cdot z)^p=\Big(\sum_{k=1}^nx^{(k)}z^{(k)}\Big)^p
   =\sum_{j_1+\dots+j_n=p}\frac{p!}{j_1!\cdots j_n!}\prod_k\big(x^{(k)}z^{(k)}\big)^{j_k}
   =\phi(x)\cdot\phi(z),\qquad
   \phi(x)_J=\sqrt{\tfrac{p!}{j_1!\cdots j_n!}}\prod_k\big(x^{(k)}\big)^{j_k},

with one coordinate per multi-index :math:`J=(j_1,\dots,j_n)`. Then for any :math:`c\in\mathbf R^m`,
:math:`\sum_{i,j}c_ic_jK(x_i,x_j)=\|\sum_ic_i\phi(x_i)\|^2\ge0`.

*Induction (Schur).* :math:`K_1(x,z)=x\cdot z` has Gram matrix :math:`XX^T\succeq0`. If the Gram
matrix :math:`A` of :math:`(x\cdot z)^{p-1}` is PSD, the Gram matrix of :math:`(x\cdot z)^p` is the
elementwise product :math:`A\circ(XX^T)`, PSD by the Schur product theorem (write
:math:`A=\sum_k u_ku_k^T`, :math:`XX^T=\sum_l v_lv_l^T`, then
:math:`A\circ XX^T=\sum_{k,l}(u_k\circ v_l)(u_k\circ v_l)^T`).

The page checks the identity :math:`(x\cdot z)^p=\phi(x)\cdot\phi(z)` with the feature map built in
NumPy for :math:`n=3, p=1..4`; the smallest eigenvalue of Gram matrices of
:class:`hyperplane.kernels.Polynomial` (``gamma=1, coef0=0``) on random points, and
:func:`hyperplane.kernels.is_psd`; and, as a contrast, that a non-integer power such as
:math:`(x\cdot z)^{1/2}` (where :math:`x\cdot z` may be negative, taken on :math:`|x\cdot z|`) or
an odd power of a shifted product :math:`(x\cdot z-1)^3` is not positive semidefinite.

**答案（中文）**：由定理7.5，只需 K 对称（显然）且任意 Gram 矩阵 [K(x_i, x_j)] 半正定。两种证明。特征映射：由多项式定理，(x·z)^p = φ(x)·φ(z)，φ 的每个坐标对应一个多重指标 J = (j_1, …, j_n)，于是对任意 c 有 Σ_{i,j} c_i c_j K(x_i, x_j) = ‖Σ_i c_i φ(x_i)‖² ≥ 0。归纳（Schur 积定理）：K₁(x, z) = x·z 的 Gram 矩阵 XXᵀ 半正定；若 (x·z)^(p−1) 的 Gram 矩阵 A 半正定，则 (x·z)^p 的 Gram 矩阵是逐元素乘积 A ∘ XXᵀ，由 Schur 积定理半正定。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它给出归纳证明，由 p 的特征映射构造 p + 1 的特征映射，并引用 Schur 积定理（Horn 与 Johnson，定理7.5.3）；两者一致。

The datawhale solutions manual gives the induction proof, building the feature map of :math:`p+1`
from that of :math:`p` and citing the Schur product theorem (Horn & Johnson, 定理7.5.3).
"""

import itertools
from math import factorial, prod

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.kernels import FunctionKernel, Polynomial, is_psd
from hyperplane.plot import apply_cjk_font

rng = np.random.default_rng(0)


def feature_map(X, p):
    """phi(x)_J = sqrt(p! / prod j_k!) prod x_k^j_k over the multi-indices J with |J| = p."""
    n = X.shape[1]
    indices = [J for J in itertools.product(range(p + 1), repeat=n) if sum(J) == p]
    weights = np.sqrt([factorial(p) / prod(factorial(j) for j in J) for J in indices])
    return np.column_stack([w * np.prod(X ** np.array(J), axis=1) for w, J in zip(weights, indices)])


X = rng.normal(size=(40, 3))
smallest = {}
for p in range(1, 5):
    gram = Polynomial(degree=p, gamma=1.0, coef0=0.0)(X, X)
    phi = feature_map(X, p)
    np.testing.assert_allclose(gram, (X @ X.T) ** p, rtol=1e-12)      # the kernel is (x.z)^p
    np.testing.assert_allclose(phi @ phi.T, gram, rtol=1e-9, atol=1e-9)  # = phi(x).phi(z)
    eigenvalues = np.linalg.eigvalsh(gram)
    smallest[p] = eigenvalues.min() / eigenvalues.max()
    print(f"p = {p}: phi has {phi.shape[1]} coordinates; smallest/largest eigenvalue "
          f"{smallest[p]:.1e}; is_psd: {is_psd(Polynomial(degree=p, gamma=1.0, coef0=0.0), X)}")
    assert is_psd(Polynomial(degree=p, gamma=1.0, coef0=0.0), X) and smallest[p] > -1e-10

# %%
# 反例 / Not every power is a kernel
# ----------------------------------
root = FunctionKernel(lambda A, B: np.sqrt(np.abs(A @ B.T)))
shifted = FunctionKernel(lambda A, B: (A @ B.T - 1.0) ** 3)
for name, kernel in (("|x.z|^(1/2)", root), ("(x.z - 1)^3", shifted)):
    eigenvalues = np.linalg.eigvalsh(kernel(X, X))
    print(f"{name}: smallest eigenvalue {eigenvalues.min():.3f}, is_psd: {is_psd(kernel, X)}")
    assert not is_psd(kernel, X)

figure, ax = plt.subplots(figsize=(6, 3.5))
for p in range(1, 5):
    ax.plot(np.sort(np.linalg.eigvalsh(Polynomial(degree=p, gamma=1.0, coef0=0.0)(X, X)))[::-1],
            ".-", label=f"(x·z)^{p}")
ax.plot(np.sort(np.linalg.eigvalsh(shifted(X, X)))[::-1], "k:", label="(x·z-1)^3")
ax.set_yscale("symlog", linthresh=1e-6)
ax.set_xlabel("index")
ax.set_ylabel("eigenvalue of the Gram matrix")
ax.set_title("习题7.4: (x·z)^p 的 Gram 矩阵半正定")
ax.legend(fontsize=7)
apply_cjk_font(figure)
plt.show()
