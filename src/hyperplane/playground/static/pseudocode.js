// The books' algorithms as the pseudocode panel shows them, in 中文 and English.
// Each line: [key, 中文, English, note 中文, note English]; a step names the key(s) of
// the line(s) it executes (its "line"), and that line's note is filled with the
// step's own numbers ({column} of the trace row, {w} {b} of the model summary,
// {label} {branch} of the tree node). A line without a key is never current.
"use strict";

const PSEUDOCODE = {
  primal: {
    title: ["李航《统计学习方法》算法2.1 感知机学习算法的原始形式",
            "Li Hang, Algorithm 2.1: the perceptron, primal form"],
    lines: [
      ["init", "(1) 选取初值 w₀, b₀ (此处 w₀ = 0, b₀ = 0)", "(1) choose initial w₀, b₀ (here w₀ = 0, b₀ = 0)"],
      ["select", "(2) 在训练集中选取数据 (xᵢ, yᵢ)", "(2) pick a training point (xᵢ, yᵢ)"],
      ["update", "(3) 如果 yᵢ(w·xᵢ + b) ≤ 0:  w ← w + η yᵢ xᵢ,  b ← b + η yᵢ",
       "(3) if yᵢ(w·xᵢ + b) ≤ 0:  w ← w + η yᵢ xᵢ,  b ← b + η yᵢ",
       "误分类点 {misclassified}: w = {w}, b = {b}", "misclassified {misclassified}: w = {w}, b = {b}"],
      ["stop", "(4) 转至(2), 直至训练集中没有误分类点", "(4) go to (2) until no point is misclassified",
       "没有误分类点: w = {w}, b = {b}", "no point misclassified: w = {w}, b = {b}"],
    ],
  },
  dual: {
    title: ["李航《统计学习方法》算法2.2 感知机学习算法的对偶形式",
            "Li Hang, Algorithm 2.2: the perceptron, dual form"],
    lines: [
      ["init", "(1) α ← 0, b ← 0", "(1) α ← 0, b ← 0"],
      ["select", "(2) 在训练集中选取数据 (xᵢ, yᵢ)", "(2) pick a training point (xᵢ, yᵢ)"],
      ["update", "(3) 如果 yᵢ(Σⱼ αⱼ yⱼ {dot} + b) ≤ 0:  αᵢ ← αᵢ + η,  b ← b + η yᵢ",
       "(3) if yᵢ(Σⱼ αⱼ yⱼ {dot} + b) ≤ 0:  αᵢ ← αᵢ + η,  b ← b + η yᵢ",
       "误分类点 {misclassified}: α = {alpha}, b = {b}", "misclassified {misclassified}: α = {alpha}, b = {b}"],
      ["stop", "(4) 转至(2), 直到没有误分类数据", "(4) go to (2) until no point is misclassified",
       "没有误分类点: α = {alpha}, b = {b}", "no point misclassified: α = {alpha}, b = {b}"],
    ],
  },
  smo: {
    title: ["李航《统计学习方法》算法7.5 SMO 算法", "Li Hang, Algorithm 7.5: SMO"],
    lines: [
      ["init", "(1) 取初值 α⁽⁰⁾ = 0, 令 k = 0", "(1) start from α⁽⁰⁾ = 0, k = 0"],
      [null, "    注: ν-SVC、ν-SVR 与单类支持向量机从 LIBSVM 的可行初值出发 (满足其等式约束, 如单类的 Σαᵢ = νl), 而非 α = 0",
       "    note: ν-SVC, ν-SVR and the one-class SVM start from LIBSVM's feasible α (meeting their equality constraints, e.g. the one-class Σαᵢ = νl), not α = 0"],
      ["select", "(2) 选取优化变量 α₁⁽ᵏ⁾, α₂⁽ᵏ⁾, 解析求解两个变量的最优化问题 (7.101)–(7.103), 得 α₂^new,unc",
       "(2) choose the variables α₁⁽ᵏ⁾, α₂⁽ᵏ⁾ and solve the two-variable problem (7.101)–(7.103) for α₂^new,unc",
       "(i, j) = {pair}, KKT 违背 m(α) − M(α) = {violation}, E_i = {E_i}, E_j = {E_j}, η = {eta}, α_j^new,unc = {alpha_j_unclipped}",
       "(i, j) = {pair}, KKT violation m(α) − M(α) = {violation}, E_i = {E_i}, E_j = {E_j}, η = {eta}, α_j^new,unc = {alpha_j_unclipped}"],
      [null, "    注: hyperplane 按 LIBSVM 的二阶规则 (Fan, Chen & Lin 2005 的 WSS3) 选第二个变量, 而非 §7.4.2 的 max |E₁ − E₂|",
       "    note: hyperplane picks the second variable by LIBSVM's second-order rule (WSS3 of Fan, Chen & Lin 2005), not §7.4.2's max |E₁ − E₂|"],
      ["clip", "    剪辑 α₂^new 到 [L, H], 由 (7.109) 求 α₁^new, 由 (7.115)–(7.116) 更新 b 与 Eᵢ",
       "    clip α₂^new to [L, H], get α₁^new by (7.109), update b and Eᵢ by (7.115)–(7.116)",
       "[L, H] = {clip}: α_i = {alpha_i}, α_j = {alpha_j}; 式(7.115)–(7.116) b₁ = {b1}, b₂ = {b2}; hyperplane 的 b = {b} (LIBSVM: 由全部自由 α 的 KKT 条件求得)",
       "[L, H] = {clip}: α_i = {alpha_i}, α_j = {alpha_j}; (7.115)–(7.116) b₁ = {b1}, b₂ = {b2}; hyperplane's b = {b} (LIBSVM's, from the KKT conditions of every free α)"],
      ["check", "(3) 若在精度 ε 范围内满足停机条件 (KKT 条件) 则转(4); 否则令 k = k + 1, 转(2)",
       "(3) if the stopping conditions (KKT) hold within ε go to (4); else k = k + 1, go to (2)"],
      ["stop", "(4) 取 α̂ = α⁽ᵏ⁺¹⁾", "(4) take α̂ = α⁽ᵏ⁺¹⁾", "{pair}, b = {b}", "{pair}, b = {b}"],
    ],
  },
  tree: {
    title: ["周志华《机器学习》图4.2 决策树学习基本算法 TreeGenerate(D, A)",
            "Zhou Zhihua, Figure 4.2: the basic decision-tree algorithm TreeGenerate(D, A)"],
    lines: [
      ["node", "1: 生成结点 node;", "1: generate node;"],
      ["same_class_if", "2: if D 中样本全属于同一类别 C then", "2: if all samples in D are of one class C then"],
      ["leaf_class", "3:     将 node 标记为 C 类叶结点; return", "3:     mark node as a leaf of class C; return",
       "叶结点: {label}", "leaf: {label}"],
      [null, "4: end if", "4: end if"],
      ["attr_if", "5: if A = ∅ OR D 中样本在 A 上取值相同 then",
       "5: if A = ∅ OR the samples in D take the same values on A then"],
      ["leaf_majority", "6:     将 node 标记为叶结点, 其类别标记为 D 中样本数最多的类; return",
       "6:     mark node as a leaf of D's majority class; return", "{decision}: {label}", "{decision}: {label}"],
      [null, "7: end if", "7: end if"],
      ["choose", "8: 从 A 中选择最优划分属性 a*;", "8: choose the best splitting attribute a* from A;",
       "a* = {attribute} ({score}): {decision}", "a* = {attribute} ({score}): {decision}"],
      ["for", "9: for a* 的每一个值 a*ᵛ do", "9: for each value a*ᵛ of a* do"],
      ["branch", "10:    为 node 生成一个分支; 令 Dᵥ 表示 D 中在 a* 上取值为 a*ᵛ 的样本子集;",
       "10:    grow a branch of node; let Dᵥ be the samples of D with a* = a*ᵛ;"],
      ["empty_if", "11:    if Dᵥ 为空 then", "11:    if Dᵥ is empty then"],
      ["leaf_empty", "12:        将分支结点标记为叶结点, 其类别标记为 D 中样本最多的类; return",
       "12:        mark the branch node as a leaf of D's majority class; return",
       "{branch}: {label}", "{branch}: {label}"],
      [null, "13:    else", "13:    else"],
      ["recurse", "14:        以 TreeGenerate(Dᵥ, A \\ {a*}) 为分支结点", "14:        make TreeGenerate(Dᵥ, A \\ {a*}) the branch node"],
      [null, "15:    end if", "15:    end if"],
      [null, "16: end for", "16: end for"],
      ["end", "输出: 以 node 为根结点的一棵决策树", "output: a decision tree rooted at node"],
      [null, "(剪枝 §4.3 不属于图4.2: 其步骤只在迭代表和树图中显示)",
       "(pruning, §4.3, is not part of figure 4.2: its steps show in the trace and the drawing)"],
    ],
  },
  bp: {
    title: ["周志华《机器学习》图5.8 误差逆传播算法", "Zhou Zhihua, Figure 5.8: error backpropagation"],
    lines: [
      ["init", "1: 在 (0, 1) 范围内随机初始化网络中所有连接权和阈值",
       "1: initialise every weight and threshold at random in (0, 1)"],
      ["repeat", "2: repeat", "2: repeat"],
      ["for", "3:     for all (x_k, y_k) ∈ D do", "3:     for all (x_k, y_k) ∈ D do"],
      ["forward", "4:         根据当前参数和式(5.3)计算当前样本的输出 ŷ_k;",
       "4:         compute the output ŷ_k by (5.3) with the current parameters;"],
      ["g", "5:         根据式(5.10)计算输出层神经元的梯度项 g_j;", "5:         compute the output units' gradients g_j by (5.10);"],
      ["e", "6:         根据式(5.15)计算隐层神经元的梯度项 e_h;", "6:         compute the hidden units' gradients e_h by (5.15);"],
      ["update", "7:         根据式(5.11)–(5.14)更新连接权 w_hj, v_ih 与阈值 θ_j, γ_h",
       "7:         update w_hj, v_ih and θ_j, γ_h by (5.11)–(5.14)"],
      [null, "8:     end for", "8:     end for"],
      ["until", "9: until 达到停止条件", "9: until the stopping condition holds",
       "第 {epoch} 轮: 标准BP E = {E_standard}, 累积BP E = {E_accumulated}",
       "epoch {epoch}: standard BP E = {E_standard}, accumulated BP E = {E_accumulated}"],
      ["output", "输出: 连接权与阈值确定的多层前馈神经网络", "output: the feed-forward network its weights and thresholds define",
       "第 {epoch} 轮 (最大轮数): 标准BP E = {E_standard}, 累积BP E = {E_accumulated}",
       "epoch {epoch} (max epochs): standard BP E = {E_standard}, accumulated BP E = {E_accumulated}"],
      [null, "(累积BP 读完整个训练集 D 后才按式(5.16)的累积误差更新一次)",
       "(accumulated BP updates once per pass over D, on the accumulated error (5.16))"],
    ],
  },
};

// which algorithm a page shows: learner (and the perceptron's form) -> PSEUDOCODE key
function pseudocodeKey(learnerKey, variant) {
  if (learnerKey === "perceptron") return variant === "primal" ? "primal" : "dual";
  return { svm: "smo", tree: "tree", bp: "bp" }[learnerKey] || null;
}
