#version 330 core
// Normal mapping without derivatives: a procedural height field, its gradient by
// finite differences, a tangent-space normal taken to world space by a TBN matrix.
in vec2 vUV;
out vec4 fragColor;

uniform mat3 uTBN;
uniform vec3 uLightDir;

float height(vec2 uv) {
    return 0.5 + 0.25 * sin(uv.x * 18.0) * cos(uv.y * 14.0);
}

void main() {
    const float eps = 0.01;
    const float strength = 0.3;
    float h = height(vUV);
    float hx = height(vUV + vec2(eps, 0.0));
    float hy = height(vUV + vec2(0.0, eps));
    vec3 nTangent = normalize(vec3((h - hx) / eps * strength, (h - hy) / eps * strength, 1.0));
    vec3 n = normalize(uTBN * nTangent);
    float diff = max(dot(n, normalize(uLightDir)), 0.0);
    vec3 base = mix(vec3(0.55, 0.35, 0.2), vec3(0.85, 0.7, 0.5), h);
    fragColor = vec4(base * (0.2 + 0.8 * diff), 1.0);
}
