#version 330 core
// Colour grading: a sepia matrix, saturation around luma, contrast and brightness.
in vec2 vUV;
out vec4 fragColor;

uniform float uSaturation;
uniform float uContrast;
uniform float uBrightness;

const mat3 SEPIA = mat3(
    0.393, 0.349, 0.272,
    0.769, 0.686, 0.534,
    0.189, 0.168, 0.131);

void main() {
    vec3 src = vec3(0.5 + 0.5 * cos(vUV.x * 6.0), vUV.y, 0.5 + 0.5 * sin(vUV.x * 4.0 + vUV.y * 3.0));
    vec3 col = vUV.x < 0.5 ? SEPIA * src : src;
    float luma = dot(col, vec3(0.2126, 0.7152, 0.0722));
    col = mix(vec3(luma), col, uSaturation);
    col = (col - 0.5) * uContrast + 0.5 + uBrightness;
    fragColor = vec4(clamp(col, 0.0, 1.0), 1.0);
}
