// [config]
// expect_result: pass
// glsl_version: 1.20
// [end config]
//
// A compilation unit need not define main (GLSL 1.10 §6.1): only the linked stage
// needs one.
#version 120
vec4 scaled(vec4 v) { return 2.0 * v; }
