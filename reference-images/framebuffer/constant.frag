#version 330 core
// Constant values for the conversion tests (tests/render_targets.rs).
layout(location = 0) out vec4 unorm;
layout(location = 1) out vec4 wide;
layout(location = 2) out ivec4 signed;

void main() {
    unorm = vec4(0.5, 0.25, 1.5, -1.0);
    wide = vec4(1.0 + 1.0 / 4096.0, -2.5, 70000.0, 0.5);
    signed = ivec4(-7, 2147483647, 0, 1);
}
