#version 330 core
// Matrix built-ins on interpolated matrices (GLSL 1.20 §4.1.6, §8.5): non-square
// products (mat3x2 * vec3, mat2x3 * vec2), transpose, determinant, inverse,
// outerProduct, matrixCompMult, and refract (§8.4).
in vec2 vUV;
in mat3x2 vWarp;
in float vWeights[3];

uniform mat2x3 uMix;    // two colours, as the columns of a 3x2 matrix

out vec4 fragColor;

void main() {
    // The affine warp of the tile coordinate, and its undoing through the inverse of
    // its linear part: q is vUV again, up to rounding.
    vec2 p = vWarp * vec3(vUV, 1.0);
    mat2 lin = mat2(vWarp[0], vWarp[1]);
    vec2 q = inverse(lin) * (p - vWarp[2]);
    float det = determinant(lin);

    // Soft bands of the warped coordinate blend the two colours.
    vec2 bands = 0.5 + 0.5 * sin(p * 6.0);
    vec3 base = uMix * bands;
    vec2 back = transpose(uMix) * base;

    // A 3x3 mix of the weights carried by the array varying.
    vec3 w = vec3(vWeights[0], vWeights[1], vWeights[2]);
    mat3 spread = mat3(1.0, 0.2, 0.0, 0.2, 1.0, 0.2, 0.0, 0.2, 1.0);
    mat3 o = matrixCompMult(outerProduct(w, vec3(1.0, 0.5, 0.25)), spread);
    vec3 tint = o * vec3(0.6, 0.3, 0.9);

    // A view ray refracted by a surface tilted with q.
    vec3 ray = refract(normalize(vec3(q - 0.5, -1.0)), vec3(0.0, 0.0, 1.0), 0.75);

    vec3 c = base * (0.55 + 0.1 * back.x / (1.0 + abs(back.x)))
           + tint * 0.25
           + vec3(abs(ray.xy), 0.0) * 0.35
           + vec3(0.0, 0.0, 0.1 * det);
    fragColor = vec4(clamp(c, 0.0, 1.0), 1.0);
}
