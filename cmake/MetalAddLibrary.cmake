# metal_add_library(): placeholder until the tools exist.
function(metal_add_library target)
endfunction()
