#version 330 core
// Implicitly sized arrays and out parameters that convert (GLSL 1.50 §4.1.9, §6.1.1):
// a global palette declared without a size takes it from its largest constant index,
// a local weight table is redeclared with its initializer, and integer out parameters
// land in float variables.
in vec2 vUV;
out vec4 fragColor;

vec3 palette[];

void cell(vec2 uv, out int column, out int row) {
    column = int(uv.x * 3.0);
    row = int(uv.y * 2.0);
}

void main() {
    palette[0] = vec3(0.9, 0.35, 0.2);
    palette[1] = vec3(0.25, 0.7, 0.4);
    palette[2] = vec3(0.2, 0.4, 0.9);

    float weights[];
    float weights[] = float[](0.55, 0.8, 1.0);

    float column;
    float row;
    cell(vUV, column, row);

    vec3 base = column < 0.5 ? palette[0] : (column < 1.5 ? palette[1] : palette[2]);
    float w = row < 0.5 ? weights[0] : weights[2];
    float stripe = step(0.5, fract(vUV.x * 6.0 + vUV.y * 3.0)) * 0.15;
    fragColor = vec4(base * w + stripe + 0.05 * float(weights.length()), 1.0);
}
