// [config]
// expect_result: fail
// glsl_version: 1.10
// [end config]
#version 110
void main() { gl_FragColor = undeclared; }
