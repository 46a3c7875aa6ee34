#!/usr/bin/env bash
# The Standalone app's editor in each license state, under Xvfb, for the README
# (docs/images/juce-*.png). Needs a build of the example configured with
# -DPLE_CONFIG_HEADER=<build>/ple_plugin_config.h (npm test's .tmp/juce/build is), Xvfb, xwd and netpbm:
#   apt-get install xvfb x11-apps netpbm
#   examples/juce-plugin/tests/screenshots.sh .tmp/juce/build
# It runs its own emulator on port 4747, rewrites that header for it (the CMake helper's script)
# and rebuilds the Standalone (one file and the link).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
build="$(cd "${1:?usage: screenshots.sh BUILD_DIR}" && pwd)"
work="$root/.tmp/juce-shots"
images="$root/docs/images"
token=screenshots-admin-token-00001
base=http://127.0.0.1:4747
mkdir -p "$work" "$images"

serve=(node "$root/bin/plugin-license-emulator.js" serve --port 4747 --db "$work/emulator.db" --scenario "$root/resources/scenarios/ci.json" --ready-json)
node "$root/examples/cmake/ple-emulator-fixture.mjs" header --state-dir "$work/header-run" \
  --scenario "$root/resources/scenarios/ci.json" --output "$build/ple_plugin_config.h" -- "${serve[@]}"
cmake --build "$build" --target PleLicensedGain_Standalone -j 2 > "$work/build.log"
node "$root/bin/plugin-license-emulator.js" serve --port 4747 --db "$work/emulator.db" --admin-token "$token" \
  --scenario "$root/resources/scenarios/ci.json" --ready-json > "$work/ready.json" 2> "$work/emulator.log" &
serve_pid=$!
Xvfb :93 -screen 0 900x600x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
trap 'kill "$serve_pid" "$xvfb_pid" 2>/dev/null || true' EXIT
until curl -fsS "$base/_emulator/health" >/dev/null 2>&1; do sleep 0.2; done

control() { curl -fsS -X "$1" -H "x-emulator-token: $token" -H 'content-type: application/json' "$base/_emulator$2" ${3:+-d "$3"}; }
app="$build/PleLicensedGain_artefacts/Release/Standalone/PLE Licensed Gain"

# shot NAME HOME: the Standalone with that home, its window captured once the license settled.
shot() {
  HOME="$2" DISPLAY=:93 "$app" > /dev/null 2>&1 &
  local pid=$!
  sleep 6
  # The window opens centred on the 900x600 screen: the whole screen, cut to the window.
  DISPLAY=:93 xwd -silent -root | xwdtopnm 2>/dev/null | pnmcut -left 189 -top 106 -width 523 -height 389 | pnmtopng > "$images/juce-$1.png"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "docs/images/juce-$1.png"
}
# A home whose machine-wide license file names KEY (as after an activation on this computer).
home_with_key() {
  local home="$work/home-$1"; rm -rf "$home"
  mkdir -p "$home/.config/PLE Examples/PLE Licensed Gain"
  printf '{"license_key": "%s"}\n' "$2" > "$home/.config/PLE Examples/PLE Licensed Gain/license.json"
  echo "$home"
}

rm -rf "$work/home-unlicensed"; mkdir -p "$work/home-unlicensed"
shot unlicensed "$work/home-unlicensed"
licensed_home="$(home_with_key licensed CI001-PERPE-TUAL0-00000-00001)"
shot licensed "$licensed_home"
control PUT /faults '{"rules":[{"route":"/api/license/v1/**","kind":"offline"}]}' > /dev/null
shot offline-grace "$licensed_home"
control PUT /faults '{"rules":[]}' > /dev/null
shot too-many-activations "$(home_with_key too-many CI007-LIMIT-REACH-ED000-00007)"
shot revoked "$(home_with_key revoked CI005-REVOK-ED000-00000-00005)"
