#version 330 core
// Antialiasing by screen-space derivatives: concentric rings and a disc edge whose
// smoothing width is fwidth() of the distance field, so edges stay about one pixel
// wide however the quad is foreshortened. vColor.xy carries the uv (0..1 across the
// quad; color3d.vert passes it through).
in vec4 vColor;
out vec4 fragColor;

void main() {
    vec2 p = vColor.xy * 2.0 - 1.0;
    float r = length(p);
    // Rings: the distance to the nearest ring centre, in ring widths.
    float rings = r * 6.0;
    float d = abs(fract(rings) - 0.5);
    float w = fwidth(rings);
    float ring = 1.0 - smoothstep(0.2 - w, 0.2 + w, d);
    // The disc's edge at r = 0.9, one pixel wide.
    float e = fwidth(r);
    float inside = 1.0 - smoothstep(0.9 - e, 0.9 + e, r);
    vec3 base = mix(vec3(0.08, 0.1, 0.2), vec3(1.0, 0.75, 0.25), ring);
    fragColor = vec4(base * inside + vec3(0.2, 0.25, 0.3) * (1.0 - inside), 1.0);
}
