// The example's licensing configuration: from the header the desktop UI exports when the build
// names one (-DPLE_CONFIG_HEADER=/path/to/your_plugin_config.h), else the CI scenario's
// documented credential (docs/ci.md) on the emulator's default port.
#pragma once

#include <ple_licensing/ple_licensing.h>

ple::LicensingConfig exampleLicensingConfig();
