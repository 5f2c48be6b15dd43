#version 330 core
// The interpolated vertex colour, with a mild gamma lift.
in vec3 vColor;
out vec4 fragColor;

void main() {
    fragColor = vec4(pow(vColor, vec3(0.9)), 1.0);
}
