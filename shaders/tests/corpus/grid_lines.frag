#version 330 core
// Anti-aliased grid lines: distance to the nearest line from abs(fract(..) - 0.5),
// with thicker major lines every fifth cell.
in vec2 vUV;
out vec4 fragColor;

float gridLine(vec2 uv, float cells, float width) {
    vec2 g = abs(fract(uv * cells) - 0.5);
    float d = (0.5 - max(g.x, g.y)) / cells;
    return 1.0 - smoothstep(width * 0.5, width, d);
}

void main() {
    float minor = gridLine(vUV, 20.0, 0.004);
    float major = gridLine(vUV, 4.0, 0.01);
    vec3 col = vec3(0.97, 0.97, 0.93);
    col = mix(col, vec3(0.6, 0.7, 0.85), minor);
    col = mix(col, vec3(0.15, 0.3, 0.6), major);
    fragColor = vec4(col, 1.0);
}
