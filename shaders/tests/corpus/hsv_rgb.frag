#version 330 core
// HSV to RGB (hue across, saturation up), and below, a round trip through RGB to HSV
// with the saturation halved.
in vec2 vUV;
out vec4 fragColor;

vec3 hsv2rgb(vec3 c) {
    vec4 K = vec4(1.0, 2.0 / 3.0, 1.0 / 3.0, 3.0);
    vec3 p = abs(fract(c.xxx + K.xyz) * 6.0 - K.www);
    return c.z * mix(K.xxx, clamp(p - K.xxx, 0.0, 1.0), c.y);
}

vec3 rgb2hsv(vec3 c) {
    vec4 K = vec4(0.0, -1.0 / 3.0, 2.0 / 3.0, -1.0);
    vec4 p = c.g < c.b ? vec4(c.bg, K.wz) : vec4(c.gb, K.xy);
    vec4 q = c.r < p.x ? vec4(p.xyw, c.r) : vec4(c.r, p.yzx);
    float d = q.x - min(q.w, q.y);
    const float e = 1.0e-10;
    return vec3(abs(q.z + (q.w - q.y) / (6.0 * d + e)), d / (q.x + e), q.x);
}

void main() {
    if (vUV.y > 0.5) {
        fragColor = vec4(hsv2rgb(vec3(vUV.x, (vUV.y - 0.5) * 2.0, 0.95)), 1.0);
    } else {
        vec3 rgb = hsv2rgb(vec3(vUV.x, 1.0, 0.4 + vUV.y));
        vec3 hsv = rgb2hsv(rgb);
        hsv.y *= 0.5;
        fragColor = vec4(hsv2rgb(hsv), 1.0);
    }
}
