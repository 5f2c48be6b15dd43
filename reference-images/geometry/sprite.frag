#version 150
// The sprite's colour, darkened on the triangle whose provoking vertex is corner 2.
in vec4 gColor;
flat in float corner;
out vec4 fragColor;

void main() {
    fragColor = gColor * (corner == 2.0 ? 0.5 : 1.0);
    fragColor.a = 1.0;
}
