"""Builds the package with libstreamk_c inside it (streamk/lib/), found or built:

1. STREAMK_LIBRARY: a libstreamk_c.so built elsewhere;
2. the repository's build/lib/libstreamk_c.so (after scripts/setup.sh or a cmake build);
3. otherwise, a CMake build of the repository's library alone (no tests or tools) into
   python/build-lib/, which needs what the library needs (CUDA toolkit, Abseil, CMake).

The shared libraries it loads from outside the system and CUDA (Abseil's, on Debian) are copied
beside it; libstreamk_c.so finds them through its RPATH ($ORIGIN).
"""

import os
import pathlib
import re
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
SKIP = re.compile(r"^(libc|libm|libdl|librt|libpthread|libgcc_s|libstdc\+\+|ld-linux[^ ]*|"
                  r"linux-vdso|libcuda|libcudart|libcublas|libcublasLt|libnvrtc|libnvJitLink)\.")


def find_or_build_library() -> pathlib.Path:
    env = os.environ.get("STREAMK_LIBRARY")
    if env:
        return pathlib.Path(env)
    for candidate in (REPO / "build" / "lib" / "libstreamk_c.so",
                      HERE / "build-lib" / "lib" / "libstreamk_c.so"):
        if candidate.exists():
            return candidate
    build = HERE / "build-lib"
    nvcc = shutil.which("nvcc") or next(
        (str(p) for p in (pathlib.Path("/usr/local/cuda/bin/nvcc"),) if p.exists()), None)
    if nvcc is None:
        raise RuntimeError("streamk: no libstreamk_c.so found (STREAMK_LIBRARY, build/lib) and no "
                           "nvcc to build one: install the CUDA toolkit or build the library first")
    subprocess.check_call(["cmake", "-S", str(REPO), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                           f"-DCMAKE_CUDA_COMPILER={nvcc}",
                           "-DSTREAMK_BUILD_TOOLS=OFF", "-DSTREAMK_BUILD_TESTS=OFF",
                           "-DSTREAMK_BUILD_BENCHMARKS=OFF", "-DSTREAMK_INSTALL=OFF"])
    subprocess.check_call(["cmake", "--build", str(build), "--target", "streamk_c", "-j",
                           str(os.cpu_count() or 2)])
    return build / "lib" / "libstreamk_c.so"


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = find_or_build_library()
        dest = pathlib.Path(self.build_lib) / "streamk" / "lib"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(lib, dest / "libstreamk_c.so")
        out = subprocess.run(["ldd", str(lib)], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] == "=>" and parts[2].startswith("/"):
                if not SKIP.match(parts[0]):
                    shutil.copy2(os.path.realpath(parts[2]), dest / parts[0])


setup(cmdclass={"build_py": BuildWithLibrary})
