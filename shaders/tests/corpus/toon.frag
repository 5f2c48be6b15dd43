#version 330 core
// Toon shading: diffuse light quantized into bands, a hard specular spot and a dark
// silhouette rim, on a sphere impostor.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uLightDir;
uniform vec3 uBaseColor;

const float BANDS = 4.0;

void main() {
    vec2 p = vUV * 2.2 - 1.1;
    float r2 = dot(p, p);
    if (r2 >= 1.0) {
        fragColor = vec4(0.92, 0.9, 0.85, 1.0);
        return;
    }
    vec3 n = vec3(p, sqrt(1.0 - r2));
    vec3 l = normalize(uLightDir);
    float diff = max(dot(n, l), 0.0);
    float band = ceil(diff * BANDS) / BANDS;
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    float spec = step(0.96, dot(n, h));
    float rim = 1.0 - smoothstep(0.15, 0.25, n.z);
    vec3 color = uBaseColor * (0.25 + 0.75 * band) + vec3(spec * 0.6);
    color = mix(color, vec3(0.05), rim);
    fragColor = vec4(color, 1.0);
}
