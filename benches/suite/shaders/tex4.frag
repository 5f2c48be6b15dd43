#version 330 core
// Performance suite: four bilinear taps of a 1024x1024 texture per fragment.
in vec2 vUV;
uniform sampler2D uTex;
out vec4 fragColor;

void main() {
    vec2 d = vec2(0.37 / 1024.0, 0.61 / 1024.0);
    vec4 c = texture(uTex, vUV) + texture(uTex, vUV + d);
    c = c + texture(uTex, vUV - d) + texture(uTex, vUV + vec2(d.y, -d.x));
    fragColor = c * 0.25;
}
