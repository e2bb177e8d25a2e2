"""周志华 习题6.2: linear and Gaussian-kernel SVMs on 西瓜数据集3.0α, with their support vectors."""
# requires: hyperplane.svm:SVC
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.plot import plot_svm_margins  # noqa: E402
from hyperplane.svm import SVC  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("3.0alpha")
figure, axes = plt.subplots(1, 2, figsize=(10, 4))
for ax, model in zip(axes, [SVC(kernel="linear", C=100.0), SVC(kernel="rbf", C=100.0)]):
    model.fit(X, y)
    plot_svm_margins(model, X, y, ax=ax, title=f"kernel={model.kernel}: "
                     f"{len(model.support_)} support vectors")
figure.tight_layout()
figure.savefig(OUT / "svm_kernels_watermelon_3_0alpha.png", dpi=110)
