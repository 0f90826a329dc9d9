# hadoop_record_cpp(<target> SCHEMAS <file.jr>... [INCLUDE_DIRS <dir>...] [RCC <rcc>])
#
# Generates C++ for Hadoop Record I/O schemas with `rcc -l c++` and adds a static library
# <target> holding the generated classes and the C++ runtime; link it and include
# "<schema file name>.hh". The code is generated when CMake configures, and again whenever a
# listed schema changes (list included schemas too, so that their changes are noticed; rcc
# rewrites only files whose content changes). `rcc` is RCC, else the RCC_EXECUTABLE cache
# variable, else `rcc` on the PATH (`cargo install --path cli` puts it there).
function(hadoop_record_cpp target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "RCC" "SCHEMAS;INCLUDE_DIRS")
  if(NOT ARG_SCHEMAS)
    message(FATAL_ERROR "hadoop_record_cpp(${target}): no SCHEMAS")
  endif()
  set(rcc "${ARG_RCC}")
  if(NOT rcc)
    if(NOT RCC_EXECUTABLE)
      find_program(RCC_EXECUTABLE rcc)
    endif()
    set(rcc "${RCC_EXECUTABLE}")
  endif()
  if(NOT rcc)
    message(FATAL_ERROR "rcc not found: install it (`cargo install --path cli` in the "
                        "hadoop-record repository) or pass -DRCC_EXECUTABLE=/path/to/rcc")
  endif()

  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}-records")
  set(schemas)
  foreach(schema IN LISTS ARG_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND schemas "${schema}")
  endforeach()
  set(includes)
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND includes -I "${dir}")
  endforeach()

  execute_process(
    COMMAND "${rcc}" -l c++ -d "${out}" ${includes} ${schemas}
    RESULT_VARIABLE result
    ERROR_VARIABLE errors)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "rcc -l c++ failed:\n${errors}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${schemas})

  file(GLOB sources CONFIGURE_DEPENDS "${out}/*.cc")
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC "${out}")
  target_compile_features(${target} PUBLIC cxx_std_17)
endfunction()
