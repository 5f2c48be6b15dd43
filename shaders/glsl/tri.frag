#version 330
// B §9 tri.frag: the varying is the colour.
in vec4 vcolor;
out vec4 fragColor;

void main() {
    fragColor = vcolor;
}
