#version 330 core
// Run-time indexes in assignments: the colour channel a cell picks is overwritten, a
// matrix entry chosen from the cell is raised, a small histogram counts into bins the
// position chooses, and an out argument lands in a lane picked at run time.
in vec2 vUV;
out vec4 fragColor;

uniform float uBoost;

void shade(out float x, float v) {
    x = v * v;
}

void main() {
    ivec2 cell = ivec2(vUV * 4.0);
    vec4 col = vec4(0.15, 0.2, 0.3, 1.0);
    col[cell.x] = 0.85;

    ivec2 quad = ivec2(vUV * 2.0);
    mat2 tint = mat2(0.8);
    tint[quad.y][quad.x] += uBoost;
    tint[1 - quad.x] *= 0.9;

    float bins[3] = float[3](0.0, 0.0, 0.0);
    for (int k = 0; k < 3; k++) {
        int b = int(fract(vUV.x * 2.0 + float(k) * vUV.y) * 3.0);
        bins[b] += 0.25;
    }

    vec4 glow = vec4(0.0);
    shade(glow[cell.y], 0.5 + 0.5 * bins[quad.y]);

    fragColor = vec4(clamp(vec3(tint * col.rg, col.b) * 0.8 + glow.rgb * 0.4 + glow.a * 0.2, 0.0, 1.0), 1.0);
}
