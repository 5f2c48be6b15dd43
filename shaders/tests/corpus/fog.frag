#version 330 core
// Exponential-squared distance fog over a ground plane seen from a low camera: each
// pixel casts a ray, hits y = 0, and blends its colour towards the fog colour.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uFogColor;
uniform float uDensity;

// Exponential-squared fog; leave FOG_EXP2 undefined for plain exponential fog.
#define FOG_EXP2
#if __VERSION__ < 330
#error this shader needs GLSL 3.30
#endif

void main() {
    vec3 eye = vec3(0.0, 1.0, 0.0);
    vec3 dir = normalize(vec3(vUV.x * 2.0 - 1.0, vUV.y * 1.2 - 0.9, 1.5));
    vec3 sky = mix(uFogColor, vec3(0.35, 0.55, 0.9), clamp(dir.y * 4.0, 0.0, 1.0));
    if (dir.y >= -0.01) {
        fragColor = vec4(sky, 1.0);
        return;
    }
    float t = -eye.y / dir.y;
    vec3 hit = eye + t * dir;
    float pattern = 0.5 + 0.5 * sin(hit.x * 3.0) * sin(hit.z * 1.5);
    vec3 ground = mix(vec3(0.2, 0.35, 0.15), vec3(0.45, 0.6, 0.25), pattern);
#ifdef FOG_EXP2
    float fogAmount = 1.0 - exp(-(t * uDensity) * (t * uDensity));
#else
    float fogAmount = 1.0 - exp(-t * uDensity);
#endif
    fragColor = vec4(mix(ground, uFogColor, fogAmount), 1.0);
}
