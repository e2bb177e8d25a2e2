"""The textbook datasets, shipped with the package so that they load offline.

* :func:`load_watermelon` -- 周志华《机器学习》表4.1, 4.3, 4.4, 4.5
  (西瓜数据集 2.0, 3.0, 2.0α, 3.0α).
* :func:`load_loan` -- 李航《统计学习方法》表5.1 贷款申请样本数据表.
* :func:`load_perceptron_example` -- 李航 例2.1.
* :func:`load_heart_scale` -- LIBSVM's example file ``heart_scale`` (sparse).

And readers for the peers' file formats:

* :func:`load_arff` -- Weka's ARFF files, nominal attributes as ordered categories.
* :func:`load_svmlight` -- LIBSVM/svmlight files as CSR matrices.
"""

from hyperplane._lazy import lazy_exports

__all__ = ["load_watermelon", "load_loan", "load_perceptron_example", "load_arff",
           "load_svmlight", "load_heart_scale"]

#: where each public name is defined: imported on first use (reading
#: heart_scale does not import the ARFF reader)
__getattr__, __dir__ = lazy_exports(__name__, {
    "._arff": ("load_arff",),
    "._loaders": ("load_loan", "load_perceptron_example", "load_watermelon"),
    "._svmlight": ("load_heart_scale", "load_svmlight"),
})
