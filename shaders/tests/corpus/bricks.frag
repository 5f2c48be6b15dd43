#version 330 core
// Running-bond bricks: every other row shifted by half a brick, mortar by step, a
// little per-brick shade from the brick's row and column.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uBrick;
uniform vec3 uMortar;

void main() {
    vec2 uv = vUV * vec2(6.0, 12.0);
    float row = floor(uv.y);
    if (mod(row, 2.0) == 1.0) {
        uv.x += 0.5;
    }
    vec2 brick = floor(uv);
    vec2 f = fract(uv);
    float inside = step(0.06, f.x) * step(f.x, 0.97) * step(0.09, f.y) * step(f.y, 0.95);
    float shade = 0.85 + 0.15 * fract(sin(brick.x * 1.7 + brick.y * 3.1) * 13.1);
    fragColor = vec4(mix(uMortar, uBrick * shade, inside), 1.0);
}
