// SPDX-License-Identifier: MIT
#include <ccdkit/mesh/cloth_scene.hpp>

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
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const Eigen::Index v = static_cast<Eigen::Index>(j) * n + i;
            const double x = i * h, y = j * h;
            // Folds: a few waves whose amplitude grows during the step while the sheet is pushed together.
            const double wave = std::sin(6 * PI * x) * std::cos(4 * PI * y);
            scene.start.vertices.row(v) << x, y, 0.05 * wave;
            scene.end.row(v) << 0.8 * x + 0.1, y, 0.08 * wave;
            scene.end.row(v) += Eigen::RowVector3d(noise(rng), noise(rng), noise(rng));
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
