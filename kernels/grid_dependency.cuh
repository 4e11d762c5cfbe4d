// Programmatic dependent launch (sm_90 and later). A kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the kernel before it on the
// stream is still running; it must not touch global memory that kernel reads or writes until
// GridDependencyWait() returns (the previous grids have completed and their writes are visible).
// LaunchDependents() lets the next such kernel on the stream start once every block of this grid
// has called it or exited; it says nothing about this grid's writes, which the next kernel's own
// wait covers. Both compile to nothing before sm_90, where the host never sets the attribute
// (kernels/launch.cu).
#pragma once

namespace streamk::kernels {

__device__ __forceinline__ void GridDependencyWait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void LaunchDependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

}  // namespace streamk::kernels
