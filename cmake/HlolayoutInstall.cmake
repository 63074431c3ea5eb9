# Installs the CMake package (hlolayoutConfig.cmake, its version file and the
# exported targets) and lib/pkgconfig/hlolayout.pc. Included last by the top
# CMakeLists.txt, when every library is declared.

set(_cmake_dir "${CMAKE_INSTALL_LIBDIR}/cmake/hlolayout")
install(EXPORT hlolayoutTargets NAMESPACE hlolayout::
        DESTINATION "${_cmake_dir}")
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/hlolayoutConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/hlolayoutConfig.cmake"
  INSTALL_DESTINATION "${_cmake_dir}")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/hlolayoutConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/hlolayoutConfig.cmake"
              "${PROJECT_BINARY_DIR}/hlolayoutConfigVersion.cmake"
        DESTINATION "${_cmake_dir}")

# pkg-config links static archives, so the libraries are listed with every
# library before the ones it uses: a depth-first walk of the link
# dependencies from the umbrella, reversed.
set(_hlolayout_link_order)
function(_hlolayout_visit target)
  get_property(done GLOBAL PROPERTY _HLOLAYOUT_VISITED_${target})
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _HLOLAYOUT_VISITED_${target} TRUE)
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  if(deps)
    foreach(dep IN LISTS deps)
      if(TARGET ${dep} AND dep MATCHES "^hlolayout_" AND
         NOT dep MATCHES "^hlolayout_system_")
        _hlolayout_visit(${dep})
      endif()
    endforeach()
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(name ${target} OUTPUT_NAME)
    set_property(GLOBAL APPEND PROPERTY _HLOLAYOUT_LINK_ORDER "-l${name}")
  endif()
endfunction()
_hlolayout_visit(hlolayout_lib)
get_property(_order GLOBAL PROPERTY _HLOLAYOUT_LINK_ORDER)
list(REVERSE _order)
list(JOIN _order " " HLOLAYOUT_PC_LIBS)
# Abseil's and Protocol Buffers' own .pc files (Debian ships them).
set(HLOLAYOUT_PC_REQUIRES
    "absl_status absl_statusor absl_strings absl_str_format absl_hash absl_flat_hash_map absl_flat_hash_set absl_inlined_vector absl_synchronization absl_span absl_optional absl_variant absl_cord absl_int128 absl_time protobuf")
file(RELATIVE_PATH HLOLAYOUT_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file("${PROJECT_SOURCE_DIR}/cmake/hlolayout.pc.in"
               "${PROJECT_BINARY_DIR}/hlolayout.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/hlolayout.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
