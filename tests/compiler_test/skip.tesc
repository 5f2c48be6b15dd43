// [config]
// expect_result: pass
// glsl_version: 1.50
// [end config]
#version 150
#extension GL_ARB_tessellation_shader: require
layout(vertices = 3) out;
void main() {}
