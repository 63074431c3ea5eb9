# The CMake counterparts of bazel/cc.bzl's macros, called from the blocks
# that .ci/check_build_sync.py generates from each folder's BUILD file.
#
# Headers are reached as "hlolayout/<folder>/<file>.h" everywhere: in the
# build tree through per-file symlinks under ${HLOLAYOUT_INCLUDE_DIR}, once
# installed under <prefix>/include/hlolayout/.

set(HLOLAYOUT_INCLUDE_DIR "${PROJECT_BINARY_DIR}/include")
set(HLOLAYOUT_GEN_DIR "${PROJECT_BINARY_DIR}/gen")
file(MAKE_DIRECTORY "${HLOLAYOUT_INCLUDE_DIR}/hlolayout")

# "" for the top folder, else "parser", "cute", ...
function(_hlolayout_folder out)
  file(RELATIVE_PATH rel "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  set(${out} "${rel}" PARENT_SCOPE)
endfunction()

# Absolute path of a source named in a BUILD file: in the folder, or
# generated (protoc) under ${HLOLAYOUT_GEN_DIR}/hlolayout/<folder>/.
function(_hlolayout_source out folder file)
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${file}")
    set(${out} "${CMAKE_CURRENT_SOURCE_DIR}/${file}" PARENT_SCOPE)
  else()
    set(${out} "${HLOLAYOUT_GEN_DIR}/hlolayout/${folder}/${file}" PARENT_SCOPE)
  endif()
endfunction()

# hlolayout_protoc(x.proto): x.pb.cc and x.pb.h, which include each other as
# "<folder>/x.pb.h" (the import root is the repository's top folder, as in
# Bazel).
function(hlolayout_protoc proto)
  _hlolayout_folder(folder)
  get_filename_component(stem "${proto}" NAME_WE)
  set(out "${HLOLAYOUT_GEN_DIR}/hlolayout/${folder}")
  add_custom_command(
    OUTPUT "${out}/${stem}.pb.cc" "${out}/${stem}.pb.h"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${HLOLAYOUT_GEN_DIR}/hlolayout"
    COMMAND protobuf::protoc --proto_path=${PROJECT_SOURCE_DIR}
            --cpp_out=${HLOLAYOUT_GEN_DIR}/hlolayout
            "${PROJECT_SOURCE_DIR}/${folder}/${proto}"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${proto}" protobuf::protoc
    COMMENT "protoc ${folder}/${proto}"
    VERBATIM)
endfunction()

# hlolayout_cc_library(NAME target EXPORT name [TESTONLY] SRCS ... HDRS ...
#                      DEPS ... LINKOPTS ...): a static (or, with BUILD_SHARED_LIBS,
# shared) library, installed and exported as hlolayout::<name> unless
# TESTONLY (those are built only with HLOLAYOUT_BUILD_TESTS).
function(hlolayout_cc_library)
  cmake_parse_arguments(A "TESTONLY" "NAME;EXPORT" "SRCS;HDRS;DEPS;LINKOPTS" ${ARGN})
  if(A_TESTONLY AND NOT HLOLAYOUT_BUILD_TESTS)
    return()
  endif()
  _hlolayout_folder(folder)
  set(prefix "hlolayout")
  if(NOT folder STREQUAL "")
    set(prefix "hlolayout/${folder}")
  endif()
  set(sources)
  set(compiled)
  foreach(file IN LISTS A_SRCS A_HDRS)
    _hlolayout_source(path "${folder}" "${file}")
    list(APPEND sources "${path}")
    if(file MATCHES "\\.cc$")
      list(APPEND compiled "${path}")
    elseif(NOT EXISTS "${HLOLAYOUT_INCLUDE_DIR}/${prefix}/${file}")
      get_filename_component(dir "${HLOLAYOUT_INCLUDE_DIR}/${prefix}/${file}"
                             DIRECTORY)
      file(MAKE_DIRECTORY "${dir}")
      if(EXISTS "${path}")
        file(CREATE_LINK "${path}" "${HLOLAYOUT_INCLUDE_DIR}/${prefix}/${file}"
             SYMBOLIC)
      endif()
    endif()
  endforeach()
  if(compiled)
    add_library(${A_NAME} ${sources})
    set(scope PUBLIC)
    set_target_properties(${A_NAME} PROPERTIES OUTPUT_NAME "hlolayout_${A_EXPORT}")
  else()
    add_library(${A_NAME} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${A_NAME} ${scope}
    "$<BUILD_INTERFACE:${HLOLAYOUT_INCLUDE_DIR}>"
    "$<BUILD_INTERFACE:${HLOLAYOUT_GEN_DIR}>"
    "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  if(compiled)
    # Generated protos include each other as "<folder>/x.pb.h".
    target_include_directories(${A_NAME} PRIVATE "${HLOLAYOUT_GEN_DIR}/hlolayout")
  endif()
  target_compile_features(${A_NAME} ${scope} cxx_std_17)
  target_link_libraries(${A_NAME} ${scope} ${A_DEPS} ${A_LINKOPTS})
  set_target_properties(${A_NAME} PROPERTIES EXPORT_NAME "${A_EXPORT}")
  add_library(hlolayout::${A_EXPORT} ALIAS ${A_NAME})
  if(A_TESTONLY)
    target_compile_definitions(${A_NAME} ${scope}
                               HLOLAYOUT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    return()
  endif()
  install(TARGETS ${A_NAME} EXPORT hlolayoutTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  foreach(file IN LISTS A_HDRS)
    _hlolayout_source(path "${folder}" "${file}")
    get_filename_component(sub "${file}" DIRECTORY)
    install(FILES "${path}"
            DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/${prefix}/${sub}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY HLOLAYOUT_LIBRARIES ${A_NAME})
endfunction()

# hlolayout_cc_test(NAME target TEST folder:Name SRCS ... DEPS ...): a
# GoogleTest binary registered with ctest as folder:Name.
function(hlolayout_cc_test)
  cmake_parse_arguments(A "" "NAME;TEST" "SRCS;DEPS" ${ARGN})
  if(NOT HLOLAYOUT_BUILD_TESTS)
    return()
  endif()
  _hlolayout_folder(folder)
  set(sources)
  foreach(file IN LISTS A_SRCS)
    _hlolayout_source(path "${folder}" "${file}")
    list(APPEND sources "${path}")
  endforeach()
  add_executable(${A_NAME} ${sources})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  target_include_directories(${A_NAME} PRIVATE "${HLOLAYOUT_INCLUDE_DIR}")
  target_compile_definitions(${A_NAME}
                             PRIVATE HLOLAYOUT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # Run from the repository's top folder, like Bazel's runfiles root, so a
  # repository-relative data path works in both builds (testing/test_data.h).
  add_test(NAME ${A_TEST} COMMAND ${A_NAME}
           WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}")
endfunction()

# hlolayout_cc_binary(NAME target OUTPUT name SRCS ... DEPS ...): an
# installed program (the hlolayout CLI).
function(hlolayout_cc_binary)
  cmake_parse_arguments(A "" "NAME;OUTPUT" "SRCS;DEPS" ${ARGN})
  _hlolayout_folder(folder)
  set(sources)
  foreach(file IN LISTS A_SRCS)
    _hlolayout_source(path "${folder}" "${file}")
    list(APPEND sources "${path}")
  endforeach()
  add_executable(${A_NAME} ${sources})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  set_target_properties(${A_NAME} PROPERTIES OUTPUT_NAME "${A_OUTPUT}")
  install(TARGETS ${A_NAME} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
