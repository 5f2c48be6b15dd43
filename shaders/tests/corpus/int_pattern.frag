#version 330 core
// Integer arithmetic on pixel positions: cells from int division, a colour index from
// %, a palette looked up with that index, and ivec arithmetic for a diagonal line.
in vec2 vUV;
out vec4 fragColor;

const vec3 PALETTE[5] = vec3[5](vec3(0.9, 0.3, 0.3), vec3(0.3, 0.9, 0.4), vec3(0.3, 0.4, 0.9), vec3(0.9, 0.8, 0.2), vec3(0.6, 0.3, 0.8));

void main() {
    ivec2 pixel = ivec2(vUV * 128.0);
    ivec2 cell = pixel / 16;
    int index = (cell.x + cell.y * 3) % 5;
    vec3 col = PALETTE[index];
    ivec2 inner = pixel - cell * 16;
    if (inner.x == inner.y || inner.x + inner.y == 15) {
        col *= 0.5;
    }
    int checker = (cell.x + cell.y) % 2;
    col = checker == 1 ? col : col * 0.85;
    fragColor = vec4(col, 1.0);
}
