// [config]
// expect_result: fail
// glsl_version: 1.10
// [end config]
//
// A fixture whose expectation is deliberately wrong: the shader is valid GLSL, so the
// compile succeeds and the test fails with "compiled, but GLSL requires an error".
#version 110
void main() { gl_FragColor = vec4(1.0); }
