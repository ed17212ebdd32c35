/* Valid C without any __global__ kernel. */
int not_a_kernel(int v);
int not_a_kernel(int v) { return v + 1; }
