#version 330 core
// Reinhard tone mapping of an HDR sky with a bright sun: per channel on the left,
// luminance-based on the right, then gamma 2.2.
in vec2 vUV;
out vec4 fragColor;

uniform float uExposure;

vec3 hdrScene(vec2 uv) {
    vec3 sky = mix(vec3(0.3, 0.5, 1.2), vec3(2.0, 1.4, 0.8), uv.y);
    float d = distance(uv, vec2(0.7, 0.75));
    float sun = 8.0 * exp(-d * d * 60.0);
    return sky + vec3(sun, sun * 0.9, sun * 0.6);
}

void main() {
    vec3 hdr = hdrScene(vUV) * uExposure;
    vec3 perChannel = hdr / (1.0 + hdr);
    float lum = dot(hdr, vec3(0.2126, 0.7152, 0.0722));
    vec3 byLuminance = hdr / (1.0 + lum);
    vec3 mapped = vUV.x < 0.5 ? perChannel : byLuminance;
    fragColor = vec4(pow(clamp(mapped, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
