#version 330 core
// Schlick's Fresnel approximation as a rim light over a dim diffuse sphere.
in vec2 vUV;
out vec4 fragColor;

uniform vec3 uRimColor;
uniform float uF0;

float schlick(float cosTheta, float f0) {
    return f0 + (1.0 - f0) * pow(1.0 - cosTheta, 5.0);
}

void main() {
    vec2 p = (vUV - 0.5) * 2.1;
    float r2 = dot(p, p);
    vec3 background = vec3(0.02, 0.02, 0.05);
    if (r2 > 1.0) {
        fragColor = vec4(background, 1.0);
        return;
    }
    vec3 n = normalize(vec3(p, sqrt(1.0 - r2)));
    float ndv = clamp(n.z, 0.0, 1.0);
    float fresnel = schlick(ndv, uF0);
    vec3 diffuse = vec3(0.1, 0.12, 0.2) * max(dot(n, normalize(vec3(-0.4, 0.6, 0.7))), 0.0);
    fragColor = vec4(diffuse + uRimColor * fresnel, 1.0);
}
