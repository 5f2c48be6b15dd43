#version 330 core
// gl_PointCoord in red and green (origin upper left), the point's colour in blue.
in vec4 vColor;
out vec4 fragColor;

void main() {
    fragColor = vec4(gl_PointCoord, vColor.b, 1.0);
}
