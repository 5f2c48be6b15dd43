#version 330 core
in vec2 vUV;
out vec4 c;
uniform samplerCubeShadow uTex;
void main() {
    vec2 p = vUV * 2.0 - 1.0;
    float s = texture(uTex, vec4(vec3(1.0) + vec3(p.x, p.y, -p.x - p.y) * 0.9, 0.5));
    c = vec4(s, 0.5 * s, 1.0 - s, 1.0);
}
