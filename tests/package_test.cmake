# The CMake package as a consumer uses it: install this build to a fresh prefix, configure
# examples/ against it with find_package(streamk CONFIG), build it and run the example (which,
# without a GPU, prints the plan for the H200 model and says there is no GPU).
#   cmake -DBUILD_DIR=build -DSOURCE_DIR=. -DWORK_DIR=/tmp/x -P tests/package_test.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_test.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f include/streamk/streamk.h include/streamk/streamk_c.h include/streamk/version.h
          lib/cmake/streamk/streamkConfig.cmake lib/cmake/streamk/streamkConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# Private headers stay private.
foreach(f include/work_mapping.h include/launch.h include/emulator.h include/cost_terms.h)
  if(EXISTS ${prefix}/${f})
    message(FATAL_ERROR "a private header was installed: ${f}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/streamk_example)
message("${out}")
