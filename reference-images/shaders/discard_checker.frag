#version 330 core
// Interpolated colour; fragments in every other 16x16-pixel cell are discarded.
// At pixel centres |sin((x + 0.5) * pi / 16)| >= sin(pi / 32), so the sign never
// depends on the precision of sin.
in vec4 vColor;
out vec4 fragColor;

void main() {
    float sx = sin(gl_FragCoord.x * 0.19634954);
    float sy = sin(gl_FragCoord.y * 0.19634954);
    if (sx * sy < 0.0) {
        discard;
    }
    fragColor = vColor;
}
