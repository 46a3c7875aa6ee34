// The module's one translation unit (JUCE's module format): every source of ple_licensing.
#include "ple_licensing.h"

#include <sodium.h>

#include "licensing/ple_LicensingConfig.cpp"
#include "licensing/ple_LicenseState.cpp"
#include "licensing/ple_LicenseToken.cpp"
#include "licensing/ple_LicenseService.cpp"
#include "licensing/ple_Licensing.cpp"
#include "gui/ple_ActivationComponent.cpp"
