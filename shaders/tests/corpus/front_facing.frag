#version 330 core
// Two-sided shading with gl_FrontFacing: front faces warm, back faces cool, each
// shaded across the tile so that a swapped or constant input shows.
in vec2 vUV;
out vec4 fragColor;

void main() {
    vec3 front = vec3(0.9, 0.5, 0.2) * (0.4 + 0.6 * vUV.x);
    vec3 back = vec3(0.2, 0.45, 0.9) * (0.4 + 0.6 * vUV.y);
    bool lit = gl_FrontFacing;
    fragColor = vec4(lit ? front : back, gl_FrontFacing ? 1.0 : 0.8);
}
