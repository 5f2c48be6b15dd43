// No [config] block: an ordinary shader, which a folder walk leaves out.
void main() { gl_FragColor = vec4(1.0); }
