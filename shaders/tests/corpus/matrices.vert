#version 330 core
// Matrices and arrays as varyings (GLSL 1.30 §4.3.4: an output may be a matrix or an
// array), built from a non-square uniform. Each column of the matrix varying and each
// element of the array varying takes its own varying slot and is interpolated.
layout(location = 0) in vec2 aPos;
layout(location = 1) in vec2 aUV;

uniform mat3x2 uWarp;   // an affine map of the tile coordinate: 3 columns of vec2

out vec2 vUV;
out mat3x2 vWarp;
out float vWeights[3];

void main() {
    vUV = aUV;
    // The warp turns a little from corner to corner, so every column varies.
    float turn = 0.35 * (aUV.x - aUV.y);
    mat2 r = mat2(cos(turn), sin(turn), -sin(turn), cos(turn));
    vWarp = mat3x2(r * uWarp[0], r * uWarp[1], uWarp[2]);
    vWeights[0] = aUV.x;
    vWeights[1] = aUV.y;
    vWeights[2] = 1.0 - 0.5 * (aUV.x + aUV.y);
    gl_Position = vec4(aPos, 0.0, 1.0);
}
