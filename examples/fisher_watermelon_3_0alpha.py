"""周志华 §3.4 (图3.3, 习题3.5): Fisher's linear discriminant on 西瓜数据集3.0α."""
# requires: hyperplane.linear:FisherDiscriminant
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from hyperplane.datasets import load_watermelon  # noqa: E402
from hyperplane.linear import FisherDiscriminant  # noqa: E402
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_decision_regions  # noqa: E402

OUT = Path(__file__).parent / "out"
OUT.mkdir(exist_ok=True)

X, y = load_watermelon("3.0alpha")
model = FisherDiscriminant().fit(X, y)
z = model.transform(X)[:, 0]

figure, axes = plt.subplots(1, 2, figsize=(10, 4))
plot_decision_regions(model, X, y, ax=axes[0], title="Fisher discriminant (LDA)")
with cjk_rc():
    for label in model.classes_:
        axes[1].hist(z[(y == label).to_numpy()], bins=8, alpha=0.6, label=f"好瓜={label}")
    axes[1].set_title("projection wᵀx")
    axes[1].legend()
figure.tight_layout()
apply_cjk_font(figure)
figure.savefig(OUT / "fisher_watermelon_3_0alpha.png", dpi=110)
