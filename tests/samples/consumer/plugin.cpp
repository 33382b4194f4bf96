// A shared library with kernels beside it, as an MLX extension has.
int consumer_plugin_answer() { return 42; }
