# METALCPU_SANITIZE=ON builds everything of ours with ASan+UBSan. Kernels compiled by the
# host compiler (metal_add_library() or newLibrary(source) at run time) are not instrumented.
# Without UBSan's vptr check: the device process runs confined (seccomp, Landlock), where the
# check cannot probe a vtable's memory (the sanitizer runtime tests readability through a pipe)
# and stops at the first virtual call with "object has invalid vptr".
set(METALCPU_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize=vptr)
if(METALCPU_SANITIZE)
  add_compile_options(${METALCPU_SANITIZER_FLAGS} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(${METALCPU_SANITIZER_FLAGS})
endif()

# metalcpu_sanitizer_interface(<target>): a program linking a sanitized static library needs
# the sanitizer runtimes too, also when it finds an installed metalcpu with find_package().
function(metalcpu_sanitizer_interface target)
  if(METALCPU_SANITIZE)
    target_link_options(${target} INTERFACE ${METALCPU_SANITIZER_FLAGS})
  endif()
endfunction()
