/* [config]
 * expect_result: pass
 * glsl_version: 1.30
 * [end config]
 *
 * A fixture whose expectation is deliberately wrong: the shader reads an undeclared
 * name, so the compile fails and the test fails with the compiler's message.
 */
#version 130
out vec4 c;
void main() { c = undeclared; }
