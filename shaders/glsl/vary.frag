#version 330
// B §9 vary.frag: vec3 + float constructor.
in vec3 color;
out vec4 fragColor;

void main() {
    fragColor = vec4(color, 1.0);
}
