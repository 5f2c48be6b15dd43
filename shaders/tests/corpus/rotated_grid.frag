#version 330 core
// A grid of dots rotated and scaled by mat2 transforms.
in vec2 vUV;
out vec4 fragColor;

uniform float uAngle;

mat2 rotation(float a) {
    float c = cos(a);
    float s = sin(a);
    return mat2(c, s, -s, c);
}

void main() {
    vec2 p = vUV - 0.5;
    mat2 m = rotation(uAngle) * mat2(6.0, 0.0, 0.0, 6.0);
    vec2 q = m * p;
    vec2 cell = fract(q) - 0.5;
    float dots = 1.0 - smoothstep(0.2, 0.25, length(cell));
    vec2 back = transpose(m) * q / 36.0;
    float check = length(back - p);
    vec3 col = mix(vec3(0.9, 0.92, 0.95), vec3(0.2, 0.3, 0.7), dots);
    fragColor = vec4(col + vec3(check * 1000.0), 1.0);
}
