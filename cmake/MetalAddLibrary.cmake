#[=======================================================================[.rst:
metal_add_library
-----------------

Compiles Metal Shading Language sources into a ``.metallib`` with metalcpu's ``metal`` and
``metallib`` tools::

  metal_add_library(<target>
                    SOURCES <file.metal>...
                    [TARGET <program>]
                    [OUTPUT_NAME <name>]
                    [OUTPUT_DIRECTORY <dir>]
                    [INCLUDE_DIRECTORIES <dir>...]
                    [INCLUDE_DIRECTORIES_FROM <cmake target>...]
                    [COMPILE_DEFINITIONS <NAME>[=<value>]...]
                    [OPTIONS <metal flag>...]
                    [DEPENDS <file or target>...])

``<target>`` is a custom target, built by ``all``, that writes ``<name>.metallib`` (``<name>``
defaults to ``<target>``). Where it goes:

- ``OUTPUT_DIRECTORY`` when given (relative to the current binary directory; generator
  expressions such as ``$<CONFIG>`` are allowed);
- else beside ``TARGET``'s file, ``$<TARGET_FILE_DIR:<program>>``, in every generator;
- else where executables land: ``CMAKE_RUNTIME_OUTPUT_DIRECTORY``, or the current binary
  directory, with a ``<config>`` subdirectory under a multi-config generator.

``TARGET`` (an executable or library defined before this call) also makes ``<program>``
depend on ``<target>``, so building the program builds its kernels, and ``newDefaultLibrary()``
finds ``default.metallib`` beside it.

Each source is compiled on its own (``metal -c``) and rebuilt when it, any header it includes,
or anything in ``DEPENDS`` (files, or targets such as a header generator) changes. Sources may
share a file name in different directories. ``INCLUDE_DIRECTORIES`` are relative to the
current source directory; ``INCLUDE_DIRECTORIES_FROM`` adds the include directories of CMake
targets: those their own sources compile with (with what they inherit from the libraries they
link), and those they give to their users, so kernels can include the headers they share with
host code. ``OPTIONS`` go to ``metal -c`` as written (Apple's spellings: ``-fno-fast-math``,
``-fmetal-math-mode=safe``, ``-std=metal3.1``).

The ``METALLIB_FILE`` property of ``<target>`` holds the library's path (with generator
expressions where the location depends on the configuration or on ``TARGET``; usable in
``add_test``, ``install`` and ``target_compile_definitions``).

metal_install_library
---------------------

::

  metal_install_library(<target> [DESTINATION <dir>] [COMPONENT <component>])

Installs the ``.metallib`` of ``metal_add_library(<target>)``. The default destination is the
one its ``TARGET`` installs to by convention: ``CMAKE_INSTALL_LIBDIR`` for a shared or module
library, ``CMAKE_INSTALL_BINDIR`` otherwise (beside the program, where
``newDefaultLibrary()`` looks).

mlx_build_metallib
------------------

::

  mlx_build_metallib(TARGET <target> TITLE <name> SOURCES <file.metal>...
                     [INCLUDE_DIRS <dir>...] [DEPS <file or target>...]
                     [OUTPUT_DIRECTORY <dir>] [DEBUG <bool>])

MLX's function of the same name (``cmake/extension.cmake``), for extensions that call it:
``metal_add_library(<target> OUTPUT_NAME <name> OUTPUT_DIRECTORY <dir> ...)`` with the
``-fno-fast-math`` MLX compiles its kernels with, and debug-line flags when ``DEBUG`` or
``MLX_METAL_DEBUG`` is set. It sets ``MTLLIB_BUILD_TARGET`` to the library's path, as MLX's
macro does. Unlike MLX's, the target is also built by ``all``.
#]=======================================================================]

# The object file for `source` inside `work_dir`: the source's path below the current source
# directory, so that a/kernels.metal and b/kernels.metal do not collide; a source from
# elsewhere goes into a directory named after a hash of its own.
function(metalcpu_metal_object_path source work_dir out_var)
  file(RELATIVE_PATH relative ${CMAKE_CURRENT_SOURCE_DIR} ${source})
  get_filename_component(name ${source} NAME_WLE)
  if(relative MATCHES "^\\.\\./")
    get_filename_component(directory ${source} DIRECTORY)
    string(SHA1 directory_hash "${directory}")
    string(SUBSTRING ${directory_hash} 0 12 directory)
  else()
    get_filename_component(directory ${relative} DIRECTORY)
  endif()
  if(directory)
    set(${out_var} ${work_dir}/${directory}/${name}.air PARENT_SCOPE)
  else()
    set(${out_var} ${work_dir}/${name}.air PARENT_SCOPE)
  endif()
endfunction()

function(metal_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OUTPUT_NAME;OUTPUT_DIRECTORY;TARGET"
    "SOURCES;INCLUDE_DIRECTORIES;INCLUDE_DIRECTORIES_FROM;COMPILE_DEFINITIONS;OPTIONS;DEPENDS")
  set(context "metal_add_library(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${context}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${context}: SOURCES is required")
  endif()
  if(NOT TARGET metalcpu::metal-tool OR NOT TARGET metalcpu::metallib-tool)
    message(FATAL_ERROR "${context}: the metalcpu tools are not available; "
                        "use add_subdirectory(metalcpu) or find_package(metalcpu) first")
  endif()
  if(arg_TARGET)
    if(NOT TARGET ${arg_TARGET})
      message(FATAL_ERROR "${context}: TARGET ${arg_TARGET} is not a target; "
                          "define it (add_executable, add_library) before metal_add_library")
    endif()
    get_target_property(imported ${arg_TARGET} IMPORTED)
    if(imported)
      message(FATAL_ERROR "${context}: TARGET ${arg_TARGET} is imported; name a target this project builds")
    endif()
  endif()

  set(name ${target})
  if(arg_OUTPUT_NAME)
    set(name ${arg_OUTPUT_NAME})
  endif()
  # Multi-config generators build every configuration into a directory of its own.
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(config_directory "")
  if(multi_config)
    set(config_directory "/$<CONFIG>")
  endif()
  set(work_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.metal.dir${config_directory})

  if(arg_OUTPUT_DIRECTORY)
    set(output_dir ${arg_OUTPUT_DIRECTORY})
    if(output_dir MATCHES "^\\$<")
      # Known only at generation time: made absolute then (an absolute value stays as it is),
      # so METALLIB_FILE and metal_install_library() never see a relative path.
      set(output_dir "$<PATH:ABSOLUTE_PATH,NORMALIZE,${output_dir},${CMAKE_CURRENT_BINARY_DIR}>")
    elseif(NOT IS_ABSOLUTE "${output_dir}")
      set(output_dir ${CMAKE_CURRENT_BINARY_DIR}/${output_dir})
    endif()
  elseif(arg_TARGET)
    set(output_dir "$<TARGET_FILE_DIR:${arg_TARGET}>")
  else()
    # Where CMake puts executables: the directory, plus the configuration's subdirectory
    # unless the directory is a generator expression.
    set(output_dir ${CMAKE_CURRENT_BINARY_DIR})
    if(CMAKE_RUNTIME_OUTPUT_DIRECTORY)
      set(output_dir ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
    endif()
    if(NOT output_dir MATCHES "\\$<")
      string(APPEND output_dir "${config_directory}")
    endif()
  endif()
  set(library ${output_dir}/${name}.metallib)

  set(flags)
  foreach(dir ${arg_INCLUDE_DIRECTORIES})
    get_filename_component(dir ${dir} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND flags -I${dir})
  endforeach()
  # Evaluated when the build is generated, so the targets may be defined after this call.
  # $<SEMICOLON> keeps the list inside the expression until COMMAND_EXPAND_LISTS splits it.
  foreach(from ${arg_INCLUDE_DIRECTORIES_FROM})
    set(dirs "$<TARGET_PROPERTY:${from},INCLUDE_DIRECTORIES>$<SEMICOLON>$<TARGET_PROPERTY:${from},INTERFACE_INCLUDE_DIRECTORIES>")
    set(dirs "$<REMOVE_DUPLICATES:$<FILTER:${dirs},INCLUDE,.>>")
    list(APPEND flags "$<$<BOOL:${dirs}>:-I$<JOIN:${dirs},$<SEMICOLON>-I>>")
  endforeach()
  foreach(definition ${arg_COMPILE_DEFINITIONS})
    list(APPEND flags -D${definition})
  endforeach()
  list(APPEND flags ${arg_OPTIONS})

  # DEPENDS: a target (defined before or after this call) stays a name; a file is taken
  # relative to the current source directory.
  set(depends)
  foreach(dependency ${arg_DEPENDS})
    if(NOT TARGET ${dependency} AND NOT IS_ABSOLUTE ${dependency}
       AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${dependency})
      set(dependency ${CMAKE_CURRENT_SOURCE_DIR}/${dependency})
    endif()
    list(APPEND depends ${dependency})
  endforeach()

  set(sources)
  foreach(source ${arg_SOURCES})
    get_filename_component(source ${source} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND sources ${source})
  endforeach()
  list(REMOVE_DUPLICATES sources)
  set(objects)
  foreach(source ${sources})
    metalcpu_metal_object_path(${source} ${work_dir} object)
    get_filename_component(object_dir ${object} DIRECTORY)
    file(RELATIVE_PATH shown ${CMAKE_CURRENT_SOURCE_DIR} ${source})
    if(shown MATCHES "^\\.\\./")
      set(shown ${source})
    endif()
    add_custom_command(OUTPUT ${object}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${object_dir}
      COMMAND metalcpu::metal-tool -c ${source} -o ${object} ${flags} -MD -MF ${object}.d -MT ${object}
      DEPENDS ${source} ${depends} metalcpu::metal-tool
      DEPFILE ${object}.d
      COMMENT "Compiling Metal kernels ${shown}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND objects ${object})
  endforeach()

  set(link COMMAND ${CMAKE_COMMAND} -E make_directory ${output_dir}
           COMMAND metalcpu::metallib-tool ${objects} -o ${library})
  # A custom command's OUTPUT may not depend on a target ($<TARGET_FILE_DIR:...>), so such a
  # library is written by a command whose output is a stamp in the work directory.
  string(REPLACE "$<CONFIG>" "" output_dir_without_config "${output_dir}")
  if(output_dir_without_config MATCHES "\\$<")
    set(built ${work_dir}/${name}.metallib.stamp)
    list(APPEND link COMMAND ${CMAKE_COMMAND} -E touch ${built})
  else()
    set(built ${library})
  endif()
  add_custom_command(OUTPUT ${built} ${link}
    DEPENDS ${objects} metalcpu::metallib-tool
    COMMENT "Linking Metal library ${name}.metallib"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS ${built})
  set_target_properties(${target} PROPERTIES METALLIB_FILE ${library})
  if(arg_TARGET)
    add_dependencies(${arg_TARGET} ${target})
    set_target_properties(${target} PROPERTIES METALLIB_TARGET ${arg_TARGET})
  endif()
endfunction()

function(metal_install_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DESTINATION;COMPONENT" "")
  set(context "metal_install_library(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${context}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${context}: no such target; call metal_add_library(${target} ...) first")
  endif()
  get_target_property(library ${target} METALLIB_FILE)
  if(NOT library)
    message(FATAL_ERROR "${context}: ${target} was not made by metal_add_library()")
  endif()
  set(destination ${arg_DESTINATION})
  if(NOT destination)
    set(destination bin)
    if(CMAKE_INSTALL_BINDIR)
      set(destination ${CMAKE_INSTALL_BINDIR})
    endif()
    get_target_property(program ${target} METALLIB_TARGET)
    if(program)
      get_target_property(type ${program} TYPE)
      if(type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
        set(destination lib)
        if(CMAKE_INSTALL_LIBDIR)
          set(destination ${CMAKE_INSTALL_LIBDIR})
        endif()
      endif()
    endif()
  endif()
  set(component)
  if(arg_COMPONENT)
    set(component COMPONENT ${arg_COMPONENT})
  endif()
  install(FILES ${library} DESTINATION ${destination} ${component})
endfunction()

function(mlx_build_metallib)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;TITLE;OUTPUT_DIRECTORY;DEBUG" "SOURCES;INCLUDE_DIRS;DEPS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mlx_build_metallib: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT arg_TITLE)
    message(FATAL_ERROR "mlx_build_metallib: TARGET and TITLE are required")
  endif()
  # MLX's kernels are written for precise math; its debug builds keep line tables.
  set(options -fno-fast-math)
  if(MLX_METAL_DEBUG OR arg_DEBUG)
    list(APPEND options -gline-tables-only -frecord-sources)
  endif()
  set(output_directory)
  if(arg_OUTPUT_DIRECTORY)
    set(output_directory OUTPUT_DIRECTORY ${arg_OUTPUT_DIRECTORY})
  endif()
  metal_add_library(${arg_TARGET} OUTPUT_NAME ${arg_TITLE} ${output_directory}
    SOURCES ${arg_SOURCES} INCLUDE_DIRECTORIES ${arg_INCLUDE_DIRS} DEPENDS ${arg_DEPS} OPTIONS ${options})
  get_target_property(library ${arg_TARGET} METALLIB_FILE)
  set(MTLLIB_BUILD_TARGET ${library} PARENT_SCOPE)
endfunction()
