# metalcpu_target_warnings(<target>): the project's warning set, applied to our own code only.
function(metalcpu_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  if(METALCPU_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
