r"""
周志华 习题5.10 / Zhou Zhihua, exercise 5.10: a convolutional network on handwritten digits
===========================================================================================

**题目**：从网上下载或自己编程实现一个卷积神经网络，并在手写字符识别数据 MNIST 上进行实验测试。

**Question**: download or implement a convolutional neural network and test it on the handwritten
character recognition data MNIST.

**答案 / Answer**: *not implemented in hyperplane*: the library has fully connected networks only
(:class:`hyperplane.neural.MLPClassifier`), and the documentation builds offline, so MNIST (70 000
images of 28×28) cannot be downloaded here. The nearest honest thing:

* the data: UCI's *Optical Recognition of Handwritten Digits* (1797 images of 8×8, the copy
  bundled with scikit-learn), a small relative of MNIST;
* the convolutional idea of §5.6 (图5.15: convolution with shared weights, then pooling, then a
  classifier), written in NumPy with *fixed* filters: 8 random 3×3 kernels, ReLU, 2×2 max-pooling,
  giving 8×3×3 = 72 features; only the final layer is trained, a softmax
  :class:`hyperplane.linear.LogisticRegression`. Training the filters too (BP through the
  convolution and pooling, the rest of a real CNN) is what is missing;
* for comparison, the library's :class:`hyperplane.neural.MLPClassifier` on the raw 64 pixels,
  and logistic regression on the raw pixels.

The page prints the held-out accuracy of each (a 2/3 - 1/3 split): all three are about 97%: on these
tiny images the random-filter features do as well as the raw pixels and no better; a gain from
convolution needs learned filters and larger images.

**答案（中文）**：hyperplane 没有实现卷积网络：库中只有全连接网络（MLPClassifier），且文档离线构建，不能下载 MNIST（7 万张 28 × 28 的图）。本页做最接近的可靠的事：数据用 UCI 的 Optical Recognition of Handwritten Digits（1797 张 8 × 8 的图，scikit-learn 自带），用 NumPy 写出 §5.6 的卷积思想（图5.15：共享权重的卷积、池化、再接分类器），滤波器固定为随机的，只训练最后的 softmax 对率回归；并与原始像素上的 MLPClassifier 和对率回归比较。三者留出精度都约为 97%：在这么小的图上，随机滤波器的特征不比原始像素更好；卷积的好处需要学习滤波器与更大的图像。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用 TensorFlow 在 Kaggle 的 MNIST 上训练了卷积网络，比本页更直接地回答了题目。hyperplane 没有卷积网络，且文档离线构建、不能下载 MNIST，所以本页只用固定滤波器在 UCI 手写数字（8×8）上演示卷积与池化的作用，这一点页面开头已说明。

The public solution set of han1057578619 trains a convolutional network with TensorFlow on Kaggle's
MNIST, which answers the question more directly than this page. hyperplane has no convolutional
network and the documentation builds offline without MNIST, so this page shows convolution and
pooling with fixed filters on UCI's 8×8 digits, as it says at the top.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split

from hyperplane.linear import LogisticRegression
from hyperplane.neural import MLPClassifier
from hyperplane.plot import apply_cjk_font

digits = load_digits()
images, y = digits.images / 16.0, digits.target
rng = np.random.default_rng(0)
filters = rng.normal(size=(8, 3, 3))


def convolve(images, filters):
    """Valid 2-D convolution (cross-correlation) with shared weights: (n, 8, 8) -> (n, k, 6, 6)."""
    n, h, w = images.shape
    out = np.zeros((n, len(filters), h - 2, w - 2))
    for r in range(h - 2):
        for c in range(w - 2):
            patch = images[:, r:r + 3, c:c + 3]
            out[:, :, r, c] = np.einsum("nij,kij->nk", patch, filters)
    return out


def pool(maps):
    """2x2 max-pooling (subsampling): (n, k, 6, 6) -> (n, k, 3, 3)."""
    n, k, h, w = maps.shape
    return maps.reshape(n, k, h // 2, 2, w // 2, 2).max(axis=(3, 5))


features = pool(np.maximum(convolve(images, filters), 0.0)).reshape(len(y), -1)
# a direct check of one convolution output
np.testing.assert_allclose(convolve(images[:1], filters[:1])[0, 0, 2, 3],
                           np.sum(images[0, 2:5, 3:6] * filters[0]))
idx_train, idx_test = train_test_split(np.arange(len(y)), test_size=1 / 3, random_state=0, stratify=y)
mean, std = features[idx_train].mean(0), features[idx_train].std(0) + 1e-12
F = (features - mean) / std
pixels = digits.data / 16.0

conv = LogisticRegression(C=1.0, max_iter=1000).fit(F[idx_train], y[idx_train])
raw = LogisticRegression(C=1.0, max_iter=1000).fit(pixels[idx_train], y[idx_train])
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # 100 epochs are enough to compare
    mlp = MLPClassifier(hidden_layer_sizes=(64,), bp="minibatch", batch_size=32, learning_rate=0.1,
                        max_iter=100, random_state=0).fit(pixels[idx_train], y[idx_train])
scores = {"random conv + pool + softmax": conv.score(F[idx_test], y[idx_test]),
          "softmax on pixels": raw.score(pixels[idx_test], y[idx_test]),
          "MLP (64 sigmoid hidden) on pixels": mlp.score(pixels[idx_test], y[idx_test])}
for name, score in scores.items():
    print(f"{name:36s} held-out accuracy {score:.3f}")
assert min(scores.values()) > 0.9

figure, axes = plt.subplots(2, 8, figsize=(10, 3))
maps = np.maximum(convolve(images[:1], filters), 0.0)[0]
for k in range(8):
    axes[0, k].imshow(filters[k], cmap="coolwarm")
    axes[1, k].imshow(maps[k], cmap="gray")
    axes[0, k].axis("off")
    axes[1, k].axis("off")
figure.suptitle("习题5.10: 8 个随机 3×3 卷积核 (上) 与数字 0 的特征图 (下)")
apply_cjk_font(figure)
plt.show()
