#version 330 core
// Hemisphere ambient (sky/ground by the normal's y) plus wrapped ("half") Lambert.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uSky;
uniform vec3 uGround;
uniform vec3 uLightDir;

vec3 sphereNormal(vec2 p, out float coverage) {
    float r2 = dot(p, p);
    coverage = 1.0 - smoothstep(0.96, 1.0, r2);
    return vec3(p, sqrt(max(1.0 - r2, 0.0)));
}

void main() {
    float coverage;
    vec3 n = sphereNormal(vUV * 2.0 - 1.0, coverage);
    vec3 ambient = mix(uGround, uSky, n.y * 0.5 + 0.5);
    float wrapped = dot(n, normalize(uLightDir)) * 0.5 + 0.5;
    vec3 color = ambient * 0.6 + vec3(1.0, 0.95, 0.8) * wrapped * wrapped * 0.7;
    fragColor = vec4(mix(vec3(0.15), color, coverage), 1.0);
}
