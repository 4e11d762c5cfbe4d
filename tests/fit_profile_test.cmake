# streamk-fit --fit_all --profile_out writes a device profile that streamk-plan plans with:
#   cmake -DFIT=... -DPLAN=... -DCSV=... -DOUT=... -P fit_profile_test.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${FIT} --fit_all --holdout 0.5 --profile_out ${OUT} ${CSV}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT})
  message(FATAL_ERROR "streamk-fit --profile_out failed (${rc}): ${out}${err}")
endif()
file(READ ${OUT} profile)
foreach(want "\"format\": \"streamk-device-profile\"" "\"calibration\"" "\"held_rms\""
        "--fit_all")
  string(FIND "${profile}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the profile lacks ${want}:\n${profile}")
  endif()
endforeach()
execute_process(COMMAND ${PLAN} 1792 2432 4096 --profile ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "device +H200, 132 SMs.*predicted")
  message(FATAL_ERROR "streamk-plan --profile failed (${rc}): ${out}${err}")
endif()
