# expect_linked_libmetalcpu(<program>): fails unless <program> loads libmetalcpu.so (a program
# linked with a shared metalcpu, not with the archive).
function(expect_linked_libmetalcpu program)
  find_program(READELF readelf REQUIRED)
  execute_process(COMMAND ${READELF} -d ${program} RESULT_VARIABLE status OUTPUT_VARIABLE dynamic ERROR_VARIABLE dynamic)
  if(status OR NOT dynamic MATCHES "\\(NEEDED\\)[^\n]*\\[libmetalcpu\\.so\\.[0-9]")
    message(FATAL_ERROR "${program} does not load libmetalcpu.so:\n${dynamic}")
  endif()
endfunction()
