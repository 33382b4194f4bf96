# METALCPU_SANITIZE=ON builds everything of ours with ASan+UBSan. Kernels compiled by the
# host compiler at run time are not instrumented; the executor annotates fiber switches.
if(METALCPU_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
