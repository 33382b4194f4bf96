#[=======================================================================[.rst:
metal_add_library
-----------------

Compiles Metal Shading Language sources into a ``.metallib`` with metalcpu's ``metal`` and
``metallib`` tools::

  metal_add_library(<target>
                    [OUTPUT_NAME <name>]
                    SOURCES <file.metal>...
                    [INCLUDE_DIRECTORIES <dir>...]
                    [COMPILE_DEFINITIONS <NAME>[=<value>]...]
                    [OPTIONS <metal flag>...])

Writes ``<name>.metallib`` (``<name>`` defaults to ``<target>``) into
``CMAKE_RUNTIME_OUTPUT_DIRECTORY``, or the current binary directory when that is unset: the
place where executables land, so that ``newDefaultLibrary()`` finds ``default.metallib``
beside them. Each source is compiled on its own (``metal -c``) and rebuilt when it or any
header it includes changes. ``OPTIONS`` go to ``metal -c`` as written (Apple's spellings:
``-fno-fast-math``, ``-fmetal-math-mode=safe``, ``-std=metal3.1``). ``<target>`` is a custom
target built by ``all``; the ``METALLIB_FILE`` property holds the path of the library.
#]=======================================================================]
function(metal_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OUTPUT_NAME" "SOURCES;INCLUDE_DIRECTORIES;COMPILE_DEFINITIONS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "metal_add_library(${target}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "metal_add_library(${target}): SOURCES is required")
  endif()
  if(NOT TARGET metalcpu::metal-tool OR NOT TARGET metalcpu::metallib-tool)
    message(FATAL_ERROR "metal_add_library(${target}): the metalcpu tools are not available; "
                        "use add_subdirectory(metalcpu) or find_package(metalcpu) first")
  endif()
  set(name ${target})
  if(arg_OUTPUT_NAME)
    set(name ${arg_OUTPUT_NAME})
  endif()
  if(CMAKE_RUNTIME_OUTPUT_DIRECTORY)
    set(output_dir ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  else()
    set(output_dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(library ${output_dir}/${name}.metallib)
  set(work_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.metal.dir)

  set(flags)
  foreach(dir ${arg_INCLUDE_DIRECTORIES})
    get_filename_component(dir ${dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND flags -I${dir})
  endforeach()
  foreach(definition ${arg_COMPILE_DEFINITIONS})
    list(APPEND flags -D${definition})
  endforeach()
  list(APPEND flags ${arg_OPTIONS})

  set(objects)
  foreach(source ${arg_SOURCES})
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    get_filename_component(stem ${source} NAME_WE)
    set(object ${work_dir}/${stem}.air)
    add_custom_command(OUTPUT ${object}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${work_dir}
      COMMAND metalcpu::metal-tool -c ${source} -o ${object} ${flags} -MD -MF ${object}.d -MT ${object}
      DEPENDS ${source} metalcpu::metal-tool
      DEPFILE ${object}.d
      COMMENT "Compiling Metal kernels ${stem}.metal"
      VERBATIM)
    list(APPEND objects ${object})
  endforeach()
  add_custom_command(OUTPUT ${library}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
    COMMAND metalcpu::metallib-tool ${objects} -o ${library}
    DEPENDS ${objects} metalcpu::metallib-tool
    COMMENT "Linking Metal library ${name}.metallib"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${library})
  set_target_properties(${target} PROPERTIES METALLIB_FILE ${library})
endfunction()
