#version 330 core
// Blinn-Phong on a sphere impostor, lit by several point lights taken from uniform
// arrays in a loop.
in vec2 vUV;
out vec4 fragColor;

const int NUM_LIGHTS = 3;
uniform vec3 uLightPos[NUM_LIGHTS];
uniform vec3 uLightColor[NUM_LIGHTS];
uniform vec3 uAlbedo;
uniform float uShininess;

void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) {
        fragColor = vec4(0.05, 0.05, 0.08, 1.0);
        return;
    }
    vec3 pos = vec3(p, sqrt(1.0 - r2));
    vec3 n = normalize(pos);
    const vec3 viewDir = vec3(0.0, 0.0, 1.0);
    vec3 color = 0.08 * uAlbedo;
    for (int i = 0; i < NUM_LIGHTS; ++i) {
        vec3 l = uLightPos[i] - pos;
        float dist = length(l);
        l /= dist;
        vec3 h = normalize(l + viewDir);
        float diff = max(dot(n, l), 0.0);
        float spec = diff > 0.0 ? pow(max(dot(n, h), 0.0), uShininess) : 0.0;
        float atten = 1.0 / (1.0 + 0.15 * dist * dist);
        color += (uAlbedo * diff + vec3(spec)) * uLightColor[i] * atten;
    }
    fragColor = vec4(color, 1.0);
}
