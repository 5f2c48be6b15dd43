#version 330 core
// The fragment side of block_tile.vert's block, under another instance name: stages
// match a block by its block name and members, not by instance name (GLSL 1.50 §4.3.7).
in TileData {
    vec2 uv;
    float rings[3];
    mat2 turn;
} tile;

out vec4 fragColor;

void main() {
    vec2 p = tile.turn * (tile.uv - vec2(0.5));
    float d = length(p);
    vec3 color = vec3(0.08, 0.1, 0.12);
    for (int i = 0; i < 3; ++i) {
        float band = 1.0 - smoothstep(0.0, 0.02, abs(d - tile.rings[i]));
        vec3 tint = vec3(i == 0 ? 1.0 : 0.25, i == 1 ? 1.0 : 0.25, i == 2 ? 1.0 : 0.25);
        color += band * tint;
    }
    // The rotated quadrants show the matrix member's orientation.
    color += vec3(step(0.0, p.x), step(0.0, p.y), 0.0) * 0.25;
    fragColor = vec4(color, 1.0);
}
