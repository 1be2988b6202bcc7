// SPDX-License-Identifier: MIT
#include <ccdkit/mesh/cloth_scene.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace ccdkit {

ClothScene crumpling_cloth(int resolution, double shake, std::uint64_t seed)
{
    if (resolution < 2) {
        throw std::invalid_argument("crumpling_cloth: resolution must be at least 2");
    }
    const int n = resolution;
    const double h = 1.0 / (n - 1); // edge length of the unit sheet
    ClothScene scene;
    scene.start.vertices.resize(static_cast<Eigen::Index>(n) * n, 3);
    scene.end.resize(static_cast<Eigen::Index>(n) * n, 3);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, shake * h);
    constexpr double PI = std::numbers::pi;
    // The sheet crumples over a slow process s in [0, 1]: pushed together sideways while its folds grow.
    // One time step covers ds of it, short enough that the folding moves a vertex about half an edge
    // length whatever the resolution (as a simulator's step would); the shake comes on top.
    const auto crumpled = [&](double x, double y, double s) {
        const double wave = std::sin(6 * PI * x) * std::cos(4 * PI * y);
        return Eigen::RowVector3d((1.0 - 0.2 * s) * x + 0.1 * s, y, (0.05 + 0.03 * s) * wave);
    };
    const double s0 = 0.5;
    const double ds = std::min(0.5, 5.0 * h);
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const Eigen::Index v = static_cast<Eigen::Index>(j) * n + i;
            const double x = i * h, y = j * h;
            scene.start.vertices.row(v) = crumpled(x, y, s0);
            scene.end.row(v) = crumpled(x, y, s0 + ds) + Eigen::RowVector3d(noise(rng), noise(rng), noise(rng));
        }
    }
    scene.start.faces.resize(2 * static_cast<Eigen::Index>(n - 1) * (n - 1), 3);
    Eigen::Index f = 0;
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i + 1 < n; ++i) {
            const int a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            scene.start.faces.row(f++) << a, b, d;
            scene.start.faces.row(f++) << a, d, c;
        }
    }
    return scene;
}

} // namespace ccdkit
