// [config]
// expect_result: pass
// glsl_version: 1.50
// [end config]
#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
void main() { EmitVertex(); }
