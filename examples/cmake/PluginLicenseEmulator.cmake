# The license emulator in a plugin's CTest run. Include this file, then:
#
#   ple_emulator_command(<var>)
#       The command that runs the emulator: PLE_EMULATOR_COMMAND when set (a list), else
#       `npx --no-install plugin-license-emulator` (install it with npm in the plugin repository).
#
#   ple_emulator_config_header(OUTPUT <file> SCENARIO <file> PORT <port> DB <file>)
#       At configure time: starts the emulator once on PORT with the database DB and the scenario,
#       writes the C++ header for the scenario's first credential (App ID, plugin key and secret,
#       product, base URL) with its public key (PLE_PUBLIC_KEY_HEX), and stops it. The database
#       keeps the signing key, so the fixture below serves the same key the build pinned.
#
#   ple_add_emulator_fixture(<name> SCENARIO <file> PORT <port> DB <file>)
#       Two CTest tests: <name>_start (FIXTURES_SETUP <name>) starts `serve --ready-json` in the
#       background with the scenario and returns once it listens; <name>_stop (FIXTURES_CLEANUP
#       <name>) stops it. Tests that need it: set_tests_properties(t PROPERTIES FIXTURES_REQUIRED <name>).
#       The ready line (baseUrl, adminUrl, adminToken, ...) is in <build>/<name>/ready.json.
include_guard(GLOBAL)

find_program(PLE_NODE node REQUIRED)
set(PLE_EMULATOR_FIXTURE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/ple-emulator-fixture.mjs")
set(PLE_EMULATOR_COMMAND "" CACHE STRING "The command that runs plugin-license-emulator (a list); empty: npx --no-install plugin-license-emulator")

function(ple_emulator_command out)
  if(PLE_EMULATOR_COMMAND)
    set(${out} ${PLE_EMULATOR_COMMAND} PARENT_SCOPE)
  else()
    find_program(PLE_NPX npx REQUIRED)
    set(${out} "${PLE_NPX}" --no-install plugin-license-emulator PARENT_SCOPE)
  endif()
endfunction()

function(_ple_serve_args out scenario port db)
  set(${out} serve --ready-json --port "${port}" --db "${db}" --scenario "${scenario}" PARENT_SCOPE)
endfunction()

function(ple_emulator_config_header)
  cmake_parse_arguments(ARG "" "OUTPUT;SCENARIO;PORT;DB" "" ${ARGN})
  ple_emulator_command(emulator)
  _ple_serve_args(serve "${ARG_SCENARIO}" "${ARG_PORT}" "${ARG_DB}")
  get_filename_component(db_dir "${ARG_DB}" DIRECTORY)
  file(MAKE_DIRECTORY "${db_dir}")
  execute_process(
    COMMAND "${PLE_NODE}" "${PLE_EMULATOR_FIXTURE_SCRIPT}" header --state-dir "${db_dir}/header-run"
            --scenario "${ARG_SCENARIO}" --output "${ARG_OUTPUT}" -- ${emulator} ${serve}
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "The license emulator could not write ${ARG_OUTPUT} (see the messages above)")
  endif()
endfunction()

function(ple_add_emulator_fixture name)
  cmake_parse_arguments(ARG "" "SCENARIO;PORT;DB" "" ${ARGN})
  ple_emulator_command(emulator)
  _ple_serve_args(serve "${ARG_SCENARIO}" "${ARG_PORT}" "${ARG_DB}")
  set(state_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  add_test(NAME ${name}_start COMMAND "${PLE_NODE}" "${PLE_EMULATOR_FIXTURE_SCRIPT}" start --state-dir "${state_dir}" -- ${emulator} ${serve})
  add_test(NAME ${name}_stop COMMAND "${PLE_NODE}" "${PLE_EMULATOR_FIXTURE_SCRIPT}" stop --state-dir "${state_dir}")
  set_tests_properties(${name}_start PROPERTIES FIXTURES_SETUP ${name})
  set_tests_properties(${name}_stop PROPERTIES FIXTURES_CLEANUP ${name})
endfunction()
