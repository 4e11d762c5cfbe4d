# add_subdirectory(streamk) from another project: configure tests/subdirectory_consumer/, which
# fails if streamk's tests, tools or benchmarks come along or streamk::streamk does not.
#   cmake -DSOURCE_DIR=. -DWORK_DIR=/tmp/x -DCUDA_COMPILER=$(which nvcc) -P tests/subdirectory_test.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/subdirectory_consumer -B ${WORK_DIR}
          -DSTREAMK_SOURCE_DIR=${SOURCE_DIR} -DCMAKE_BUILD_TYPE=Release
          -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer failed (${rc}):\n${out}\n${err}")
endif()
message("${out}")
